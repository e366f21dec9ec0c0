import type { Command } from 'commander';
import { operations } from '../../engine/registry.js';
import { openApiDocument } from '../../http/openapi.js';
import { examplesText, handWritten } from '../help.js';

export function addOpenApi(program: Command): void {
  const doc = handWritten.openapi;
  program
    .command(doc.name)
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(() => {
      process.stdout.write(`${JSON.stringify(openApiDocument(operations), null, 2)}\n`);
    });
}
