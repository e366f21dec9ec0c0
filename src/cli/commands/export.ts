import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { orgOf } from '../../engine/operation.js';
import { checkRange, isoDate, parseWith } from '../../engine/schema.js';
import { exportFormats, exportJournal, type ExportFormat } from '../../engine/reports/export.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';
import { AcctOption } from '../command.js';

export function addExport(program: Command): void {
  const doc = handWritten.export;
  program
    .command(doc.name)
    .addOption(new AcctOption('--format <format>', `one of ${exportFormats.join(', ')}`).default('hledger').withValues(exportFormats))
    .option('--from <date>', 'first date, YYYY-MM-DD')
    .option('--to <date>', 'last date, YYYY-MM-DD')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { format: string; from?: string; to?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        if (!(exportFormats as readonly string[]).includes(flags.format)) {
          throw new AppError('validation_error', `format must be one of ${exportFormats.join(', ')}, not ${flags.format}`, 'format');
        }
        const from = flags.from === undefined ? undefined : parseWith(isoDate(), flags.from);
        const to = flags.to === undefined ? undefined : parseWith(isoDate(), flags.to);
        checkRange(from, to);
        const chunks: string[] = [];
        const flush = () => {
          process.stdout.write(chunks.join(''));
          chunks.length = 0;
        };
        await exportJournal(orgOf(await cli.ctx()).db, flags.format as ExportFormat, { from, to }, (text) => {
          chunks.push(text);
          if (chunks.length >= 4096) flush();
        });
        flush();
      });
    });
}
