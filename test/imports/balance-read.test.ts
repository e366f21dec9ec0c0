import t from 'tap';
import type { Test } from 'tap';
import fc from 'fast-check';
import { AppError } from '../../src/engine/errors.js';
import { readTrialBalance } from '../../src/engine/imports/balances/read-trial-balance.js';
import type { TrialBalanceFile } from '../../src/engine/imports/balances/read-trial-balance.js';

/** Every data row comes out exactly once, as a row, an error or an ignored row. */
function conserved(t: Test, file: TrialBalanceFile, dataRows: number): void {
  const { stats } = file;
  t.equal(stats.totalRows, dataRows, 'every data row counted');
  t.equal(stats.validRows, file.rows.length);
  t.equal(stats.errorRows, file.errors.length);
  t.equal(stats.ignoredRows, file.ignored.length);
  t.equal(stats.totalRows, stats.validRows + stats.errorRows + stats.ignoredRows, 'rows = valid + errors + ignored');
  const seen = [...file.rows, ...file.errors, ...file.ignored].map((r) => r.rowIndex).sort((a, b) => a - b);
  t.same(
    seen,
    Array.from({ length: dataRows }, (_, i) => i),
    'each row index once',
  );
}

const rowsOf = (file: TrialBalanceFile) => file.rows.map((r) => [r.sourceLabel, r.sourceCode, r.debit, r.credit]);

t.test('Xero: title lines, YTD columns win over the month, section headings, zero rows and the Total row', async (t) => {
  const text = [
    'Trial Balance',
    'Demo Company (UK)',
    'As at 31 March 2025',
    '',
    'Account Code,Account,Account Type,Debit,Credit,YTD Debit,YTD Credit',
    ',Revenue,,,,,',
    '200,Sales,Revenue,,"2,000.00",,"24,000.00"',
    '260,Other Revenue,Revenue,,,0.00,0.00',
    ',Expenses,,,,,',
    '400,Advertising & Marketing,Overhead,150.00,,"1,200.00",',
    '477,Salaries,Overhead,,,"14,400.00",',
    ',Assets,,,,,',
    '090,Business Bank Account,Bank,"1,000.00",,"12,500.00",',
    '610,Accounts Receivable,Current Asset,,,"3,600.00",',
    ',Liabilities,,,,,',
    '800,Accounts Payable,Current Liability,,,,"1,440.00"',
    '820,VAT,Current Liability,,,,"2,160.00"',
    ',Equity,,,,,',
    '960,Retained Earnings,Equity,,,,"4,000.00"',
    '970,Owner A Share Capital,Equity,,,,100.00',
    '630,Inventory,Inventory,,,,',
    ',Total,,"1,150.00","2,000.00","31,700.00","31,700.00"',
    '',
  ].join('\n');
  const file = readTrialBalance(text);
  t.equal(file.provider, 'xero');
  t.equal(file.asAt, '2025-03-31');
  // YTD balances, not the month's "1,000.00" and "2,000.00":
  // debits 12,500.00 + 3,600.00 + 1,200.00 + 14,400.00 = 31,700.00;
  // credits 24,000.00 + 1,440.00 + 2,160.00 + 4,000.00 + 100.00 = 31,700.00 (the file's Total).
  t.same(rowsOf(file), [
    ['Sales', '200', 0, 2400000],
    ['Advertising & Marketing', '400', 120000, 0],
    ['Salaries', '477', 1440000, 0],
    ['Business Bank Account', '090', 1250000, 0],
    ['Accounts Receivable', '610', 360000, 0],
    ['Accounts Payable', '800', 0, 144000],
    ['VAT', '820', 0, 216000],
    ['Retained Earnings', '960', 0, 400000],
    ['Owner A Share Capital', '970', 0, 10000],
  ]);
  t.same(file.rows[0], { rowIndex: 1, line: 7, sourceLabel: 'Sales', sourceCode: '200', debit: 0, credit: 2400000 });
  t.same(
    file.ignored.map((i) => [i.rowIndex, i.line, i.reason]),
    [
      [0, 6, '"Revenue" has no amounts (a heading)'],
      [2, 8, '"Other Revenue" has a zero balance'],
      [3, 9, '"Expenses" has no amounts (a heading)'],
      [6, 12, '"Assets" has no amounts (a heading)'],
      [9, 15, '"Liabilities" has no amounts (a heading)'],
      [12, 18, '"Equity" has no amounts (a heading)'],
      [15, 21, '"Inventory" has no amounts (no balance)'],
      [16, 22, 'a total row'],
    ],
  );
  t.same(file.errors, []);
  conserved(t, file, 17);
});

t.test('FreeAgent: one title line, nominal codes, plain amounts and a Total row with the word in the code column', async (t) => {
  const text = [
    'Trial Balance as at 31 Mar 2025',
    '',
    'Nominal Code,Category,Debit,Credit',
    '001,Sales,,18000.00',
    '285,Accountancy Fees,1200.00,',
    '401,Salaries,10100.00,',
    '681,Trade Debtors,2400.00,',
    '750,Business Current Account,9850.50,',
    '796,Trade Creditors,,960.00',
    '817,VAT,,1490.50',
    '901,Share Capital,,100.00',
    '902,Retained Profit,,3000.00',
    'Total,,23550.50,23550.50',
  ].join('\n');
  const file = readTrialBalance(text);
  t.equal(file.provider, 'freeagent');
  t.equal(file.asAt, '2025-03-31');
  // debits 1,200.00 + 10,100.00 + 2,400.00 + 9,850.50 = 23,550.50;
  // credits 18,000.00 + 960.00 + 1,490.50 + 100.00 + 3,000.00 = 23,550.50.
  t.same(rowsOf(file), [
    ['Sales', '001', 0, 1800000],
    ['Accountancy Fees', '285', 120000, 0],
    ['Salaries', '401', 1010000, 0],
    ['Trade Debtors', '681', 240000, 0],
    ['Business Current Account', '750', 985050, 0],
    ['Trade Creditors', '796', 0, 96000],
    ['VAT', '817', 0, 149050],
    ['Share Capital', '901', 0, 10000],
    ['Retained Profit', '902', 0, 300000],
  ]);
  t.same(file.ignored, [{ rowIndex: 9, line: 13, reason: 'a total row', field: 'row' }]);
  conserved(t, file, 10);
});

t.test('QuickBooks: an empty label header, £ amounts, code prefixes, a negative contra balance, TOTAL and the footer', async (t) => {
  const text = [
    'Trial Balance',
    'Demo Ltd',
    'As of 31 March 2025',
    '',
    ',Debit,Credit',
    '1200 Business Current Account,"£12,345.67",',
    'Accounts Receivable (A/R),"£1,200.00",',
    'Computer Equipment,"£2,000.00",',
    'Less Accumulated Depreciation on Computer Equipment,-£400.00,',
    'Accounts Payable (A/P),,£600.00',
    'VAT Control,,£845.67',
    'Retained Earnings,,"£5,000.00"',
    'Share capital,,£100.00',
    'Sales,,"£20,000.00"',
    'Purchases,"£11,400.00",',
    'TOTAL,"£26,545.67","£26,545.67"',
    '',
    '"Accrual basis Monday, 7 April 2025 10:15 AM GMT+01:00"',
  ].join('\n');
  const file = readTrialBalance(text);
  t.equal(file.provider, 'quickbooks');
  t.equal(file.asAt, '2025-03-31');
  // QuickBooks adds the -400.00 into its Debit total: 12,345.67 + 1,200.00 + 2,000.00 - 400.00 + 11,400.00 = 26,545.67.
  // Read as a credit of 400.00 instead, debits are 26,945.67 and credits 600.00 + 845.67 + 5,000.00 + 100.00
  // + 20,000.00 + 400.00 = 26,945.67: the same difference, none.
  t.same(rowsOf(file), [
    ['1200 Business Current Account', '1200', 1234567, 0],
    ['Accounts Receivable (A/R)', null, 120000, 0],
    ['Computer Equipment', null, 200000, 0],
    ['Less Accumulated Depreciation on Computer Equipment', null, 0, 40000],
    ['Accounts Payable (A/P)', null, 0, 60000],
    ['VAT Control', null, 0, 84567],
    ['Retained Earnings', null, 0, 500000],
    ['Share capital', null, 0, 10000],
    ['Sales', null, 0, 2000000],
    ['Purchases', null, 1140000, 0],
  ]);
  t.same(
    file.ignored.map((i) => [i.rowIndex, i.line, i.reason]),
    [
      [10, 16, 'a total row'],
      [11, 18, "the report's footer (Accrual basis Monday, 7 April 2025 10:15 AM GMT+01:00)"],
    ],
  );
  conserved(t, file, 12);
});

t.test("Xero's trailing code in the label and a US date in a title", async (t) => {
  const file = readTrialBalance('Trial Balance\nFor the period ending March 31st, 2025\n\n,Debit,Credit\nSales (200),,10.00\nBank - 090,10.00,\n');
  t.equal(file.asAt, '2025-03-31');
  t.same(rowsOf(file), [
    ['Sales (200)', '200', 0, 1000],
    ['Bank - 090', null, 1000, 0],
  ]);
  conserved(t, file, 2);
});

t.test('title dates day first with dashes, dots or a two-digit year; an "as at" that cannot be read is kept to say so', async (t) => {
  const titled = (title: string) => readTrialBalance(`Trial Balance\n${title}\n\nAccount,Debit,Credit\nBank Account,1.00,\nSales,,1.00\n`);
  for (const title of [
    'as at 31-03-2026',
    'As at 31 Mar 26',
    'As at 31/03/26',
    'As at 31-Mar-26',
    'As of 31.03.2026',
    'As of March 31, 26',
    'Year ended 31 March 26',
  ]) {
    t.same([titled(title).asAt, titled(title).unreadAsAt], ['2026-03-31', null], title);
  }
  // 31/02/26 is no day: not read, and said so.
  t.same([titled('As at 31/02/26').asAt, titled('As at 31/02/26').unreadAsAt], [null, 'As at 31/02/26']);
  t.same([titled('Trial Balance as of the end of March').asAt, titled('Trial Balance as of the end of March').unreadAsAt], [null, 'as of the end of March']);
  // "Ending" in a company's name is no date phrase; a title with no date says nothing.
  t.same([titled('Happy Ending Films Ltd').asAt, titled('Happy Ending Films Ltd').unreadAsAt], [null, null]);
  t.same([titled('Acme Ltd').asAt, titled('Acme Ltd').unreadAsAt], [null, null]);
});

t.test('a UTF-8 BOM and CRLF line endings', async (t) => {
  const text = '\uFEFFTrial Balance\r\nAs at 30/04/2025\r\n\r\nAccount,Debit,Credit\r\nBank Account,250.00,\r\n\r\nSales,,250.00\r\nTotal,250.00,250.00\r\n';
  const file = readTrialBalance(text);
  t.equal(file.provider, 'generic');
  t.equal(file.asAt, '2025-04-30');
  t.same(file.rows, [
    { rowIndex: 0, line: 5, sourceLabel: 'Bank Account', sourceCode: null, debit: 25000, credit: 0 },
    { rowIndex: 1, line: 7, sourceLabel: 'Sales', sourceCode: null, debit: 0, credit: 25000 },
  ]);
  t.same(file.ignored, [{ rowIndex: 2, line: 8, reason: 'a total row', field: 'row' }]);
  conserved(t, file, 3);
});

t.test('broken rows are errors naming the field; rows with both sides are netted; DR/CR and brackets read', async (t) => {
  const text = [
    'Account,Code,Debit,Credit',
    'Sales,,,abc',
    'Rent,,-12.50 DR,',
    ',,100.00,',
    ',4000,,100.00',
    'Bank Account,,100.00,40.00',
    'Loan,,40.00,100.00',
    'Drawings,,50.00,50.00',
    'Fees,,12.505,',
    'Stock,,(250.00),',
    'Insurance,,1.00 CR,',
    'Petty Cash,,,2.00 DR',
    ',,,',
    'Account,Code,Debit,Credit',
    'Sales,,,abc',
  ].join('\n');
  const file = readTrialBalance(text);
  t.same(
    file.errors.map((e) => [e.rowIndex, e.line, e.field, e.reason]),
    [
      [0, 2, 'credit', '"abc" in credit is not an amount of money'],
      [1, 3, 'debit', '"-12.50 DR" in debit is not an amount of money'],
      [2, 4, 'account', 'the row has amounts but no account name'],
      [3, 5, 'account', 'the row has amounts but no account name (only the code "4000")'],
      [7, 9, 'debit', '"12.505" in debit is not an amount of money'],
      [12, 15, 'credit', '"abc" in credit is not an amount of money'],
    ],
    'a duplicate broken row is an error again, by its own line',
  );
  t.same(rowsOf(file), [
    ['Bank Account', null, 6000, 0], // 100.00 - 40.00 = 60.00 debit
    ['Loan', null, 0, 6000], // 40.00 - 100.00 = 60.00 credit
    ['Stock', null, 0, 25000], // (250.00) in Debit is a credit of 250.00
    ['Insurance', null, 0, 100], // CR names the side whatever the column
    ['Petty Cash', null, 200, 0],
  ]);
  t.same(
    file.ignored.map((i) => [i.rowIndex, i.reason]),
    [
      [6, '"Drawings" has a debit and a credit that cancel out (a zero balance)'],
      [11, 'the header repeated'],
    ],
  );
  // 14 records below the header, less ",,," on line 13, which is blank (every cell empty) and not a row.
  conserved(t, file, 13);
});

t.test('YTD columns named as "Debit - Year to date" win, and a label with a code column keeps its code', async (t) => {
  const text = 'Account,Account Code,Debit,Credit,Debit - Year to date,Credit - Year to date\nRent,5200,1.00,,12.00,\nSales,4000,,1.00,,12.00\n';
  const file = readTrialBalance(text);
  t.same(rowsOf(file), [
    ['Rent', '5200', 1200, 0],
    ['Sales', '4000', 0, 1200],
  ]);
  conserved(t, file, 2);
});

t.test('no header with account, debit and credit columns: a 400 naming the file', async (t) => {
  for (const text of ['Trial Balance\nAccount,Amount\nSales,100.00\n', 'Debit,Credit\n1.00,\n', '']) {
    t.throws(
      () => readTrialBalance(text),
      new AppError('validation_error', 'the file has no header row naming the account, debit and credit columns (looked in its first 30 lines)', 'file'),
    );
    try {
      readTrialBalance(text);
    } catch (err) {
      t.equal((err as AppError).field, 'file');
      t.equal((err as AppError).code, 'validation_error');
    }
  }
});

t.test('a header only: no rows', async (t) => {
  const file = readTrialBalance('Account,Debit,Credit\n');
  t.same(file.rows, []);
  conserved(t, file, 0);
});

t.test('property: any rows below a header come out exactly once', async (t) => {
  const cell = fc.constantFrom(
    '',
    'Sales',
    'Total',
    'TOTAL',
    '1200 Bank',
    'Rent (400)',
    '0.00',
    '12.50',
    '-3.00',
    '(4.00)',
    '£1,000.00',
    'abc',
    '1.00 CR',
    '"q"',
  );
  const row = fc.array(cell, { minLength: 0, maxLength: 5 });
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        const lines = rows.map((cells) => cells.map((c) => (c.includes(',') ? `"${c}"` : c)).join(','));
        const file = readTrialBalance(['Account,Code,Debit,Credit', ...lines].join('\n'));
        // A record is blank (not a row) when every cell is empty.
        const dataRows = rows.filter((cells) => cells.some((c) => c !== '')).length;
        const { stats } = file;
        const indexes = [...file.rows, ...file.errors, ...file.ignored].map((r) => r.rowIndex).sort((a, b) => a - b);
        return (
          stats.totalRows === dataRows &&
          stats.totalRows === stats.validRows + stats.errorRows + stats.ignoredRows &&
          indexes.every((v, i) => v === i) &&
          file.rows.every((r) => r.debit >= 0 && r.credit >= 0 && (r.debit === 0) !== (r.credit === 0))
        );
      }),
    ),
  );
});
