import fs from 'node:fs';
import readline from 'node:readline';
import type { Command } from 'commander';
import { actorOf, orgOf } from '../../engine/operation.js';
import { importJournal } from '../../engine/imports/journal.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';

export function addImport(program: Command): void {
  const group = program.command('import').description('Bulk loads into the books');
  const doc = handWritten.importJournal;
  group
    .command('journal')
    .argument('<file>', 'a .jsonl file, or - for standard input')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (file: string, _flags: unknown, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const ctx = await cli.ctx();
        const input = file === '-' ? process.stdin : fs.createReadStream(file);
        const lines = readline.createInterface({ input, crlfDelay: Infinity });
        const tty = process.stderr.isTTY === true;
        const progress = (n: number) => {
          if (tty) process.stderr.write(`\r  importing ${file}: ${n.toLocaleString('en-GB')} lines read`);
        };
        try {
          const result = await importJournal(orgOf(ctx), { clock: ctx.clock, actor: actorOf(ctx) }, lines, progress);
          if (globals.json) cli.print(result);
          else {
            process.stdout.write(
              `Imported ${result.transactions.toLocaleString('en-GB')} transactions (${result.lines.toLocaleString('en-GB')} lines) from ${file} as ${result.importId}\n`,
            );
          }
        } finally {
          if (tty) process.stderr.write('\n');
          lines.close();
        }
      });
    });
}
