/**
 * The VAT a file of outstanding invoices or bills gives (Xero's TaxTotal,
 * FreeAgent's Sales Tax Value…) kept on the migrated document, so that a
 * credit note against it takes its share of the VAT off the return, as one
 * on an invoice raised here does. The import itself still posts the gross
 * through the clearing account, with no VAT. Hand-made files on books of a
 * VAT-registered company (standard scheme, quarters to March, June,
 * September and December); the clock is 28 November 2026, so the credit
 * notes fall in the quarter to December 2026 (period 2026-12).
 */
import t, { type Test } from 'tap';
import { expectError } from '../http/support.js';
import { tally, trialBalanceAt, world } from './support.js';

type World = Awaited<ReturnType<typeof world>>;
const clock = '2026-11-28T10:00:00Z';

/** An opening balance at 31 October 2026 in clearing mode: `debtors` on 1198 or `creditors` on 2198, against capital. */
async function openingBalance(t: Test, w: World, line: string): Promise<void> {
  const up = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: { file: `Account,Debit,Credit\n${line}`, clearingMode: 'clearing', cutoverDate: '2026-10-31' },
  });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal((await w.api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`)).status, 200);
}

async function importDocuments(t: Test, w: World, path: 'invoice-imports' | 'bill-imports', file: string) {
  const up = await w.api.request('POST', `/v1/${path}/upload`, { body: { file, source: 'Xero' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal(up.body.data.canConfirm, true, JSON.stringify(up.body.data.blockers));
  const confirmed = await w.api.request('POST', `/v1/${path}/${up.body.data.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  return up.body.data as { rows: { docNumber: string; vat: string | null }[] };
}

async function documentId(w: World, path: 'invoices' | 'bills', number: string): Promise<string> {
  const r = await w.api.request('GET', `/v1/${path}?limit=100`);
  const doc = (r.body.data as { id: string; invoiceNumber?: string; billNumber?: string }[]).find((d) => (d.invoiceNumber ?? d.billNumber) === number);
  if (!doc) throw new Error(`no ${number}`);
  return doc.id;
}

const boxes = async (w: World) => (await w.api.request('GET', '/v1/vat/periods/2026-12')).body.data.exact as Record<string, number>;
const boxesAll = async (w: World) => (await w.api.request('GET', '/v1/vat/periods/2026-12')).body.data.boxes as Record<string, number>;

const invoiceHeader = 'ContactName,InvoiceNumber,InvoiceDate,DueDate,Total,TaxTotal';

t.test('a credit note on a migrated invoice with its VAT given: £120 of £1,200.00 (VAT £200.00) is £100 off sales and £20 off output VAT', async (t) => {
  const w = await world(t, { businessType: 'limited_company', vatScheme: 'standard' }, clock);
  // Trade Debtors £1,740.50 on 1198, balanced by capital.
  await openingBalance(t, w, 'Trade Debtors,1740.50,\nShare Capital,,1740.50\n');
  // XR-101: gross 1,200.00 with VAT 200.00 (net 1,000.00; 20% of it is 200.00, so the standard rate);
  // XR-102: gross 540.50 with VAT 40.50 (net 500.00; 20% would be 100.00, 5% 25.00: no one rate). 1,200.00 + 540.50 = 1,740.50 clears 1198.
  const preview = await importDocuments(
    t,
    w,
    'invoice-imports',
    `${invoiceHeader}\nAcme Trading Ltd,XR-101,15/08/2026,14/09/2026,1200.00,200.00\nBolt & Sons,XR-102,20/09/2026,20/10/2026,540.50,40.50\n`,
  );
  t.same(
    preview.rows.map((r) => [r.docNumber, r.vat]),
    [
      ['XR-101', '200.00'],
      ['XR-102', '40.50'],
    ],
  );
  // The import posts as before: 1100 debited with the gross, 1198 cleared, no VAT on 2200.
  const opened = await trialBalanceAt(w.api, '2026-10-31');
  t.equal(opened['1100'], 174050);
  t.equal(opened['1198'], undefined);
  t.equal(opened['2200'], undefined);

  const xr101 = await documentId(w, 'invoices', 'XR-101');
  const shown = (await w.api.request('GET', `/v1/invoices/${xr101}`)).body.data;
  // net 1,000.00 + VAT 200.00 = 1,200.00
  t.match(shown, { subtotal: 100000, vatAmount: 20000, total: 120000 });
  t.match(shown.items, [{ netAmount: 100000, vatAmount: 20000, vatRate: 20, vatRateName: 'standard' }]);

  const note = await w.api.request('POST', '/v1/credit-notes', { body: { invoiceId: xr101, amount: 12000, date: '2026-11-01' } });
  t.equal(note.status, 201, JSON.stringify(note.body.error ?? ''));
  // 120.00 × 1,000/1,200 = 100.00 net; 120.00 − 100.00 = 20.00 VAT (= 120 × 200/1,200)
  t.match(note.body.data, { subtotal: 10000, vatAmount: 2000, total: 12000, invoiceAmountDue: 108000 });
  const after = await trialBalanceAt(w.api, '2026-11-30');
  // 4000 debited 100.00; 2200 debited 20.00; 1100: 1,740.50 − 120.00 = 1,620.50
  t.equal(after['4000'], 10000);
  t.equal(after['2200'], 2000);
  t.equal(after['1100'], 162050);
  // box 1 = −20.00; box 6 exact = −100.00 (the migrated invoices themselves reach no return)
  t.match(await boxesAll(w), { box1: -2000, box4: 0 });
  t.match(await boxes(w), { box6: -10000, box7: 0 });

  // The rest of XR-101: 1,200.00 − 120.00 = 1,080.00, of which net 1,000.00 − 100.00 = 900.00, VAT 200.00 − 20.00 = 180.00.
  const rest = await w.api.request('POST', '/v1/credit-notes', { body: { invoiceId: xr101, date: '2026-11-02' } });
  t.equal(rest.status, 201, JSON.stringify(rest.body.error ?? ''));
  t.match(rest.body.data, { subtotal: 90000, vatAmount: 18000, total: 108000, invoiceAmountDue: 0 });
  // box 1 = −20.00 − 180.00 = −200.00; box 6 = −100.00 − 900.00 = −1,000.00
  t.match(await boxesAll(w), { box1: -20000 });
  t.match(await boxes(w), { box6: -100000 });

  // XR-102, VAT at no one rate: £54.05 of £540.50 is 54.05 × 500.00/540.50 = 50.00 net, 54.05 − 50.00 = 4.05 VAT (= 54.05 × 40.50/540.50).
  const xr102 = await documentId(w, 'invoices', 'XR-102');
  t.match((await w.api.request('GET', `/v1/invoices/${xr102}`)).body.data.items, [{ netAmount: 50000, vatAmount: 4050, vatRateName: null }]);
  const mixed = await w.api.request('POST', '/v1/credit-notes', { body: { invoiceId: xr102, amount: 5405, date: '2026-11-03' } });
  t.equal(mixed.status, 201, JSON.stringify(mixed.body.error ?? ''));
  t.match(mixed.body.data, { subtotal: 5000, vatAmount: 405, total: 5405 });
  // box 1 = −200.00 − 4.05 = −204.05; box 6 = −1,000.00 − 50.00 = −1,050.00
  t.match(await boxesAll(w), { box1: -20405 });
  t.match(await boxes(w), { box6: -105000 });
  t.equal((await trialBalanceAt(w.api, '2026-11-30'))['2200'], 20405);
});

t.test('a credit note on a migrated bill with its VAT given takes the VAT off box 4', async (t) => {
  const w = await world(t, { businessType: 'limited_company', vatScheme: 'standard' }, clock);
  // Trade Creditors £600.00 on 2198, balanced by cash.
  await openingBalance(t, w, 'Bank,600.00,\nTrade Creditors,,600.00\n');
  // SUP-9: gross 600.00 with VAT 100.00 (net 500.00; 20% of it is 100.00).
  await importDocuments(
    t,
    w,
    'bill-imports',
    'ContactName,InvoiceNumber,InvoiceDate,DueDate,Total,Tax Amount\nParts Ltd,SUP-9,01/10/2026,31/10/2026,600.00,100.00\n',
  );
  t.equal((await trialBalanceAt(w.api, '2026-10-31'))['2100'], -60000, 'the import posts the gross to 2100 as before');
  const sup9 = await documentId(w, 'bills', 'SUP-9');
  const note = await w.api.request('POST', '/v1/supplier-credit-notes', { body: { billId: sup9, amount: 6000, date: '2026-11-05' } });
  t.equal(note.status, 201, JSON.stringify(note.body.error ?? ''));
  // 60.00 × 500/600 = 50.00 net; 60.00 − 50.00 = 10.00 VAT
  t.match(note.body.data, { subtotal: 5000, vatAmount: 1000, total: 6000 });
  const after = await trialBalanceAt(w.api, '2026-11-30');
  // 2201 credited 10.00; 2100: −600.00 + 60.00 = −540.00; the default expense account credited 50.00
  t.equal(after['2201'], -1000);
  t.equal(after['2100'], -54000);
  // box 4 = −10.00; box 7 exact = −50.00
  t.match(await boxesAll(w), { box1: 0, box4: -1000 });
  t.match(await boxes(w), { box6: 0, box7: -5000 });
});

t.test('without a VAT column a migrated invoice is credited as before: no VAT', async (t) => {
  const w = await world(t, { businessType: 'limited_company', vatScheme: 'standard' }, clock);
  await openingBalance(t, w, 'Trade Debtors,1200.00,\nShare Capital,,1200.00\n');
  const preview = await importDocuments(
    t,
    w,
    'invoice-imports',
    'ContactName,InvoiceNumber,InvoiceDate,DueDate,Total\nAcme Trading Ltd,XR-101,15/08/2026,14/09/2026,1200.00\n',
  );
  t.equal(preview.rows[0]?.vat, null);
  const xr101 = await documentId(w, 'invoices', 'XR-101');
  t.match((await w.api.request('GET', `/v1/invoices/${xr101}`)).body.data, { subtotal: 120000, vatAmount: 0, total: 120000 });
  const note = await w.api.request('POST', '/v1/credit-notes', { body: { invoiceId: xr101, amount: 12000, date: '2026-11-01' } });
  t.equal(note.status, 201, JSON.stringify(note.body.error ?? ''));
  // all 120.00 off sales, none off VAT: box 1 = 0, box 6 = −120.00
  t.match(note.body.data, { subtotal: 12000, vatAmount: 0, total: 12000 });
  t.match(await boxesAll(w), { box1: 0 });
  t.match(await boxes(w), { box6: -12000 });
});

t.test('a VAT that is not an amount, negative, or not less than the total is an error on its row naming vat; confirm writes nothing', async (t) => {
  const w = await world(t, { businessType: 'limited_company', vatScheme: 'standard' }, clock);
  await openingBalance(t, w, 'Trade Debtors,300.00,\nShare Capital,,300.00\n');
  const before = await tally(w.books);
  const up = await w.api.request('POST', '/v1/invoice-imports/upload', {
    body: {
      file: `${invoiceHeader}\nA Ltd,X-1,01/09/2026,01/10/2026,100.00,2O.00\nB Ltd,X-2,01/09/2026,01/10/2026,100.00,-1.00\nC Ltd,X-3,01/09/2026,01/10/2026,100.00,100.00\n`,
    },
  });
  t.equal(up.status, 201);
  t.same(
    (up.body.data.errors as { line: number; field: string; reason: string }[]).map((e) => [e.line, e.field]),
    [
      [2, 'vat'],
      [3, 'vat'],
      [4, 'vat'],
    ],
  );
  t.match(up.body.data.errors, [{ reason: /2O\.00 is not an amount/ }, { reason: /negative/ }, { reason: /not less than the total £100\.00/ }]);
  t.equal(up.body.data.canConfirm, false);
  const pending = await tally(w.books);
  expectError(t, await w.api.request('POST', `/v1/invoice-imports/${up.body.data.importId}/confirm`), 422, 'unprocessable_entity');
  t.same(await tally(w.books), pending, 'the refused confirm left no trace');
  t.equal(pending.invoices, before.invoices);
});
