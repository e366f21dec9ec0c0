/**
 * Removing a payment of an invoice or a bill over HTTP: the entry leaves
 * the ledger, the document owes the amount again, and the refusals
 * (reconciled, closed period, not this document's) leave everything as it
 * was. Figures worked by hand; the clock stands at 2026-11-21.
 */
import t from 'tap';
import { balanceOf, closeFy2025, contactOk, expectError, fileVat, ledger, outbox, transactionTotal } from '../ledger-http/support.js';
import { getInvoice, invoiceOk, item, payOk, sendOk } from './invoice-support.js';
import { approveOk, billOk, getBill, payBillOk, supplierOk } from './purchases-support.js';

t.test('a removed payment on a paid invoice: the invoice is owed again and the bank entry is gone', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // 1 × £240.00 at 20% = £240.00 + £48.00 VAT = £288.00; issued 2026-09-01, due 2026-10-01.
  const inv = await invoiceOk(t, l.api, customer, { items: [item({ unitPrice: 24000 })], issueDate: '2026-09-01', dueDate: '2026-10-01' });
  await sendOk(t, l.api, inv.id);
  const first = await payOk(t, l.api, inv.id, { amount: 8800, date: '2026-09-10' });
  const second = await payOk(t, l.api, inv.id, { amount: 20000, date: '2026-09-20' });
  t.equal(second.invoiceStatus, 'paid', '£88.00 + £200.00 = £288.00: paid');
  t.equal((await balanceOf(l.api, l.acc['1100']!)).net, 0, 'nothing receivable');
  t.equal((await balanceOf(l.api, l.acc['1200']!)).net, 28800, 'all of it in the bank');
  const transactions = await transactionTotal(l.api);

  const r = await l.api.request('DELETE', `/v1/invoices/${inv.id}/payments/${second.id}`);
  t.equal(r.status, 200, JSON.stringify(r.body));
  // Due again: £288.00 − £88.00 = £200.00; the due date 2026-10-01 has passed, so overdue.
  t.same([r.body.data.deleted, r.body.data.amount, r.body.data.invoiceStatus, r.body.data.amountDue], [true, 20000, 'overdue', 20000]);
  const after = await getInvoice(t, l.api, inv.id);
  t.same([after.status, after.amountPaid, after.amountDue, after.paidDate], ['overdue', 8800, 20000, null]);
  t.same(
    after.payments.map((p: { id: string }) => p.id),
    [first.id],
    'the other payment stays',
  );
  t.equal((await balanceOf(l.api, l.acc['1100']!)).net, 20000, 'receivable again: £200.00');
  t.equal((await balanceOf(l.api, l.acc['1200']!)).net, 8800, 'the bank holds the £88.00 left');
  t.equal(await transactionTotal(l.api), transactions - 1, "the payment's transaction is deleted");
  t.equal((await l.api.request('GET', `/v1/transactions/${second.transactionId}`)).status, 404);
  const removed = (await outbox(l.books)).filter((e) => e.event === 'payment.removed');
  t.same(
    removed.map((e) => e.payload.id),
    [second.id],
    'payment.removed raised once',
  );

  expectError(t, await l.api.request('DELETE', `/v1/invoices/${inv.id}/payments/${second.id}`), 404, 'not_found');
  // Paid again after the mistake is put right: £200.00 on 2026-10-05.
  const again = await payOk(t, l.api, inv.id, { amount: 20000, date: '2026-10-05' });
  t.equal(again.invoiceStatus, 'paid');
  t.equal((await getInvoice(t, l.api, inv.id)).paidDate, '2026-10-05');
});

t.test('removing a payment is refused when its bank entry is reconciled, in a closed period, or on another invoice', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  const old = await invoiceOk(t, l.api, customer, { items: [item()], issueDate: '2026-02-01', dueDate: '2026-03-01' });
  await sendOk(t, l.api, old.id);
  const oldPayment = await payOk(t, l.api, old.id, { amount: 12000, date: '2026-02-20' });
  const inv = await invoiceOk(t, l.api, customer, { items: [item()], issueDate: '2026-10-01' });
  await sendOk(t, l.api, inv.id);
  const payment = await payOk(t, l.api, inv.id, { amount: 5000, date: '2026-10-10' });

  expectError(t, await l.api.request('DELETE', `/v1/invoices/${old.id}/payments/${payment.id}`), 404, 'not_found', { message: /not found on invoice/ });
  expectError(t, await l.api.request('DELETE', `/v1/invoices/${inv.id}/payments/inv_123`), 400, 'invalid_id', { field: 'paymentId' });

  t.equal((await l.api.request('PATCH', `/v1/transactions/${payment.transactionId}/reconcile`, { body: { reconciled: true } })).status, 200);
  expectError(t, await l.api.request('DELETE', `/v1/invoices/${inv.id}/payments/${payment.id}`), 409, 'already_reconciled', {
    message: new RegExp(`payment ${payment.id} cannot be removed`),
  });
  t.same(
    [(await getInvoice(t, l.api, inv.id)).amountPaid, (await l.api.request('GET', `/v1/transactions/${payment.transactionId}`)).status],
    [5000, 200],
    'nothing changed',
  );

  // The February invoice's VAT is on the return for January to March 2026, filed before the year may be closed.
  await fileVat(t, l.api, '2026-03');
  await closeFy2025(t, l.api);
  expectError(t, await l.api.request('DELETE', `/v1/invoices/${old.id}/payments/${oldPayment.id}`), 422, 'unprocessable_entity', { message: /closed/ });
  t.same(
    [(await getInvoice(t, l.api, old.id)).status, (await balanceOf(l.api, l.acc['1200']!)).net],
    ['paid', 17000],
    'the closed year is as it was: £120.00 + £50.00 in the bank',
  );
  t.equal((await outbox(l.books)).filter((e) => e.event === 'payment.removed').length, 0, 'no event for a refusal');
});

t.test('a removed bill payment: the bill is owed again', async (t) => {
  const l = await ledger(t);
  const supplier = await supplierOk(t, l.api);
  // 1 × £60.00 at 20% = £60.00 + £12.00 VAT = £72.00; due 2026-12-15 (not yet due).
  const bill = await billOk(t, l.api, supplier, { items: [item({ description: 'Paper', unitPrice: 6000 })], issueDate: '2026-11-15', dueDate: '2026-12-15' });
  await approveOk(t, l.api, bill.id);
  const payment = await payBillOk(t, l.api, bill.id, { amount: 7200, date: '2026-11-18' });
  t.equal(payment.billStatus, 'paid');
  t.same([(await balanceOf(l.api, l.acc['2100']!)).net, (await balanceOf(l.api, l.acc['1200']!)).net], [0, -7200], 'paid from the bank');

  const r = await l.api.request('DELETE', `/v1/bills/${bill.id}/payments/${payment.id}`);
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.same([r.body.data.billId, r.body.data.billStatus, r.body.data.amountDue], [bill.id, 'approved', 7200], 'approved again: not yet due');
  const after = await getBill(t, l.api, bill.id);
  t.same([after.status, after.amountPaid, after.amountDue, after.paidDate], ['approved', 0, 7200, null]);
  // 2100: −7200 owed to the supplier again; the bank is back to 0.
  t.same([(await balanceOf(l.api, l.acc['2100']!)).net, (await balanceOf(l.api, l.acc['1200']!)).net], [-7200, 0]);
  t.same(
    (await outbox(l.books)).filter((e) => e.event === 'payment.removed').map((e) => e.payload.id),
    [payment.id],
  );
});
