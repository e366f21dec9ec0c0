import type { Command } from 'commander';
import { systemClock } from '../../engine/clock.js';
import { ensureDemoOrganisation, issueDemoKey } from '../../engine/platform/demo.js';
import { AppError } from '../../engine/errors.js';
import { reportError, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';
import { parsePort } from './serve.js';

export function addDemo(program: Command): void {
  const doc = handWritten.demo;
  program
    .command(doc.name)
    .description(doc.summary)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (default $PORT, else 3000)', parsePort)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { host: string; port?: number }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const fromEnv = process.env['PORT'] ?? '3000';
      if (flags.port === undefined && !/^\d{1,5}$/.test(fromEnv)) {
        reportError(new AppError('validation_error', `PORT must be a port number, not ${fromEnv}`, 'PORT'), globals.json === true);
        return;
      }
      const port = flags.port ?? Number(fromEnv);
      let organisationId = '';
      let created = false;
      const { serve } = await import('../serving.js');
      await serve(
        globals,
        {
          host: flags.host,
          port,
          onListening: async (running, store) => {
            const key = await issueDemoKey(store, systemClock, organisationId);
            return [
              `${created ? 'Created' : 'Serving'} the demo organisation ${organisationId}`,
              `API key: ${key}`,
              `Try:     curl -H "Authorization: Bearer ${key}" ${running.url}/v1/organisation`,
              'Stop with Ctrl-C.',
            ];
          },
        },
        async (store) => {
          ({ id: organisationId, created } = await ensureDemoOrganisation(store, systemClock));
        },
      );
    });
}
