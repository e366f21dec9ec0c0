/**
 * A write on an invoice or bill already past its due date answers with the
 * status a GET straight after shows: overdue, not sent or approved. The
 * list and get sweep a document past its due date before answering
 * (overdue.ts); the replies of sending, approving, paying, crediting and
 * taking a payment back now say what that read will. Today is 2026-11-21
 * (the clock of ledger()) until the clock moves on a day, which no sweep
 * follows.
 */
import t from 'tap';
import { contactOk, ledger, outbox } from '../ledger-http/support.js';
import { movingClock } from '../helpers/index.js';
import { getInvoice, invoiceOk, pay, sendOk } from './invoice-support.js';
import { approveOk, billOk, getBill, payBill, payBillOk, supplierOk } from './purchases-support.js';

const aDay = 24 * 60 * 60 * 1000;

t.test('send (or PATCH status sent) and approve of a document due before today answer overdue, as GET does; invoice.sent then invoice.overdue', async (t) => {
  const { books, api } = await ledger(t);
  const customer = await contactOk(t, api);
  const supplier = await supplierOk(t, api);
  const inv = await invoiceOk(t, api, customer, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  const sent = await api.request('POST', `/v1/invoices/${inv.id}/send`, { body: {} });
  t.equal(sent.status, 200);
  t.equal(sent.body.data.status, 'overdue', 'due 31 October: overdue on 21 November');
  t.equal((await getInvoice(t, api, inv.id)).status, 'overdue');
  const events = (await outbox(books)).filter((e) => e.event.startsWith('invoice.')).map((e) => e.event);
  t.same(events, ['invoice.created', 'invoice.sent', 'invoice.overdue'], 'one invoice.overdue, when the read moved it');

  const moved = await invoiceOk(t, api, customer, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  const patched = await api.request('PATCH', `/v1/invoices/${moved.id}/status`, { body: { status: 'sent' } });
  t.equal(patched.status, 200);
  t.equal(patched.body.data.status, 'overdue', 'PATCH status sent (send without e-mail) says the same');

  const bill = await billOk(t, api, supplier, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  const approved = await approveOk(t, api, bill.id);
  t.equal(approved.status, 'overdue');
  t.equal((await getBill(t, api, bill.id)).status, 'overdue');

  // Due today: not yet overdue, so sent and approved.
  const today = await invoiceOk(t, api, customer, { issueDate: '2026-11-01', dueDate: '2026-11-21' });
  t.equal((await api.request('POST', `/v1/invoices/${today.id}/send`, { body: {} })).body.data.status, 'sent');
  const billToday = await billOk(t, api, supplier, { issueDate: '2026-11-01', dueDate: '2026-11-21' });
  t.equal((await approveOk(t, api, billToday.id)).status, 'approved');
});

t.test('a part payment, a payment taken back or a credit on a document that fell due since answers overdue, as GET does', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api } = await ledger(t, { clock });
  const customer = await contactOk(t, api);
  const supplier = await supplierOk(t, api);
  // Each 1 × £100.00 at 20% = £120.00 = 12000p, due today (21 November): issued, not overdue.
  const due = { issueDate: '2026-11-01', dueDate: '2026-11-21' };
  const bills = [];
  for (const n of ['B-1', 'B-2', 'B-3']) {
    const b = await billOk(t, api, supplier, { ...due, billNumber: n });
    t.equal((await approveOk(t, api, b.id)).status, 'approved');
    bills.push(b.id as string);
  }
  const invoices = [];
  for (let i = 0; i < 3; i++) {
    const inv = await invoiceOk(t, api, customer, due);
    await sendOk(t, api, inv.id);
    invoices.push(inv.id as string);
  }
  // £20.00 paid on the second of each while still due today: 12000 − 2000 = 10000 left.
  const billPayment = await payBillOk(t, api, bills[1]!, { amount: 2000 });
  t.equal(billPayment.billStatus, 'approved');
  const invoicePayment = (await pay(api, invoices[1]!, { amount: 2000 })).body.data;
  t.equal(invoicePayment.invoiceStatus, 'sent');

  clock.advance(aDay); // 22 November: all six are past their due date, and nothing has swept them.

  // Bills: £20.00 paid on B-1 (12000 − 2000 = 10000 due), B-2's payment taken back (12000 due), £30.00 credited on B-3 (9000 due).
  const paid = await payBill(api, bills[0]!, { amount: 2000, date: '2026-11-22' });
  t.equal(paid.status, 201);
  t.match(paid.body.data, { billStatus: 'overdue', amountDue: 10000 });
  const removed = await api.request('DELETE', `/v1/bills/${bills[1]}/payments/${billPayment.id}`);
  t.equal(removed.status, 200);
  t.match(removed.body.data, { billStatus: 'overdue', amountDue: 12000 });
  const credited = await api.request('POST', '/v1/supplier-credit-notes', { body: { billId: bills[2], amount: 3000, date: '2026-11-22' } });
  t.equal(credited.status, 201, JSON.stringify(credited.body?.error ?? ''));
  t.match(credited.body.data, { billStatus: 'overdue', billAmountDue: 9000 });
  for (const id of bills) t.equal((await getBill(t, api, id)).status, 'overdue', 'GET says the same');

  // Invoices, the same three writes: 10000, 12000 and 9000 due.
  const received = await pay(api, invoices[0]!, { amount: 2000, date: '2026-11-22' });
  t.equal(received.status, 201);
  t.match(received.body.data, { invoiceStatus: 'overdue', amountDue: 10000 });
  const back = await api.request('DELETE', `/v1/invoices/${invoices[1]}/payments/${invoicePayment.id}`);
  t.equal(back.status, 200);
  t.match(back.body.data, { invoiceStatus: 'overdue', amountDue: 12000 });
  const note = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: invoices[2], amount: 3000, date: '2026-11-22' } });
  t.equal(note.status, 201, JSON.stringify(note.body?.error ?? ''));
  t.match(note.body.data, { invoiceStatus: 'overdue', invoiceAmountDue: 9000 });
  for (const id of invoices) t.equal((await getInvoice(t, api, id)).status, 'overdue', 'GET says the same');
});
