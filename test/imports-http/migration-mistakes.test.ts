/**
 * Mistakes a migration could make silently, found by exploratory testing,
 * over HTTP on a real port: a UK file read as American dates, a migrated
 * document voided or its synthetic payment removed on its own (leaving the
 * clearing account off zero), an opening balance confirmed at a date other
 * than the one its title states or at a default when its title's date is
 * not read, a name two contacts share matched to one of them, hand or
 * automatic mappings a migration cannot clear, and an import that a void
 * credit note kept from being voided.
 */
import t, { type Test } from 'tap';
import { expectError } from '../http/support.js';
import { tally, trialBalanceAt, world } from './support.js';

type World = Awaited<ReturnType<typeof world>>;

// Debits 1,000.00 + 300.00 = 1,300.00 = credits 1,300.00; Trade Debtors 300.00 goes to 1198 in clearing mode.
const openingTb = ['Account,Debit,Credit', 'Bank,1000.00,', 'Trade Debtors,300.00,', 'Share Capital,,1300.00'].join('\n');

async function openingBalances(t: Test, w: World, file = openingTb, cutoverDate = '2026-03-31'): Promise<void> {
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file, filename: 'tb.csv', clearingMode: 'clearing', cutoverDate } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal(up.body.data.canConfirm, true, JSON.stringify(up.body.data.blockers));
  const confirmed = await w.api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
}

t.test('a Xero UK export sorted by contact, every date valid both ways, is read day first with a warning', async (t) => {
  const w = await world(t);
  await openingBalances(t, w);
  const file = [
    '*ContactName,*InvoiceNumber,*InvoiceDate,*DueDate,Total,InvoiceAmountPaid,InvoiceAmountDue',
    'Alpha Ltd,A-1,01/02/2026,01/03/2026,100.00,0.00,100.00',
    'Beta Ltd,B-1,02/01/2026,02/02/2026,100.00,0.00,100.00',
    'Gamma Ltd,C-1,03/01/2026,03/02/2026,100.00,0.00,100.00',
  ].join('\n');
  const up = await w.api.request('POST', '/v1/invoice-imports/upload', { body: { file, filename: 'xero.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  // Day first: A-1 1 February due 1 March; B-1 2 January due 2 February; C-1 3 January due 3 February.
  // (Month first they ran 2 Jan, 1 Feb, 1 Mar in date order, which is how the old guess chose them.)
  t.same(
    up.body.data.rows.map((r: { docNumber: string; docDate: string; dueDate: string }) => [r.docNumber, r.docDate, r.dueDate]),
    [
      ['A-1', '2026-02-01', '2026-03-01'],
      ['B-1', '2026-01-02', '2026-02-02'],
      ['C-1', '2026-01-03', '2026-02-03'],
    ],
  );
  t.match(up.body.data.warnings, [/read day first \(DD\/MM\/YYYY\).* 01\/02\/2026 is 2026-02-01/]);
  t.equal(up.body.data.canConfirm, true, JSON.stringify(up.body.data.blockers));
  const confirmed = await w.api.request('POST', `/v1/invoice-imports/${up.body.data.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // At 31 March 2026 A-1 (due 1 March) is 30 days overdue, B-1 (due 2 Feb) 57 days, C-1 (due 3 Feb) 56 days.
  const aged = await w.api.request('GET', '/v1/reports/aged-debtors?asOfDate=2026-03-31');
  t.equal(aged.status, 200, JSON.stringify(aged.body.error ?? ''));
  const due = new Map<string, string>();
  for (const c of aged.body.data.contacts as { invoices: { invoiceNumber: string; dueDate: string }[] }[])
    for (const i of c.invoices) due.set(i.invoiceNumber, i.dueDate);
  t.same(Object.fromEntries(due), { 'A-1': '2026-03-01', 'B-1': '2026-02-02', 'C-1': '2026-02-03' });
});

t.test('a file with a second field above 12 is still read month first, without the warning', async (t) => {
  const w = await world(t);
  await openingBalances(t, w);
  // 01/30/2026 reads only month first, so 01/02/2026 is 2 January; 100 + 100 + 100 = 300.00 clears 1198.
  const file = [
    '*ContactName,*InvoiceNumber,*InvoiceDate,*DueDate,Total,InvoiceAmountPaid,InvoiceAmountDue',
    'Alpha Ltd,A-1,01/02/2026,01/30/2026,100.00,0.00,100.00',
    'Beta Ltd,B-1,02/01/2026,03/01/2026,100.00,0.00,100.00',
    'Gamma Ltd,C-1,03/01/2026,03/31/2026,100.00,0.00,100.00',
  ].join('\n');
  const up = await w.api.request('POST', '/v1/invoice-imports/upload', { body: { file, filename: 'us.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.same(
    up.body.data.rows.map((r: { docDate: string; dueDate: string }) => [r.docDate, r.dueDate]),
    [
      ['2026-01-02', '2026-01-30'],
      ['2026-02-01', '2026-03-01'],
      ['2026-03-01', '2026-03-31'],
    ],
  );
  t.same(up.body.data.warnings, []);
});

// Debits 1,000.00 + 300.00 = 1,300.00; credits 200.00 + 1,100.00 = 1,300.00. Clearing mode: Trade Debtors 300.00 Dr on 1198, Trade Creditors 200.00 Cr on 2198.
const bothTb = ['Account,Debit,Credit', 'Bank,1000.00,', 'Trade Debtors,300.00,', 'Trade Creditors,,200.00', 'Share Capital,,1100.00'].join('\n');
// Outstanding 100.00 + (300.00 − 100.00 paid) = 300.00, Trade Debtors'.
const invoices = [
  'Contact,Reference,Dated On,Due On,Total Value,Paid Value,Due Value',
  'Alpha Ltd,A-1,2026-03-01,2026-03-31,100.00,0.00,100.00',
  'Part Ltd,P-1,2026-03-02,2026-04-01,300.00,100.00,200.00',
].join('\n');
// Outstanding 100.00 + (150.00 − 50.00 paid) = 200.00, Trade Creditors'.
const bills = [
  'Contact,Reference,Dated On,Due On,Total Value,Paid Value,Due Value',
  'Supply Ltd,S-1,2026-03-01,2026-03-31,100.00,0.00,100.00',
  'Parts Ltd,S-2,2026-03-02,2026-04-01,150.00,50.00,100.00',
].join('\n');

/** Opening balances with both clearing accounts, then both imports confirmed: 1198 and 2198 at zero. */
async function migrated(t: Test): Promise<World & { invoiceImport: string; billImport: string }> {
  const w = await world(t);
  await openingBalances(t, w, bothTb);
  const ids: string[] = [];
  for (const [path, file] of [
    ['invoice-imports', invoices],
    ['bill-imports', bills],
  ] as const) {
    const up = await w.api.request('POST', `/v1/${path}/upload`, { body: { file, filename: 'documents.csv' } });
    t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
    t.equal(up.body.data.canConfirm, true, JSON.stringify(up.body.data.blockers));
    const confirmed = await w.api.request('POST', `/v1/${path}/${up.body.data.importId}/confirm`);
    t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
    ids.push(up.body.data.importId);
  }
  const tb = await trialBalanceAt(w.api, '2026-03-31');
  t.same([tb['1198'], tb['2198']], [undefined, undefined], '1198 and 2198 cleared');
  return { ...w, invoiceImport: ids[0]!, billImport: ids[1]! };
}

async function documentNumbered(w: World, path: 'invoices' | 'bills', number: string): Promise<{ id: string; amountDue: number }> {
  const r = await w.api.request('GET', `/v1/${path}?limit=100`);
  const found = (r.body.data as { id: string; invoiceNumber?: string; billNumber?: string; amountDue: number }[]).find(
    (d) => (d.invoiceNumber ?? d.billNumber) === number,
  );
  if (!found) throw new Error(`no ${number}`);
  return found;
}

t.test('a migrated invoice or bill is not voided on its own: 422 and 1198 / 2198 stay at zero', async (t) => {
  const w = await migrated(t);
  const before = await tally(w.books);
  const invoice = await documentNumbered(w, 'invoices', 'A-1');
  const refused = await w.api.request('POST', `/v1/invoices/${invoice.id}/void`);
  // Before: 204 and 1198 left at 100.00 Dr (its clearing entry, credit 1198 100.00, gone).
  expectError(t, refused, 422, 'unprocessable_entity');
  t.match(refused.body.error.message, /raise a credit note to cancel it, or void the whole import/);
  t.match(refused.body.error.message, new RegExp(`POST /invoice-imports/${w.invoiceImport}/void`));
  const bill = await documentNumbered(w, 'bills', 'S-1');
  const refusedBill = await w.api.request('POST', `/v1/bills/${bill.id}/void`);
  expectError(t, refusedBill, 422, 'unprocessable_entity');
  t.match(refusedBill.body.error.message, /2198 Payables Migration Clearing.*void the whole import/);
  t.same(await tally(w.books), before, 'nothing written');
  const tb = await trialBalanceAt(w.api, '2026-03-31');
  t.same([tb['1198'], tb['2198']], [undefined, undefined], '1198 and 2198 still at zero');
  // Voiding the whole import still works: every invoice leaves and 1198 holds the opening 300.00 Dr again.
  const voided = await w.api.request('POST', `/v1/invoice-imports/${w.invoiceImport}/void`);
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.equal((await trialBalanceAt(w.api, '2026-03-31'))['1198'], 30000);
});

t.test('the synthetic "Paid before the migration" payment is not removed on its own: 422, the customer owes 200.00 not 300.00', async (t) => {
  const w = await migrated(t);
  const before = await tally(w.books);
  for (const [path, number, owed, code] of [
    ['invoices', 'P-1', 20000, '1198'], // 300.00 − 100.00 paid before the migration
    ['bills', 'S-2', 10000, '2198'], // 150.00 − 50.00 paid before the migration
  ] as const) {
    const doc = await documentNumbered(w, path, number);
    t.equal(doc.amountDue, owed);
    const payments = (await w.api.request('GET', `/v1/${path}/${doc.id}`)).body.data.payments as { id: string; reference: string }[];
    const synthetic = payments.find((p) => p.reference === 'Paid before the migration');
    if (!synthetic) throw new Error(`no synthetic payment on ${number}`);
    const refused = await w.api.request('DELETE', `/v1/${path}/${doc.id}/payments/${synthetic.id}`);
    expectError(t, refused, 422, 'unprocessable_entity');
    t.match(refused.body.error.message, new RegExp(`${code} .*Migration Clearing; void the import instead`));
    t.equal((await documentNumbered(w, path, number)).amountDue, owed, 'still owed only what was outstanding');
  }
  t.same(await tally(w.books), before, 'nothing written');
  const tb = await trialBalanceAt(w.api, '2026-03-31');
  t.same([tb['1198'], tb['2198']], [undefined, undefined], '1198 and 2198 still at zero');
});

t.test('a credit note raised on a migrated invoice or bill and then voided does not stop its import being voided', async (t) => {
  const w = await migrated(t);
  const notes: Record<'invoices' | 'bills', string> = { invoices: '', bills: '' };
  for (const [path, number, base, body] of [
    ['invoices', 'A-1', '/v1/credit-notes', { amount: 1000 }], // 10.00 off A-1's 100.00
    ['bills', 'S-1', '/v1/supplier-credit-notes', { amount: 2500, creditNoteNumber: 'SCN-9' }], // 25.00 off S-1's 100.00
  ] as const) {
    const doc = await documentNumbered(w, path, number);
    const note = await w.api.request('POST', base, { body: { [path === 'invoices' ? 'invoiceId' : 'billId']: doc.id, ...body } });
    t.equal(note.status, 201, JSON.stringify(note.body.error ?? ''));
    notes[path] = note.body.data.id;
  }
  // Today (24 November 2026): 1100 = 100.00 + 200.00 − 10.00 = 290.00 Dr; 2100 = 100.00 + 100.00 − 25.00 = 175.00 Cr.
  let today = await trialBalanceAt(w.api, '2026-11-24');
  t.same([today['1100'], today['2100']], [29000, -17500]);
  // While the credit notes stand, each import's void is refused and writes nothing (what they credited is not the old system's).
  const before = await tally(w.books);
  expectError(t, await w.api.request('POST', `/v1/invoice-imports/${w.invoiceImport}/void`), 422, 'unprocessable_entity', { message: /A-1 has credit/ });
  expectError(t, await w.api.request('POST', `/v1/bill-imports/${w.billImport}/void`), 422, 'unprocessable_entity', { message: /S-1 has credit/ });
  t.same(await tally(w.books), before, 'the refused voids left no trace');

  t.equal((await w.api.request('POST', `/v1/credit-notes/${notes.invoices}/void`)).status, 200);
  t.equal((await w.api.request('POST', `/v1/supplier-credit-notes/${notes.bills}/void`)).status, 200);
  today = await trialBalanceAt(w.api, '2026-11-24');
  t.same([today['1100'], today['2100']], [30000, -20000], 'the void credit notes settle nothing: 300.00 Dr and 200.00 Cr again');

  // Was: 422 "invoice A-1 has credit recorded since the migration", for good; and so the opening balance could never be voided either.
  const invoicesVoided = await w.api.request('POST', `/v1/invoice-imports/${w.invoiceImport}/void`);
  t.equal(invoicesVoided.status, 200, JSON.stringify(invoicesVoided.body.error ?? ''));
  t.equal(invoicesVoided.body.data.documentsVoided, 2);
  const billsVoided = await w.api.request('POST', `/v1/bill-imports/${w.billImport}/void`);
  t.equal(billsVoided.status, 200, JSON.stringify(billsVoided.body.error ?? ''));
  t.equal(billsVoided.body.data.documentsVoided, 2);
  // Back to the opening balance: 1198 300.00 Dr and 2198 200.00 Cr, and nothing on 1100 or 2100 at any date.
  const cutover = await trialBalanceAt(w.api, '2026-03-31');
  t.same([cutover['1198'], cutover['2198']], [30000, -20000]);
  today = await trialBalanceAt(w.api, '2026-11-24');
  t.same([today['1100'], today['2100']], [undefined, undefined]);
  // A void credit note of a migrated document leaves the books with it (its entry had gone when it was voided).
  expectError(t, await w.api.request('GET', `/v1/credit-notes/${notes.invoices}`), 404, 'not_found');
  expectError(t, await w.api.request('GET', `/v1/supplier-credit-notes/${notes.bills}`), 404, 'not_found');

  const balance = (await w.api.request('GET', '/v1/opening-balances/status')).body.data.importId as string;
  const balanceVoided = await w.api.request('POST', `/v1/opening-balances/${balance}/void`);
  t.equal(balanceVoided.status, 200, JSON.stringify(balanceVoided.body.error ?? ''));
  t.same(await trialBalanceAt(w.api, '2026-03-31'), {}, 'the reversal leaves no balance at the cutover');

  // Each voided again: 409 already_voided (was 404 not_found "it is voided" while GET shows it voided), nothing written.
  const voided = await tally(w.books);
  for (const path of [`/v1/invoice-imports/${w.invoiceImport}`, `/v1/bill-imports/${w.billImport}`, `/v1/opening-balances/${balance}`]) {
    t.equal((await w.api.request('GET', path)).body.data.status, 'voided');
    expectError(t, await w.api.request('POST', `${path}/void`), 409, 'already_voided', { message: /already void/ });
  }
  t.same(await tally(w.books), voided, 'the refused voids left no trace');
});

// A trial balance whose title states its date: debits 1,000.00 = credits 1,000.00.
const titled = ['Trial Balance', 'Migr Ltd', 'As at 31 March 2026', '', 'Account,Debit,Credit', 'Bank,1000.00,', 'Share Capital,,1000.00'].join('\n');

t.test('an opening balance "As at 31 March 2026" opens the books at 31 March 2026, and not at another date', async (t) => {
  // The clock is 24 November 2026: the cutover used to default to the end of last month, 31 October 2026.
  const w = await world(t);
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: titled, filename: 'tb.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.same([up.body.data.asAt, up.body.data.cutoverDate, up.body.data.canConfirm], ['2026-03-31', '2026-03-31', true], 'the stated date is the cutover');
  t.equal((await w.api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`)).status, 200);
  // Bank 1,000.00 Dr and Share Capital 1,000.00 Cr at 31 March 2026 (none the day before).
  const tb = await trialBalanceAt(w.api, '2026-03-31');
  t.equal(tb['1200'], 100000);
  t.same(await trialBalanceAt(w.api, '2026-03-30'), {});
});

t.test("an explicit cutover other than the file's stated date blocks the preview and confirm (422), until the dates agree", async (t) => {
  const w = await world(t);
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: titled, filename: 'tb.csv', cutoverDate: '2026-10-31' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const id = up.body.data.importId as string;
  t.equal(up.body.data.canConfirm, false);
  t.match(up.body.data.blockers, [/states its balances are as at 2026-03-31 but the cutover date is 2026-10-31/]);
  const before = await tally(w.books);
  const refused = await w.api.request('POST', `/v1/opening-balances/${id}/confirm`);
  expectError(t, refused, 422, 'unprocessable_entity');
  t.match(refused.body.error.message, /as at 2026-03-31/);
  t.same(await tally(w.books), before, 'nothing written');
  const fixed = await w.api.request('PATCH', `/v1/opening-balances/${id}/map`, { body: { cutoverDate: '2026-03-31' } });
  t.equal(fixed.status, 200, JSON.stringify(fixed.body.error ?? ''));
  t.same([fixed.body.data.cutoverDate, fixed.body.data.canConfirm], ['2026-03-31', true]);
  t.equal((await w.api.request('POST', `/v1/opening-balances/${id}/confirm`)).status, 200);
  t.equal((await trialBalanceAt(w.api, '2026-03-31'))['1200'], 100000, 'Bank 1,000.00 Dr at the stated date');
});

t.test('two customers named Jane Smith: an invoice for "Jane Smith" is matched to neither, and makes a new contact', async (t) => {
  const w = await world(t);
  const ids: string[] = [];
  for (const email of ['jane@one.example', 'jane@two.example']) {
    const c = await w.api.request('POST', '/v1/contacts', { body: { name: 'Jane Smith', contactType: 'customer', email } });
    t.equal(c.status, 201, JSON.stringify(c.body.error ?? ''));
    ids.push(c.body.data.id);
  }
  await openingBalances(t, w);
  // 300.00 outstanding, Trade Debtors' 300.00.
  const file = ['Contact,Reference,Dated On,Due On,Total Value,Paid Value,Due Value', 'Jane Smith,J-1,2026-03-01,2026-03-31,300.00,0.00,300.00'].join('\n');
  const up = await w.api.request('POST', '/v1/invoice-imports/upload', { body: { file, filename: 'jane.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  // Was: contactId of the older Jane Smith, outcome match, confidence 100, silently.
  t.match(up.body.data.rows[0].contact, {
    contactId: null,
    contactName: 'Jane Smith',
    outcome: 'create',
    reason: `Jane Smith (${ids[0]}) and Jane Smith (${ids[1]}) have this name, so neither is guessed: a new contact Jane Smith is created on confirm`,
  });
  const confirmed = await w.api.request('POST', `/v1/invoice-imports/${up.body.data.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  t.equal(confirmed.body.data.contactsCreated, 1);
  const invoices = (await w.api.request('GET', '/v1/invoices?limit=100')).body.data as { contactId: string }[];
  t.notOk(ids.includes(invoices[0]!.contactId), "posted to neither existing Jane Smith's account");
});

t.test('Closing Stock and Opening Stock map to Cost of Sales, not to 1300 Stock', async (t) => {
  const w = await world(t);
  // Sage's P&L stock lines: debits 1,000.00 + 500.00 (opening stock) = 1,500.00; credits 700.00 (closing stock) + 800.00 = 1,500.00.
  const file = ['Account,Debit,Credit', 'Bank,1000.00,', 'Opening Stock,500.00,', 'Closing Stock,,700.00', 'Share Capital,,800.00'].join('\n');
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file, cutoverDate: '2026-03-31' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const mapped = Object.fromEntries(
    (up.body.data.mappings as { sourceLabel: string; targetCode: string | null; method: string }[]).map((m) => [m.sourceLabel, [m.targetCode, m.method]]),
  );
  // Was: Closing Stock → 1300 Stock (dictionary, 90%), a P&L cost on the balance sheet.
  t.same(
    [mapped['Opening Stock'], mapped['Closing Stock']],
    [
      ['5000', 'dictionary'],
      ['5000', 'dictionary'],
    ],
  );
});

t.test('a hand mapping to 1198 or 2198 in direct mode is refused (400), naming the row; nothing written', async (t) => {
  const w = await world(t);
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: openingTb, cutoverDate: '2026-03-31' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const id = up.body.data.importId as string;
  const before = await tally(w.books);
  const refused = await w.api.request('PATCH', `/v1/opening-balances/${id}/map`, {
    body: { mappings: [{ sourceLabel: 'Trade Debtors', targetAccountId: w.id('1198') }] },
  });
  // Was: 200, and 1198 would hold 300.00 Dr that no invoice import (refused in direct mode) could ever clear.
  expectError(t, refused, 400, 'validation_error', { field: 'mappings[0].targetAccountId' });
  t.match(refused.body.error.message, /"Trade Debtors".*1198.*direct mode/);
  t.same(await tally(w.books), before, 'nothing written');
  const atUpload = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: { file: openingTb, cutoverDate: '2026-03-31', mappings: [{ sourceLabel: 'Bank', targetAccountId: w.id('2198') }] },
  });
  expectError(t, atUpload, 400, 'validation_error', { field: 'mappings[0].targetAccountId' });
  t.same(await tally(w.books), before, 'nothing written at upload either');
  // In clearing mode the same choice stands (it is where clearing mode sends Trade Debtors anyway).
  t.equal((await w.api.request('DELETE', `/v1/opening-balances/${id}`)).status, 200);
  const clearing = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: { file: openingTb, cutoverDate: '2026-03-31', clearingMode: 'clearing', mappings: [{ sourceLabel: 'Trade Debtors', targetAccountId: w.id('1198') }] },
  });
  t.equal(clearing.status, 201, JSON.stringify(clearing.body.error ?? ''));
});

t.test('in direct mode a row named like 1198 or 2198 is not matched to it: unmapped, saying why, until mapped by hand', async (t) => {
  const w = await world(t);
  // Debits 1,000.00 + 300.00 = 1,300.00; credits 200.00 + 1,100.00 = 1,300.00.
  const file = [
    'Account,Debit,Credit',
    'Bank,1000.00,',
    'Receivables Migration Clearing,300.00,', // the name of 1198 (exact)
    'Payable Migration Clearing,,200.00', // one letter short of 2198's name (fuzzy)
    'Share Capital,,1100.00',
  ].join('\n');
  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file, cutoverDate: '2026-03-31' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const id = up.body.data.importId as string;
  const byLabel = (mappings: { sourceLabel: string }[], label: string) => mappings.find((m) => m.sourceLabel === label);
  // Was: exact to 1198 and fuzzy to 2198, confirmable, and 1198 300.00 Dr / 2198 200.00 Cr that no import (refused in direct mode) could clear.
  for (const [label, code] of [
    ['Receivables Migration Clearing', '1198'],
    ['Payable Migration Clearing', '2198'],
  ] as const) {
    t.match(byLabel(up.body.data.mappings, label), {
      targetAccountId: null,
      targetCode: null,
      method: 'unmapped',
      confidence: 0,
      reason: new RegExp(`${code} .*Migration Clearing.*direct mode.*choose`),
    });
  }
  t.same(up.body.data.unmapped, ['Receivables Migration Clearing', 'Payable Migration Clearing']);
  t.equal(up.body.data.canConfirm, false);
  const before = await tally(w.books);
  expectError(t, await w.api.request('POST', `/v1/opening-balances/${id}/confirm`), 422, 'unprocessable_entity', { message: /2 row\(s\) have no account/ });
  t.same(await tally(w.books), before, 'nothing written');

  const mapped = await w.api.request('PATCH', `/v1/opening-balances/${id}/map`, {
    body: {
      mappings: [
        { sourceLabel: 'Receivables Migration Clearing', targetAccountId: w.id('1100') },
        { sourceLabel: 'Payable Migration Clearing', targetAccountId: w.id('2100') },
      ],
    },
  });
  t.equal(mapped.status, 200, JSON.stringify(mapped.body.error ?? ''));
  t.equal(mapped.body.data.canConfirm, true, JSON.stringify(mapped.body.data.blockers));
  t.equal((await w.api.request('POST', `/v1/opening-balances/${id}/confirm`)).status, 200);
  const tb = await trialBalanceAt(w.api, '2026-03-31');
  t.same([tb['1100'], tb['2100'], tb['1198'], tb['2198']], [30000, -20000, undefined, undefined]);

  // In clearing mode the same rows stand on 1198 and 2198: the invoice and bill imports clear them there.
  const w2 = await world(t);
  const clearing = await w2.api.request('POST', '/v1/opening-balances/upload', { body: { file, cutoverDate: '2026-03-31', clearingMode: 'clearing' } });
  t.match(byLabel(clearing.body.data.mappings, 'Receivables Migration Clearing'), { targetCode: '1198', method: 'exact' });
  t.match(byLabel(clearing.body.data.mappings, 'Payable Migration Clearing'), { targetCode: '2198', method: 'fuzzy' });
  t.equal(clearing.body.data.canConfirm, true, JSON.stringify(clearing.body.data.blockers));
});

t.test('a title date as 31-03-2026, 31 Mar 26 or 31/03/26 is read; one that cannot be read blocks confirm until a cutover is given', async (t) => {
  const w = await world(t);
  // Bank 10.00 Dr = Sales 10.00 Cr.
  const titledAs = (title: string) => ['Trial Balance', title, '', 'Account,Debit,Credit', 'Bank Account,10.00,', 'Sales,,10.00'].join('\n');
  for (const title of ['as at 31-03-2026', 'As at 31 Mar 26', 'As at 31/03/26', 'As of 31.03.2026', 'As of March 31, 26']) {
    const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: titledAs(title) } });
    t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
    // Was (the first two): asAt null and the cutover 2026-10-31, the end of the month before the clock's 24 November 2026.
    t.same([up.body.data.asAt, up.body.data.cutoverDate, up.body.data.blockers], ['2026-03-31', '2026-03-31', []], title);
    t.equal((await w.api.request('DELETE', `/v1/opening-balances/${up.body.data.importId}`)).status, 200);
  }

  const up = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: titledAs('As at the end of March 2026') } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const id = up.body.data.importId as string;
  // Was: asAt null, cutoverDate 2026-10-31, no blocker: the balances of some other day posted at 31 October 2026.
  t.same([up.body.data.asAt, up.body.data.cutoverDate, up.body.data.canConfirm], [null, '2026-10-31', false]);
  t.match(up.body.data.blockers, [/"As at the end of March 2026".*cannot be read.*2026-10-31.*cutoverDate/]);
  const before = await tally(w.books);
  expectError(t, await w.api.request('POST', `/v1/opening-balances/${id}/confirm`), 422, 'unprocessable_entity', { message: /cannot be read/ });
  t.same(await tally(w.books), before, 'nothing written');
  // The cutover given by hand settles it.
  const fixed = await w.api.request('PATCH', `/v1/opening-balances/${id}/map`, { body: { cutoverDate: '2026-03-31' } });
  t.equal(fixed.status, 200, JSON.stringify(fixed.body.error ?? ''));
  t.same([fixed.body.data.cutoverDate, fixed.body.data.canConfirm, fixed.body.data.blockers], ['2026-03-31', true, []]);
  t.equal((await w.api.request('DELETE', `/v1/opening-balances/${id}`)).status, 200);
  // As does one given at upload, even the default month end.
  const given = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: { file: titledAs('As at the end of March 2026'), cutoverDate: '2026-10-31' },
  });
  t.same([given.body.data.cutoverDate, given.body.data.canConfirm], ['2026-10-31', true], JSON.stringify(given.body.data.blockers));
  t.equal((await w.api.request('POST', `/v1/opening-balances/${given.body.data.importId}/confirm`)).status, 200);
  // Bank 10.00 Dr at 31 October 2026.
  t.equal((await trialBalanceAt(w.api, '2026-10-31'))['1200'], 1000);
});
