/**
 * Credit notes in lists, and supplier credit notes over HTTP, the whole round: issue against an
 * approved bill, list, read, allocate to another bill and take it back,
 * refund and remove the refund, void. Every reply also passes the contract
 * check of the test server, so the bill-named fields (billId, billNumber,
 * billStatus, billAmountDue) are checked against the declared outputs.
 * Figures are worked by hand; today is 2026-11-21 (the clock of ledger()).
 */
import t from 'tap';
import { balanceOf, contactOk, ledger } from '../ledger-http/support.js';
import { invoiceOk, sendOk } from './invoice-support.js';
import { approveOk, billOk, getBill, item, payBillOk, supplierOk } from './purchases-support.js';

t.test('a supplier credit note settles its bill, its credit moves to another bill and back, is refunded and unrefunded, then voided', async (t) => {
  const l = await ledger(t);
  const supplier = await supplierOk(t, l.api);
  // Bill A: 3 × £50.00 at 20% = £150.00 net + £30.00 VAT = £180.00 = 18000p.
  const a = await billOk(t, l.api, supplier, {
    billNumber: 'PS-881',
    issueDate: '2026-10-01',
    dueDate: '2026-10-31',
    items: [item({ description: 'Paper', quantity: 3, unitPrice: 5000 })],
  });
  await approveOk(t, l.api, a.id);
  // Bill B: 1 × £100.00 at 20% = £120.00 = 12000p, due 2026-12-15 (not yet overdue).
  const b = await billOk(t, l.api, supplier, { billNumber: 'PS-902', issueDate: '2026-11-10', dueDate: '2026-12-15' });
  await approveOk(t, l.api, b.id);
  t.equal(b.total, 12000);
  // £100.00 paid on A: 18000 − 10000 = 8000 still due.
  await payBillOk(t, l.api, a.id, { amount: 10000, date: '2026-10-15' });
  const payable = async () => (await balanceOf(l.api, l.acc['2100']!)).net;
  // 2100: −18000 − 12000 + 10000 = −20000.
  t.equal(await payable(), -20000, 'owed to the supplier before the credit note');

  const created = await l.api.request('POST', '/v1/supplier-credit-notes', {
    body: { billId: a.id, creditNoteNumber: 'SCN-7', date: '2026-11-02', reason: 'Damaged paper' },
  });
  t.equal(created.status, 201, JSON.stringify(created.body?.error ?? ''));
  const note = created.body.data;
  t.match(note.id, /^scn_/);
  t.same([note.creditNoteNumber, note.billId, note.billNumber], ['SCN-7', a.id, 'PS-881'], 'the supplier’s number, naming the bill');
  // The whole bill: £150.00 + £30.00 = £180.00; it settles the £80.00 due, leaving £100.00 of credit.
  t.same([note.subtotal, note.vatAmount, note.total], [15000, 3000, 18000]);
  t.same([note.allocated, note.refunded, note.remainingCredit], [8000, 0, 10000]);
  t.same([note.billStatus, note.billAmountDue], ['paid', 0], 'bill A is settled');
  t.notOk('invoiceId' in note, 'no invoice fields on a supplier credit note');
  // 2100: −20000 + 18000 = −2000 (bill B's £120.00 less the £100.00 of credit).
  t.equal(await payable(), -2000, 'payables less the credit');

  const list = await l.api.request('GET', `/v1/supplier-credit-notes?billId=${a.id}`);
  t.equal(list.status, 200);
  t.same(list.body.meta, { total: 1, page: 1, limit: 20, hasMore: false });
  t.same(
    list.body.data.map((n: Record<string, unknown>) => [n.creditNoteNumber, n.billNumber, n.contactName, n.total, n.remainingCredit]),
    [['SCN-7', 'PS-881', 'Paper Supplies Ltd', 18000, 10000]],
  );
  t.equal((await l.api.request('GET', '/v1/credit-notes')).body.meta.total, 0, 'not a sales credit note');

  const allocated = await l.api.request('POST', `/v1/supplier-credit-notes/${note.id}/allocations`, {
    body: { billId: b.id, amount: 6000, date: '2026-11-12' },
  });
  t.equal(allocated.status, 201, JSON.stringify(allocated.body?.error ?? ''));
  // £100.00 − £60.00 = £40.00 left; bill B owes £120.00 − £60.00 = £60.00 and stays approved.
  t.same(
    [
      allocated.body.data.billId,
      allocated.body.data.amount,
      allocated.body.data.remainingCredit,
      allocated.body.data.billStatus,
      allocated.body.data.billAmountDue,
    ],
    [b.id, 6000, 4000, 'approved', 6000],
  );
  const removed = await l.api.request('DELETE', `/v1/supplier-credit-notes/${note.id}/allocations/${allocated.body.data.id}`);
  t.equal(removed.status, 200);
  t.same(
    [removed.body.data.deleted, removed.body.data.remainingCredit, removed.body.data.billId, removed.body.data.billAmountDue],
    [true, 10000, b.id, 12000],
    'owed again',
  );

  const refunded = await l.api.request('POST', `/v1/supplier-credit-notes/${note.id}/refunds`, { body: { amount: 2500, date: '2026-11-05' } });
  t.equal(refunded.status, 201, JSON.stringify(refunded.body?.error ?? ''));
  // £100.00 − £25.00 = £75.00 left; the money comes into 1200.
  t.same(
    [refunded.body.data.amount, refunded.body.data.method, refunded.body.data.accountId, refunded.body.data.remainingCredit],
    [2500, 'bank_transfer', l.acc['1200'], 7500],
  );
  const unrefunded = await l.api.request('DELETE', `/v1/supplier-credit-notes/${note.id}/refunds/${refunded.body.data.id}`);
  t.equal(unrefunded.status, 200);
  t.same(unrefunded.body.data, { id: refunded.body.data.id, deleted: true, remainingCredit: 10000 });

  const got = await l.api.request('GET', `/v1/supplier-credit-notes/${note.id}`);
  t.equal(got.status, 200);
  t.same(
    got.body.data.allocations.map((x: Record<string, unknown>) => [x.billId, x.billNumber, x.amount, x.date]),
    [[a.id, 'PS-881', 8000, '2026-11-02']],
    'only the allocation to bill A is left',
  );
  t.same(got.body.data.refunds, []);
  t.equal(got.body.data.items.length, 1);

  const voided = await l.api.request('POST', `/v1/supplier-credit-notes/${note.id}/void`);
  t.equal(voided.status, 200);
  t.same([voided.body.data.status, voided.body.data.allocated, voided.body.data.remainingCredit, voided.body.data.transactionId], ['void', 0, 0, null]);
  // Bill A owes its £80.00 again, past its due date of 2026-10-31.
  const after = await getBill(t, l.api, a.id);
  t.same([after.status, after.amountDue], ['overdue', 8000]);
  t.equal(await payable(), -20000, 'payables as before the credit note');
});

t.test('sales credit notes are listed by invoice, newest first, naming the invoice', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // 1 × £100.00 at 20% = £120.00 = 12000p.
  const inv = await invoiceOk(t, l.api, customer, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  await sendOk(t, l.api, inv.id);
  for (const amount of [1200, 2400]) {
    const r = await l.api.request('POST', '/v1/credit-notes', { body: { invoiceId: inv.id, amount, date: '2026-11-02' } });
    t.equal(r.status, 201, JSON.stringify(r.body?.error ?? ''));
  }
  const list = await l.api.request('GET', `/v1/credit-notes?invoiceId=${inv.id}&limit=1`);
  t.equal(list.status, 200);
  t.same(list.body.meta, { total: 2, page: 1, limit: 1, hasMore: true });
  // The newest: £24.00 = £20.00 net + £4.00 VAT, all of it applied to the invoice.
  t.same(
    list.body.data.map((n: Record<string, unknown>) => [
      n.creditNoteNumber,
      n.invoiceId,
      n.invoiceNumber,
      n.subtotal,
      n.vatAmount,
      n.total,
      n.allocated,
      n.remainingCredit,
    ]),
    [['CN-0002', inv.id, 'INV-0001', 2000, 400, 2400, 2400, 0]],
  );
  t.notOk('billId' in list.body.data[0], 'no bill fields on a sales credit note');
});
