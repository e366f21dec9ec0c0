/**
 * acct ledger and acct report general-ledger over a range that crosses a
 * financial-year start: the year end is a row dated the new year's first
 * day, income and expenses close to nothing and 3100 Retained Earnings takes
 * the year's profit, so the closing balance is the trial balance's.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';

/**
 * The financial year starts 1 March: FY 2023/24 ends on 2024-02-29.
 *   2024-01-15 sale  1200 3.00 Dr, 4000 3.00 Cr   FY 2023/24
 *   2024-02-29 leap  1200 5.00 Dr, 4000 5.00 Cr   FY 2023/24: profit 8.00
 *   2024-03-01 mar   1200 7.00 Dr, 4000 7.00 Cr   FY 2024/25
 *   2024-06-10 rent  5000 20.00 Dr, 1200 20.00 Cr FY 2024/25: 7.00 − 20.00, a loss of 13.00
 *   2025-03-03 sale  1200 9.00 Dr, 4000 9.00 Cr   FY 2025/26
 */
async function marchCo(t: Test) {
  const books = await newBooks(t, {
    clock: '2026-11-21T10:00:00Z',
    organisation: { name: 'March Co', businessType: 'limited_company', vatScheme: 'not_registered', fiscalYearStart: '03-01' },
  });
  const acct = (...args: string[]) => runCliInProcess(['--data', books.dataDir, ...args]);
  for (const [date, description, ...lines] of [
    ['2024-01-15', 'sale', '1200=3', '4000=-3'],
    ['2024-02-29', 'leap', '1200=5', '4000=-5'],
    ['2024-03-01', 'mar', '1200=7', '4000=-7'],
    ['2024-06-10', 'rent', '5000=20', '1200=-20'],
    ['2025-03-03', 'sale', '1200=9', '4000=-9'],
  ] as const) {
    const r = await acct('post', date, description, ...lines);
    t.equal(r.status, 0, r.stderr);
  }
  return { books, acct };
}

t.test('acct ledger across a year start: the table, the CSV and the JSON show the year end and close at the trial balance', async (t) => {
  const { books, acct } = await marchCo(t);
  const sales = await acct('ledger', '4000', '--from', '2024-02-01', '--to', '2024-03-31');
  t.equal(sales.status, 0, sales.stderr);
  const yearEnd = 'Year end 2024-02-29: closed to 3100 Retained Earnings';
  // Opening 3.00 Cr; leap 8.00 Cr; the year end debits 8.00 → nothing; mar 7.00 Cr. Closing: 3.00 Cr + 8.00 − 12.00 = 7.00 Cr.
  t.equal(
    sales.stdout,
    [
      '4000 Sales',
      `date        ${'description'.padEnd(yearEnd.length)}  reference  debit  credit  balance  Dr/Cr`,
      // After the description: two spaces, the reference (9), two, debit (5), two, credit (6), two, balance (7), two, Dr/Cr.
      `2024-02-01  ${'Opening balance'.padEnd(yearEnd.length)}${' '.repeat(31)}3.00  Cr`,
      `2024-02-29  ${'leap'.padEnd(yearEnd.length)}${' '.repeat(22)}5.00     8.00  Cr`,
      `2024-03-01  ${yearEnd}${' '.repeat(14)}8.00${' '.repeat(13)}0.00`,
      `2024-03-01  ${'mar'.padEnd(yearEnd.length)}${' '.repeat(22)}7.00     7.00  Cr`,
      `2024-03-31  ${'Closing balance'.padEnd(yearEnd.length)}${' '.repeat(14)}8.00   12.00     7.00  Cr`,
      '',
    ].join('\n'),
  );

  const trial = await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', 'trial-balance', '--as-of', '2024-03-31']);
  t.equal(trial.status, 0, trial.stderr);
  t.match((trial.data as { accounts: { code: string }[] }).accounts, [
    { code: '1200', debit: 1500 },
    { code: '3100', credit: 800 },
    { code: '4000', credit: 700 },
  ]);

  const retained = await acct('ledger', '3100', '--from', '2024-02-01', '--to', '2024-03-31', '--csv');
  t.equal(
    retained.stdout,
    [
      'date,description,reference,debit,credit,balance',
      '2024-02-01,Opening balance,,,,0.00',
      // FY 2023/24's profit, 3.00 + 5.00, a credit.
      '2024-03-01,Year end 2024-02-29: profit for the year closed from income and expenses,,,8.00,-8.00',
      '',
    ].join('\n'),
  );

  const json = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '4000', '--from', '2024-02-01', '--to', '2024-03-31']);
  t.equal(json.status, 0, json.stderr);
  const data = json.data as { entries: { kind: string; transactionId: string | null; lineId: string | null; runningBalance: number }[] };
  t.same(
    data.entries.map((e) => [e.kind, e.transactionId === null, e.lineId === null, e.runningBalance]),
    [
      ['line', false, false, -800],
      ['year_end', true, true, 0],
      ['line', false, false, -700],
    ],
  );
  t.match(data, { openingBalance: -300, totalDebit: 800, totalCredit: 1200, closingBalance: -700 });

  // --limit counts the year end row; the closing balance still covers the range.
  const first = await acct('ledger', '4000', '--from', '2024-02-01', '--to', '2024-03-31', '--csv', '--limit', '2');
  t.equal(
    first.stdout,
    [
      'date,description,reference,debit,credit,balance',
      '2024-02-01,Opening balance,,,,-3.00',
      '2024-02-29,leap,,,5.00,-8.00',
      `2024-03-01,${yearEnd},,8.00,,0.00`,
      '',
    ].join('\n'),
  );
  const limited = await runCliInProcessJson([
    '--data',
    books.dataDir,
    '--json',
    'ledger',
    '4000',
    '--from',
    '2024-02-01',
    '--to',
    '2024-03-31',
    '--limit',
    '1',
  ]);
  t.match(limited.data, { totalDebit: 800, totalCredit: 1200, closingBalance: -700 });
});

t.test('acct ledger over two year starts and a loss year', async (t) => {
  const { acct } = await marchCo(t);
  const retained = await acct('ledger', '3100', '--from', '2024-02-01', '--to', '2025-03-31', '--csv');
  t.equal(
    retained.stdout,
    [
      'date,description,reference,debit,credit,balance',
      '2024-02-01,Opening balance,,,,0.00',
      '2024-03-01,Year end 2024-02-29: profit for the year closed from income and expenses,,,8.00,-8.00',
      // FY 2024/25: 7.00 of sales − 20.00 of rent = a loss of 13.00, a debit: −8.00 + 13.00 = 5.00.
      '2025-03-01,Year end 2025-02-28: loss for the year closed from income and expenses,,13.00,,5.00',
      '',
    ].join('\n'),
  );
  const rent = await acct('ledger', '5000', '--from', '2024-02-01', '--to', '2025-03-31', '--csv');
  t.equal(
    rent.stdout,
    [
      'date,description,reference,debit,credit,balance',
      '2024-02-01,Opening balance,,,,0.00',
      '2024-06-10,rent,,20.00,,20.00',
      '2025-03-01,Year end 2025-02-28: closed to 3100 Retained Earnings,,,20.00,0.00',
      '',
    ].join('\n'),
  );
  const sales = await acct('ledger', '4000', '--from', '2024-02-01', '--to', '2025-03-31', '--csv');
  t.equal(
    sales.stdout,
    [
      'date,description,reference,debit,credit,balance',
      '2024-02-01,Opening balance,,,,-3.00',
      '2024-02-29,leap,,,5.00,-8.00',
      '2024-03-01,Year end 2024-02-29: closed to 3100 Retained Earnings,,8.00,,0.00',
      '2024-03-01,mar,,,7.00,-7.00',
      '2025-03-01,Year end 2025-02-28: closed to 3100 Retained Earnings,,7.00,,0.00',
      '2025-03-03,sale,,,9.00,-9.00',
      '',
    ].join('\n'),
  );
  // With no range: from the first line to the books' last day (2025-03-03).
  const whole = await acct('ledger', '4000', '--csv');
  t.equal(
    whole.stdout,
    [
      'date,description,reference,debit,credit,balance',
      ',Opening balance,,,,0.00',
      '2024-01-15,sale,,,3.00,-3.00',
      '2024-02-29,leap,,,5.00,-8.00',
      '2024-03-01,Year end 2024-02-29: closed to 3100 Retained Earnings,,8.00,,0.00',
      '2024-03-01,mar,,,7.00,-7.00',
      '2025-03-01,Year end 2025-02-28: closed to 3100 Retained Earnings,,7.00,,0.00',
      '2025-03-03,sale,,,9.00,-9.00',
      '',
    ].join('\n'),
  );
});

t.test('acct report general-ledger lists 3100 for its year end rows and closes each account at the trial balance', async (t) => {
  const { acct } = await marchCo(t);
  const gl = await acct('report', 'general-ledger', '--from', '2024-02-01', '--to', '2025-03-31', '--csv');
  t.equal(gl.status, 0, gl.stderr);
  const closings = gl.stdout.split('\n').filter((l) => l.includes('Closing balance'));
  t.same(closings, [
    // 3.00 + 5.00 + 7.00 − 20.00 + 9.00 = 4.00 Dr
    '1200 Bank Account,2025-03-31,Closing balance,,21.00,20.00,4.00,Dr',
    // −8.00 + 13.00 = 5.00 Dr
    '3100 Retained Earnings,2025-03-31,Closing balance,,13.00,8.00,5.00,Dr',
    // FY 2025/26's 9.00 Cr only
    '4000 Sales,2025-03-31,Closing balance,,15.00,21.00,9.00,Cr',
    '5000 Cost of Sales,2025-03-31,Closing balance,,20.00,20.00,0.00,',
  ]);
  t.ok(
    gl.stdout.includes('\n3100 Retained Earnings,2025-03-01,Year end 2025-02-28: loss for the year closed from income and expenses,,13.00,0.00,5.00,Dr\n'),
    "3100's second year end: −8.00 + 13.00 = 5.00 Dr",
  );
  // Every page fetched two lines at a time gives the same ledger.
  const paged = await acct('report', 'general-ledger', '--from', '2024-02-01', '--to', '2025-03-31', '--csv', '--limit', '2');
  t.equal(paged.stdout, gl.stdout);
});
