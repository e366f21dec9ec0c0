/**
 * `acct migrate` through the commander program, on the hand-written exports
 * of three businesses (fixtures/migrations/<provider>/, whose README.md
 * works every total by hand): the dry run prints the proof and writes
 * nothing; a refused run (contacts in conflict, an expected trial balance
 * that differs, a second opening balance) writes nothing, counted row by
 * row in every table of the organisation's live.sqlite; the real run
 * leaves the trial balance at the cutover equal to the source's to the
 * penny, 1198 and 2198 at zero, the outstanding documents open, and every
 * row of every file accounted for once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { projectFile } from '../../src/paths.js';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { acctOk } from '../sales-cli/support.js';

const file = (name: string): string => fileURLToPath(projectFile(`fixtures/migrations/${name}`));

/** How many rows each table of the organisation's books holds (DIR/orgs/<id>/live.sqlite, opened read-only): the same before and after a run that wrote nothing. */
function rowCounts(dir: string, organisationId: string): Record<string, number> {
  const db = new Database(path.join(dir, 'orgs', organisationId, 'live.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all() as string[];
    return Object.fromEntries(tables.map((name) => [name, db.prepare(`select count(*) from "${name}"`).pluck().get() as number]));
  } finally {
    db.close();
  }
}

/** The books of a fresh `acct init` in DIR, and a way to count their rows (the counts cover every table the books hold). */
async function initCounted(t: Test, dir: string): Promise<() => Record<string, number>> {
  const { organisationId } = await init(t, dir);
  const counts = () => rowCounts(dir, organisationId);
  t.ok(
    ['transactions', 'lines', 'contacts', 'invoices', 'data_imports', 'data_import_rows', 'migrations'].every((name) => name in counts()),
    "the books' tables are counted",
  );
  return counts;
}

interface Case {
  readonly provider: 'xero' | 'freeagent' | 'quickbooks';
  /** The labels the README lists as unusual, mapped by hand. */
  readonly map: readonly string[];
  /** Pence, from the provider's README, where each is added up by hand. */
  readonly totalDebit: number;
  readonly debtors: number;
  readonly creditors: number;
  readonly invoices: number;
  readonly bills: number;
  /** Each file's rows once the migration ran (the provider's README), as [rows, created, merged, skipped, errors]. */
  readonly rows: Readonly<Record<'contacts' | 'balances' | 'invoices' | 'bills', readonly [number, number, number, number, number]>>;
}

const cases: readonly Case[] = [
  // Xero (Hartwell Joinery): trial balance £351,566.75 each side; debtors £24,802.66 = the 8 invoices' outstanding;
  // creditors £5,147.64 = the 6 bills' outstanding.
  // Rows: contacts 17 = 15 created + 2 merged (the conflict split); trial balance 30 = 29 accounts + the Total row;
  // invoices 12 = 8 + 4 further lines; bills 8 = 6 + 2 further lines.
  {
    provider: 'xero',
    map: ['--map', 'Tools and Consumables=5000'],
    totalDebit: 35156675,
    debtors: 2480266,
    creditors: 514764,
    invoices: 8,
    bills: 6,
    rows: { contacts: [17, 15, 2, 0, 0], balances: [30, 29, 0, 1, 0], invoices: [12, 8, 0, 4, 0], bills: [8, 6, 0, 2, 0] },
  },
  // FreeAgent (Fernhollow Design): £205,908.28; debtors £22,152.92 over 7 invoices; creditors £6,508.28 over 5 bills.
  // Rows: contacts 17 = 15 + 2 merged; trial balance 27 = 26 + Total; invoices 9 = 7 + 2 ignored (Paid, Draft); bills 6 = 5 + 1 (Paid).
  {
    provider: 'freeagent',
    map: ['--map', 'Freelance Design Fees=5000'],
    totalDebit: 20590828,
    debtors: 2215292,
    creditors: 650828,
    invoices: 7,
    bills: 5,
    rows: { contacts: [17, 15, 2, 0, 0], balances: [27, 26, 0, 1, 0], invoices: [9, 7, 0, 2, 0], bills: [6, 5, 0, 1, 0] },
  },
  // QuickBooks (Crumb & Kettle): £270,149.13; debtors £16,646.44 over 8 invoices; creditors £5,553.48 over 6 bills.
  // Rows: contacts 16 = 14 created + 2 merged (the conflict split); trial balance 27 = 25 + TOTAL + the footer;
  // invoices 9 = 8 + the TOTAL row; bills 7 = 6 + the TOTAL row.
  {
    provider: 'quickbooks',
    map: [],
    totalDebit: 27014913,
    debtors: 1664644,
    creditors: 555348,
    invoices: 8,
    bills: 6,
    rows: { contacts: [16, 14, 2, 0, 0], balances: [27, 25, 0, 2, 0], invoices: [9, 8, 0, 1, 0], bills: [7, 6, 0, 1, 0] },
  },
];

/** The CLI's `get` of each import a migration made. */
const getters = { contacts: 'contact-imports', balances: 'opening-balances', invoices: 'invoice-imports', bills: 'bill-imports' } as const;

const filesOf = (c: Case) => [
  '--from',
  c.provider,
  '--contacts',
  file(`${c.provider}/contacts.csv`),
  '--balances',
  file(`${c.provider}/trial-balance.csv`),
  '--invoices',
  file(`${c.provider}/invoices.csv`),
  '--bills',
  file(`${c.provider}/bills.csv`),
  '--cutover',
  '2025-03-31',
  '--conflicts',
  'split',
  ...c.map,
];

for (const c of cases) {
  t.test(`${c.provider}: dry run, refusals, then the migration equal to the source to the penny`, async (t) => {
    const dir = t.testdir();
    const counts = await initCounted(t, dir);
    const start = counts();
    const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
    const empty = async () => {
      t.same(counts(), start, 'nothing was written: every table holds the rows it held');
      t.same((await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-03-31'])).accounts, [], 'no balance');
      t.same(await acctOk(t, dir, ['invoices', 'list']), []);
    };

    const dry = await acct('migrate', ...filesOf(c), '--dry-run');
    t.equal(dry.status, 0, dry.stderr);
    t.match(dry.stdout, 'Dry run: nothing was written; without --dry-run this migration would be committed.');
    t.match(dry.stdout, '✓ RECEIVABLES_CLEARED');
    t.notMatch(dry.stderr, /\[#/, 'no progress bar off a terminal');
    await empty();

    const json = await runCliInProcessJson(['--data', dir, '--json', 'migrate', ...filesOf(c), '--dry-run']);
    const report = json.data as {
      passed: boolean;
      committed: boolean;
      reconciliation: { matchesSource: boolean; receivablesClearing: string; payablesClearing: string; totalDebits: string; sourceTotalDebit: string };
      documents: { direction: string; created: number }[];
      contacts: { totalRows: number; created: number; merged: number; skipped: number; rejected: number };
      balances: { totalRows: number; lines: number; ignoredRows: number; errorRows: number };
    };
    const k = report.contacts;
    t.same([k.totalRows, k.created, k.merged, k.skipped, k.rejected], c.rows.contacts, 'contacts: rows, created, merged, skipped, rejected');
    t.equal(k.created + k.merged + k.skipped + k.rejected, k.totalRows, 'contacts: created + merged + skipped + rejected = rows');
    const b = report.balances;
    const [rows, lines, , ignored, unreadable] = c.rows.balances;
    t.same([b.totalRows, b.lines, b.ignoredRows, b.errorRows], [rows, lines, ignored, unreadable], 'trial balance: rows, lines, ignored, unreadable');
    t.equal(b.lines + b.ignoredRows + b.errorRows, b.totalRows, 'trial balance: lines + ignored + unreadable = rows');
    t.equal(report.passed, true);
    t.equal(report.committed, false);
    t.match(report.reconciliation, { matchesSource: true, receivablesClearing: '0.00', payablesClearing: '0.00' });
    t.equal(report.reconciliation.totalDebits, report.reconciliation.sourceTotalDebit);
    t.same(
      report.documents.map((d) => [d.direction, d.created]),
      [
        ['receivables', c.invoices],
        ['payables', c.bills],
      ],
    );
    await empty();

    // The books must equal an expected trial balance: another business's is refused, and nothing is written.
    const wrong = await acct('migrate', ...filesOf(c), '--expect-trial-balance', file('messy/trial-balance-bom-crlf.csv'));
    t.equal(wrong.status, 5, wrong.stdout);
    t.match(wrong.stderr, /migration_gate_failed: the migration was not written: the trial balance at 2025-03-31 differs from the expected one/);
    await empty();

    const done = await acct('migrate', ...filesOf(c), '--expect-trial-balance', file(`${c.provider}/trial-balance.csv`));
    t.equal(done.status, 0, done.stderr);
    t.match(done.stdout, /Migrated as mig_/);
    t.match(done.stdout, 'expected trial balance: equal to the penny');
    const written = counts();
    t.equal(written.invoices, c.invoices + c.bills, 'the counts see what was written: invoices and bills share the invoices table');

    // Every row of every file once: each import's created + merged + skipped + errors = rows, and each contacts, invoices
    // and bills row recorded once (a trial balance's rows are the lines of its journal, not recorded one by one).
    const migration = await acctOk(t, dir, ['migrations', 'get', /Migrated as (mig_\w+)/.exec(done.stdout)?.[1] ?? '']);
    for (const slot of ['contacts', 'balances', 'invoices', 'bills'] as const) {
      const i = (await acctOk(t, dir, [getters[slot], 'get', migration[`${slot}ImportId`]])).import;
      t.same([i.totalRows, i.createdCount, i.mergedCount, i.skippedCount, i.errorCount], c.rows[slot], `${slot}: rows, created, merged, skipped, errors`);
      t.equal(i.createdCount + i.mergedCount + i.skippedCount + i.errorCount, i.totalRows, `${slot}: created + merged + skipped + errors = rows`);
    }
    t.equal(written.data_import_rows, c.rows.contacts[0] + c.rows.invoices[0] + c.rows.bills[0], 'data_import_rows: contacts + invoices + bills rows');

    const tb = (await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-03-31'])) as {
      accounts: { code: string; debit: number; credit: number }[];
      totals: { debit: number; credit: number };
    };
    const at = (code: string) => tb.accounts.find((a) => a.code === code);
    t.equal(tb.totals.debit, c.totalDebit, 'the debit total is the source trial balance’s');
    t.equal(tb.totals.credit, c.totalDebit);
    t.equal(at('1100')?.debit, c.debtors, '1100 holds the outstanding invoices');
    t.equal(at('2100')?.credit, c.creditors, '2100 holds the outstanding bills');
    t.equal(at('1198'), undefined, '1198 is at zero');
    t.equal(at('2198'), undefined, '2198 is at zero');
    const invoices = (await acctOk(t, dir, ['invoices', 'list'])) as { status: string }[];
    t.equal(invoices.length, c.invoices);
    t.ok(invoices.every((i) => i.status === 'sent' || i.status === 'overdue' || i.status === 'paid'));
    t.equal(((await acctOk(t, dir, ['bills', 'list'])) as unknown[]).length, c.bills);

    // Again: the opening balance is active, so the second migration is refused and leaves nothing.
    const migrated = counts();
    const again = await acct('migrate', ...filesOf(c));
    t.equal(again.status, 4, 'a conflict: exit 4');
    t.match(again.stderr, /SINGLETON_VIOLATION: opening balance dimp_\w+ is already active/);
    t.same(counts(), migrated, 'the refused migration wrote nothing: every table holds the rows it held');
    t.equal(((await acctOk(t, dir, ['invoices', 'list'])) as unknown[]).length, c.invoices, 'no invoice twice');
  });
}

t.test('conflicts left unsettled block the migration, and the proof says how to settle them', async (t) => {
  const dir = t.testdir();
  const counts = await initCounted(t, dir);
  const start = counts();
  const c = cases[0]!;
  const args = filesOf(c).filter((a, i, all) => a !== '--conflicts' && all[i - 1] !== '--conflicts');
  const r = await runCliInProcess(['--data', dir, 'migrate', ...args, '--dry-run']);
  t.equal(r.status, 5);
  // Cooper & Vale Architects LLP and Cooper & Vail Architects: the README's near-duplicate pair.
  t.match(r.stdout, /Cooper & Vale Architects LLP \/ Cooper & Vail Architects: .*settle with --conflicts split or link/);
  t.match(r.stdout, '✗ CONTACT_CONFLICTS_RESOLVED');
  t.match(r.stdout, 'Dry run: nothing was written.');
  t.same(counts(), start, 'the dry run wrote nothing');

  // Not a dry run: the same gate refuses it and nothing is written.
  const real = await runCliInProcess(['--data', dir, 'migrate', ...args]);
  t.equal(real.status, 5, real.stdout);
  t.match(
    real.stderr,
    /migration_gate_failed: the migration was not written: gates failed: CONTACT_CONFLICTS_RESOLVED \(contact import dimp_\w+ has identity conflicts to resolve\)/,
  );
  t.same(counts(), start, 'the refused migration wrote nothing: every table holds the rows it held');
  t.same(await acctOk(t, dir, ['contacts', 'list']), [], 'no contact');
});

t.test('an expected trial balance 1p off is refused naming the accounts, and nothing is written', async (t) => {
  const dir = t.testdir();
  const counts = await initCounted(t, dir);
  const start = counts();
  const c = cases[0]!;
  // Xero's trial balance with a penny moved: Audit & Accountancy fees 2,880.00 → 2,880.01, Bank Fees 386.40 → 386.39.
  // Debits 351,566.75 + 0.01 − 0.01 = 351,566.75: still balanced, but the books will differ by 1p in each account.
  const source = fs.readFileSync(file('xero/trial-balance.csv'), 'utf8');
  const penny = source.replace(',"2,880.00",', ',"2,880.01",').replace(',386.40,', ',386.39,');
  t.equal(penny.length, source.length, 'the same file but for the two pennies');
  t.not(penny, source);
  const expected = path.join(dir, 'expected-penny.csv');
  fs.writeFileSync(expected, penny);

  const r = await runCliInProcess(['--data', dir, 'migrate', ...filesOf(c), '--expect-trial-balance', expected]);
  t.equal(r.status, 5, r.stdout);
  t.match(
    r.stderr,
    'migration_gate_failed: the migration was not written: the trial balance at 2025-03-31 differs from the expected one in 2 account(s): ' +
      '5600 Accountancy and Legal Fees expected 2880.01, found 2880.00; 5800 Bank Charges expected 386.39, found 386.40',
    'the refusal names the accounts',
  );
  // And the proof is printed, as a dry run prints it, ending with what happened.
  t.match(r.stdout, '5600 Accountancy and Legal Fees: expected 2,880.01, found 2,880.00');
  t.match(r.stdout, '5800 Bank Charges: expected 386.39, found 386.40');
  t.match(r.stdout, /Not migrated: the trial balance at 2025-03-31 differs from the expected one in 2 account\(s\)[^\n]*\nNothing was written\.\n$/);
  t.same(counts(), start, 'the refused migration wrote nothing: every table holds the rows it held');

  const dry = await runCliInProcess(['--data', dir, 'migrate', ...filesOf(c), '--expect-trial-balance', expected, '--dry-run']);
  t.equal(dry.status, 5, dry.stderr);
  t.match(dry.stdout, 'expected trial balance: 2 account(s) differ');
  // 401 maps to 5600, 404 to 5800: the file's pennies against the books' (the source's own figures).
  t.match(dry.stdout, '5600 Accountancy and Legal Fees: expected 2,880.01, found 2,880.00', 'pounds as tables print them');
  t.match(dry.stdout, '5800 Bank Charges: expected 386.39, found 386.40');
  t.match(dry.stdout, 'Not migrated: the trial balance at 2025-03-31 differs from the expected one in 2 account(s)');
  t.same(counts(), start, 'the dry run wrote nothing');
});

t.test('bad flags are refused before anything is read', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const c = cases[2]!;
  const bad = await runCliInProcess(['--data', dir, 'migrate', ...filesOf(c), '--map', 'no-code-here']);
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--map no-code-here: give LABEL=CODE/);
  const provider = await runCliInProcess(['--data', dir, 'migrate', ...filesOf(c).map((a) => (a === 'quickbooks' ? 'sage' : a))]);
  t.equal(provider.status, 2);
  t.match(provider.stderr, /provider/);
  const missing = await runCliInProcess(['--data', dir, 'migrate', '--from', 'xero', '--balances', file('xero/nope.csv'), '--cutover', '2025-03-31']);
  t.equal(missing.status, 2);
  t.match(missing.stderr, /--balances: cannot read/);
  const cutover = await runCliInProcess(['--data', dir, 'migrate', '--from', 'xero', '--balances', file('xero/trial-balance.csv'), '--cutover', '2025-03-30']);
  t.equal(cutover.status, 2);
  t.match(cutover.stderr, /cutoverDate/);
});

t.test('invoices that do not clear the trial balance’s debtors stop the migration before anything is written', async (t) => {
  const dir = t.testdir();
  const counts = await initCounted(t, dir);
  const start = counts();
  const c = cases[0]!;
  const args = filesOf(c).map((a) => (a === file('xero/invoices.csv') ? file('messy/invoices-bom-crlf.csv') : a));
  const r = await runCliInProcess(['--data', dir, 'migrate', ...args]);
  t.equal(r.status, 5, r.stdout);
  // Xero's debtors £24,802.66 (README) less the messy file's £1,498.60 outstanding (its README) = £23,304.06 left on 1198.
  t.match(r.stderr, 'RECEIVABLES_CLEARED (1198 stands at 24802.66; the invoices outstanding (1498.60) leave 23304.06)');
  t.same(counts(), start, 'nothing was written: every table holds the rows it held');
  t.same((await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-03-31'])).accounts, [], 'no balance');
});
