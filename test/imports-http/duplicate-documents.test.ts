/**
 * An outstanding invoice whose number the books already hold, or dated
 * after the cutover, blocks the invoice import: shown on its row, confirm
 * refused (422) and nothing written; a bill's number counts only with its
 * supplier. Hand-made files; every figure worked in a comment.
 */
import t, { type Test } from 'tap';
import { expectError } from '../http/support.js';
import { contactOk } from '../ledger-http/support.js';
import { invoiceOk, sendOk } from '../sales-http/invoice-support.js';
import { tally, trialBalanceAt, world } from './support.js';

// Debtors £1,500.00 on 1198 (clearing); balanced by Sales £1,500.00.
const tb = 'Account,Debit,Credit\nAccounts Receivable,"1,500.00",\nSales,,"1,500.00"\n';

/** Every row once at upload: the stats worked by hand, [rows, valid, errors, ignored], valid + errors + ignored = rows, a row shown each. */
function conserved(
  t: Test,
  data: { stats: { totalRows: number; validRows: number; errorRows: number; ignoredRows: number }; rows: unknown[]; errors: unknown[]; ignored: unknown[] },
  rows: readonly number[],
): void {
  const { stats } = data;
  t.same([stats.totalRows, stats.validRows, stats.errorRows, stats.ignoredRows], rows, 'rows: total, valid, errors, ignored');
  t.equal(stats.validRows + stats.errorRows + stats.ignoredRows, stats.totalRows, 'row conservation: valid + errors + ignored = rows');
  t.same([data.rows.length, data.errors.length, data.ignored.length], rows.slice(1), 'a row shown for each: valid, errors, ignored');
}

async function clearing(t: Parameters<typeof world>[0]) {
  const w = await world(t);
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, clearingMode: 'clearing', cutoverDate: '2025-03-31' } });
  t.equal((await w.api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`)).status, 200);
  return w;
}

t.test('an invoice number already in the books: the row says so, confirm is 422, nothing is written', async (t) => {
  const { books, api } = await clearing(t);
  const customer = await contactOk(t, api, { contactType: 'customer', name: 'Brook Lane Stores' });
  const made = await invoiceOk(t, api, customer);
  await sendOk(t, api, made.id);
  const number = made.invoiceNumber as string;
  // Two invoices: £1,000.00 and £500.00 outstanding = £1,500.00, the debtors on 1198; the first reuses the books' number.
  const file = [
    'Contact,Invoice Number,Date,Due Date,Total,Amount Paid',
    `Brook Lane Stores,${number},14/03/2025,13/04/2025,"1,000.00",0.00`,
    'Brook Lane Stores,OLD-0002,20/03/2025,19/04/2025,500.00,0.00',
  ].join('\n');
  const up = await api.request('POST', '/v1/invoice-imports/upload', { body: { file } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.match(up.body.data.clearingProof, { openingBalance: '1500.00', importDelta: '-1500.00', netBalance: '0.00', cleared: true });
  t.match(up.body.data.rows[0], { docNumber: number, status: 'duplicate', error: /already in these books/ });
  t.equal(up.body.data.canConfirm, false);
  // 2 rows = 2 valid (a duplicate is read, then blocks) + 0 errors + 0 ignored.
  conserved(t, up.body.data, [2, 2, 0, 0]);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/invoice-imports/${up.body.data.importId}/confirm`), 422, 'unprocessable_entity', {
    message: /already in these books/,
  });
  t.same(await tally(books), before, 'the refused confirm wrote nothing');
});

t.test('an invoice dated after the cutover blocks confirm', async (t) => {
  const { books, api } = await clearing(t);
  const file = 'Contact,Invoice Number,Date,Due Date,Total,Amount Paid\nBrook Lane Stores,OLD-0001,02/04/2025,02/05/2025,"1,500.00",0.00\n';
  const up = await api.request('POST', '/v1/invoice-imports/upload', { body: { file } });
  t.match(up.body.data.rows[0], { status: 'after_cutover', error: /after the cutover 2025-03-31/ });
  // 1 row = 1 valid + 0 errors + 0 ignored.
  conserved(t, up.body.data, [1, 1, 0, 0]);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/invoice-imports/${up.body.data.importId}/confirm`), 422, 'unprocessable_entity');
  t.same(await tally(books), before);
});

t.test('a bill number is the supplier’s: the same number from another supplier is not a duplicate', async (t) => {
  const w = await world(t);
  // Creditors £300.00 on 2198; balanced by Cost of Sales £300.00.
  const up = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: { file: 'Account,Debit,Credit\nAccounts Payable,,300.00\nCost of Sales,300.00,\n', clearingMode: 'clearing', cutoverDate: '2025-03-31' },
  });
  t.equal((await w.api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`)).status, 200);
  // 2 bills numbered 1001 from two suppliers: £100.00 + £200.00 = £300.00.
  const file = [
    'Supplier,Bill Number,Date,Due Date,Total,Amount Paid',
    'Harbour Timber Ltd,1001,10/03/2025,09/04/2025,100.00,0.00',
    'Kestrel Fixings,1001,12/03/2025,11/04/2025,200.00,0.00',
  ].join('\n');
  const bills = await w.api.request('POST', '/v1/bill-imports/upload', { body: { file } });
  t.equal(bills.status, 201, JSON.stringify(bills.body.error ?? ''));
  t.same(
    bills.body.data.rows.map((r: { status: string }) => r.status),
    ['ready', 'ready'],
  );
  // 2 rows = 2 valid + 0 errors + 0 ignored.
  conserved(t, bills.body.data, [2, 2, 0, 0]);
  const pending = await tally(w.books);
  const done = await w.api.request('POST', `/v1/bill-imports/${bills.body.data.importId}/confirm`);
  t.equal(done.status, 200, JSON.stringify(done.body.error ?? ''));
  t.match(done.body.data, { documentsCreated: 2, contactsCreated: 2, clearingBalance: '0.00' });
  // Every row of the file recorded once: 2 created + 0 skipped + 0 errors = 2.
  t.equal((await tally(w.books)).data_import_rows - pending.data_import_rows, 2);
  const record = (await w.api.request('GET', `/v1/bill-imports/${bills.body.data.importId}`)).body.data.import;
  t.match(record, { status: 'completed', totalRows: 2, createdCount: 2, mergedCount: 0, skippedCount: 0, errorCount: 0 });
  t.equal(record.createdCount + record.mergedCount + record.skippedCount + record.errorCount, record.totalRows, 'row conservation at confirm');
  t.equal((await trialBalanceAt(w.api, '2025-03-31'))['2100'], -30000, '2100 holds the two bills: £300.00');
  // Void: the bills leave the ledger and 2198 holds the £300.00 credit again.
  const voided = await w.api.request('POST', `/v1/bill-imports/${bills.body.data.importId}/void`);
  t.match(voided.body.data, { voided: true, documentsVoided: 2 });
  const after = await trialBalanceAt(w.api, '2025-03-31');
  t.equal(after['2198'], -30000);
  t.equal(after['2100'], undefined);
});
