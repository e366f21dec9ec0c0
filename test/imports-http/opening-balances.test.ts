/**
 * Opening balances over HTTP: a trial balance uploaded (JSON, raw text/csv,
 * multipart), each row mapped in tiers with method and confidence, the
 * balance proof (money as pounds strings), confirm as one immutable journal
 * at the cutover, one active per organisation (409 SINGLETON_VIOLATION),
 * void by reversal, clearing mode, hand mapping, rounding to 7999 within
 * £0.05, and every refusal leaving the books as they were.
 */
import t, { type Test } from 'tap';
import { expectError } from '../http/support.js';
import { fixture, tally, trialBalanceAt, world } from './support.js';

type Api = Awaited<ReturnType<typeof world>>['api'];

/** Row conservation at upload: the stats as worked by hand, [rows, valid, errors, ignored], and valid + errors + ignored = rows. */
function uploaded(t: Test, stats: { totalRows: number; validRows: number; errorRows: number; ignoredRows: number }, rows: readonly number[]): void {
  t.same([stats.totalRows, stats.validRows, stats.errorRows, stats.ignoredRows], rows, 'rows: total, valid, errors, ignored');
  t.equal(stats.validRows + stats.errorRows + stats.ignoredRows, stats.totalRows, 'row conservation: valid + errors + ignored = rows');
}

/** The import record once confirmed: every row once, as worked by hand, and created + merged + skipped + errors = rows. */
async function confirmedRows(t: Test, api: Api, importId: string, counts: { totalRows: number; createdCount: number; skippedCount: number }) {
  const record = (await api.request('GET', `/v1/opening-balances/${importId}`)).body.data.import;
  t.match(record, { status: 'completed', ...counts, mergedCount: 0, errorCount: 0 });
  t.equal(
    record.createdCount + record.mergedCount + record.skippedCount + record.errorCount,
    record.totalRows,
    'row conservation at confirm: created + merged + skipped + errors = rows',
  );
}

// Debits: 12,500.00 + 4,200.00 + 6,000.00 + 18,150.00 = 40,850.00
// Credits: 1,800.00 + 950.00 + 100.00 + 8,000.00 + 30,000.00 = 40,850.00
const tb = [
  'Account,Debit,Credit',
  'Business Bank Account,"12,500.00",',
  'Accounts Receivable,"4,200.00",',
  'Accounts Payable,,"1,800.00"',
  'VAT,,950.00',
  'Share Capital,,100.00',
  'Retained Earnings,,"8,000.00"',
  'Sales,,"30,000.00"',
  'Rent,"6,000.00",',
  'General Expenses,"18,150.00",',
  'Total,"40,850.00","40,850.00"',
].join('\n');

t.test('direct mode: mapped, proved, confirmed as one journal at the cutover; one active; void reverses it', async (t) => {
  const { books, api } = await world(t);
  const up = await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, filename: 'tb.csv', cutoverDate: '2025-03-31' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const preview = up.body.data;
  t.equal(preview.status, 'pending');
  t.equal(preview.openingBalanceMode, 'direct');
  t.same(preview.balanceProof, {
    balanced: true,
    totalDebit: '40850.00',
    totalCredit: '40850.00',
    delta: '0.00',
    roundingInjected: false,
    roundingAmount: '0.00',
  });
  // Rows: the nine accounts and the Total row (ignored): 10 = 9 valid + 0 errors + 1 ignored.
  t.same(preview.stats, { totalRows: 10, validRows: 9, errorRows: 0, ignoredRows: 1 });
  const mapped = Object.fromEntries(
    preview.mappings.map((m: { sourceLabel: string; targetCode: string; method: string }) => [m.sourceLabel, [m.targetCode, m.method]]),
  );
  t.same(mapped['Accounts Receivable'], ['1100', 'exact']);
  t.same(mapped['Sales'], ['4000', 'exact']);
  t.same(mapped['Business Bank Account'], ['1200', 'dictionary']);
  t.same(mapped['General Expenses'], ['5990', 'dictionary']);
  t.equal(mapped['VAT']?.[1], 'dictionary');
  t.equal(preview.canConfirm, true, JSON.stringify(preview.blockers));
  const bank = preview.lines.find((l: { sourceLabel: string }) => l.sourceLabel === 'Business Bank Account');
  t.match(bank, { accountCode: '1200', debit: '12500.00', credit: '0.00', isRounding: false });

  const confirmed = await api.request('POST', `/v1/opening-balances/${preview.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  t.match(confirmed.body.data, {
    importId: preview.importId,
    cutoverDate: '2025-03-31',
    openingBalanceMode: 'direct',
    lines: 9,
    totalDebit: '40850.00',
    totalCredit: '40850.00',
  });
  const txn = confirmed.body.data.transactionId as string;
  const status = await api.request('GET', '/v1/opening-balances/status');
  t.match(status.body.data, {
    hasOpeningBalance: true,
    transactionId: txn,
    importId: preview.importId,
    cutoverDate: '2025-03-31',
    openingBalanceMode: 'direct',
  });
  // The trial balance at the cutover is the file's, in pence.
  t.same(await trialBalanceAt(api, '2025-03-31'), {
    '1100': 420000,
    '1200': 1250000,
    '2100': -180000,
    '2202': -95000,
    '3000': -10000,
    '3100': -800000,
    '4000': -3000000,
    '5200': 600000,
    '5990': 1815000,
  });
  const journal = await api.request('GET', `/v1/transactions/${txn}`);
  t.equal(journal.body.data.sourceType, 'opening_balance');
  t.equal(journal.body.data.date, '2025-03-31');
  // Immutable: the journal is the import's, not editable or deletable as a journal.
  expectError(t, await api.request('DELETE', `/v1/transactions/${txn}`), 422, 'unprocessable_entity');

  // A second upload while one is active: 409, nothing written.
  const before = await tally(books);
  expectError(t, await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb } }), 409, 'SINGLETON_VIOLATION', { message: /void it/ });
  t.same(await tally(books), before, 'the refused upload left no trace');
  // Confirming a completed one again: 409.
  expectError(t, await api.request('POST', `/v1/opening-balances/${preview.importId}/confirm`), 409, 'conflict');
  expectError(t, await api.request('DELETE', `/v1/opening-balances/${preview.importId}`), 409, 'conflict');

  const voided = await api.request('POST', `/v1/opening-balances/${preview.importId}/void`);
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.match(voided.body.data, { voided: true, transactionId: txn });
  t.same(await trialBalanceAt(api, '2025-03-31'), {}, 'the reversal takes every balance back to nothing');
  t.equal((await api.request('GET', `/v1/transactions/${txn}`)).status, 200, 'the journal stays in the ledger');
  t.match((await api.request('GET', '/v1/opening-balances/status')).body.data, { hasOpeningBalance: false, transactionId: null });
  // Voided again: 409 already_voided (was 404 not_found "it is voided"), nothing written.
  const voidedTally = await tally(books);
  expectError(t, await api.request('POST', `/v1/opening-balances/${preview.importId}/void`), 409, 'already_voided', { message: /already void/ });
  t.same(await tally(books), voidedTally, 'the refused void left no trace');
  const again = await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, cutoverDate: '2025-03-31' } });
  t.equal(again.status, 201, 'after the void another may be imported');
});

t.test('clearing mode sends Trade Debtors to 1198 and Trade Creditors to 2198', async (t) => {
  const { api } = await world(t);
  const up = await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, clearingMode: 'clearing', cutoverDate: '2025-03-31' } });
  t.equal(up.status, 201);
  const byLabel = (label: string) => up.body.data.mappings.find((m: { sourceLabel: string }) => m.sourceLabel === label);
  t.match(byLabel('Accounts Receivable'), { targetCode: '1198', method: 'clearing' });
  t.match(byLabel('Accounts Payable'), { targetCode: '2198', method: 'clearing' });
  // 10 rows = the nine accounts + the Total row (ignored).
  uploaded(t, up.body.data.stats, [10, 9, 0, 1]);
  t.equal((await api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`)).status, 200);
  // Nine lines created + the Total row skipped = 10.
  await confirmedRows(t, api, up.body.data.importId, { totalRows: 10, createdCount: 9, skippedCount: 1 });
  const balances = await trialBalanceAt(api, '2025-03-31');
  t.equal(balances['1198'], 420000);
  t.equal(balances['2198'], -180000);
  t.equal(balances['1100'], undefined);
});

t.test('two pending: once one is confirmed, confirming the other is 409 SINGLETON_VIOLATION and writes nothing', async (t) => {
  const { books, api } = await world(t);
  const first = await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, cutoverDate: '2025-03-31' } });
  const second = await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, cutoverDate: '2025-03-31' } });
  t.equal(first.status, 201);
  t.equal(second.status, 201, 'while none is active a second may wait pending');
  t.equal(second.body.data.canConfirm, true);
  t.equal((await api.request('POST', `/v1/opening-balances/${first.body.data.importId}/confirm`)).status, 200);
  const waiting = (await api.request('GET', `/v1/opening-balances/${second.body.data.importId}`)).body.data;
  t.equal(waiting.canConfirm, false, 'the preview no longer offers the confirm');
  t.match(waiting.blockers, [new RegExp(`${first.body.data.importId} is active: void it first`)]);

  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/opening-balances/${second.body.data.importId}/confirm`), 409, 'SINGLETON_VIOLATION', {
    message: new RegExp(`opening balance ${first.body.data.importId} is already active`),
  });
  t.same(await tally(books), before, 'the refused confirm posted nothing');
  // The bank once, not twice: 12,500.00; the debits once: 40,850.00.
  const balances = await trialBalanceAt(api, '2025-03-31');
  t.equal(balances['1200'], 1250000);
  t.equal(
    Object.values(balances)
      .filter((v) => v > 0)
      .reduce((a, b) => a + b, 0),
    4085000,
  );
  t.equal((await api.request('GET', `/v1/opening-balances/${second.body.data.importId}`)).body.data.status, 'pending', 'the second stays pending');
});

t.test('the raw text/csv body and multipart/form-data are read as the JSON file is', async (t) => {
  const { api } = await world(t);
  const raw = await api.request('POST', '/v1/opening-balances/upload?cutoverDate=2025-03-31&filename=tb.csv', {
    raw: tb,
    headers: { 'content-type': 'text/csv' },
  });
  t.equal(raw.status, 201, JSON.stringify(raw.body.error ?? ''));
  t.equal(raw.body.data.filename, 'tb.csv');
  t.equal(raw.body.data.balanceProof.totalDebit, '40850.00');
  // As the JSON file: 10 rows = 9 valid + 0 errors + 1 ignored (the Total row).
  uploaded(t, raw.body.data.stats, [10, 9, 0, 1]);
  const boundary = 'acct-boundary';
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="clearingMode"',
    '',
    'clearing',
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="trial.csv"',
    'Content-Type: text/csv',
    '',
    tb,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const multi = await api.request('POST', '/v1/opening-balances/upload', {
    raw: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  t.equal(multi.status, 201, JSON.stringify(multi.body.error ?? ''));
  t.equal(multi.body.data.filename, 'trial.csv');
  t.equal(multi.body.data.openingBalanceMode, 'clearing');
  uploaded(t, multi.body.data.stats, [10, 9, 0, 1]);
});

t.test('unbalanced beyond £0.05: shown, not confirmable, nothing posted; 3p goes to 7999 Rounding', async (t) => {
  const { books, api } = await world(t);
  // Sales 30,012.34 instead of 30,000.00: credits 40,862.34, debits 40,850.00, delta −12.34.
  const off = tb.replace('"30,000.00"', '"30,012.34"');
  const up = await api.request('POST', '/v1/opening-balances/upload', { body: { file: off, cutoverDate: '2025-03-31' } });
  t.equal(up.status, 201);
  t.same(up.body.data.balanceProof, {
    balanced: false,
    totalDebit: '40850.00',
    totalCredit: '40862.34',
    delta: '-12.34',
    roundingInjected: false,
    roundingAmount: '0.00',
  });
  t.equal(up.body.data.canConfirm, false);
  // Unbalanced is no unreadable row: 10 rows = 9 valid + 0 errors + 1 ignored.
  uploaded(t, up.body.data.stats, [10, 9, 0, 1]);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`), 422, 'unprocessable_entity', {
    message: /does not balance/,
  });
  t.same(await tally(books), before, 'the refused confirm posted nothing');
  t.match((await api.request('GET', `/v1/opening-balances/${up.body.data.importId}`)).body.data.import, { status: 'pending', createdCount: 0 });

  // Sales 30,000.03: credits 40,850.03, delta −0.03, within £0.05: a 3p debit to 7999 balances it.
  const near = tb.replace('"30,000.00"', '"30,000.03"');
  const r = await api.request('POST', '/v1/opening-balances/upload', { body: { file: near, cutoverDate: '2025-03-31' } });
  t.same(r.body.data.balanceProof, {
    balanced: true,
    totalDebit: '40850.00',
    totalCredit: '40850.03',
    delta: '-0.03',
    roundingInjected: true,
    roundingAmount: '0.03',
  });
  t.match(r.body.data.lines.at(-1), { accountCode: '7999', debit: '0.03', credit: '0.00', isRounding: true });
  // The rounding line is no row of the file: 10 rows = 9 valid + 0 errors + 1 ignored, and 10 lines.
  uploaded(t, r.body.data.stats, [10, 9, 0, 1]);
  t.equal(r.body.data.lines.length, 10);
  t.equal((await api.request('POST', `/v1/opening-balances/${r.body.data.importId}/confirm`)).status, 200);
  // Rows, not lines: 9 created (the rounding line is none of the file's rows) + 1 skipped = 10.
  const record = (await api.request('GET', `/v1/opening-balances/${r.body.data.importId}`)).body.data.import;
  t.match(record, { status: 'completed', totalRows: 10, skippedCount: 1, errorCount: 0 });
  t.equal(record.createdCount, 9, 'created: the nine rows');
  t.equal(record.createdCount + record.mergedCount + record.skippedCount + record.errorCount, record.totalRows, 'row conservation at confirm');
  const balances = await trialBalanceAt(api, '2025-03-31');
  t.equal(balances['7999'], 3);
  t.equal(balances['4000'], -3000003);
});

t.test('an unmapped row blocks confirm until mapped by hand; bad mappings and dates are 400 and change nothing', async (t) => {
  const { books, api, id } = await world(t);
  // Tools and Consumables 150.00 moves from General Expenses: 18,000.00 + 150.00 = 18,150.00, still balanced.
  const odd = tb.replace('General Expenses,"18,150.00",', 'General Expenses,"18,000.00",\nZyxqv Widgetry,150.00,');
  const up = await api.request('POST', '/v1/opening-balances/upload', { body: { file: odd, cutoverDate: '2025-03-31' } });
  t.equal(up.status, 201);
  const importId = up.body.data.importId as string;
  t.same(up.body.data.unmapped, ['Zyxqv Widgetry']);
  t.equal(up.body.data.canConfirm, false);
  // 11 rows = 10 accounts (Zyxqv Widgetry among them: unmapped is no unreadable row) + 0 errors + 1 ignored (Total).
  uploaded(t, up.body.data.stats, [11, 10, 0, 1]);

  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/opening-balances/${importId}/confirm`), 422, 'unprocessable_entity', { message: /no account/ });
  t.same(await tally(books), before, 'the refused confirm posted nothing');
  expectError(
    t,
    await api.request('PATCH', `/v1/opening-balances/${importId}/map`, { body: { mappings: [{ sourceLabel: 'Nope', targetAccountId: id('5000') }] } }),
    400,
    'validation_error',
    { field: 'mappings[0].sourceLabel' },
  );
  expectError(t, await api.request('PATCH', `/v1/opening-balances/${importId}/map`, { body: { cutoverDate: '2025-03-30' } }), 400, 'validation_error', {
    field: 'cutoverDate',
  });
  expectError(t, await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, cutoverDate: '2025-03-15' } }), 400, 'validation_error', {
    field: 'cutoverDate',
  });
  t.same(await tally(books), before, 'the refused requests left no trace');

  const mapped = await api.request('PATCH', `/v1/opening-balances/${importId}/map`, {
    body: { mappings: [{ sourceLabel: 'Zyxqv Widgetry', targetAccountId: id('5000') }] },
  });
  t.equal(mapped.status, 200);
  t.match(
    mapped.body.data.mappings.find((m: { sourceLabel: string }) => m.sourceLabel === 'Zyxqv Widgetry'),
    { targetCode: '5000', method: 'manual', confidence: 100 },
  );
  t.equal(mapped.body.data.canConfirm, true);
  t.equal((await api.request('POST', `/v1/opening-balances/${importId}/confirm`)).status, 200);
  // 10 lines created + the Total row skipped = 11.
  await confirmedRows(t, api, importId, { totalRows: 11, createdCount: 10, skippedCount: 1 });
  t.equal((await trialBalanceAt(api, '2025-03-31'))['5000'], 15000);
});

t.test('an amount with a thousands comma left unquoted is an error naming the row, not two amounts', async (t) => {
  const { books, api } = await world(t);
  // Sales,,30,000.00 splits into Debit 30 and Credit 000.00 where the header has three columns: that must not be
  // read as a debit of £30.00, and the whole file cannot be confirmed until it is put right.
  const split = tb.replace('Sales,,"30,000.00"', 'Sales,,30,000.00');
  const up = await api.request('POST', '/v1/opening-balances/upload', { body: { file: split, cutoverDate: '2025-03-31' } });
  t.equal(up.status, 201);
  // 10 rows = 8 valid + 1 error (Sales) + 1 ignored (Total).
  uploaded(t, up.body.data.stats, [10, 8, 1, 1]);
  t.match(up.body.data.errors, [{ line: 8, field: 'row', reason: /4 cells where the header has 3.*1,200\.00.*quotes/ }]);
  t.equal(up.body.data.canConfirm, false);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`), 422, 'unprocessable_entity');
  t.same(await tally(books), before, 'the refused confirm posted nothing');
});

t.test('a file past 5 MB is 413', async (t) => {
  const { books, api } = await world(t);
  const before = await tally(books);
  const big = `Account,Debit,Credit\n${'Sales,,1.00\n'.repeat(500_000)}`;
  t.ok(big.length > 5 * 1024 * 1024);
  expectError(t, await api.request('POST', '/v1/opening-balances/upload', { raw: big, headers: { 'content-type': 'text/csv' } }), 413, 'payload_too_large');
  t.same(await tally(books), before);
});

t.test('each provider’s export and the messy files: every row once (valid, ignored or an error), and the proof', async (t) => {
  const { books, api } = await world(t);
  // Totals from each file's README, added up by hand there.
  const files = [
    { path: 'xero/trial-balance.csv', rows: [30, 29, 0, 1], debit: '351566.75', credit: '351566.75', unmapped: ['Tools and Consumables'] },
    { path: 'freeagent/trial-balance.csv', rows: [27, 26, 0, 1], debit: '205908.28', credit: '205908.28', unmapped: ['Freelance Design Fees'] },
    { path: 'quickbooks/trial-balance.csv', rows: [27, 25, 0, 2], debit: '270149.13', credit: '270149.13', unmapped: [] },
    // BOM and CRLF; balanced on the YTD columns: 53,552.75 (the month columns would give 4,598.40).
    { path: 'messy/trial-balance-bom-crlf.csv', rows: [10, 9, 0, 1], debit: '53552.75', credit: '53552.75', unmapped: [] },
    // 55,386.34 − 55,374.00 = 12.34: not balanced.
    { path: 'messy/trial-balance-unbalanced.csv', rows: [11, 10, 0, 1], debit: '55386.34', credit: '55374.00', unmapped: [] },
    // 46,710.17 − 46,710.14 = 0.03: a 3p credit to 7999.
    { path: 'messy/trial-balance-rounding.csv', rows: [11, 9, 0, 2], debit: '46710.17', credit: '46710.14', unmapped: [] },
  ];
  for (const f of files) {
    const r = await api.request('POST', '/v1/opening-balances/upload', { body: { file: fixture(f.path), filename: f.path, cutoverDate: '2025-03-31' } });
    t.equal(r.status, 201, `${f.path}: ${JSON.stringify(r.body.error ?? '')}`);
    const { stats, balanceProof, unmapped } = r.body.data;
    t.same([stats.totalRows, stats.validRows, stats.errorRows, stats.ignoredRows], f.rows, `${f.path}: rows`);
    t.equal(stats.validRows + stats.errorRows + stats.ignoredRows, stats.totalRows, `${f.path}: rows = valid + errors + ignored`);
    t.equal(r.body.data.lines.filter((l: { isRounding: boolean }) => !l.isRounding).length, stats.validRows, `${f.path}: a line a valid row`);
    t.match(balanceProof, { totalDebit: f.debit, totalCredit: f.credit }, `${f.path}: totals`);
    t.same(unmapped, f.unmapped, `${f.path}: unmapped`);
  }
  const rounding = await api.request('POST', '/v1/opening-balances/upload', {
    body: { file: fixture('messy/trial-balance-rounding.csv'), cutoverDate: '2025-03-31' },
  });
  t.match(rounding.body.data.balanceProof, { balanced: true, delta: '0.03', roundingInjected: true, roundingAmount: '-0.03' });
  const before = await tally(books);
  t.equal(before.transactions, 0, 'uploads write no transaction');
});
