import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';

t.test('acct post records a transaction by account codes with amounts in pounds', async (t) => {
  const books = await newBooks(t);
  const r = await runCliInProcessJson([
    '--data',
    books.dataDir,
    '--json',
    'post',
    '2026-03-01',
    'Office chairs',
    '5100=120.00',
    '2201=24',
    '1200=-144.00',
    '--ref',
    'PO-7',
  ]);
  t.equal(r.status, 0, r.stderr);
  const txn = r.data as { status: string; reference: string; totalDebit: number; lines: { accountCode: string; amount: number }[] };
  t.match(txn, { status: 'posted', reference: 'PO-7', totalDebit: 14400, sourceType: 'manual' });
  t.same(
    txn.lines.map((l) => [l.accountCode, l.amount]),
    [
      ['5100', 12000],
      ['2201', 2400],
      ['1200', -14400],
    ],
  );
  const draft = await runCliInProcessJson(['--data', books.dataDir, '--json', 'post', '2026-03-02', 'Stamps', '5100=1,234.56', '1200=-1234.56', '--draft']);
  t.match(draft.data, { status: 'draft', totalDebit: 123456 });
});

t.test('acct post refuses, naming the problem, and writes nothing', async (t) => {
  const books = await newBooks(t);
  const cases: [string[], RegExp][] = [
    // £1.00 debited, £2.00 credited: £1.00 short, said in pounds as typed
    [['5100=1', '1200=-2'], /validation_error: lines do not balance: debits £1\.00, credits £2\.00, difference -£1\.00 /],
    [
      ['5100=1.234', '1200=-1.234'],
      /validation_error: 1st CODE=AMOUNT 5100=1\.234: the amount must be an amount in pounds such as 120\.00, not 1\.234 \(field CODE=AMOUNT 1\)/,
    ],
    [['7777=1', '1200=-1'], /validation_error: 1st CODE=AMOUNT 7777=1: no account with code 7777 \(field CODE=AMOUNT 1\)/],
    [['5100:1', '1200=-1'], /validation_error: 1st CODE=AMOUNT: expected CODE=AMOUNT/],
    [['5100=1'], /validation_error: a transaction needs at least two CODE=AMOUNT lines, a debit and a credit \(field CODE=AMOUNT\)/],
  ];
  for (const [lines, message] of cases) {
    const r = await runCliInProcess(['--data', books.dataDir, 'post', '2026-03-01', 'Bad', ...lines]);
    t.equal(r.status, 2, lines.join(' '));
    t.match(r.stderr, message);
  }
  const bad = await runCliInProcess(['--data', books.dataDir, 'post', '2026-02-30', 'Bad date', '5100=1', '1200=-1']);
  t.match(bad.stderr, /validation_error: 2026-02-30 is not a real date: February 2026 has 28 days \(field <date>\)/, 'as the other commands say it');
  const list = await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list']);
  t.same(list.data, [], 'nothing was written');
});

t.test('acct ledger prints the running balance in pounds, thousands grouped, opening and closing', async (t) => {
  const books = await newBooks(t);
  const post = async (...args: string[]) => t.equal((await runCliInProcess(['--data', books.dataDir, 'post', ...args])).status, 0);
  await post('2026-01-10', 'Capital introduced', '1200=1000', '3000=-1000');
  await post('2026-02-01', 'Chairs', '5100=120.00', '2201=24.00', '1200=-144.00', '--ref', 'INV-9');
  await post('2026-03-01', 'Draft only', '5100=5', '1200=-5', '--draft');
  await post('2026-03-05', 'Sale', '1200=60', '4000=-50', '2200=-10');
  const all = await runCliInProcess(['--data', books.dataDir, 'ledger', '1200']);
  t.equal(all.status, 0, all.stderr);
  t.equal(
    all.stdout,
    [
      '1200 Bank Account',
      'date        description         reference     debit  credit   balance  Dr/Cr',
      '            Opening balance                                      0.00',
      '2026-01-10  Capital introduced             1,000.00          1,000.00  Dr',
      '2026-02-01  Chairs              INV-9                144.00    856.00  Dr', // 1,000.00 - 144.00
      '2026-03-05  Sale                              60.00            916.00  Dr', // 856.00 + 60.00; the draft is left out
      '            Closing balance                1,060.00  144.00    916.00  Dr',
      '',
    ].join('\n'),
  );
  const from = await runCliInProcess(['--data', books.dataDir, 'ledger', '1200', '--from', '2026-02-01', '--to', '2026-02-28']);
  t.equal(
    from.stdout,
    [
      '1200 Bank Account',
      'date        description      reference  debit  credit   balance  Dr/Cr',
      '2026-02-01  Opening balance                            1,000.00  Dr',
      '2026-02-01  Chairs           INV-9             144.00    856.00  Dr',
      '2026-02-28  Closing balance              0.00  144.00    856.00  Dr',
      '',
    ].join('\n'),
  );
  // Revenue is a credit balance: 50.00 Cr, as an accountant prints it, never -50.00.
  const sales = await runCliInProcess(['--data', books.dataDir, 'ledger', '4000']);
  t.equal(
    sales.stdout,
    [
      '4000 Sales',
      'date        description      reference  debit  credit  balance  Dr/Cr',
      '            Opening balance                               0.00',
      '2026-03-05  Sale' + ' '.repeat(32) + '50.00    50.00  Cr', // description 15 wide, reference 9, an empty debit 5, two spaces after each
      '            Closing balance              0.00   50.00    50.00  Cr',
      '',
    ].join('\n'),
  );
  const json = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '1200', '--from', '2026-03-01']);
  t.match(json.data, { openingBalance: 85600, closingBalance: 91600, totalDebit: 6000, totalCredit: 0 });
  const unknown = await runCliInProcess(['--data', books.dataDir, 'ledger', '7777']);
  t.equal(unknown.status, 3);
  t.equal(unknown.stderr, 'error not_found: no account "7777" (field <account>)\n');
});

t.test('acct ledger streams: CSV, --limit, --json in the API shape, an account by name, period words', async (t) => {
  const books = await newBooks(t);
  const post = async (...args: string[]) => t.equal((await runCliInProcess(['--data', books.dataDir, 'post', ...args])).status, 0);
  await post('2026-01-10', 'Capital introduced', '1200=1000', '3000=-1000');
  await post('2026-02-01', 'Chairs, two', '5100=120.00', '2201=24.00', '1200=-144.00', '--ref', 'INV-9');
  await post('2026-03-05', 'Sale', '1200=60', '4000=-50', '2200=-10');

  const csv = await runCliInProcess(['--data', books.dataDir, 'ledger', 'Bank Account', '--csv']);
  t.equal(csv.status, 0, csv.stderr);
  t.equal(
    csv.stdout,
    [
      'date,description,reference,debit,credit,balance',
      ',Opening balance,,,,0.00',
      '2026-01-10,Capital introduced,,1000.00,,1000.00',
      '2026-02-01,"Chairs, two",INV-9,,144.00,856.00', // 1000.00 - 144.00
      '2026-03-05,Sale,,60.00,,916.00', // 856.00 + 60.00
      '',
    ].join('\n'),
  );
  const q1 = await runCliInProcess(['--data', books.dataDir, 'ledger', '1200', '--csv', '--from', '2026-Q1', '--limit', '1']);
  t.equal(
    q1.stdout,
    ['date,description,reference,debit,credit,balance', '2026-01-01,Opening balance,,,,0.00', '2026-01-10,Capital introduced,,1000.00,,1000.00', ''].join('\n'),
    '--limit 1, --from a quarter',
  );

  const json = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '1200', '--from', '2026-02']);
  // February only: opening 1,000.00; one credit of 144.00; closing 856.00.
  t.match(json.data, {
    account: { code: '1200', name: 'Bank Account' },
    period: { from: '2026-02-01', to: '2026-02-28' },
    openingBalance: 100000,
    entries: [{ date: '2026-02-01', description: 'Chairs, two', reference: 'INV-9', debit: 0, credit: 14400, runningBalance: 85600 }],
    totalDebit: 0,
    totalCredit: 14400,
    closingBalance: 85600,
  });
  t.equal((json.data as { entries: unknown[] }).entries.length, 1);
  const empty = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '4000', '--from', '2025-01', '--to', '2025-12']);
  t.same((empty.data as { entries: unknown[] }).entries, [], 'no lines: an empty list, still JSON');
});

t.test('acct ledger reads in chunks: the running balance carries across them, and CSV cells a spreadsheet would run are neutralised', async (t) => {
  const books = await newBooks(t);
  // 2,345 receipts of £1.00 each on 1200, one a day from 2020-01-01: more than two chunks of 1,000 lines.
  const day0 = Date.UTC(2020, 0, 1);
  const entries = Array.from({ length: 2345 }, (_, i) =>
    JSON.stringify({
      date: new Date(day0 + i * 86_400_000).toISOString().slice(0, 10),
      description: i === 1500 ? '=HYPERLINK("http://example.com","x")' : `Receipt ${i + 1}`,
      lines: [
        { accountCode: '1200', amount: 100 },
        { accountCode: '4000', amount: -100 },
      ],
    }),
  );
  const file = path.join(books.dataDir, 'receipts.jsonl');
  fs.writeFileSync(file, `${entries.join('\n')}\n`);
  t.equal((await runCliInProcess(['--data', books.dataDir, 'import', 'journal', file])).status, 0);

  const csv = await runCliInProcess(['--data', books.dataDir, 'ledger', '1200', '--csv']);
  t.equal(csv.status, 0, csv.stderr);
  const rows = csv.stdout.trimEnd().split('\n');
  t.equal(rows.length, 2 + 2345, 'the header, the opening row and every line');
  // Line 1,000 closes the first chunk at 1,000 × £1.00; line 1,001 opens the second at 1,001.00.
  t.equal(rows[2 + 999], '2022-09-26,Receipt 1000,,1.00,,1000.00');
  t.equal(rows[2 + 1000], '2022-09-27,Receipt 1001,,1.00,,1001.00');
  t.equal(rows[2 + 1500], `2024-02-09,"'=HYPERLINK(""http://example.com"",""x"")",,1.00,,1501.00`, 'a formula is quoted and prefixed with an apostrophe');
  t.equal(rows.at(-1), '2026-06-02,Receipt 2345,,1.00,,2345.00', '2,345 × £1.00');

  const json = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '1200']);
  const ledger = json.data as { entries: { runningBalance: number }[]; totalDebit: number; closingBalance: number };
  t.equal(ledger.entries.length, 2345);
  t.equal(ledger.entries[2344]?.runningBalance, 234500);
  t.equal(ledger.totalDebit, 234500);
  t.equal(ledger.closingBalance, 234500);
});

t.test('acct post names the CODE=AMOUNT arguments when the lines as a whole are refused, and writes nothing', async (t) => {
  const books = await newBooks(t);
  const one = await runCliInProcess(['--data', books.dataDir, 'post', '2026-11-01', 'Half a journal', '1200=5']);
  t.equal(one.status, 2);
  t.equal(one.stderr, 'error validation_error: a transaction needs at least two CODE=AMOUNT lines, a debit and a credit (field CODE=AMOUNT)\n');
  const uneven = await runCliInProcess(['--data', books.dataDir, 'post', '2026-11-01', 'Uneven', '1200=5', '4000=-4']);
  t.equal(uneven.status, 2);
  // £5.00 debit against £4.00 credit: £1.00 out.
  t.match(uneven.stderr, /debits £5\.00, credits £4\.00, difference £1\.00.*\(field CODE=AMOUNT\)/);
  t.same((await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list'])).data, [], 'nothing written');
});

t.test('acct post and acct transactions create refuse a journal on 1100 or 2100 (kept by documents), exit 2, and write nothing', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const ar = await runCliInProcess(['--data', books.dataDir, 'post', '2026-11-13', 'AR journal', '1100=50', '4000=-50']);
  t.equal(ar.status, 2, 'as other validation errors');
  t.match(
    ar.stderr,
    /^error validation_error: 1st CODE=AMOUNT 1100=50: the account: 1100 Accounts Receivable is the receivables control account.*record an invoice.*\(field CODE=AMOUNT 1\)\n$/,
  );
  const ap = await runCliInProcess(['--data', books.dataDir, 'post', '2026-11-13', 'AP journal', '5000=50', '2100=-50', '--draft']);
  t.equal(ap.status, 2);
  t.match(ap.stderr, /2nd CODE=AMOUNT 2100=-50: the account: 2100 Accounts Payable is the payables control account.*record a bill.*\(field CODE=AMOUNT 2\)/);

  const accounts = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'accounts', 'list', '--flat'])).data as { code: string; id: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const body = JSON.stringify({
    lines: [
      { accountId: id('1100'), amount: 5000 },
      { accountId: id('4000'), amount: -5000 },
    ],
  });
  const created = await runCliInProcess([
    '--data',
    books.dataDir,
    'transactions',
    'create',
    '--date',
    '2026-11-13',
    '--description',
    'AR journal',
    '--body',
    body,
  ]);
  t.equal(created.status, 2);
  t.match(
    created.stderr,
    /validation_error: lines\[0\]\.accountId: 1100 Accounts Receivable is the receivables control account.*\(field lines\[0\]\.accountId\)/,
  );
  t.same((await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list'])).data, [], 'nothing written');
});

t.test('acct ledger reads --from and --to as the other date-range flags do: words and periods, and refuses anything else naming the flag', async (t) => {
  const books = await newBooks(t);
  const post = async (...args: string[]) => t.equal((await runCliInProcess(['--data', books.dataDir, 'post', ...args])).status, 0);
  await post('2026-10-01', 'Chairs', '5100=120.00', '2201=24.00', '1200=-144.00');
  await post('2026-10-20', 'Sale', '1200=600', '4000=-500', '2200=-100');
  const ledger = async (...args: string[]) => runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '1200', ...args]);
  const refused = async (...args: string[]) => runCliInProcess(['--data', books.dataDir, 'ledger', '1200', ...args]);

  // Each of these once printed a balance, exit 0: the text compared with the dates as text.
  // A period nearly right says what is wrong with it rather than listing every form (checkDateText's near misses).
  for (const [flag, value, message] of [
    ['--from', '2026-Q5', '2026-Q5 is not a quarter: quarters are Q1–Q4'],
    ['--from', '2026-13', '2026-13 is not a month: months are 01–12'],
    ['--from', '2026-Q0', '2026-Q0 is not a quarter: quarters are Q1–Q4'],
    ['--to', 'fy99', 'write the year in full: fy1999 (the financial year that begins in 1999)'],
  ] as const) {
    const r = await refused(flag, value);
    t.equal(r.status, 2, `${flag} ${value} is refused`);
    t.equal(r.stdout, '', `${flag} ${value}: no ledger printed`);
    t.equal(r.stderr, `error validation_error: ${message} (field ${flag})\n`, `${flag} ${value}`);
  }
  for (const [flag, value] of [
    ['--to', '2026/10/03'],
    ['--from', 'garbage'],
    ['--from', 'last-week'],
    ['--from', 'next-month'],
    ['--to', '20261001'],
    ['--to', '2026-10-1'],
    ['--from', '26-10-01'],
  ] as const) {
    const r = await refused(flag, value);
    t.equal(r.status, 2, `${flag} ${value} is refused`);
    t.equal(r.stdout, '', `${flag} ${value}: no ledger printed`);
    t.match(
      r.stderr,
      new RegExp(`^error validation_error: ${flag} takes YYYY-MM-DD, or a period: .*; not ${value} \\(field ${flag}\\)\\n$`),
      `${flag} ${value}`,
    );
  }
  const dayFirst = await refused('--to', '31/03/2026');
  t.equal(dayFirst.status, 2);
  t.equal(dayFirst.stderr, 'error validation_error: write dates as YYYY-MM-DD: 31/03/2026 is 2026-03-31 if it is day first, as in the UK (field --to)\n');
  const unreal = await refused('--from', '2026-02-30');
  t.equal(unreal.stderr, 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field --from)\n');
  const backwards = await refused('--from', '2026-11-01', '--to', '2026-10-01');
  t.equal(backwards.status, 2);
  t.equal(backwards.stderr, 'error validation_error: --from (2026-11-01) is after --to (2026-10-01) (field --from)\n');

  // Accepted as elsewhere: a month, a quarter, a financial year (a limited company's begins 04-01).
  // To 2026-10-19: one credit of 144.00, so -144.00. From 2026-10-20: opening -144.00, +600.00, closing 456.00.
  t.match((await ledger('--to', '2026-10-19')).data, { period: { to: '2026-10-19' }, closingBalance: -14400 });
  t.match((await ledger('--from', '2026-10-20')).data, { period: { from: '2026-10-20' }, openingBalance: -14400, closingBalance: 45600 });
  t.match((await ledger('--from', '2026-11')).data, { period: { from: '2026-11-01', to: '2026-11-30' }, openingBalance: 45600, entries: [] });
  t.match((await ledger('--from', '2026-Q3')).data, { period: { from: '2026-07-01', to: '2026-09-30' }, openingBalance: 0, closingBalance: 0 });
  t.match((await ledger('--from', '2026-q4')).data, { period: { from: '2026-10-01', to: '2026-12-31' }, closingBalance: 45600 });
  t.match((await ledger('--from', 'fy2026')).data, { period: { from: '2026-04-01', to: '2027-03-31' }, closingBalance: 45600 });
  t.match((await ledger('--from', 'FY2025')).data, { period: { from: '2025-04-01', to: '2026-03-31' }, closingBalance: 0 });
  const lastQuarter = await ledger('--from', 'last-quarter');
  t.equal(lastQuarter.status, 0, lastQuarter.stderr);
  t.match(lastQuarter.data, { period: { from: /^\d{4}-\d{2}-01$/, to: /^\d{4}-\d{2}-3[01]$/ } }, 'a relative word resolves to a quarter, whatever today is');
});

t.test('acct post takes today and yesterday for its date, as the one-day flags do; a longer period is refused', async (t) => {
  const books = await newBooks(t);
  const london = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(Date.now()));
  const dayBefore = (day: string): string => new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  for (const [word, expected] of [
    ['today', (day: string) => day],
    ['Yesterday', dayBefore],
  ] as const) {
    const before = london();
    const r = await runCliInProcessJson(['--data', books.dataDir, '--json', 'post', word, 'Stamps', '5100=1', '1200=-1']);
    const after = london();
    t.equal(r.status, 0, `${word}: ${r.stderr}`);
    // Today in the UK, read before and after the run: either, should midnight fall between.
    t.ok([expected(before), expected(after)].includes((r.data as { date: string }).date), `${word} is ${expected(before)}`);
  }
  const period = await runCliInProcess(['--data', books.dataDir, 'post', 'this-month', 'Stamps', '5100=1', '1200=-1']);
  t.equal(period.status, 2);
  t.equal(period.stderr, 'error validation_error: this-month is a period: <date> takes one day (YYYY-MM-DD, today or yesterday) (field <date>)\n');
  const word = await runCliInProcess(['--data', books.dataDir, 'post', 'tomorrow', 'Stamps', '5100=1', '1200=-1']);
  t.equal(word.status, 2);
  t.match(word.stderr, /\(field <date>\)\n$/);
  const list = await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list']);
  t.equal((list.data as unknown[]).length, 2, 'the two dated by a word, nothing else');
});
