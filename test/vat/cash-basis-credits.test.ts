/**
 * Credit notes on the cash basis, worked by hand. The rule (cash-vat.ts):
 * a document's payments carry the VAT of what is paid for, that is of the
 * document less the credit allocated to it (each credit note's VAT × the
 * part of it allocated there), in proportion to the part paid; credit
 * allocated to a document that already has payments trues its shares up at
 * the allocation's date; a refund of credit carries the note's VAT × the
 * part refunded, negative. A document settled by payments and credit thus
 * counts exactly the VAT of the money that changed hands.
 */
import t from 'tap';
import { expectError } from '../ledger-http/support.js';
import { billApproved, cashBooks, fileOk, invoiceSent, item, netOf, paid, received, returnOf, type CashBooks } from './cash-support.js';
import type { Reply } from '../helpers/index.js';

async function creditNote(t: Parameters<typeof cashBooks>[0], c: CashBooks, path: string, body: Record<string, unknown>): Promise<Reply['body']> {
  const r = await c.api.request('POST', path, { body });
  t.equal(r.status, 201, `credit note issued: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

const lineIds = async (c: CashBooks, invoiceId: string): Promise<string[]> =>
  ((await c.api.request('GET', `/v1/invoices/${invoiceId}`)).body.data.items as { id: string }[]).map((i) => i.id);

t.test('credit before payment, and payment before credit: the VAT of what the customer paid for', async (t) => {
  const c = await cashBooks(t);
  // M and N alike: £100.00 at 20% (net 10000, VAT 2000, gross 12000) and £100.00 zero-rated (net 10000): total 22000.
  const both = [item({ unitPrice: 10000 }), item({ description: 'Books', unitPrice: 10000, vatRate: 'zero' })];
  const m = await invoiceSent(t, c, both, '2026-01-10');
  const n = await invoiceSent(t, c, both, '2026-01-10');

  // M: the zero-rated line is credited before anything is paid (10000, VAT 0): M owes 12000, all of it for the 20% line.
  await creditNote(t, c, '/v1/credit-notes', { invoiceId: m.id, lineIds: [(await lineIds(c, m.id))[1]], date: '2026-01-20' });
  // Paid 6000 of the 12000 left: M's 20% line VAT 2000 × 6000/12000 = 1000, gross 6000, net 5000; M's zero line net
  // 10000 × 6000/12000 = 5000, and the note's zero line −10000 × (10000/10000) × 6000/12000 = −5000: net 5000, VAT 1000.
  await received(t, c, m.id, 6000, '2026-02-10');

  // N: paid 11000 of 22000 first: 20% VAT 2000 × 11000/22000 = 1000, gross 6000, net 5000; zero net 5000.
  await received(t, c, n.id, 11000, '2026-02-01');
  // Then the 20% line is credited (12000: net 10000, VAT 2000): it settles the 11000 due and leaves 1000 of credit.
  const cn = await creditNote(t, c, '/v1/credit-notes', { invoiceId: n.id, lineIds: [(await lineIds(c, n.id))[0]], date: '2026-03-01' });
  t.same([cn.total, cn.allocated, cn.remainingCredit, cn.invoiceStatus], [12000, 11000, 1000, 'paid']);
  // N's payments now paid for N less 11000 of credit: 22000 − 11000 = 11000, all paid. N's 20% line: VAT 2000, gross 12000,
  // net 10000; N's zero line: net 10000; the note's line × 11000/12000: VAT round(−1833.33) = −1833, gross −11000,
  // net −11000 + 1833 = −9167. Less what N's payment carried (VAT 1000; net 5000 + 5000), the credit note adds:
  // VAT 2000 − 1000 − 1833 = −833; net (10000 − 5000) + (10000 − 5000) − 9167 = 833.
  // Q1: box 1 = 1000 (M) + 1000 (N) − 833 = 1167; box 6 = 5000 + 10000 + 833 = 15833p → £158.
  const q1 = await fileOk(t, c, '2026-03');
  t.same(q1.boxes, { box1: 1167, box2: 0, box3: 1167, box4: 0, box5: 1167, box6: 15800, box7: 0, box8: 0, box9: 0 });
  t.equal(q1.exact.box6, 15833);

  // Q2: M's other 6000 (VAT 1000, net 5000 as before); N's 1000 of credit refunded: the note's VAT × 1000/12000 =
  // round(−166.67) = −167, gross −1000, net −833.
  await received(t, c, m.id, 6000, '2026-04-10');
  const refund = await c.api.request('POST', `/v1/credit-notes/${cn.id}/refunds`, { body: { date: '2026-04-20' } });
  t.equal(refund.status, 201, JSON.stringify(refund.body));
  // Box 1 = 1000 − 167 = 833; box 6 = 5000 − 833 = 4167p → £42.
  const q2 = await fileOk(t, c, '2026-06');
  t.same(q2.boxes, { box1: 833, box2: 0, box3: 833, box4: 0, box5: 833, box6: 4200, box7: 0, box8: 0, box9: 0 });
  t.equal(q2.exact.box6, 4167);

  // In all: M sold £100.00 at 20% (VAT 2000), N only its £100.00 zero-rated line (VAT 0): 1167 + 833 = 2000 of VAT, and
  // 15833 + 4167 = 20000 of sales. 2200 took 2000 + 2000 − 2000 and gave up 2000 to the returns: nothing left.
  t.same([await netOf(c, '2200'), await netOf(c, '2202')], [0, -2000]);
});

t.test('spare credit allocated to a part-paid invoice: a journal carries the shares, removed with the allocation until filed', async (t) => {
  const c = await cashBooks(t);
  // K: £100.00 at 20%, total 12000, paid in full: VAT 2000, net 10000.
  const k = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-01-05');
  await received(t, c, k.id, 12000, '2026-01-10');
  // £60.00 credited by amount (net 5000, VAT 1000): K is paid, so all 6000 is the customer's credit; nothing moves yet.
  const cn = await creditNote(t, c, '/v1/credit-notes', { invoiceId: k.id, amount: 6000, date: '2026-01-20' });
  t.same([cn.vatAmount, cn.allocated, cn.transactionId === null], [1000, 0, false]);
  // L: £100.00 at 20%, total 12000; 6000 paid: VAT 1000, net 5000.
  const l = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-02-01');
  await received(t, c, l.id, 6000, '2026-02-05');
  const transactions = async () => (await c.api.request('GET', '/v1/transactions')).body.meta.total as number;
  const count = await transactions();

  const allocate = () => c.api.request('POST', `/v1/credit-notes/${cn.id}/allocations`, { body: { invoiceId: l.id, amount: 6000, date: '2026-02-10' } });
  const done = await allocate();
  t.equal(done.status, 201, JSON.stringify(done.body));
  t.same([done.body.data.invoiceStatus, done.body.data.invoiceAmountDue], ['paid', 0]);
  // L's 6000 paid for L less the 6000 of credit: all of it. L: VAT 2000, net 10000, less the 1000 and 5000 carried: +1000, +5000.
  // The note × 6000/6000: VAT −1000, net −5000. One journal, zero net on 1100.
  t.equal(await transactions(), count + 1, 'one journal');
  const list = await c.api.request('GET', '/v1/transactions?limit=100');
  const journal = (list.body.data as { id: string; sourceType: string }[]).find((x) => x.sourceType === 'credit_allocation');
  t.ok(journal, 'sourceType credit_allocation');
  const lines = (await c.api.request('GET', `/v1/transactions/${journal!.id}`)).body.data.lines as { accountCode: string; amount: number }[];
  t.same(
    lines.map((x) => [x.accountCode, x.amount]),
    [
      ['1100', 6000],
      ['1100', -6000],
    ],
  );
  // Q1: K 2000 + L 1000 + 1000 − 1000 = 3000 of VAT; net 10000 + 5000 + 5000 − 5000 = 15000: the customer paid
  // 12000 + 6000 = 18000 for K less the credit plus L, £150.00 + £30.00 VAT.
  t.same((await returnOf(t, c, '2026-03')).boxes, { box1: 3000, box2: 0, box3: 3000, box4: 0, box5: 3000, box6: 15000, box7: 0, box8: 0, box9: 0 });

  // Taken back before filing: the journal goes with it, and so do its shares: K 2000 + L 1000 = 3000, net 10000 + 5000 =
  // 15000, the same figures, as the journal's shares cancel out at one rate (the unused credit moved no money).
  const undo = await c.api.request('DELETE', `/v1/credit-notes/${cn.id}/allocations/${done.body.data.id}`);
  t.equal(undo.status, 200, JSON.stringify(undo.body));
  t.equal(await transactions(), count, 'the journal is removed');
  t.same((await returnOf(t, c, '2026-03')).boxes, { box1: 3000, box2: 0, box3: 3000, box4: 0, box5: 3000, box6: 15000, box7: 0, box8: 0, box9: 0 });

  const again = await allocate();
  t.equal(again.status, 201);
  await fileOk(t, c, '2026-03');
  const refused = await c.api.request('DELETE', `/v1/credit-notes/${cn.id}/allocations/${again.body.data.id}`);
  expectError(t, refused, 422, 'vat_return_filed', {
    message: /allocation .* cannot be removed: .*counted in the VAT return filed for 2026-01-01 to 2026-03-31/,
  });
  const voided = await c.api.request('POST', `/v1/credit-notes/${cn.id}/void`);
  expectError(t, voided, 422, 'vat_return_filed');
  t.equal((await c.api.request('GET', `/v1/invoices/${l.id}`)).body.data.status, 'paid', 'L stays paid');
});

t.test('a supplier credit note refunded in a later quarter gives back the VAT reclaimed', async (t) => {
  const c = await cashBooks(t);
  // £100.00 at 20% (VAT 2000), paid in full in Q1: box 4 = 2000, box 7 = 10000.
  const bill = await billApproved(t, c, [item({ description: 'Paper', unitPrice: 10000 })], '2026-01-05');
  await paid(t, c, bill.id, 12000, '2026-01-10');
  // Credited whole on 03-01: the bill is paid, so the 12000 is credit from the supplier; no money moves yet.
  const scn = await creditNote(t, c, '/v1/supplier-credit-notes', { billId: bill.id, date: '2026-03-01' });
  t.equal(scn.remainingCredit, 12000);
  const q1 = await fileOk(t, c, '2026-03');
  t.same(q1.boxes, { box1: 0, box2: 0, box3: 0, box4: 2000, box5: 2000, box6: 0, box7: 10000, box8: 0, box9: 0 });

  // Refunded on 04-15: the note's −2000 VAT and −10000 net, all of it. Box 4 = −2000, so box 5 = |0 − (−2000)| = 2000 payable.
  const refund = await c.api.request('POST', `/v1/supplier-credit-notes/${scn.id}/refunds`, { body: { date: '2026-04-15' } });
  t.equal(refund.status, 201, JSON.stringify(refund.body));
  const q2 = await returnOf(t, c, '2026-06');
  t.same(q2.boxes, { box1: 0, box2: 0, box3: 0, box4: -2000, box5: 2000, box6: 0, box7: -10000, box8: 0, box9: 0 });
  t.equal(q2.netVatDirection, 'payable');
});

t.test("a credit note used in parts carries exactly its VAT: each part's share is rounded cumulatively over the note's uses", async (t) => {
  const c = await cashBooks(t);
  // K: £100.00 at 20% (net 10000, VAT 2000), paid in full: box 1 2000, box 6 10000.
  const k = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-01-05');
  await received(t, c, k.id, 12000, '2026-01-10');
  // £1.00 credited by amount: VAT 100 × 20/120 = 16.67 → 17, net 83. K is paid, so all 100 is credit to use.
  const cn = await creditNote(t, c, '/v1/credit-notes', { invoiceId: k.id, amount: 100, date: '2026-01-20' });
  t.same([cn.total, cn.vatAmount, cn.remainingCredit], [100, 17, 100]);

  // L: £100.00 at 20% (total 12000). 50 of the credit goes to L, then L's other 11950 is paid: L is settled.
  const l = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-02-01');
  const allocated = await c.api.request('POST', `/v1/credit-notes/${cn.id}/allocations`, { body: { invoiceId: l.id, amount: 50, date: '2026-02-05' } });
  t.equal(allocated.status, 201, JSON.stringify(allocated.body));
  await received(t, c, l.id, 11950, '2026-02-10');
  // The note's first use, 50 of 100: VAT round(−17 × 50/100) = round(−8.5) = −9 (halves away from zero), gross −50,
  // net −41. L's payment carries L's 2000 − 9 = 1991 of VAT and 10000 − 41 = 9959 of net.
  // The refund of the other 50 is the note's last use: what is left of it, VAT −17 − (−9) = −8, gross −50, net −42.
  // Rounded apart, the refund would carry round(−8.5) = −9 too: −18 of VAT and −82 of net for a note of −17 and −83.
  const refund = await c.api.request('POST', `/v1/credit-notes/${cn.id}/refunds`, { body: { date: '2026-03-01' } });
  t.equal(refund.status, 201, JSON.stringify(refund.body));
  // Box 1 = 2000 (K) + 1991 (L) − 8 (refund) = 3983 = 2000 + 2000 − 17; box 6 = 10000 + 9959 − 42 = 19917 = 20000 − 83.
  const q1 = await fileOk(t, c, '2026-03');
  t.same(q1.boxes, { box1: 3983, box2: 0, box3: 3983, box4: 0, box5: 3983, box6: 19900, box7: 0, box8: 0, box9: 0 });
  t.equal(q1.exact.box6, 19917);
  // Everything is settled, so the cash basis counts what the accrual basis does: 2200 is empty.
  t.equal(await netOf(c, '2200'), 0);
});

/**
 * K (£100.00 at 20%, paid in full: VAT 2000) credited £1.00 by amount (VAT 17, net 83) once paid, so all of it is
 * credit; 50 of it goes to L (dated 02-01) and then 50 to M (02-02), each £100.00 at 20% and then paid its other
 * 11950 (02-10, 02-11). The note, L, M and the allocations' ids.
 */
async function splitAcrossTwo(t: Parameters<typeof cashBooks>[0], c: CashBooks) {
  const k = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-01-05');
  await received(t, c, k.id, 12000, '2026-01-10');
  const cn = await creditNote(t, c, '/v1/credit-notes', { invoiceId: k.id, amount: 100, date: '2026-01-20' });
  const docs: { id: string }[] = [];
  const allocations: string[] = [];
  for (const [date, paidOn] of [
    ['2026-02-01', '2026-02-10'],
    ['2026-02-02', '2026-02-11'],
  ] as const) {
    const doc = await invoiceSent(t, c, [item({ unitPrice: 10000 })], date);
    const r = await c.api.request('POST', `/v1/credit-notes/${cn.id}/allocations`, { body: { invoiceId: doc.id, amount: 50, date } });
    t.equal(r.status, 201, JSON.stringify(r.body));
    await received(t, c, doc.id, 11950, paidOn);
    docs.push(doc);
    allocations.push(r.body.data.id as string);
  }
  return { cn, l: docs[0]!, m: docs[1]!, allocations };
}

t.test('a credit note shared between two invoices: the second takes what is left of its VAT', async (t) => {
  const c = await cashBooks(t);
  await splitAcrossTwo(t, c);
  // L: 2000 − 9 = 1991 of VAT, 10000 − 41 = 9959 of net (the note's first 50); M: 2000 − 8 = 1992, 10000 − 42 = 9958
  // (the rest of it). Box 1 = 2000 + 1991 + 1992 = 5983 = 6000 − 17; box 6 = 10000 + 9959 + 9958 = 29917 = 30000 − 83.
  const q1 = await fileOk(t, c, '2026-03');
  t.same(q1.boxes, { box1: 5983, box2: 0, box3: 5983, box4: 0, box5: 5983, box6: 29900, box7: 0, box8: 0, box9: 0 });
  t.equal(q1.exact.box6, 29917);
  t.equal(await netOf(c, '2200'), 0);
});

t.test('a use of a note taken back: the later uses carry their parts again, in a journal dated the day it is taken back', async (t) => {
  const c = await cashBooks(t);
  // L carries −9 of the note's VAT, M the other −8.
  const { cn, l, m, allocations } = await splitAcrossTwo(t, c);
  const transactions = async () => (await c.api.request('GET', '/v1/transactions')).body.meta.total as number;
  const before = await transactions();

  // L's 50 taken back: M's is now the note's first use, round(−8.5) = −9 where it carried −8. One journal on M moves
  // VAT −1 and net +1 (gross −50 either way), dated today (2026-07-10), zero net on 1100.
  const undo = await c.api.request('DELETE', `/v1/credit-notes/${cn.id}/allocations/${allocations[0]}`);
  t.equal(undo.status, 200, JSON.stringify(undo.body));
  t.equal(await transactions(), before + 1, 'one journal');
  // L owes its 50 again and is paid (VAT +9, net +41: its cluster is L alone now); the 50 of credit is refunded,
  // the note's last use: −17 − (−9) = −8 of VAT, −42 of net.
  await received(t, c, l.id, 50, '2026-03-20');
  const refund = await c.api.request('POST', `/v1/credit-notes/${cn.id}/refunds`, { body: { date: '2026-03-25' } });
  t.equal(refund.status, 201, JSON.stringify(refund.body));

  // Q1: K 2000 + L 1991 + 9 + M 1992 − 8 (the refund) = 5984; net 10000 + 9959 + 41 + 9958 − 42 = 29916.
  const q1 = await fileOk(t, c, '2026-03');
  t.same([q1.boxes.box1, q1.exact.box6], [5984, 29916]);
  // Q3 holds the journal: −1 of VAT, +1 of net. In all 5983 = 6000 − 17 and 29917 = 30000 − 83, as the accrual basis counts.
  const q3 = await returnOf(t, c, '2026-09');
  t.same([q3.boxes.box1, q3.exact.box6], [-1, 1]);
  t.equal((await c.api.request('GET', `/v1/invoices/${m.id}`)).body.data.status, 'paid', 'M stays paid');
});

t.test('a refund trued up after an earlier use is taken back goes with its journal when it is removed in turn', async (t) => {
  const c = await cashBooks(t);
  const k = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-01-05');
  await received(t, c, k.id, 12000, '2026-01-10');
  // £1.00 of credit (VAT 17, net 83): 50 to L, which is then paid its 11950 (−9 of VAT), and 50 refunded (the rest, −8).
  const cn = await creditNote(t, c, '/v1/credit-notes', { invoiceId: k.id, amount: 100, date: '2026-01-20' });
  const l = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-02-01');
  const alloc = await c.api.request('POST', `/v1/credit-notes/${cn.id}/allocations`, { body: { invoiceId: l.id, amount: 50, date: '2026-02-01' } });
  t.equal(alloc.status, 201, JSON.stringify(alloc.body));
  await received(t, c, l.id, 11950, '2026-02-10');
  const first = await c.api.request('POST', `/v1/credit-notes/${cn.id}/refunds`, { body: { date: '2026-02-20' } });
  t.equal(first.status, 201, JSON.stringify(first.body));

  // L's allocation taken back: the refund is the first use now, round(−8.5) = −9 where it carried −8: a journal of −1,
  // dated today, in Q3. Q1 is not filed yet, so Q3 is shown alone (Q1 to be filed first): the journal's −1; Q1 holds
  // K 2000 + L 1991 − 8 = 3983.
  t.equal((await c.api.request('DELETE', `/v1/credit-notes/${cn.id}/allocations/${alloc.body.data.id}`)).status, 200);
  const q3 = await returnOf(t, c, '2026-09');
  t.same([q3.boxes.box1, q3.fileFirst?.periodKey], [-1, '2026-03'], 'the journal counted');
  t.equal((await returnOf(t, c, '2026-03')).boxes.box1, 3983);
  // The refund taken back too: its transaction and its journal go (Q1 2000 + 1991 = 3991, Q3 nothing); the whole
  // £1.00 is credit again, refunded at once (−17).
  const undo = await c.api.request('DELETE', `/v1/credit-notes/${cn.id}/refunds/${first.body.data.id}`);
  t.equal(undo.status, 200, JSON.stringify(undo.body));
  t.equal((await returnOf(t, c, '2026-09')).boxes.box1, 0, 'the journal went with the refund');
  t.equal((await returnOf(t, c, '2026-03')).boxes.box1, 3991);
  const all = await c.api.request('POST', `/v1/credit-notes/${cn.id}/refunds`, { body: { date: '2026-03-01' } });
  t.equal(all.status, 201, JSON.stringify(all.body));
  t.equal(all.body.data.amount, 100);
  await received(t, c, l.id, 50, '2026-03-10');

  // Q1: K 2000 + L 1991 + 9 (its last 50 paid, L alone) − 17 (the refund of the whole note) = 3983 = 4000 − 17.
  t.same((await fileOk(t, c, '2026-03')).boxes.box1, 3983);
});
