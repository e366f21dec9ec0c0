/**
 * Matching bank lines on the command line (the commander program, in
 * process), with the Starling statement (fixtures/bank-statements/
 * starling.csv) against INV-1042 (£1,000.00 + £200.00 VAT, Acme Widgets
 * Ltd) and the rent bill RENT-03 (£850.00, Smith, Jones & Co):
 * - `acct bank import --match --dry-run` says what it would pay, and
 *   imports nothing; `acct bank import --match` pays both;
 * - imported without --match, `acct bank inbox` shows the matches,
 *   `acct bank match TXN --bill …` on money in is refused naming --bill,
 *   `acct bank match TXN --invoice INV-1042` pays the invoice by its number,
 *   `acct bank match --all` takes the rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { fileURLToPath } from 'node:url';
import { cliOn, init } from '../cli/support.js';
import { runCliOnTerminal } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const starling = fileURLToPath(projectFile('fixtures/bank-statements/starling.csv'));

async function world(t: Test) {
  const dir = t.testdir();
  await init(t, dir);
  const { acct, ok, json } = cliOn(t, dir);
  await ok('settings', 'update', '--invoice-next-number', '1042');
  await ok('contacts', 'create', '--contact-type', 'customer', '--name', 'Acme Widgets Ltd');
  await ok('contacts', 'create', '--contact-type', 'supplier', '--name', 'Smith, Jones & Co');
  await ok('invoices', 'create', '--contact-id', 'Acme', '--issue-date', '2024-02-20', '--due-date', '2024-03-21', '--item', 'Design work;1;1000.00;standard');
  await ok('invoices', 'send', 'INV-1042');
  await ok(
    'bills',
    'create',
    '--contact-id',
    'Smith',
    '--bill-number',
    'RENT-03',
    '--issue-date',
    '2024-03-01',
    '--due-date',
    '2024-03-31',
    '--item',
    'Rent, March;1;850.00;exempt;5100',
  );
  await ok('bills', 'approve', 'RENT-03');
  return { acct, ok, json, dir };
}

async function owed(json: (...args: string[]) => Promise<never>): Promise<[number, number]> {
  const invoice = (await json('invoices', 'get', 'INV-1042')) as { amountDue: number };
  const bill = (await json('bills', 'get', 'RENT-03')) as { amountDue: number };
  return [invoice.amountDue, bill.amountDue];
}

t.test('acct bank import --match pays the invoice and the bill; --dry-run imports nothing', async (t) => {
  const { ok, json } = await world(t);
  const dry = await ok('bank', 'import', starling, '--match', '--dry-run');
  // 8 rows: 6 posted (HMRC by the seed rule, 3 Pret, the fee, Client Two's 2,400.00 with no invoice) + 2 payments.
  t.match(dry, 'Would create 8 (2 paying invoices or bills), skip 0 duplicates, reject 0: nothing imported (--dry-run)');
  t.same(await owed(json), [120_000, 85_000], 'the dry run paid nothing');
  const done = await ok('bank', 'import', starling, '--match');
  // On suspense: 8 created − 1 categorised − 2 payments = 5.
  t.match(done, 'Created 8 transactions (1 categorised by rules, 5 on suspense 9999; 2 paid invoices or bills, 0 matched to entries already in the books)');
  t.same(await owed(json), [0, 0], 'INV-1042 and RENT-03 paid by the statement');
});

t.test('acct bank inbox shows the matches; acct bank match takes a number, refuses by the flag typed, and --all the rest', async (t) => {
  const { acct, ok, json } = await world(t);
  await ok('bank', 'import', starling);
  const inbox = await ok('bank', 'inbox');
  t.match(inbox, /Acme Widgets Ltd\s+1,200\.00\s+match invoice INV-1042 \(Acme Widgets Ltd\)/);
  t.match(inbox, /Smith, Jones & Co\s+-850\.00\s+match bill RENT-03 \(Smith, Jones & Co\)/);
  const lines = (await json('bank', 'inbox')) as { transactionId: string; amount: number }[];
  const acme = lines.find((l) => l.amount === 120_000)!.transactionId;

  const wrong = await acct('bank', 'match', acme, '--bill', 'RENT-03');
  t.equal(wrong.status, 5, 'a 422: exit 5');
  t.match(wrong.stderr, '--bill: the line is £1,200.00 into the bank, which cannot pay a bill');
  const both = await acct('bank', 'match', acme, '--invoice', 'INV-1042', '--bill', 'RENT-03');
  t.equal(both.status, 2);
  t.match(both.stderr, 'name one of --invoice, --bill or --entry, not --invoice and --bill');
  const neither = await acct('bank', 'match');
  t.equal(neither.status, 2);
  t.match(neither.stderr, 'name a bank line (txn_…) or --all');
  t.same(await owed(json), [120_000, 85_000], 'the refusals paid nothing');

  t.match(
    await ok('bank', 'match', acme, '--invoice', 'INV-1042'),
    /^Matched 2024-03-02 1,200\.00 to invoice INV-1042 \(payment pay_\w+\); the line’s entry on suspense is gone\n$/,
  );
  t.same(await owed(json), [0, 85_000]);
  const dry = await ok('bank', 'match', '--all', '--dry-run');
  t.match(dry, /Smith, Jones & Co\s+-850\.00\s+bill RENT-03 \(Smith, Jones & Co\)/);
  t.match(dry, 'Would match 1 line');
  t.same(await owed(json), [0, 85_000], 'the dry run paid nothing');
  t.match(await ok('bank', 'match', '--all'), 'Matched 1 line');
  t.same(await owed(json), [0, 0]);
  // 8 lines − HMRC (categorised by the seed rule) − the two matched = 5 left on suspense.
  t.equal(((await json('bank', 'inbox')) as unknown[]).length, 5);
});

t.test('acct bank match pays several invoices from one line: --invoice repeated or comma-separated, refusals named by the flag', async (t) => {
  const { acct, ok, json } = await world(t);
  // INV-1043 to Acme for £250.00 + £50.00 VAT = £300.00; with INV-1042's £1,200.00, £1,500.00 due.
  await ok('invoices', 'create', '--contact-id', 'Acme', '--issue-date', '2024-02-21', '--due-date', '2024-03-21', '--item', 'Logo;1;250.00;standard');
  await ok('invoices', 'send', 'INV-1043');
  const statement = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acct-match-')), 'two-invoices.csv');
  t.teardown(() => fs.rmSync(path.dirname(statement), { recursive: true, force: true }));
  fs.writeFileSync(
    statement,
    [
      'Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes',
      '02/03/2024,Acme Widgets Ltd,INV-1042 INV-1043,FASTER PAYMENT,2000.00,2000.00,INCOME,',
      '03/03/2024,Acme Widgets Ltd,INV-1042 INV-1043,FASTER PAYMENT,1500.00,3500.00,INCOME,',
    ].join('\n'),
  );
  await ok('bank', 'import', statement);
  const lines = (await json('bank', 'inbox')) as { transactionId: string; amount: number }[];
  const line = (amount: number) => lines.find((l) => l.amount === amount)!.transactionId;
  // The £1,500.00 names both and is due exactly what they are; the £2,000.00 names both too but is not.
  const inbox = await ok('bank', 'inbox');
  t.match(inbox, /1,500\.00\s+match invoices INV-1042, INV-1043 \(Acme Widgets Ltd\)/);
  t.notMatch(inbox, /2,000\.00\s+match/);
  t.match(await ok('bank', 'match', '--all', '--dry-run'), 'Would match 1 line');

  const tooMuch = await acct('bank', 'match', line(200_000), '--invoice', 'INV-1042', '--invoice', 'INV-1043');
  t.equal(tooMuch.status, 5, 'a 422: exit 5');
  t.match(tooMuch.stderr, '--invoice: the line is £2,000.00, more than the £1,500.00 due on INV-1042, INV-1043 in all');
  const due = async () => [
    ((await json('invoices', 'get', 'INV-1042')) as { amountDue: number }).amountDue,
    ((await json('invoices', 'get', 'INV-1043')) as { amountDue: number }).amountDue,
  ];
  // The generated command takes the numbers in its id list too.
  const generated = await acct('transactions', 'match', line(200_000), '--invoice-ids', 'INV-1042,INV-1043');
  t.equal(generated.status, 5, 'a 422: exit 5');
  t.match(generated.stderr, '--invoice-ids: the line is £2,000.00, more than the £1,500.00 due on INV-1042, INV-1043 in all');
  const unknown = await acct('transactions', 'match', line(200_000), '--invoice-ids', 'INV-1042,INV-9999');
  t.equal(unknown.status, 3, 'no such invoice: not found, exit 3');
  t.match(unknown.stderr, 'INV-9999');
  t.same(await due(), [120_000, 30_000], 'the refusals paid nothing');

  t.match(
    await ok('bank', 'match', line(150_000), '--invoice', 'INV-1042,INV-1043'),
    /^Matched 2024-03-03 1,500\.00 to invoice INV-1042 \(1,200\.00, payment pay_\w+\), invoice INV-1043 \(300\.00, payment pay_\w+\); the line’s entry on suspense is gone\n$/,
  );
  t.same(await due(), [0, 0], 'both paid by the one line');
  // The statement's rows name what each row paid, by number, in the table.
  const imports = (await json('bank-imports', 'list')) as { id: string }[];
  const shown = await ok('bank-imports', 'get', imports[0]!.id, '--wide');
  t.match(shown, /matchedTo\s+payments/);
  t.match(shown, /1,500\.00\s.*\bINV-1042\s+INV-1042, INV-1043\n/);
});

t.test("on a terminal, bank import --match's progress bar counts the statement's rows, those that pay an invoice or bill too", async (t) => {
  const { dir, json } = await world(t);
  const r = runCliOnTerminal(['--data', dir, 'bank', 'import', starling, '--match']);
  t.equal(r.status, 0, r.stdout);
  // 8 rows: 6 posted and 2 paying INV-1042 and RENT-03. It read "6/6 100%", the posted rows alone.
  t.match(r.stdout, /importing \[#{30}\] 8\/8 100%/);
  t.notMatch(r.stdout, / 6\/6 /);
  t.same(await owed(json), [0, 0], 'INV-1042 and RENT-03 paid by the statement');
});
