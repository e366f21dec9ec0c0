/**
 * `acct migrate --from xero --balances tb.csv [--contacts c.csv]
 * [--invoices i.csv] [--bills b.csv] --cutover 2025-03-31 [--dry-run]
 * [--expect-trial-balance FILE] [--map LABEL=CODE]…`: a whole migration
 * from another product's exports through the migrations.run operation.
 * It prints the proof (the gates, what each file made, the books against
 * the source trial balance account by account, 1198 and 2198) and commits
 * only when all of it passes; --dry-run prints the same and writes nothing.
 */
import fs from 'node:fs';
import chalk from 'chalk';
import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { displayPounds, parsePounds } from '../../engine/money.js';
import { fileText } from '../../engine/tabular/file-text.js';
import { MigrationNotWritten, runMigrationOp } from '../../engine/imports/migration-ops.js';
import type { MigrationRun } from '../../engine/imports/migration-run.js';
import { providers } from '../../engine/imports/migrations.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';
import { AcctOption } from '../command.js';
import { fittedTable, printableData } from '../render.js';
import { essential, tableWidth } from '../fit-table.js';
import { progressBar } from '../progress.js';

interface MigrateFlags {
  from: string;
  balances: string;
  contacts?: string;
  invoices?: string;
  bills?: string;
  cutover: string;
  dryRun?: boolean;
  expectTrialBalance?: string;
  map: string[];
  conflicts?: string;
}

function readFileFlag(path: string, flag: string): string {
  try {
    return fileText(fs.readFileSync(path === '-' ? 0 : path));
  } catch (e) {
    throw new AppError('validation_error', `--${flag}: cannot read ${path}: ${(e as Error).message}`, flag);
  }
}

/** "Label=CODE" pairs; the label may itself hold "=", the code is after the last one. */
function mappingsOf(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    if (at <= 0 || at === pair.length - 1)
      throw new AppError('validation_error', `--map ${pair}: give LABEL=CODE, for example "Tools and Consumables=5000"`, 'map');
    out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

const tick = (passed: boolean) => (passed ? chalk.green('✓') : chalk.red('✗'));

/** The API's pounds ("1075392.93") as tables print them ("1,075,392.93"). */
const shown = (pounds: string): string => displayPounds(parsePounds(pounds, 'amount'));

export function printedRun(given: MigrationRun, width?: number): string {
  // Labels, names and messages from the files migrated, made printable before they are styled.
  const run = printableData(given);
  const out: string[] = [chalk.bold(`Migration from ${run.provider} at ${run.cutoverDate}${run.dryRun ? ' (dry run)' : ''}`), ''];
  const b = run.balances;
  out.push(
    `trial balance: ${b.totalRows} rows, ${b.lines} balances, ${b.ignoredRows} ignored, ${b.errorRows} unreadable; debits ${shown(b.totalDebit)}, credits ${shown(b.totalCredit)}`,
  );
  for (const m of b.mappings.filter((x) => x.method === 'fuzzy' || x.method === 'unmapped')) {
    out.push(
      chalk.yellow(
        `  ${m.sourceLabel} → ${m.code ? `${m.code} ${m.name ?? ''} (${m.method}, ${m.confidence}%)` : 'no account: map it with --map "LABEL=CODE"'}`,
      ),
    );
  }
  if (run.contacts) {
    const c = run.contacts;
    out.push(`contacts: ${c.totalRows} rows: ${c.created} created, ${c.merged} merged, ${c.skipped} skipped, ${c.rejected} rejected`);
  }
  for (const c of run.contactConflicts) {
    const line = `  contacts alike: ${c.names.join(' / ')}: ${c.reason}`;
    out.push(c.settled ? `${line}: ${c.settled === 'split' ? 'kept apart' : 'merged'}` : chalk.yellow(`${line}: settle with --conflicts split or link`));
  }
  for (const d of run.documents) {
    out.push(
      `${d.direction === 'receivables' ? 'invoices' : 'bills'}: ${d.created} brought forward (${d.syntheticPayments} part-paid), ${d.contactsCreated} new contacts`,
    );
  }
  out.push('', chalk.bold('Gates'));
  for (const g of run.gates) out.push(`  ${tick(g.passed)} ${g.code}: ${g.message}`);
  const r = run.reconciliation;
  if (r) {
    out.push('', chalk.bold(`The books at ${r.cutoverDate} against the source trial balance`));
    out.push(
      fittedTable(
        [
          ['code', 'account', 'source', 'books', 'difference'],
          ...r.accounts.map((a) => [
            a.code,
            a.name,
            shown(a.expected),
            shown(a.actual),
            a.difference === '0.00' ? shown(a.difference) : chalk.red(shown(a.difference)),
          ]),
        ],
        // On a narrow terminal the account's name is cut; nothing is left out.
        [essential, essential, essential, essential, essential].map((keep, i) => ({ keep, shrink: i === 1 })),
        width,
        { right: [2, 3, 4] },
      ).trimEnd(),
    );
    out.push(
      `totals: debits ${shown(r.totalDebits)}, credits ${shown(r.totalCredits)} (source ${shown(r.sourceTotalDebit)} / ${shown(r.sourceTotalCredit)}); 1198 ${shown(r.receivablesClearing)}, 2198 ${shown(r.payablesClearing)}`,
    );
  }
  if (run.expectedTrialBalance) {
    const e = run.expectedTrialBalance;
    out.push(`expected trial balance: ${e.matches ? 'equal to the penny' : `${e.differences.length} account(s) differ`}`);
    for (const d of e.differences) out.push(chalk.red(`  ${d.code} ${d.name}: expected ${shown(d.expected)}, found ${shown(d.actual)}`));
  }
  out.push('');
  if (run.failure) out.push(chalk.red(`Not migrated: ${run.failure}`));
  out.push(
    run.committed
      ? chalk.green(`Migrated as ${run.migrationId}.`)
      : run.dryRun
        ? `Dry run: nothing was written${run.passed ? '; without --dry-run this migration would be committed' : ''}.`
        : 'Nothing was written.',
  );
  return `${out.join('\n')}\n`;
}

export function addMigrate(program: Command): void {
  const doc = handWritten.migrate;
  program
    .command('migrate')
    .description(doc.summary)
    .addOption(new AcctOption('--from <provider>', `the software the exports come from: ${providers.join(', ')}`).makeOptionMandatory().withValues(providers))
    .requiredOption('--balances <file>', 'the trial balance at the cutover (CSV)')
    .option('--contacts <file>', 'contacts (CSV)')
    .option('--invoices <file>', 'sales invoices outstanding at the cutover (CSV)')
    .option('--bills <file>', 'supplier bills outstanding at the cutover (CSV)')
    .requiredOption('--cutover <date>', 'the cutover date, a month end (YYYY-MM-DD)')
    .option('--dry-run', 'run everything and print the proof; write nothing')
    .option('--expect-trial-balance <file>', 'refuse unless the books at the cutover equal this trial balance to the penny')
    .option('--conflicts <how>', 'settle contacts alike enough to be one: split (keep both) or link (merge them)')
    .option('--map <label=code>', 'map a trial balance row to an account by hand (repeatable)', (v: string, all: string[]) => [...all, v], [])
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: MigrateFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const body = {
          provider: flags.from,
          cutoverDate: flags.cutover,
          trialBalance: readFileFlag(flags.balances, 'balances'),
          ...(flags.contacts === undefined ? {} : { contacts: readFileFlag(flags.contacts, 'contacts') }),
          ...(flags.invoices === undefined ? {} : { invoices: readFileFlag(flags.invoices, 'invoices') }),
          ...(flags.bills === undefined ? {} : { bills: readFileFlag(flags.bills, 'bills') }),
          ...(flags.expectTrialBalance === undefined ? {} : { expectedTrialBalance: readFileFlag(flags.expectTrialBalance, 'expect-trial-balance') }),
          ...(flags.map.length === 0 ? {} : { mappings: mappingsOf(flags.map) }),
          ...(flags.conflicts === undefined ? {} : { conflicts: flags.conflicts }),
          dryRun: flags.dryRun === true,
        };
        const bar = progressBar('migrating');
        let run: MigrationRun;
        try {
          run = (await cli.run(runMigrationOp, { params: {}, query: {}, body }, bar ? { progress: bar.update } : undefined)).data as MigrationRun;
        } catch (e) {
          bar?.end();
          // A refused migration prints its proof, as a dry run does, before the error says why.
          if (e instanceof MigrationNotWritten && !globals.json) process.stdout.write(printedRun(e.report, tableWidth(globals.wide)));
          throw e;
        }
        bar?.end();
        if (globals.json) cli.print(run);
        else process.stdout.write(printedRun(run, tableWidth(globals.wide)));
        // A dry run that would not pass says so in its exit status too, for scripts.
        if (!run.passed) process.exitCode = 5;
      });
    });
}
