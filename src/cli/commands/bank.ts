/**
 * `acct bank`: a bookkeeper's bank work on the command line, each step
 * through the registry's operations (so scopes, validation and posting
 * rules are the API's): import a statement (upload, a summary, confirm;
 * a refused import is deleted, leaving no trace), categorise a line, accept
 * the rules' suggestions above a confidence, explain a suggestion,
 * recategorise suspense lines after a rule change, and reconcile to a
 * statement balance. `acct bank inbox` is the bank.inbox operation's.
 */
import fs from 'node:fs';
import path from 'node:path';
import chalk from 'chalk';
import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { fileText } from '../../engine/tabular/file-text.js';
import { checkDateText } from '../../engine/date-words.js';
import { displayPounds, parsePounds } from '../../engine/money.js';
import type { Operation } from '../../engine/operation.js';
import { listBankAccountsOp, reconcileBankAccountOp, unreconciledOp } from '../../engine/banking/bank-account-ops.js';
import { confirmImportOp, deleteImportOp, getImportOp, uploadImportOp } from '../../engine/banking/bank-import-ops.js';
import type { Confirmed } from '../../engine/banking/bank-imports.js';
import { inboxOp, suggestCategoryOp } from '../../engine/banking/rule-ops.js';
import { categoriseOp } from '../../engine/ledger/transaction-ops.js';
import { scoreDimensions } from '../../engine/categorisation/score.js';
import type { Suggestion } from '../../engine/banking/suggest.js';
import { addsUp, listValues } from '../command.js';
import { withCli, type Cli, type GlobalOptions } from '../context.js';
import { everyNumberedPage, refusedAsTyped } from '../generate.js';
import { examplesText, groupSummaries, handWritten } from '../help.js';
import { fittedTable, printable } from '../render.js';
import { essential, tableWidth } from '../fit-table.js';
import { progressBar } from '../progress.js';
import { counted } from '../counted.js';
import { matchText, suggestionText, unknownText } from '../presenters/banking.js';
import { matchBankLineOp } from '../../engine/banking/match-ops.js';
import { targetOf, type Match, type MatchedEntry } from '../../engine/banking/bank-matches.js';
import { resolveBankAccount, resolveReference } from '../../engine/references.js';
import { orgOf } from '../../engine/operation.js';

const raw = (body: unknown = undefined, params: Record<string, string> = {}, query: Record<string, unknown> = {}) => ({ params, query, body });

async function run<D>(cli: Cli, op: Operation<D>, input: ReturnType<typeof raw>, extra?: Parameters<Cli['run']>[2]): Promise<D> {
  return (await cli.run(op, input, extra)).data as D;
}

/**
 * A bank account named as resolveBankAccount takes it (its ledger code 1200, its id, its name, its ledger
 * account's id), the primary one when not named; `typed` names the flag or argument it came from in a refusal.
 */
async function bankAccountId(cli: Cli, named: string | undefined, typed: string): Promise<number | undefined> {
  if (named === undefined) return undefined;
  const id = await resolveBankAccount(orgOf(await cli.ctx()).db, named, typed);
  const accounts = await run(cli, listBankAccountsOp, raw(undefined, {}, { includeArchived: 'true' }));
  const found = accounts.find((a) => String(a.id) === id);
  if (!found) throw new AppError('not_found', `${typed}: no bank account ${JSON.stringify(named)} (acct bank-accounts list)`, typed);
  return found.id;
}

/** An account named by code (5100), name (Bank Charges, or the unique start of one) or id, as the generated commands take it. */
async function accountIdOf(cli: Cli, named: string): Promise<string> {
  return resolveReference(orgOf(await cli.ctx()).db, 'acc', named, 'account');
}

interface ImportFlags {
  account?: string;
  duplicates?: 'skip' | 'import';
  match?: boolean;
  dryRun?: boolean;
}

function addImport(group: Command): void {
  const doc = handWritten.bankImport;
  group
    .command('import')
    .argument('<file>', 'a CSV, OFX or QFX statement, or - for standard input')
    .option('--account <account>', 'the bank account, by its ledger code (1200), its name ("Monzo") or id (default: the primary one)')
    .option('--duplicates <what>', 'rows an earlier import already created: skip (default) or import')
    .option('--match', 'record rows that pay an open invoice or bill as their payments, and match rows already in the books to their entries')
    .option('--dry-run', 'check the statement as the import would and show the summary; import nothing')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (file: string, flags: ImportFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        if (flags.duplicates !== undefined && flags.duplicates !== 'skip' && flags.duplicates !== 'import') {
          throw new AppError('validation_error', '--duplicates must be skip or import', 'duplicates');
        }
        let text: string;
        try {
          text = fileText(fs.readFileSync(file === '-' ? 0 : file));
        } catch (e) {
          throw new AppError('validation_error', `cannot read ${file}: ${(e as Error).message}`, 'file');
        }
        const bankAccount = await bankAccountId(cli, flags.account, '--account');
        const preview = await run(
          cli,
          uploadImportOp,
          raw({ file: text, ...(file === '-' ? {} : { filename: path.basename(file) }), ...(bankAccount === undefined ? {} : { bankAccountId: bankAccount }) }),
        );
        const forget = () => run(cli, deleteImportOp, raw(undefined, { id: preview.importId }));
        const detail = preview.errorRows > 0 ? await run(cli, getImportOp, raw(undefined, { id: preview.importId })) : null;
        // A dry run confirms with every check and writes nothing, so that it refuses (and exits) as the import would.
        const dryRun = flags.dryRun === true;
        let confirmed: Confirmed;
        const bar = dryRun ? null : progressBar('importing');
        try {
          confirmed = await run(
            cli,
            confirmImportOp,
            raw({ duplicates: flags.duplicates ?? 'skip', acceptMatches: flags.match === true, dryRun }, { id: preview.importId }),
            bar ? { progress: bar.update } : undefined,
          );
        } catch (e) {
          await forget();
          // The engine's way on is the import it keeps; this command deleted it, so say how to read the file another way.
          if (e instanceof AppError && e.code === 'unresolved_conflicts' && e.message.startsWith('rows: none of'))
            throw new AppError(
              e.code,
              `${e.message.replace(/^rows: /, '').replace(/; remap .*$/, '')}: nothing imported. acct bank-imports upload --file ${printable(file)} then acct bank-imports remap ID --date-format … reads it another way`,
              'file',
            );
          throw e;
        } finally {
          bar?.end();
        }
        if (dryRun) await forget();
        if (globals.json) {
          cli.print({ preview, confirmed, dryRun });
          return;
        }
        const layout = preview.schema.detectedPreset ?? `${preview.schema.amountModel}, ${preview.schema.dateFormat}`;
        const lines = [
          `${printable(file)}: ${counted(preview.totalRows, 'row')} (${layout})${preview.dateRange ? `, ${preview.dateRange.from} to ${preview.dateRange.to}` : ''}`,
          `  balance proof: ${preview.balanceProof.status}${preview.balanceProof.closingBalance === null ? '' : `, closing balance ${displayPounds(preview.balanceProof.closingBalance)}`}`,
        ];
        const opening = preview.openingCheck;
        if (opening !== null && opening.difference !== 0) {
          const why =
            opening.difference > 0
              ? `${displayPounds(opening.difference)} before this statement is not in the books (an opening balance or an earlier statement)`
              : `the books hold ${displayPounds(-opening.difference)} more than the bank did (an entry the bank has not got, or one entered twice)`;
          lines.push(
            chalk.yellow(
              `  the statement opens at ${displayPounds(opening.statementBalance)} (the end of ${opening.date}) where the books hold ${displayPounds(opening.booksBalance)}: ${why}`,
            ),
          );
        }
        // With what of it was read (its date, description, amount), so that the line can be found in the file.
        for (const row of detail?.rows.filter((r) => r.status === 'error') ?? []) {
          const read = [row.date, row.description, row.amount === null ? null : displayPounds(row.amount)].filter((v) => v !== null).join(' ');
          lines.push(chalk.yellow(`  rejected row ${row.rowIndex}${read === '' ? '' : ` (${printable(read)})`}: ${printable(row.error ?? '')}`));
        }
        const suspense = confirmed.created - confirmed.categorised - confirmed.paid;
        const matched =
          confirmed.paid + confirmed.matched > 0
            ? `; ${counted(confirmed.paid, 'paid invoice or bill', 'paid invoices or bills')}, ${confirmed.matched} matched to ${confirmed.matched === 1 ? 'an entry' : 'entries'} already in the books`
            : '';
        if (!dryRun) {
          lines.push(
            `Created ${counted(confirmed.created, 'transaction')} (${confirmed.categorised} categorised by rules, ${suspense} on suspense 9999${matched}), ` +
              `skipped ${counted(confirmed.skipped, 'duplicate')}, rejected ${confirmed.rejected}: ${counted(confirmed.total, 'row')} in all, as ${preview.importId}`,
          );
          if (suspense > 0)
            lines.push(
              chalk.dim('  (acct bank inbox lists the lines on suspense; acct bank accept takes the rules’ suggestions, acct bank match the matches)'),
            );
          if (confirmed.created + confirmed.matched > 0) lines.push(chalk.dim(`  (acct bank-imports undo ${preview.importId} removes them all)`));
        } else {
          lines.push(
            `Would create ${confirmed.created}${confirmed.paid > 0 ? ` (${confirmed.paid} paying ${confirmed.paid === 1 ? 'an invoice or bill' : 'invoices or bills'})` : ''}` +
              `${confirmed.matched > 0 ? `, match ${confirmed.matched} to ${confirmed.matched === 1 ? 'an entry' : 'entries'} already in the books` : ''}, skip ${counted(confirmed.skipped, 'duplicate')}, reject ${confirmed.rejected}: nothing imported (--dry-run)`,
          );
        }
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });
}

function addCategorise(group: Command): void {
  const doc = handWritten.bankCategorise;
  group
    .command('categorise')
    .argument('<transaction>', 'the transaction (txn_…)')
    .argument('<account>', 'the account, by code (5100), name ("Bank Charges") or id')
    .option('--vat-rate <percent>', 'VAT rate, a whole percentage (with --vat-treatment)')
    .option('--vat-treatment <treatment>', 'inclusive (the bank line holds the VAT) or none')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (transaction: string, account: string, flags: { vatRate?: string; vatTreatment?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const body = {
          accountId: await accountIdOf(cli, account),
          ...(flags.vatRate === undefined ? {} : { vatRate: Number(flags.vatRate) }),
          ...(flags.vatTreatment === undefined ? {} : { vatTreatment: flags.vatTreatment }),
        };
        cli.print(await run(cli, categoriseOp, raw(body, { id: transaction })), undefined, categoriseOp);
      });
    });
}

/** Every suspense line, oldest first, read page by page before anything is changed. */
async function suspenseLines(cli: Cli): Promise<Suggestion[]> {
  return (await everyNumberedPage(cli, inboxOp, raw(undefined))).data as Suggestion[];
}

/** Categorise the lines the rules know, above `min` confidence; what was (or would be) done. */
async function applySuggestions(cli: Cli, min: number, dryRun: boolean): Promise<{ moved: Suggestion[]; left: number }> {
  const moved: Suggestion[] = [];
  let left = 0;
  for (const s of await suspenseLines(cli)) {
    if (s.decision.kind !== 'Known' || (s.confidence ?? 0) < min) {
      left++;
      continue;
    }
    if (!dryRun) await run(cli, categoriseOp, raw({ accountId: s.decision.account.id }, { id: s.transactionId }));
    moved.push(s);
  }
  return { moved, left };
}

/** Apply (or, dry, show) the suggestions of `min` confidence or more, and say what was done. */
async function suggestionsApplied(cli: Cli, min: number, dryRun: boolean): Promise<void> {
  const { moved, left } = await applySuggestions(cli, min, dryRun);
  if (cli.globals.json) cli.print({ categorised: moved.map((s) => s.transactionId), left, dryRun });
  else printMoved(moved, left, dryRun ? 'Would categorise' : 'Categorised', cli.globals.wide);
}

function printMoved(moved: readonly Suggestion[], left: number, verb: string, wide: boolean | undefined): void {
  if (moved.length > 0) {
    const rows = moved.map((s) => [s.transactionId, s.date, s.description, displayPounds(s.amount), suggestionText(s)].map(printable));
    // On a narrow terminal the transaction id goes first, then the description and the account are cut.
    const plans = [2, essential, essential, essential, essential].map((keep, i) => ({ keep, shrink: i === 2 || i === 4 }));
    process.stdout.write(fittedTable([['transaction', 'date', 'description', 'amount', 'to'], ...rows], plans, tableWidth(wide), { right: [3] }));
  }
  process.stdout.write(`${verb} ${counted(moved.length, 'line')}; ${left} left on suspense\n`);
}

function addAccept(group: Command): void {
  const doc = handWritten.bankAccept;
  group
    .command('accept')
    .option('--min-confidence <n>', 'take suggestions at least this sure, 0 to 1', '0.8')
    .option('--dry-run', 'show what would be categorised; change nothing')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { minConfidence: string; dryRun?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const min = Number(flags.minConfidence);
        if (!Number.isFinite(min) || min < 0 || min > 1)
          throw new AppError('validation_error', '--min-confidence must be a number from 0 to 1', 'minConfidence');
        await suggestionsApplied(cli, min, flags.dryRun === true);
      });
    });
}

function addRecategorise(group: Command): void {
  const doc = handWritten.bankRecategorise;
  group
    .command('recategorise')
    .option('--dry-run', 'show what the rules as they are now would change; change nothing')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { dryRun?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        await suggestionsApplied(cli, 0, flags.dryRun === true);
      });
    });
}

interface MatchFlags {
  invoice?: string;
  bill?: string;
  entry?: string;
  all?: boolean;
  dryRun?: boolean;
}

/** The match body a line's flags name, natural keys resolved (INV-1042, a bill's number); null for its suggestion. */
async function matchBody(cli: Cli, flags: MatchFlags): Promise<Record<string, string | string[]> | null> {
  const named = (
    [
      ['--invoice', 'invoiceId', 'inv', flags.invoice === undefined ? undefined : listValues(flags.invoice)],
      ['--bill', 'billId', 'bill', flags.bill === undefined ? undefined : listValues(flags.bill)],
      ['--entry', 'transactionId', 'txn', flags.entry === undefined ? undefined : [flags.entry]],
    ] as const
  ).filter(([, , , v]) => v !== undefined);
  if (named.length === 0) return null;
  if (named.length > 1)
    throw new AppError('validation_error', `name one of --invoice, --bill or --entry, not ${named.map(([f]) => f).join(' and ')}`, named[1]![0]);
  const [flag, field, prefix, texts] = named[0]!;
  const db = orgOf(await cli.ctx()).db;
  const ids: string[] = [];
  for (const text of texts!) ids.push(await resolveReference(db, prefix, text, flag));
  return ids.length === 1 ? { [field]: ids[0]! } : { [`${field}s`]: ids };
}

const flagOfField: Readonly<Record<string, string>> = {
  invoiceId: '--invoice',
  invoiceIds: '--invoice',
  billId: '--bill',
  billIds: '--bill',
  transactionId: '--entry',
};

/** A refusal of the match operation named by the flag typed (--bill), not the API's field (billId). */
const asFlags = refusedAsTyped(flagOfField);

/** The body that takes suggestion `m`: one document or entry, or the several documents it pays. */
function bodyOf(m: Match): Record<string, string | string[]> {
  const target = targetOf(m);
  const field = m.kind === 'invoice' ? 'invoiceId' : m.kind === 'bill' ? 'billId' : 'transactionId';
  return { [typeof target === 'string' ? field : `${field}s`]: target };
}

function addMatch(group: Command): void {
  const doc = handWritten.bankMatch;
  group
    .command('match')
    .argument('[transaction]', 'the bank line on suspense (txn_…); every line with a suggestion with --all')
    .option('--invoice <number>', 'the invoice the money in pays (INV-1042, or its id); again, or INV-1042,INV-1043, for several', addsUp)
    .option('--bill <number>', 'the bill the money out pays (the supplier’s number, or its id); again, or comma-separated, for several', addsUp)
    .option('--entry <transaction>', 'the entry already in the books for this money (txn_…)')
    .option('--all', 'take the suggestion of every line on suspense that has one')
    .option('--dry-run', 'with --all: show what would be matched; change nothing')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (transaction: string | undefined, flags: MatchFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        if ((transaction === undefined) === (flags.all !== true))
          throw new AppError('validation_error', 'name a bank line (txn_…) or --all, one of the two', transaction === undefined ? 'transaction' : 'all');
        if (flags.all === true) {
          if (flags.invoice ?? flags.bill ?? flags.entry)
            throw new AppError('validation_error', '--all takes each line’s suggestion: --invoice, --bill and --entry name one line’s', 'all');
          // Each page suggests a document or entry once; across pages the oldest line takes it (the rest are left).
          const taken = new Set<string>();
          const chosen = (await suspenseLines(cli)).filter((s) => {
            const ids = s.suggestedMatch === null ? [] : [targetOf(s.suggestedMatch)].flat();
            if (ids.length === 0 || ids.some((id) => taken.has(id))) return false;
            for (const id of ids) taken.add(id);
            return true;
          });
          const done: MatchedEntry[] = [];
          if (flags.dryRun !== true)
            for (const s of chosen) done.push(await run(cli, matchBankLineOp, raw(bodyOf(s.suggestedMatch!), { id: s.transactionId })));
          if (globals.json) {
            cli.print(flags.dryRun === true ? { wouldMatch: chosen.map((s) => ({ transactionId: s.transactionId, suggestedMatch: s.suggestedMatch })) } : done);
            return;
          }
          const rows = chosen.map((s) => [s.transactionId, s.date, s.description, displayPounds(s.amount), matchText(s.suggestedMatch!)].map(printable));
          if (rows.length > 0)
            process.stdout.write(
              fittedTable(
                [['line', 'date', 'description', 'amount', 'matched to'], ...rows],
                [2, essential, essential, essential, essential].map((keep, i) => ({ keep, shrink: i === 2 || i === 4 })),
                tableWidth(globals.wide),
                { right: [3] },
              ),
            );
          process.stdout.write(`${flags.dryRun === true ? 'Would match' : 'Matched'} ${counted(chosen.length, 'line')}\n`);
          return;
        }
        const line = transaction!;
        let body: Record<string, string | string[]> | null = await matchBody(cli, flags);
        if (body === null) {
          const s = await run(cli, suggestCategoryOp, raw(undefined, { id: line }));
          if (s.suggestedMatch === null)
            throw new AppError('validation_error', `${line} has no suggested match: name --invoice, --bill or --entry`, 'transaction');
          body = bodyOf(s.suggestedMatch);
        }
        const done = await run(cli, matchBankLineOp, raw(body, { id: line })).catch(asFlags);
        if (globals.json) cli.print(done);
        else
          process.stdout.write(
            printable(
              `Matched ${done.date} ${displayPounds(done.amount)} to ${
                done.payments.length > 1
                  ? done.payments.map((p) => `${matchText(p)} (${displayPounds(p.amount)}, payment ${p.paymentId})`).join(', ')
                  : `${matchText(done.matchedTo)}${done.paymentId === null ? '' : ` (payment ${done.paymentId})`}`
              }; the line’s entry on suspense is gone`,
            ) + '\n',
          );
      });
    });
}

function addExplain(group: Command): void {
  const doc = handWritten.bankExplain;
  group
    .command('explain')
    .argument('<transaction>', 'the transaction (txn_…)')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (transaction: string, _flags: unknown, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const s = await run(cli, suggestCategoryOp, raw(undefined, { id: transaction }));
        if (globals.json) {
          cli.print(s);
          return;
        }
        // Every line but the first (styled, its text made printable itself) made printable as it is printed.
        const out = [`${printable(`${s.date}  ${s.description}  ${displayPounds(s.amount)}`)}${s.onSuspense ? '' : chalk.dim('  (categorised already)')}`];
        const d = s.decision;
        if (d.kind === 'Known') {
          const e = d.evidence;
          out.push(`→ ${d.account.code} ${d.account.name}, confidence ${Math.round(e.confidence * 100)}%`);
          out.push(
            `  rule ${e.rule.id} "${e.rule.name}" (${e.provenance}): ${e.matchedField} ${e.operator} "${e.matchedValue}", the line's ${e.matchedField} read as "${e.fieldValue}"`,
          );
          out.push(`  score: ${scoreDimensions.map((name, i) => `${name} ${e.scoreVector[i]}`).join(', ')}`);
          out.push(`  global rules matching: ${e.socialProof.globalRulesMatching}, agreeing: ${e.socialProof.globalRulesAgreeing}`);
        } else {
          out.push(`→ ${unknownText(d)}`);
          for (const c of d.contenders ?? [])
            out.push(`  ${c.account.code} ${c.account.name} by rule ${c.rule.id} "${c.rule.name}" (${c.provenance}): ${c.scoreVector.join(', ')}`);
          if (d.rule) out.push(`  rule ${d.rule.id} "${d.rule.name}" names ${d.targetAccountId}`);
        }
        process.stdout.write(`${[out[0], ...out.slice(1).map(printable)].join('\n')}\n`);
      });
    });
}

/** A refusal of reconcile's operations named by the flag typed (--as-of), not the API's field (asOf). */
const asTyped = refusedAsTyped({ asOf: '--as-of' });

function addReconcile(group: Command): void {
  const doc = handWritten.bankReconcile;
  group
    .command('reconcile')
    .argument('<account>', 'the bank account, by its ledger code (1200), its name ("Monzo") or id')
    .requiredOption('--statement-balance <pounds>', "the statement's closing balance, in pounds (negative when overdrawn)")
    .requiredOption('--as-of <date>', "the statement's closing date, YYYY-MM-DD")
    .option('--exclude <transactions>', 'transactions (txn_…, comma-separated, or the flag again) not on the statement yet', addsUp)
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (account: string, flags: { statementBalance: string; asOf: string; exclude?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        checkDateText(flags.asOf, '--as-of', 'YYYY-MM-DD');
        const id = String(await bankAccountId(cli, account, '<account>'));
        const statementBalance = parsePounds(flags.statementBalance, '--statement-balance');
        const open = await run(cli, unreconciledOp, raw(undefined, { id }, { asOf: flags.asOf })).catch(asTyped);
        const excluded = new Set(listValues(flags.exclude));
        // An id the statement's lines do not hold (mistyped, already reconciled, another account's) would be dropped silently.
        const stray = [...excluded].filter((x) => !open.lines.some((l) => l.transactionId === x));
        if (stray.length > 0) {
          throw new AppError(
            'validation_error',
            `${stray.join(', ')} ${stray.length === 1 ? 'is not an unreconciled line' : 'are not unreconciled lines'} of bank account ${id} up to ${flags.asOf} (acct bank-accounts unreconciled ${id} --as-of ${flags.asOf} lists them)`,
            '--exclude',
          );
        }
        const chosen = open.lines.filter((l) => !excluded.has(l.transactionId));
        // The books named on the first line, as a command that writes does, before the table of the lines it will mark.
        await cli.ctx({ writes: true });
        if (!globals.json) {
          const rows = open.lines.map((l) => [
            excluded.has(l.transactionId) ? chalk.dim('excluded') : '',
            ...[l.transactionId, l.date, l.description, displayPounds(l.amount)].map(printable),
          ]);
          if (rows.length > 0)
            process.stdout.write(
              fittedTable(
                [['', 'transaction', 'date', 'description', 'amount'], ...rows],
                [essential, essential, essential, essential, essential].map((keep, i) => ({ keep, shrink: i === 3 })),
                tableWidth(globals.wide),
                { right: [4] },
              ),
            );
          process.stdout.write(
            `Reconciled so far ${displayPounds(open.reconciledBalance)}; ${counted(chosen.length, 'line')} to mark, ${displayPounds(chosen.reduce((s, l) => s + l.amount, 0))}\n`,
          );
        }
        const done = await run(
          cli,
          reconcileBankAccountOp,
          raw({ statementBalance, asOf: flags.asOf, transactionIds: chosen.map((l) => l.transactionId) }, { id }),
        ).catch(asTyped);
        if (globals.json) cli.print(done);
        else
          process.stdout.write(
            `Reconciled ${counted(done.marked.length, 'line')}: the balance at ${done.asOf} is ${displayPounds(done.reconciledBalance)}, as the statement says\n`,
          );
      });
    });
}

/** `acct bank`: created before the operation commands, which add `acct bank inbox` to it. */
export function addBank(program: Command): void {
  const group = program.command('bank').description(groupSummaries['bank'] ?? '');
  addImport(group);
  addCategorise(group);
  addAccept(group);
  addMatch(group);
  addRecategorise(group);
  addExplain(group);
  addReconcile(group);
}
