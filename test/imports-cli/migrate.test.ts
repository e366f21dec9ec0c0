/**
 * `acct migrate` through the commander program, on the hand-written exports
 * of three businesses (fixtures/migrations/<provider>/, whose README.md
 * works every total by hand): the dry run prints the proof and writes
 * nothing; a refused run (contacts in conflict, an expected trial balance
 * that differs, a second opening balance) writes nothing; the real run
 * leaves the trial balance at the cutover equal to the source's to the
 * penny, 1198 and 2198 at zero, and the outstanding documents open.
 */
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { projectFile } from '../../src/paths.js';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { acctOk } from '../sales-cli/support.js';

const file = (path: string): string => fileURLToPath(projectFile(`fixtures/migrations/${path}`));

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
}

const cases: readonly Case[] = [
  // Xero (Hartwell Joinery): trial balance £351,566.75 each side; debtors £24,802.66 = the 8 invoices' outstanding;
  // creditors £5,147.64 = the 6 bills' outstanding.
  { provider: 'xero', map: ['--map', 'Tools and Consumables=5000'], totalDebit: 35156675, debtors: 2480266, creditors: 514764, invoices: 8, bills: 6 },
  // FreeAgent (Fernhollow Design): £205,908.28; debtors £22,152.92 over 7 invoices; creditors £6,508.28 over 5 bills.
  { provider: 'freeagent', map: ['--map', 'Freelance Design Fees=5000'], totalDebit: 20590828, debtors: 2215292, creditors: 650828, invoices: 7, bills: 5 },
  // QuickBooks (Crumb & Kettle): £270,149.13; debtors £16,646.44 over 8 invoices; creditors £5,553.48 over 6 bills.
  { provider: 'quickbooks', map: [], totalDebit: 27014913, debtors: 1664644, creditors: 555348, invoices: 8, bills: 6 },
];

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
    await init(t, dir);
    const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
    const empty = async () => {
      t.same((await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-03-31'])).accounts, [], 'nothing was written');
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
    };
    const k = report.contacts;
    t.equal(k.created + k.merged + k.skipped + k.rejected, k.totalRows, 'contacts: created + merged + skipped + rejected = rows');
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
    const again = await acct('migrate', ...filesOf(c));
    t.equal(again.status, 4, 'a conflict: exit 4');
    t.match(again.stderr, /SINGLETON_VIOLATION: opening balance dimp_\w+ is already active/);
    t.equal(((await acctOk(t, dir, ['invoices', 'list'])) as unknown[]).length, c.invoices, 'no invoice twice');
  });
}

t.test('conflicts left unsettled block the migration, and the proof says how to settle them', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const c = cases[0]!;
  const args = filesOf(c).filter((a, i, all) => a !== '--conflicts' && all[i - 1] !== '--conflicts');
  const r = await runCliInProcess(['--data', dir, 'migrate', ...args, '--dry-run']);
  t.equal(r.status, 5);
  // Cooper & Vale Architects LLP and Cooper & Vail Architects: the README's near-duplicate pair.
  t.match(r.stdout, /Cooper & Vale Architects LLP \/ Cooper & Vail Architects: .*settle with --conflicts split or link/);
  t.match(r.stdout, '✗ CONTACT_CONFLICTS_RESOLVED');
  t.match(r.stdout, 'Dry run: nothing was written.');
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
  await init(t, dir);
  const c = cases[0]!;
  const args = filesOf(c).map((a) => (a === file('xero/invoices.csv') ? file('messy/invoices-bom-crlf.csv') : a));
  const r = await runCliInProcess(['--data', dir, 'migrate', ...args]);
  t.equal(r.status, 5, r.stdout);
  // Xero's debtors £24,802.66 (README) less the messy file's £1,498.60 outstanding (its README) = £23,304.06 left on 1198.
  t.match(r.stderr, 'RECEIVABLES_CLEARED (1198 stands at 24802.66; the invoices outstanding (1498.60) leave 23304.06)');
  t.same((await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-03-31'])).accounts, [], 'nothing was written');
});
