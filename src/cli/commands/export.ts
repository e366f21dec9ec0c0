import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { orgOf } from '../../engine/operation.js';
import { exportFormats, exportJournal, type ExportFormat } from '../../engine/reports/export.js';
import { withCli, type GlobalOptions } from '../context.js';
import { typedRange } from '../date-flags.js';
import { examplesText, handWritten } from '../help.js';
import { AcctOption } from '../command.js';

export function addExport(program: Command): void {
  const doc = handWritten.export;
  program
    .command(doc.name)
    .addOption(new AcctOption('--format <format>', `one of ${exportFormats.join(', ')}`).default('hledger').withValues(exportFormats))
    .option('--from <date>', 'first date: YYYY-MM-DD or a period (2026-11, 2026-Q3, fy2025, this-month…)')
    .option('--to <date>', 'last date, as --from takes; a period gives its last day')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { format: string; from?: string; to?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        if (!(exportFormats as readonly string[]).includes(flags.format)) {
          throw new AppError('validation_error', `format must be one of ${exportFormats.join(', ')}, not ${flags.format}`, 'format');
        }
        const { from, to } = await typedRange(cli, flags.from, flags.to);
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
