/**
 * Credit notes in the reports, over HTTP, with figures worked by hand: the
 * VAT return of a quarter holding credit notes (sales and supplier), and
 * aged debtors and creditors, whose totals equal the control accounts on
 * every date.
 */
import t from 'tap';
import type { Test } from 'tap';
import { balanceOf, contactOk, ledger, type Ledger } from '../ledger-http/support.js';
import { getInvoice, invoiceOk, item, payOk, sendOk } from '../sales-http/invoice-support.js';
import { approveOk, billOk, payBillOk, supplierOk } from '../sales-http/purchases-support.js';

async function ok(t: Test, l: Ledger, method: string, path: string, body?: Record<string, unknown>) {
  const r = await l.api.request(method, path, body === undefined ? {} : { body });
  t.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

async function sentInvoice(t: Test, l: Ledger, contactId: string, items: Record<string, unknown>[], issueDate: string, dueDate: string) {
  const inv = await invoiceOk(t, l.api, contactId, { items, issueDate, dueDate });
  await sendOk(t, l.api, inv.id);
  return inv;
}

t.test('the VAT return of a quarter holding credit notes', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  const supplier = await supplierOk(t, l.api);
  // B, last quarter (2026-09-20): 1 × £100.00 at 20% = £100.00 + £20.00.
  const b = await sentInvoice(t, l, customer, [item({ unitPrice: 10000 })], '2026-09-20', '2026-10-20');
  // A (2026-10-05): 2 × £500.00 at 20% = £1,000.00 + £200.00; 1 × £50.00 at 5% = £50.00 + £2.50.
  const a = await sentInvoice(
    t,
    l,
    customer,
    [item({ quantity: 2, unitPrice: 50000 }), item({ description: 'Cake', unitPrice: 5000, vatRate: 'reduced' })],
    '2026-10-05',
    '2026-11-04',
  );
  // D (2026-11-15): 1 × £1,000.00 at 20% = £1,000.00 + £200.00.
  await sentInvoice(t, l, customer, [item({ unitPrice: 100000 })], '2026-11-15', '2026-12-15');
  // Credit on B in this quarter (2026-10-15): £60.00 at 20% VAT included = £50.00 + £10.00.
  const onB = await ok(t, l, 'POST', '/v1/credit-notes', { invoiceId: b.id, amount: 6000, date: '2026-10-15' });
  t.same([onB.subtotal, onB.vatAmount], [5000, 1000]);
  // Credit of A's standard-rated line (2026-11-10): £1,000.00 + £200.00.
  const aLines = (await getInvoice(t, l.api, a.id)).items as { id: string }[];
  const onA = await ok(t, l, 'POST', '/v1/credit-notes', { invoiceId: a.id, lineIds: [aLines[0]!.id], date: '2026-11-10' });
  t.same([onA.subtotal, onA.vatAmount], [100000, 20000]);
  // C (2026-10-20): 1 × £300.00 at 20% = £300.00 + £60.00; the supplier credits £120.00 = £100.00 + £20.00 (2026-11-01).
  const c = await billOk(t, l.api, supplier, { items: [item({ description: 'Flour', unitPrice: 30000 })], issueDate: '2026-10-20', dueDate: '2026-11-19' });
  await approveOk(t, l.api, c.id);
  const onC = await ok(t, l, 'POST', '/v1/supplier-credit-notes', { billId: c.id, amount: 12000, date: '2026-11-01', creditNoteNumber: 'SUP-CR-9' });
  // C fell due on 19 November: on 21 November the reply says overdue, as a GET would.
  t.same([onC.subtotal, onC.vatAmount, onC.creditNoteNumber, onC.billStatus, onC.billAmountDue], [10000, 2000, 'SUP-CR-9', 'overdue', 24000]);

  const q = (await ok(t, l, 'GET', '/v1/reports/vat?from=2026-10-01&to=2026-12-31')).boxes;
  // Box 1: A £202.50 − credit on B £10.00 − credit on A £200.00 + D £200.00 = £192.50.
  // Box 4: C £60.00 − its credit £20.00 = £40.00. Box 5: £192.50 − £40.00 = £152.50.
  // Box 6: A £1,050.00 − £50.00 − £1,000.00 + D £1,000.00 = £1,000.00. Box 7: £300.00 − £100.00 = £200.00.
  t.same(q, { box1: 19250, box2: 0, box3: 19250, box4: 4000, box5: 15250, box6: 100000, box7: 20000, box8: 0, box9: 0 });
  // The quarter before holds B alone: the credit note counts when it is dated, not when the invoice was.
  const before = (await ok(t, l, 'GET', '/v1/reports/vat?from=2026-07-01&to=2026-09-30')).boxes;
  t.same([before.box1, before.box6], [2000, 10000]);
});

t.test('aged debtors and creditors count credit, and equal 1100 and 2100 on every date', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // P (2026-10-01, due 2026-10-31): 1 × £100.00 at 20% = £120.00; £20.00 paid 2026-10-10.
  const p = await sentInvoice(t, l, customer, [item()], '2026-10-01', '2026-10-31');
  await payOk(t, l.api, p.id, { amount: 2000, date: '2026-10-10' });
  // Credited in full 2026-11-05: £100.00 settles P, £20.00 is the customer's credit.
  const note = await ok(t, l, 'POST', '/v1/credit-notes', { invoiceId: p.id, date: '2026-11-05' });
  // Q (2026-11-10, due 2026-12-10): 1 × £50.00 at 20% = £60.00. £5.00 of the credit refunded 2026-11-12.
  await sentInvoice(t, l, customer, [item({ unitPrice: 5000 })], '2026-11-10', '2026-12-10');
  await ok(t, l, 'POST', `/v1/credit-notes/${note.id}/refunds`, { amount: 500, date: '2026-11-12' });

  const aged = async (asOf: string) => ok(t, l, 'GET', `/v1/reports/aged-debtors?asOfDate=${asOf}`);
  const receivable = async (asOf: string) => (await balanceOf(l.api, l.acc['1100']!, `?to=${asOf}`)).net;

  // 2026-11-01: P owes £100.00, 1 day late.
  const nov1 = await aged('2026-11-01');
  t.same(nov1.totals, { current: 0, days1to30: 10000, days31to60: 0, days61to90: 0, days90plus: 0, total: 10000 });
  t.equal(await receivable('2026-11-01'), 10000);
  // 2026-11-06: P settled; the credit note's £20.00 is owed to the customer.
  const nov6 = await aged('2026-11-06');
  t.same(
    nov6.contacts[0].invoices.map((r: { type: string; invoiceNumber: string; total: number; amountPaid: number; outstanding: number; agingBucket: string }) => [
      r.type,
      r.invoiceNumber,
      r.total,
      r.amountPaid,
      r.outstanding,
      r.agingBucket,
    ]),
    [['credit_note', 'CN-0001', -12000, -10000, -2000, 'current']],
  );
  t.equal(nov6.totals.total, -2000);
  t.same(nov6.summary, { totalContacts: 1, totalInvoices: 0 }, 'a credit note is no invoice');
  t.equal(await receivable('2026-11-06'), -2000);
  // 2026-11-21: Q's £60.00, less the £15.00 of credit left: £45.00.
  const nov21 = await aged('2026-11-21');
  t.same(
    nov21.contacts[0].invoices.map((r: { type: string; outstanding: number }) => [r.type, r.outstanding]),
    [
      ['invoice', 6000],
      ['credit_note', -1500],
    ],
  );
  // One invoice (Q) and one credit note listed: one invoice.
  t.same([nov21.contacts[0].total, nov21.totals.total, nov21.summary.totalInvoices], [4500, 4500, 1]);
  t.equal(await receivable('2026-11-21'), 4500);

  const supplier = await supplierOk(t, l.api);
  // S (2026-10-01): 1 × £60.00 at 20% = £72.00, paid 2026-10-05, credited in full 2026-10-20; the supplier refunds £30.00 on 2026-11-01.
  const s = await billOk(t, l.api, supplier, { items: [item({ unitPrice: 6000 })], issueDate: '2026-10-01', dueDate: '2026-10-31' });
  await approveOk(t, l.api, s.id);
  await payBillOk(t, l.api, s.id, { amount: 7200, date: '2026-10-05' });
  const scn = await ok(t, l, 'POST', '/v1/supplier-credit-notes', { billId: s.id, date: '2026-10-20' });
  t.match(scn.id, /^scn_/);
  t.same([scn.creditNoteNumber, scn.total, scn.allocated, scn.remainingCredit], [null, 7200, 0, 7200], 'a paid bill: all of it credit');
  const refund = await ok(t, l, 'POST', `/v1/supplier-credit-notes/${scn.id}/refunds`, { amount: 3000, date: '2026-11-01' });
  const entry = await ok(t, l, 'GET', `/v1/transactions/${refund.transactionId}`);
  t.same(
    entry.lines.map((x: { accountCode: string; amount: number }) => [x.accountCode, x.amount]),
    [
      ['1200', 3000],
      ['2100', -3000],
    ],
    'money back in: debit the bank, credit payables',
  );
  const creditors = await ok(t, l, 'GET', '/v1/reports/aged-creditors?asOfDate=2026-11-21');
  // The supplier owes us £72.00 − £30.00 = £42.00: a credit of −£42.00 on the payables side.
  t.same([creditors.totals.total, creditors.contacts[0].invoices[0].type], [-4200, 'credit_note']);
  // 2100: −7200 + 7200 + 7200 − 3000 = 4200 (a debit: the supplier owes us).
  t.equal((await balanceOf(l.api, l.acc['2100']!)).net, 4200);
});
