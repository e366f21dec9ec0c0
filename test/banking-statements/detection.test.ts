// Layout detection on statements written here line by line: delimiters,
// date formats, header rows, amount models, and the files no layout fits.
import t from 'tap';
import { readStatement } from '../../src/engine/banking/statements/read-statement.js';
import { assertConserved, money } from './support.js';

const lines = (...rows: string[]): string => rows.join('\n') + '\n';

t.test('a semicolon-separated file with DD.MM.YYYY dates', async (t) => {
  const r = readStatement(lines('Datum;Date;Description;Amount', 'x;01.03.2024;Coffee;-3.20', 'y;15.03.2024;Refund;3.20'));
  t.match(r.schema, { delimiter: ';', dateFormat: 'DD.MM.YYYY', detectedPreset: null, provenance: 'LOCAL', amountModel: 'SIGNED_SINGLE' });
  t.same(money(r), [
    [1, '2024-03-01', -320, null],
    [2, '2024-03-15', 320, null],
  ]);
});

t.test('a tab-separated file with DD MMM YYYY dates', async (t) => {
  const r = readStatement(lines('Date\tDetails\tAmount', '3 Jan 2024\tSTATIONERY, PENS\t-4.99', '14 Jan 2024\tSALES\t120.00'));
  t.match(r.schema, { delimiter: '\t', dateFormat: 'DD MMM YYYY' });
  t.same(money(r), [
    [1, '2024-01-03', -499, null],
    [2, '2024-01-14', 12000, null],
  ]);
  t.equal(r.rows[0]!.description, 'STATIONERY, PENS', 'a comma inside a tab-separated cell is text');
});

t.test('lines of account details above the header are ignored, not rows', async (t) => {
  const r = readStatement(
    lines(
      '"Account Name:","Business Account ****5678"',
      '"Account Balance:","£1,234.56"',
      '',
      '"Date","Transaction type","Description","Paid out","Paid in","Balance"',
      '"02 Feb 2024","Direct debit","COUNCIL TAX","£120.00","","£1,114.56"',
      '"05 Feb 2024","Transfer","ACME LTD","","£500.00","£1,614.56"',
    ),
  );
  t.match(r.schema, { hasHeader: true, amountModel: 'DUAL_COL_DR_CR', dateFormat: 'DD MMM YYYY' });
  t.same(r.schema.columnMapping, { 0: 'date', 1: 'type', 2: 'description', 3: 'debit', 4: 'credit', 5: 'balance' });
  // Three lines above the header (two details, one blank) are ignored; two data rows.
  assertConserved(t, r, { rows: 2, rejected: 0, ignored: 3 });
  // £1,234.56 - £120.00 = £1,114.56; + £500.00 = £1,614.56.
  t.same(money(r), [
    [1, '2024-02-02', -12000, 111456],
    [2, '2024-02-05', 50000, 161456],
  ]);
  t.match(r.balanceProof, { status: 'PASS', openingBalance: 123456, closingBalance: 161456 });
});

t.test('a broken first data row is rejected, not taken for the header', async (t) => {
  const r = readStatement(lines('Date,Description,Amount', '32/01/2024,Bad day,-1.00', '02/02/2024,Good day,-2.00'));
  t.equal(r.schema.hasHeader, true);
  t.same(r.rejected, [
    {
      rowIndex: 1,
      line: 2,
      reason: '"32/01/2024" is not a date in the format DD/MM/YYYY',
      read: { date: null, description: 'Bad day', reference: null, amount: -100, balance: null },
    },
  ]);
  t.same(money(r), [[2, '2024-02-02', -200, null]]);
});

t.test('a file without a header: debit, credit and balance told from the cells', async (t) => {
  const r = readStatement(lines('10/01/2024,RENT,500.00,,1500.00', '11/01/2024,SALES,,250.00,1750.00', '25/01/2024,FEE,2.50,,1747.50'));
  t.match(r.schema, { hasHeader: false, amountModel: 'DUAL_COL_DR_CR', detectedPreset: null });
  t.same(r.schema.columnMapping, { 0: 'date', 1: 'description', 2: 'debit', 3: 'credit', 4: 'balance' });
  // Opening £1,500.00 + £500.00 = £2,000.00; -500 + 250 - 2.50 → £1,747.50.
  t.same(money(r), [
    [1, '2024-01-10', -50000, 150000],
    [2, '2024-01-11', 25000, 175000],
    [3, '2024-01-25', -250, 174750],
  ]);
  t.match(r.balanceProof, { status: 'PASS', openingBalance: 200000 });
});

t.test('American dates in a file without a header, settled by a day above 12', async (t) => {
  const r = readStatement(lines('01/05/2024,A,-1.00', '01/13/2024,B,-2.00', '02/01/2024,C,-3.00'));
  t.equal(r.schema.dateFormat, 'MM/DD/YYYY');
  t.same(
    r.rows.map((row) => row.date),
    ['2024-01-05', '2024-01-13', '2024-02-01'],
  );
});

t.test('one amount column whose balance falls as it rises is signed money-out-positive: SIGN_FLIPPER', async (t) => {
  const r = readStatement(
    lines('Date,Description,Amount,Balance', '01/03/2024,CARD PURCHASE,25.00,975.00', '02/03/2024,REFUND,-5.00,980.00', '03/03/2024,PURCHASE,10.00,970.00'),
  );
  t.equal(r.schema.amountModel, 'SIGN_FLIPPER');
  // Printed 25.00 is £25 out: -2500; printed -5.00 is £5 in: +500.
  t.same(money(r), [
    [1, '2024-03-01', -2500, 97500],
    [2, '2024-03-02', 500, 98000],
    [3, '2024-03-03', -1000, 97000],
  ]);
  // £975.00 + £25.00 = £1,000.00 opening.
  t.match(r.balanceProof, { status: 'PASS', openingBalance: 100000, closingBalance: 97000 });
});

t.test('rows all on one day, newest first: the balances tell the order', async (t) => {
  const r = readStatement(lines('Date,Description,Amount,Balance', '05/03/2024,C,-3.00,94.00', '05/03/2024,B,-2.00,97.00', '05/03/2024,A,-1.00,99.00'));
  t.equal(r.rowOrder, 'NEWEST_FIRST');
  // Bottom up: £99.00 + £1.00 = £100.00 opening; -1 → 99, -2 → 97, -3 → 94.
  t.match(r.balanceProof, { status: 'PASS', openingBalance: 10000, closingBalance: 9400 });
});

t.test('a wrong balance mid-file is found where it is, and later rows are checked from it', async (t) => {
  const r = readStatement(lines('Date,Description,Amount,Balance', '01/03/2024,A,-1.00,99.00', '02/03/2024,B,-2.00,96.00', '03/03/2024,C,-3.00,93.00'));
  // Opening £100.00; after B the balance should be £97.00, the file says £96.00 (£1.00 short); C checks from £96.00.
  t.same(r.balanceProof, {
    basis: 'RUNNING_BALANCE',
    openingBalance: 10000,
    closingBalance: 9300,
    delta: -100,
    status: 'FAIL',
    stepwisePass: false,
    firstBreak: { rowIndex: 2, expected: 9700, found: 9600 },
  });
});

t.test('CR and DR suffixes, brackets and blank lines inside the file', async (t) => {
  const r = readStatement(lines('Date,Narrative,Amount', '01/04/2024,IN,100.00 CR', '', '02/04/2024,OUT,40.00 DR', '   ', '03/04/2024,FEE,(1.50)'));
  assertConserved(t, r, { rows: 3, rejected: 0, ignored: 2 });
  t.same(money(r), [
    [1, '2024-04-01', 10000, null],
    [2, '2024-04-02', -4000, null],
    [3, '2024-04-03', -150, null],
  ]);
  t.equal(r.rows[1]!.line, 4, 'lines count the blank line above');
});

t.test('each way a row can be broken is a rejected row with its reason', async (t) => {
  const r = readStatement(
    lines(
      'Date,Description,Debit,Credit,Balance',
      '01/05/2024,GOOD,1.00,,99.00',
      '02/05/2024,NO MONEY,,,99.00',
      '03/05/2024,BAD DEBIT,one pound,,98.00',
      ',NO DATE,1.00,,98.00',
      '04/05/2024,BAD BALANCE,1.00,,lots',
      '05/05/2024,SHORT,1.00',
      '"06/05/2024","A DESCRIPTION',
      'OVER TWO LINES",1.00,,97.00',
      '07/05/2024,LAST,1.00,,96.00',
    ),
  );
  // Header, then 8 data rows (one of them over lines 8 and 9).
  assertConserved(t, r, { rows: 3, rejected: 5, ignored: 0 });
  // Each keeps what of it reads (a debit of 1.00 is −100 pence, a balance of 98.00 9,800); the short row reads as nothing: its cells are not the file's columns.
  const read = (date: string | null, description: string, amount: number | null, balance: number | null) => ({
    date,
    description,
    reference: null,
    amount,
    balance,
  });
  t.same(r.rejected, [
    { rowIndex: 2, line: 3, reason: 'the row has neither a debit nor a credit amount', read: read('2024-05-02', 'NO MONEY', null, 9_900) },
    { rowIndex: 3, line: 4, reason: '"one pound" is not a debit amount', read: read('2024-05-03', 'BAD DEBIT', null, 9_800) },
    { rowIndex: 4, line: 5, reason: 'the row has no date', read: read(null, 'NO DATE', -100, 9_800) },
    { rowIndex: 5, line: 6, reason: '"lots" is not a balance', read: read('2024-05-04', 'BAD BALANCE', -100, null) },
    { rowIndex: 6, line: 7, reason: "the row has 3 columns where the file's rows have 5" },
  ]);
  t.match(r.rows[1], { rowIndex: 7, line: 8, description: 'A DESCRIPTION OVER TWO LINES', amount: -100 });
  t.match(r.rows[2], { rowIndex: 8, line: 10 });
});

t.test('the fingerprint is the layout, not the rows', async (t) => {
  const a = readStatement(lines('Date,Description,Amount', '01/01/2024,A,1.00'));
  const b = readStatement(lines(' date , DESCRIPTION,amount ', '05/06/2024,B,-9.00', '06/06/2024,C,2.00'));
  const c = readStatement(lines('Date,Description,Amount,Balance', '01/01/2024,A,1.00,1.00'));
  const headerless = readStatement(lines('01/01/2024,A,1.00'));
  t.match(a.schema.fingerprint, /^[0-9a-f]{16}$/);
  t.equal(a.schema.fingerprint, b.schema.fingerprint, 'case and spaces aside');
  t.not(a.schema.fingerprint, c.schema.fingerprint);
  t.not(a.schema.fingerprint, headerless.schema.fingerprint);
});

t.test('files that cannot be read are a 400 naming what to fix', async (t) => {
  t.throws(() => readStatement(''), { code: 'validation_error', field: 'file', message: 'the file is empty' });
  t.throws(() => readStatement('\uFEFF\r\n\r\n'), { code: 'validation_error', field: 'file' });
  t.throws(() => readStatement(lines('Date,Description,Amount', '01/01/2024,"never closed,1.00', '02/01/2024,B,2.00')), {
    code: 'validation_error',
    field: 'file',
    message: 'the file is not CSV that can be read: a quote opened on line 2 is never closed',
  });
  t.throws(() => readStatement(lines('Name,Amount', 'A,1.00', 'B,2.00')), {
    code: 'validation_error',
    field: 'columnMapping',
    message: 'columnMapping needs a date column: acct could not tell from the file, so give a columnMapping',
  });
  t.throws(() => readStatement(lines('Date,Description', '01/01/2024,A')), {
    code: 'validation_error',
    field: 'columnMapping',
    message: 'columnMapping needs an amount column, or both a debit and a credit column: acct could not tell from the file, so give a columnMapping',
  });
});

t.test('a file with a header and no rows reads as no rows', async (t) => {
  const r = readStatement(lines('Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes'));
  t.equal(r.schema.detectedPreset, 'Starling');
  assertConserved(t, r, { rows: 0, rejected: 0, ignored: 0 });
  t.equal(r.dateRange, null);
  t.equal(r.balanceProof.status, 'NONE');
});
