/**
 * `acct bank` through the commander program: a statement imported with
 * its summary (row conservation), a second import skipping duplicates, a
 * dry run importing nothing, a statement that does not reconcile refused
 * and gone; the inbox, a rule made on the command line, accept above a
 * confidence, explain, categorise by account code with VAT, reconcile to
 * a statement balance (refused on a difference; two lines left out by
 * --exclude given twice), and the generated
 * bank-imports upload --file reading a path.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { books, init } from '../cli/support.js';
import { projectFile } from '../../src/paths.js';
import { unknownText } from '../../src/cli/presenters/banking.js';
import { windows1252 } from '../../src/engine/tabular/file-text.js';

const statement = (name: string) => fileURLToPath(projectFile(`fixtures/bank-statements/${name}`));

t.test('import, inbox, accept, explain, categorise, reconcile', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as never;
  };

  const first = await acct('bank', 'import', statement('starling.csv'));
  t.equal(first.status, 0, first.stderr);
  // Starling: 8 rows, the HMRC VAT direct debit taken by the seed rule to 2202, the other 7 on suspense.
  t.match(first.stdout, 'starling.csv: 8 rows (Starling), 2024-03-02 to 2024-03-29');
  t.match(first.stdout, 'balance proof: PASS, closing balance 3,750.64');
  t.match(first.stdout, 'Created 8 transactions (1 categorised by rules, 7 on suspense 9999), skipped 0 duplicates, rejected 0: 8 rows in all');

  const again = await acct('bank', 'import', statement('starling.csv'));
  t.match(again.stdout, 'Created 0 transactions (0 categorised by rules, 0 on suspense 9999), skipped 8 duplicates, rejected 0: 8 rows in all');

  const dry = await acct('bank', 'import', statement('monzo.csv'), '--dry-run');
  t.equal(dry.status, 0, dry.stderr);
  t.match(dry.stdout, 'rejected row 4 (Ryman -12.49): line 5: "31/02/2024" is not a date');
  t.match(dry.stdout, 'Would create 6, skip 0 duplicates, reject 1: nothing imported (--dry-run)');

  const wrong = await acct('bank', 'import', statement('natwest-wrong-balance.csv'));
  t.equal(wrong.status, 5, 'balance_mismatch is a 422: exit 5');
  t.match(wrong.stderr, 'balance_mismatch');
  const imports = (await json('--json', 'bank-imports', 'list')) as { filename: string; status: string }[];
  t.same(
    imports.map((i) => [i.filename, i.status]),
    [
      ['starling.csv', 'completed'],
      ['starling.csv', 'completed'],
    ],
    'the dry run and the refused import left no import behind',
  );

  const inbox = (await json('--json', 'bank', 'inbox')) as { transactionId: string; description: string; amount: number }[];
  t.equal(inbox.length, 7);
  const table = await acct('bank', 'inbox');
  t.match(table.stdout, 'Uncategorised bank lines (on suspense 9999)');
  t.match(table.stdout, /Pret A Manger\s+-4\.35\s+no rule fits/);
  const unexplained = await acct('bank', 'explain', inbox.find((i) => i.description === 'Acme Widgets Ltd')!.transactionId);
  t.match(unexplained.stdout, '→ no rule fits', 'why the rules cannot tell, in words, not the reason code NoMatch');

  const accounts = (await json('--json', 'accounts', 'list', '--flat', 'true')) as { id: string; code: string }[];
  const office = accounts.find((a) => a.code === '5100')!.id;
  await json(
    '--json',
    'categorisation-rules',
    'create',
    '--name',
    'Pret',
    '--field',
    'description',
    '--operator',
    'contains',
    '--value',
    'Pret a Manger',
    '--target-account-id',
    office,
  );

  const pret = inbox.find((i) => i.description.startsWith('Pret'))!;
  const explain = await acct('bank', 'explain', pret.transactionId);
  t.match(explain.stdout, '→ 5100 Office Expenses, confidence');
  t.match(explain.stdout, 'description contains "PRET A MANGER"');
  t.match(explain.stdout, /score: provenance 3, operator 3, field 2, pattern 13, fit 100, priority 0, tieBreak -?\d+/);

  const tooSure = await acct('bank', 'accept', '--min-confidence', '0.95');
  t.match(tooSure.stdout, 'Categorised 0 lines; 7 left on suspense', 'a local contains rule is 80% sure, below 95%');
  const accepted = await acct('bank', 'accept');
  t.match(accepted.stdout, 'Categorised 3 lines; 4 left on suspense', 'the three Pret lines, at the default 0.8');

  const acme = inbox.find((i) => i.description === 'Acme Widgets Ltd')!;
  const sale = await json('--json', 'bank', 'categorise', acme.transactionId, '4000', '--vat-rate', '20', '--vat-treatment', 'inclusive');
  // £1,200.00 received, VAT inclusive at 20%: VAT = 1,200 × 20/120 = £200.00.
  t.same(
    (sale as { lines: { accountCode: string; amount: number; vatAmount: number | null }[] }).lines.map((l) => [l.accountCode, l.amount, l.vatAmount]),
    [
      ['1200', 120_000, null],
      ['4000', -120_000, 20_000],
    ],
  );

  // The books hold only the statement's lines: £1,500.39 net (3,750.64 − 2,250.25 opening, not in these books).
  const off = await acct('bank', 'reconcile', '1200', '--statement-balance', '3,750.64', '--as-of', '2024-03-31');
  t.equal(off.status, 5);
  t.match(off.stderr, '£2,250.25 more on the statement; nothing was marked');
  // An excluded id that is no unreconciled line of the account up to --as-of: refused, naming --exclude, nothing marked.
  const stray = await acct('bank', 'reconcile', '1200', '--statement-balance', '1,500.39', '--as-of', '2024-03-31', '--exclude', 'txn_nonexistent');
  t.equal(stray.status, 2);
  t.match(stray.stderr, /txn_nonexistent is not an unreconciled line of bank account 1 up to 2024-03-31.*\(field --exclude\)/);
  // --exclude given twice: the Acme receipt (+1,200.00) and a Pret lunch (−4.35) are not on the statement yet, which
  // therefore reads 1,500.39 − 1,200.00 + 4.35 = 304.74 over the other 6 lines.
  const part = await acct(
    'bank',
    'reconcile',
    '1200',
    '--statement-balance',
    '304.74',
    '--as-of',
    '2024-03-31',
    '--exclude',
    acme.transactionId,
    '--exclude',
    pret.transactionId,
  );
  t.equal(part.status, 0, part.stderr);
  t.match(part.stdout, 'Reconciled 6 lines');
  const ok = await acct('bank', 'reconcile', '1200', '--statement-balance', '1,500.39', '--as-of', '2024-03-31');
  t.equal(ok.status, 0, ok.stderr);
  t.match(ok.stdout, 'Reconciled 2 lines: the balance at 2024-03-31 is 1,500.39, as the statement says');
});

t.test('bank-imports upload --file reads a path; recategorise --dry-run changes nothing', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const up = await runCliInProcessJson(['--data', dir, '--json', 'bank-imports', 'upload', '--file', statement('hsbc.csv')]);
  t.equal(up.status, 0, up.stderr);
  t.match(up.data, { filename: 'hsbc.csv', totalRows: 6, status: 'pending' });
  const missing = await runCliInProcess(['--data', dir, 'bank-imports', 'upload', '--file', statement('nope.csv')]);
  t.equal(missing.status, 2);
  t.match(missing.stderr, 'cannot read');

  const id = (up.data as { importId: string }).importId;
  t.equal((await runCliInProcess(['--data', dir, 'bank-imports', 'confirm', id])).status, 0);
  // HSBC: HMRC PAYE went to 2210 by the seed rule and the two TfL fares to travel by a global rule as they were
  // imported; three lines wait on suspense.
  t.equal(((await runCliInProcessJson(['--data', dir, '--json', 'bank', 'inbox'])).data as unknown[]).length, 3);
  const accounts = (await runCliInProcessJson(['--data', dir, '--json', 'accounts', 'list', '--flat', 'true'])).data as { id: string; code: string }[];
  const office = accounts.find((a) => a.code === '5100')!.id;
  const rule = await runCliInProcess([
    '--data',
    dir,
    'categorisation-rules',
    'create',
    '--name',
    'Amazon',
    '--field',
    'description',
    '--operator',
    'starts_with',
    '--value',
    'AMAZON',
    '--target-account-id',
    office,
  ]);
  t.equal(rule.status, 0, rule.stderr);
  const dry = await runCliInProcess(['--data', dir, 'bank', 'recategorise', '--dry-run']);
  t.match(dry.stdout, 'Would categorise 1 line; 2 left on suspense', 'the Amazon line the new rule takes');
  t.equal(((await runCliInProcessJson(['--data', dir, '--json', 'bank', 'inbox'])).data as unknown[]).length, 3, 'the dry run changed nothing');
  const done = await runCliInProcess(['--data', dir, 'bank', 'recategorise']);
  t.match(done.stdout, 'Categorised 1 line; 2 left on suspense');
});

t.test('bank import --dry-run says what the import would do, and exits as it would', async (t) => {
  const { dir } = await books(t);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const both = async (file: string) => ({ dry: await acct('bank', 'import', file, '--dry-run'), real: await acct('bank', 'import', file) });

  // A statement that does not reconcile: refused by both, exit 5 (balance_mismatch is a 422), nothing said of creating.
  const wrong = await both(statement('natwest-wrong-balance.csv'));
  for (const [run, r] of Object.entries(wrong)) {
    t.equal(r.status, 5, `${run}: ${r.stderr}`);
    t.match(r.stderr, 'balance_mismatch', run);
    t.notMatch(r.stdout, /Would create|Created/, run);
  }

  // A row in a closed period: refused by both.
  const periods = (await runCliInProcessJson(['--data', dir, '--json', 'periods', 'list'])).data as { id: string; isCurrent: boolean; startDate: string }[];
  const ended = periods.find((p) => !p.isCurrent)!;
  const current = periods.find((p) => p.isCurrent)!;
  t.equal((await acct('periods', 'close', ended.id)).status, 0);
  const dmy = (iso: string) => iso.split('-').reverse().join('/');
  const closedFile = `${dir}/closed.csv`;
  fs.writeFileSync(closedFile, `Date,Description,Amount\n${dmy(current.startDate)},Coffee,-3.00\n${dmy(ended.startDate)},Old row,-4.00\n`);
  const closed = await both(closedFile);
  for (const [run, r] of Object.entries(closed)) {
    t.equal(r.status, 5, `${run}: ${r.stderr}`);
    t.match(r.stderr, `${ended.startDate} falls in`, run);
    t.notMatch(r.stdout, /Would create|Created/, run);
  }

  // A £0.00 row is a row error at upload: both go on with the rest, exit 0.
  const zeroFile = `${dir}/zero.csv`;
  fs.writeFileSync(zeroFile, `Date,Description,Amount\n${dmy(current.startDate)},Coffee,-3.00\n${dmy(current.startDate)},Nothing moved,0.00\n`);
  const zero = await both(zeroFile);
  t.equal(zero.dry.status, 0, zero.dry.stderr);
  t.match(zero.dry.stdout, `rejected row 2 (${current.startDate} Nothing moved 0.00): line 3: a zero amount posts nothing`);
  t.match(zero.dry.stdout, 'Would create 1, skip 0 duplicates, reject 1: nothing imported (--dry-run)');
  t.equal(zero.real.status, 0, zero.real.stderr);
  t.match(zero.real.stdout, 'Created 1 transaction (0 categorised by rules, 1 on suspense 9999), skipped 0 duplicates, rejected 1: 2 rows in all');
  const again = await acct('bank', 'import', zeroFile, '--dry-run');
  t.match(again.stdout, 'Would create 0, skip 1 duplicate, reject 1: nothing imported (--dry-run)', 'the coffee is a duplicate now');

  // Not one row readable (31 and 30 February): refused by both, exit 5, the way to read it another way told.
  const unreadableFile = `${dir}/unreadable.csv`;
  fs.writeFileSync(unreadableFile, 'Date,Description,Amount\n31/02/2024,A,1.00\n30/02/2024,B,2.00\n');
  const unreadable = await both(unreadableFile);
  for (const [run, r] of Object.entries(unreadable)) {
    t.equal(r.status, 5, `${run}: ${r.stderr}`);
    t.match(r.stderr, 'none of the 2 rows could be read (row 1: line 2: "31/02/2024"', run);
    t.match(r.stderr, 'nothing imported. acct bank-imports upload --file', run);
    t.notMatch(r.stderr, 'POST /bank-imports', run);
  }

  const imports = (await runCliInProcessJson(['--data', dir, '--json', 'bank-imports', 'list'])).data as { filename: string }[];
  t.same(
    imports.map((i) => i.filename),
    ['zero.csv'],
    'only the real import of zero.csv is left; the dry runs and the refusals left nothing',
  );
  const txns = (await runCliInProcessJson(['--data', dir, '--json', 'transactions', 'list'])).data as unknown[];
  t.equal(txns.length, 1, 'one transaction: the coffee');
});

t.test('bank-imports undo takes a statement back out of the books; it imports again without duplicates', async (t) => {
  const { dir } = await books(t);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const trialBalance = async () => {
    const r = await runCliInProcessJson(['--data', dir, '--json', 'report', 'trial-balance', '--as-of', '2024-03-31']);
    t.equal(r.status, 0, r.stderr);
    const tb = r.data as { accounts: { code: string; debit: number; credit: number }[]; totals: { debit: number; credit: number } };
    return { accounts: tb.accounts.map((a) => [a.code, a.debit, a.credit]), totals: tb.totals };
  };
  const empty = { accounts: [], totals: { debit: 0, credit: 0 } };
  t.same(await trialBalance(), empty, 'nothing before the import');

  const first = await acct('bank', 'import', statement('starling.csv'));
  t.equal(first.status, 0, first.stderr);
  const importId = /as (bimp_\w+)/.exec(first.stdout)![1]!;
  t.match(first.stdout, `(acct bank-imports undo ${importId} removes them all)`);
  // The eight rows sum to +1,500.39 on 1200; HMRC VAT's 1,234.56 goes to 2202 by the seed rule; suspense holds the
  // other side of the other seven: −(1,500.39 + 1,234.56) = −2,734.95. Debits 1,500.39 + 1,234.56 = 2,734.95.
  t.same(await trialBalance(), {
    accounts: [
      ['1200', 150_039, 0],
      ['2202', 123_456, 0],
      ['9999', 0, 273_495],
    ],
    totals: { debit: 273_495, credit: 273_495 },
  });

  const undo = await acct('bank-imports', 'undo', importId);
  t.equal(undo.status, 0, undo.stderr);
  t.same(await trialBalance(), empty, 'undone: the trial balance is as before the import');
  const listed = (await runCliInProcessJson(['--data', dir, '--json', 'bank-imports', 'list'])).data as { id: string; status: string }[];
  t.same(
    listed.map((i) => [i.id, i.status]),
    [[importId, 'undone']],
  );

  const twice = await acct('bank-imports', 'undo', importId);
  t.equal(twice.status, 4, 'already_voided is a 409: exit 4');
  t.match(twice.stderr, 'already undone');

  const again = await acct('bank', 'import', statement('starling.csv'));
  t.equal(again.status, 0, again.stderr);
  t.match(again.stdout, 'Created 8 transactions (1 categorised by rules, 7 on suspense 9999), skipped 0 duplicates, rejected 0: 8 rows in all');
  t.equal(((await runCliInProcessJson(['--data', dir, '--json', 'transactions', 'list'])).data as unknown[]).length, 8, 'eight transactions, once');
});

t.test('why the rules cannot tell, in words, for each reason', async (t) => {
  const rule = (id: number, name: string) => ({ id, name });
  const account = (code: string) => ({ id: `acc_${code}`, code, name: code });
  t.equal(unknownText({ kind: 'Unknown', reason: 'NoMatch', rulesConsidered: 3 }), 'no rule fits');
  t.equal(
    unknownText({
      kind: 'Unknown',
      reason: 'AmbiguousTopScore',
      contenders: [
        { rule: rule(1, 'Fuel'), account: account('7400'), provenance: 'local', scoreVector: [] },
        { rule: rule(2, 'Shell'), account: account('5100'), provenance: 'local', scoreVector: [] },
      ],
    }),
    'rules disagree: 7400, 5100',
  );
  t.equal(
    unknownText({ kind: 'Unknown', reason: 'InvalidRule', rule: rule(4, 'Old rent'), targetAccountId: 'acc_gone', scoreVector: [] }),
    'rule "Old rent" names an account that cannot be used',
  );
  t.equal(unknownText({ kind: 'Unknown', reason: 'MissingField', fields: ['amount'] }), 'the line has no amount');
});

t.test('bank import reads a statement in Windows-1252 (Nationwide’s) as the bank wrote it', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const r = await runCliInProcess(['--data', dir, 'bank', 'import', statement('nationwide.csv')]);
  t.equal(r.status, 0, r.stderr);
  // £1,000.00 + £1,500.00 − £154.33 − £3.45 − £12.00 = £2,330.22
  t.match(r.stdout, 'balance proof: PASS, closing balance 2,330.22');
  t.match(r.stdout, 'rejected 0: 4 rows in all');
  const listed = await runCliInProcessJson(['--data', dir, '--json', 'transactions', 'list']);
  const descriptions = (listed.data as { description: string }[]).map((l) => l.description);
  for (const name of ['CAFÉ NERO', 'O’NEILL’S BAR']) t.ok(descriptions.includes(name), `${name}, not U+FFFD`);
});

// Excel's "Unicode Text" and some banks' exports are UTF-16 with a byte order mark;
// read as UTF-8 every other byte was a NUL and the import was refused.
t.test('bank import reads a statement saved as UTF-16 (little- or big-endian, with its byte order mark)', async (t) => {
  const text = windows1252(fs.readFileSync(statement('nationwide.csv')));
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le.subarray(2)).swap16();
  for (const [name, bytes] of [
    ['le', le],
    ['be', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
  ] as const) {
    const dir = t.testdir();
    await init(t, dir);
    const file = `${dir}/nationwide-utf16${name}.csv`;
    fs.writeFileSync(file, bytes);
    const r = await runCliInProcess(['--data', dir, 'bank', 'import', file]);
    t.equal(r.status, 0, r.stderr);
    // £1,000.00 + £1,500.00 − £154.33 − £3.45 − £12.00 = £2,330.22, as the Windows-1252 file
    t.match(r.stdout, 'balance proof: PASS, closing balance 2,330.22', `UTF-16${name.toUpperCase()}`);
    const listed = await runCliInProcessJson(['--data', dir, '--json', 'transactions', 'list']);
    const descriptions = (listed.data as { description: string }[]).map((l) => l.description);
    t.ok(descriptions.includes('O’NEILL’S BAR'), `UTF-16${name.toUpperCase()}: the names read whole`);
  }
});

t.test('bank categorise takes the account by code, id or name, as the generated commands do', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as never;
  };
  t.equal((await acct('bank', 'import', statement('starling.csv'))).status, 0);
  const inbox = (await json('bank', 'inbox')) as { transactionId: string }[];
  const codes = async (id: string) => ((await json('transactions', 'get', id)) as { lines: { accountCode: string }[] }).lines.map((l) => l.accountCode).sort();

  // By its name, exactly (5800 Bank Charges) and ignoring case (5400 Travel).
  await json('bank', 'categorise', inbox[0]!.transactionId, 'Bank Charges');
  t.same(await codes(inbox[0]!.transactionId), ['1200', '5800']);
  await json('bank', 'categorise', inbox[1]!.transactionId, 'travel');
  t.same(await codes(inbox[1]!.transactionId), ['1200', '5400']);
  // By code, as before.
  await json('bank', 'categorise', inbox[2]!.transactionId, '5100');
  t.same(await codes(inbox[2]!.transactionId), ['1200', '5100']);

  // "Motor" begins two names: refused, listing both, nothing changed.
  const ambiguous = await acct('bank', 'categorise', inbox[3]!.transactionId, 'Motor');
  t.equal(ambiguous.status, 2, ambiguous.stderr);
  t.match(
    ambiguous.stderr,
    /validation_error: "Motor" matches 2 accounts: 1030 Motor Vehicles \(acc_\w+\); 5500 Motor Expenses \(acc_\w+\); give more of it, or the id/,
  );
  const unknown = await acct('bank', 'categorise', inbox[3]!.transactionId, 'Nothing Like It');
  t.equal(unknown.status, 3, unknown.stderr);
  t.match(unknown.stderr, 'not_found: no account "Nothing Like It"');
  // A slip of the name gets the account it nearly names (the explorer's "Bank Chrges", one letter short of 5800 Bank Charges).
  const misspelt = await acct('bank', 'categorise', inbox[3]!.transactionId, 'Bank Chrges');
  t.equal(misspelt.status, 3, misspelt.stderr);
  t.equal(misspelt.stderr, 'error not_found: no account "Bank Chrges"; did you mean "Bank Charges" (5800)? (field account)\n');
  t.same(await codes(inbox[3]!.transactionId), ['1200', '9999'], 'still on suspense');
});

// A minus in the Credit column is a credit reversed: money out. The bank's own balance
// column says so (100.00, then 96.00), so the balance proof passes only read that way.
// Read as money in (its size alone), the import stated 104.00 where the bank says 96.00.
t.test('bank import: -4.00 in a Credit column is money out, as the balance column shows', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const file = `${dir}/reversal.csv`;
  fs.writeFileSync(
    file,
    [
      'Date,Description,Debit,Credit,Balance',
      '02/11/2026,CLIENT PAYMENT,,100.00,100.00',
      '03/11/2026,CREDIT REVERSED,,-4.00,96.00',
      '04/11/2026,CARD SHOP,-10.00,,86.00',
      '05/11/2026,STANDING ORDER,5.00,,81.00',
    ].join('\n'),
  );
  const r = await runCliInProcess(['--data', dir, 'bank', 'import', file]);
  t.equal(r.status, 0, r.stderr);
  // 100.00 − 4.00 − 10.00 − 5.00 = 81.00, the bank's closing balance
  t.match(r.stdout, 'balance proof: PASS, closing balance 81.00');
  const listed = await runCliInProcessJson(['--data', dir, '--json', 'transactions', 'list']);
  const reversal = (listed.data as { description: string; total: number }[]).find((l) => l.description === 'CREDIT REVERSED');
  t.ok(reversal, 'the reversal is imported');
  const ledger = await runCliInProcess(['--data', dir, 'ledger', '1200', '--csv']);
  t.equal(ledger.status, 0, ledger.stderr);
  // The bank account ends at 81.00 in the books, as on the statement.
  t.match(ledger.stdout, /81\.00\s*$/);
});

t.test('a line a rule categorised at import is categorised again with its VAT: the rule put none', async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'VAT Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as never;
  };
  const file = `${dir}/november.csv`;
  fs.writeFileSync(file, 'Date,Description,Amount,Balance\n01/11/2026,VIRGIN MEDIA,-60.00,-60.00\n02/11/2026,VODAFONE LTD,-24.00,-84.00\n');
  const imported = await acct('bank', 'import', file);
  t.equal(imported.status, 0, imported.stderr);
  t.match(imported.stdout, '2 categorised by rules, 0 on suspense');
  const lines = (await json('transactions', 'list', '--from', '2026-11-01', '--to', '2026-11-30')) as { id: string; description: string }[];
  const virgin = lines.find((l) => l.description.includes('VIRGIN'))!.id;
  const vat = async () => ((await json('report', 'vat', '--from', '2026-11-01', '--to', '2026-11-30')) as { boxes: Record<string, number> }).boxes;
  t.match(await vat(), { box4: 0, box7: 0 }, 'the rule posted no VAT');

  const again = (await json('bank', 'categorise', virgin, '5700', '--vat-rate', '20', '--vat-treatment', 'inclusive')) as {
    lines: { accountCode: string; amount: number; vatAmount: number | null }[];
  };
  // £60.00 paid, VAT inclusive at 20%: VAT = 60 × 20/120 = £10.00, net £50.00.
  t.same(
    again.lines.map((l) => [l.accountCode, l.amount, l.vatAmount]),
    [
      ['1200', -6_000, null],
      ['5700', 6_000, 1_000],
    ],
  );
  t.match(await vat(), { box4: 1_000, box7: 5_000 }, 'box 4 £10.00; box 7 the £50.00 net');
  // A journal typed by hand is no statement's line: nothing to categorise there.
  t.equal((await acct('post', '2026-11-03', 'Cash for the phone', '5700=10', '1200=-10')).status, 0);
  const accrual = ((await json('transactions', 'list', '--from', '2026-11-03', '--to', '2026-11-03')) as { id: string }[])[0]!.id;
  const refused = await acct('bank', 'categorise', accrual, '5800');
  t.equal(refused.status, 5, refused.stderr);
  t.match(refused.stderr, 'it is categorised already');
});
