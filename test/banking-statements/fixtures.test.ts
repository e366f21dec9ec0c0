// Every fixture in fixtures/bank-statements read end to end: layout, rows
// (counted by hand from the file), amounts in pence worked out from the
// printed figures, rejected rows and the balance proof.
import t from 'tap';
import { readStatement } from '../../src/engine/banking/statements/read-statement.js';
import { assertConserved, money, readFixture } from './support.js';

t.test('Starling: BOM, signed amounts, quoted commas, same-day identical rows kept', async (t) => {
  const r = readFixture('starling.csv');
  t.match(r.schema, {
    format: 'CSV',
    detectedPreset: 'Starling',
    provenance: 'VERIFIED',
    amountModel: 'SIGNED_SINGLE',
    dateFormat: 'DD/MM/YYYY',
    hasHeader: true,
  });
  t.same(r.schema.columnMapping, { 0: 'date', 1: 'description', 2: 'reference', 3: 'type', 4: 'amount', 5: 'balance', 6: 'skip', 7: 'skip' });
  // 1 header line + 8 data lines, no blank line.
  assertConserved(t, r, { rows: 8, rejected: 0, ignored: 0 });
  t.equal(r.rows[0]!.description, 'Acme Widgets Ltd', 'the BOM is not part of the first cell of the header, nor of any row');
  t.same(money(r), [
    [1, '2024-03-02', 120000, 345025], // +£1,200.00; balance £3,450.25
    [2, '2024-03-04', -85000, 260025], // -£850.00; £3,450.25 - £850.00 = £2,600.25
    [3, '2024-03-05', -435, 259590], // -£4.35; £2,600.25 - £4.35 = £2,595.90
    [4, '2024-03-13', -123456, 136134], // -£1,234.56; £2,595.90 - £1,234.56 = £1,361.34
    [5, '2024-03-13', -435, 135699], // -£4.35 → £1,356.99
    [6, '2024-03-13', -435, 135264], // the same coffee again, same day: a second real row → £1,352.64
    [7, '2024-03-28', -200, 135064], // -£2.00 → £1,350.64
    [8, '2024-03-29', 240000, 375064], // +£2,400.00 → £3,750.64
  ]);
  t.match(r.rows[1], { description: 'Smith, Jones & Co', reference: 'Rent, March' }, 'quoted commas stay inside their cells');
  t.equal(r.rows[2]!.reference, null, 'an empty reference is null');
  t.same(
    [r.rows[4], r.rows[5]].map((row) => [row!.date, row!.description, row!.amount]),
    [
      ['2024-03-13', 'Pret A Manger', -435],
      ['2024-03-13', 'Pret A Manger', -435],
    ],
    'identical rows inside one file are both kept',
  );
  // Opening: £3,450.25 - £1,200.00 = £2,250.25. Movement: 1200 - 850 - 4.35 - 1234.56 - 4.35 - 4.35 - 2 + 2400 = +£1,500.39;
  // £2,250.25 + £1,500.39 = £3,750.64, the last stated balance.
  t.same(r.balanceProof, {
    basis: 'RUNNING_BALANCE',
    openingBalance: 225025,
    closingBalance: 375064,
    delta: 0,
    status: 'PASS',
    stepwisePass: true,
    firstBreak: null,
  });
  t.equal(r.rowOrder, 'OLDEST_FIRST');
  t.same(r.dateRange, { from: '2024-03-02', to: '2024-03-29' });
});

t.test('NatWest: CRLF, a blank first line, spaced header, apostrophe-guarded text, a trailing comma on each row', async (t) => {
  const r = readFixture('natwest.csv');
  t.match(r.schema, { detectedPreset: 'NatWest', amountModel: 'SIGNED_SINGLE', dateFormat: 'DD/MM/YYYY', hasHeader: true });
  // Line 1 blank (ignored), line 2 the header, lines 3-8 six data rows.
  assertConserved(t, r, { rows: 6, rejected: 0, ignored: 1 });
  t.same(money(r), [
    [1, '2024-04-02', 150000, 462010], // +£1,500.00: £3,120.10 + £1,500.00 = £4,620.10
    [2, '2024-04-03', -8640, 453370], // -£86.40 → £4,533.70
    [3, '2024-04-05', -2317, 451053], // -£23.17 → £4,510.53
    [4, '2024-04-08', -650, 450403], // -£6.50 → £4,504.03
    [5, '2024-04-10', -100000, 350403], // -£1,000.00 → £3,504.03
    [6, '2024-04-12', 234567, 584970], // +£2,345.67 → £5,849.70
  ]);
  t.equal(r.rows[0]!.line, 3, 'row 1 is on line 3, below the blank line and the header');
  t.equal(r.rows[1]!.description, 'BRITISH GAS , 7612345', "NatWest's leading apostrophe is dropped");
  // Opening £4,620.10 - £1,500.00 = £3,120.10.
  t.match(r.balanceProof, { status: 'PASS', stepwisePass: true, openingBalance: 312010, closingBalance: 584970, delta: 0 });
});

t.test('NatWest with a wrong closing balance: the proof fails at the last row', async (t) => {
  const r = readFixture('natwest-wrong-balance.csv');
  assertConserved(t, r, { rows: 4, rejected: 0, ignored: 1 });
  // Opening £1,900.00 - £900.00 = £1,000.00; then -42.00 → £1,858.00, -61.25 → £1,796.75, -6.50 → £1,790.25,
  // but the file says £1,792.25: £2.00 too much.
  t.same(r.balanceProof, {
    basis: 'RUNNING_BALANCE',
    openingBalance: 100000,
    closingBalance: 179225,
    delta: 200,
    status: 'FAIL',
    stepwisePass: false,
    firstBreak: { rowIndex: 4, expected: 179025, found: 179225 },
  });
});

t.test('HSBC: no header, quoted amounts with thousands, identical rows', async (t) => {
  const r = readFixture('hsbc.csv');
  t.match(r.schema, { detectedPreset: 'HSBC', provenance: 'VERIFIED', hasHeader: false, amountModel: 'SIGNED_SINGLE', dateFormat: 'DD/MM/YYYY' });
  t.same(r.schema.columnMapping, { 0: 'date', 1: 'description', 2: 'amount' });
  // Six lines, all data.
  assertConserved(t, r, { rows: 6, rejected: 0, ignored: 0 });
  t.same(money(r), [
    [1, '2024-06-03', 275000, null], // "2,750.00" = £2,750.00
    [2, '2024-06-04', -780, null], // -£7.80
    [3, '2024-06-04', -780, null], // the same fare twice: both kept
    [4, '2024-06-14', -123456, null], // "-1,234.56"
    [5, '2024-06-20', -4599, null],
    [6, '2024-06-28', 12, null], // 12p of interest
  ]);
  t.equal(r.rows[0]!.description, 'ACME WIDGETS LTD INV 3001', 'runs of spaces become one');
  t.equal(r.rows[4]!.description, 'AMAZON.CO.UK, MARKETPLACE');
  t.same(r.balanceProof, { basis: 'NONE', openingBalance: null, closingBalance: null, delta: 0, status: 'NONE', stepwisePass: null, firstBreak: null });
});

t.test('Monzo: a signed Amount beside Money Out / Money In, emoji, an impossible date rejected', async (t) => {
  const r = readFixture('monzo.csv');
  t.match(r.schema, { detectedPreset: 'Monzo', amountModel: 'SIGNED_SINGLE', dateFormat: 'DD/MM/YYYY' });
  t.equal(r.schema.columnMapping['7'], 'amount', 'Amount, not Money Out and Money In');
  t.equal(r.schema.columnMapping['16'], 'skip');
  t.equal(r.schema.columnMapping['17'], 'skip');
  // Header + 7 data rows; the 4th (line 5) says 31/02/2024.
  assertConserved(t, r, { rows: 6, rejected: 1, ignored: 0 });
  // What the row still reads: Ryman, −£12.49, its Description column as the reference.
  t.same(r.rejected, [
    {
      rowIndex: 4,
      line: 5,
      reason: '"31/02/2024" is not a date in the format DD/MM/YYYY',
      read: { date: null, description: 'Ryman', reference: 'RYMAN LTD LONDON GBR', amount: -1249, balance: null },
    },
  ]);
  t.same(money(r), [
    [1, '2024-02-01', 180000, null],
    [2, '2024-02-02', -695, null],
    [3, '2024-02-05', -3000, null],
    [5, '2024-02-14', -2398, null],
    [6, '2024-02-20', -10240, null], // £102.40 charged for €120.00: the GBP Amount is read, not the local one
    [7, '2024-02-29', -100000, null], // 2024 is a leap year
  ]);
  t.match(r.rows[0], { description: 'Acme Widgets Ltd', reference: 'INV-0042' });
});

t.test('Barclays: an unquoted comma in a memo makes a broken row, reported not thrown', async (t) => {
  const r = readFixture('barclays.csv');
  t.match(r.schema, { detectedPreset: 'Barclays', amountModel: 'SIGNED_SINGLE', dateFormat: 'DD/MM/YYYY' });
  // Header + 6 data rows; row 4 (line 5) has 7 cells.
  assertConserved(t, r, { rows: 5, rejected: 1, ignored: 0 });
  t.same(r.rejected, [{ rowIndex: 4, line: 5, reason: "the row has 7 columns where the file's rows have 6" }]);
  t.same(money(r), [
    [1, '2024-01-02', -1240, null],
    [2, '2024-01-03', 250000, null],
    [3, '2024-01-05', -6000, null],
    [5, '2024-01-15', -45000, null],
    [6, '2024-01-31', -850, null],
  ]);
  t.match(r.rows[3], { description: 'CHQ 000123', reference: '000123' });
  t.equal(r.rows[0]!.description, 'TESCO STORES 3297 ON 01 JAN BCC');
});

t.test('Lloyds: debit and credit columns, newest first, CRLF, a trailing comma in the header', async (t) => {
  const r = readFixture('lloyds.csv');
  t.match(r.schema, { detectedPreset: 'Lloyds', amountModel: 'DUAL_COL_DR_CR', dateFormat: 'DD/MM/YYYY' });
  t.same(r.schema.columnMapping, { 0: 'date', 1: 'type', 2: 'skip', 3: 'skip', 4: 'description', 5: 'debit', 6: 'credit', 7: 'balance' });
  assertConserved(t, r, { rows: 6, rejected: 0, ignored: 0 });
  t.equal(r.rowOrder, 'NEWEST_FIRST');
  t.same(money(r), [
    [1, '2024-07-31', -750, 404089], // debit 7.50
    [2, '2024-07-22', 310000, 404839], // credit 3100.00
    [3, '2024-07-15', -70000, 94839],
    [4, '2024-07-09', -1875, 164839],
    [5, '2024-07-02', -9520, 166714],
    [6, '2024-07-01', 125000, 176234], // the oldest row, last in the file
  ]);
  // In date order, from the bottom: opening £1,762.34 - £1,250.00 = £512.34; -95.20 → £1,667.14; -18.75 → £1,648.39;
  // -700.00 → £948.39; +3,100.00 → £4,048.39; -7.50 → £4,040.89, the closing balance (first row of the file).
  t.match(r.balanceProof, { status: 'PASS', stepwisePass: true, openingBalance: 51234, closingBalance: 404089, delta: 0 });
});

t.test('Nationwide: Windows-1252 (£ as the byte A3, ’ as 92), three lines of account details above the header, DD Mon YYYY', async (t) => {
  const r = readFixture('nationwide.csv');
  t.match(r.schema, { amountModel: 'DUAL_COL_DR_CR', dateFormat: 'DD MMM YYYY', hasHeader: true });
  t.same(r.schema.columnMapping, { 0: 'date', 1: 'type', 2: 'description', 3: 'debit', 4: 'credit', 5: 'balance' });
  // 3 lines of account details and a blank line above the header; 4 data rows.
  assertConserved(t, r, { rows: 4, rejected: 0, ignored: 4 });
  t.same(money(r), [
    [1, '2026-09-01', 150000, 250000], // paid in £1,500.00; balance £2,500.00
    [2, '2026-09-02', -15433, 234567], // paid out £154.33: £2,500.00 − £154.33 = £2,345.67
    [3, '2026-09-03', -345, 234222], // £3.45: £2,345.67 − £3.45 = £2,342.22
    [4, '2026-09-04', -1200, 233022], // £12.00: £2,342.22 − £12.00 = £2,330.22
  ]);
  t.same(
    r.rows.map((row) => row.description),
    ['ZETA LTD', 'EDF ENERGY', 'CAFÉ NERO', 'O’NEILL’S BAR'],
    'É (C9) and the apostrophes (92) read as Windows-1252 writes them',
  );
  // Opening £2,500.00 − £1,500.00 = £1,000.00; closing £2,330.22, as the account details say.
  t.match(r.balanceProof, { status: 'PASS', stepwisePass: true, openingBalance: 100000, closingBalance: 233022, delta: 0 });
});

t.test('Lloyds and Halifax share a layout: the file name tells them apart', async (t) => {
  t.equal(readFixture('lloyds.csv', { filename: 'Halifax_statement_July.csv' }).schema.detectedPreset, 'Halifax');
  t.equal(readFixture('lloyds.csv', { filename: 'export.csv' }).schema.detectedPreset, 'Lloyds');
  t.equal(readFixture('lloyds.csv', { filename: 'Halifax_statement_July.csv' }).schema.fingerprint, readFixture('lloyds.csv').schema.fingerprint);
});

t.test('Revolut: ISO dates with times, a pending row rejected by its State', async (t) => {
  const r = readFixture('revolut.csv');
  t.match(r.schema, { detectedPreset: 'Revolut', amountModel: 'SIGNED_SINGLE', dateFormat: 'YYYY-MM-DD' });
  assertConserved(t, r, { rows: 4, rejected: 1, ignored: 0 });
  // A pending row has no Completed Date: its description and −£11.99 read, its date and balance do not.
  t.same(r.rejected, [
    {
      rowIndex: 5,
      line: 6,
      reason: 'the row is PENDING, not COMPLETED: no money has moved yet',
      read: { date: null, description: 'Zoom.us', reference: null, amount: -1199, balance: null },
    },
  ]);
  t.same(money(r), [
    [1, '2024-08-01', 50000, 62050],
    [2, '2024-08-04', -1420, 60630], // the completed date, not the started one (3 August)
    [3, '2024-08-10', -25000, 35630],
    [4, '2024-08-13', -1200, 34430],
  ]);
  // £620.50 - £500.00 = £120.50 opening; 120.50 + 500 - 14.20 - 250 - 12 = £344.30.
  t.match(r.balanceProof, { status: 'PASS', openingBalance: 12050, closingBalance: 34430 });
});

t.test('OFX 1 (SGML, CRLF): rows from STMTTRN, the ledger balance as the closing balance', async (t) => {
  const r = readFixture('statement-sgml.ofx');
  t.match(r.schema, { format: 'OFX', amountModel: 'SIGNED_SINGLE', columnMapping: {} });
  assertConserved(t, r, { rows: 5, rejected: 0, ignored: 0 });
  t.same(
    r.rows.map((row) => [row.rowIndex, row.date, row.description, row.reference, row.amount]),
    [
      [1, '2024-09-02', 'ACME WIDGETS LTD INV 7001', '202409020001', 150000], // NAME then MEMO; FITID as reference
      [2, '2024-09-05', 'BT GROUP PLC', '202409050001', -4250],
      [3, '2024-09-11', 'CHEQUE 000456', '000456', -30000], // CHECKNUM before FITID
      [4, '2024-09-18', 'M&S SIMPLY FOOD KINGS CROSS', '202409180001', -1899], // DTPOSTED with a time and zone; &amp; read
      [5, '2024-09-30', 'INTEREST', '202409300001', 37],
    ],
  );
  t.equal(r.rows[0]!.line, 39, 'the line of its <STMTTRN>');
  // Movement 1500.00 - 42.50 - 300.00 - 18.99 + 0.37 = £1,138.88; ledger £2,839.22 - £1,138.88 = £1,700.34 opening.
  t.same(r.balanceProof, {
    basis: 'LEDGER_BALANCE',
    openingBalance: 170034,
    closingBalance: 283922,
    delta: 0,
    status: 'NONE',
    stepwisePass: null,
    firstBreak: null,
  });
});

t.test('QFX / OFX 2 (XML): a credit-card statement', async (t) => {
  const r = readFixture('credit-card.qfx');
  assertConserved(t, r, { rows: 4, rejected: 0, ignored: 0 });
  t.same(
    r.rows.map((row) => [row.date, row.description, row.amount]),
    [
      ['2024-10-03', 'ADOBE SYSTEMS CREATIVE CLOUD', -6400],
      ['2024-10-09', 'DELL CORPORATION LTD', -12999],
      ['2024-10-15', 'PAYMENT RECEIVED - THANK YOU', 50000],
      ['2024-10-21', 'TFL TRAVEL CH', -840],
    ],
  );
  // Owed £702.39 (ledger -702.39); movement -64.00 - 129.99 + 500.00 - 8.40 = +£297.61; opening -702.39 - 297.61 = -£1,000.00.
  t.match(r.balanceProof, { basis: 'LEDGER_BALANCE', openingBalance: -100000, closingBalance: -70239, status: 'NONE' });
  t.not(r.schema.fingerprint, readFixture('statement-sgml.ofx').schema.fingerprint, 'a card statement and a bank statement are different layouts');
});

t.test('Revolut: only COMPLETED rows are money that moved; a reverted or declined one is rejected with its state', async (t) => {
  const r = readStatement(
    [
      'Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance',
      'TOPUP,Current,2024-09-01 09:00:00,2024-09-01 09:00:05,Top-up by *1234,200.00,0.00,GBP,COMPLETED,300.00',
      'CARD_PAYMENT,Current,2024-09-02 10:00:00,2024-09-02 10:00:02,Hotel deposit,-80.00,0.00,GBP,REVERTED,',
      'CARD_PAYMENT,Current,2024-09-03 11:00:00,,Airline,-120.00,0.00,GBP,DECLINED,',
      'CARD_PAYMENT,Current,2024-09-04 12:00:00,2024-09-04 12:00:03,Cafe,-4.50,0.00,GBP,COMPLETED,295.50',
      '',
    ].join('\n'),
  );
  t.equal(r.schema.detectedPreset, 'Revolut');
  assertConserved(t, r, { rows: 2, rejected: 2, ignored: 0 });
  t.match(r.rejected, [
    { rowIndex: 2, line: 3, reason: 'the row is REVERTED, not COMPLETED: no money has moved', read: { description: 'Hotel deposit', amount: -8000 } },
    { rowIndex: 3, line: 4, reason: 'the row is DECLINED, not COMPLETED: no money has moved', read: { description: 'Airline', amount: -12000 } },
  ]);
  // 300.00 − 200.00 = 100.00 opening; + 200.00 − 4.50 = 295.50, Revolut's own balance.
  t.match(r.balanceProof, { status: 'PASS', openingBalance: 10_000, closingBalance: 29_550 });
});
