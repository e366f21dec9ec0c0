/**
 * A change of accounting basis applies from a VAT period's start: every
 * return not yet filed takes the basis set now. Documents spanning the
 * switches count once: joining the cash basis, a document whose VAT an
 * accrual return took is not counted again as it is paid; leaving it, a
 * document counts in full less what cash returns already took of it.
 * Worked by hand.
 */
import t from 'tap';
import { billApproved, cashBooks, fileOk, invoiceSent, item, netOf, paid, received, returnOf, setBasis } from './cash-support.js';

t.test('accrual, then cash, then accrual again: no VAT counted twice or dropped', async (t) => {
  const c = await cashBooks(t, { vatAccountingBasis: 'accrual' }, '2026-10-10T09:00:00Z');
  // Q1 on the accrual basis. P: £100.00 at 20% (total 12000, VAT 2000), paid half in Q1 and half in Q2.
  // Q: £200.00 at 20% (total 24000, VAT 4000), paid in Q2. U: a bill of £100.00 at 20% (total 12000, VAT 2000), paid in Q2.
  const p = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-02-01');
  const q = await invoiceSent(t, c, [item({ unitPrice: 20000 })], '2026-03-20');
  const u = await billApproved(t, c, [item({ description: 'Paper', unitPrice: 10000 })], '2026-03-25');
  await received(t, c, p.id, 6000, '2026-03-10');
  // The invoices' dates count: box 1 = 2000 + 4000 = 6000, box 6 = 10000 + 20000 = 30000; box 4 = 2000, box 7 = 10000.
  const q1 = await fileOk(t, c, '2026-03');
  t.equal(q1.basis, 'accrual');
  t.same(q1.boxes, { box1: 6000, box2: 0, box3: 6000, box4: 2000, box5: 4000, box6: 30000, box7: 10000, box8: 0, box9: 0 });

  // Q2. P's other half, Q and U are paid; R: £300.00 at 20% (total 36000, VAT 6000), half paid; V: a bill of £50.00 at
  // 20% (total 6000, VAT 1000), unpaid.
  await received(t, c, p.id, 6000, '2026-05-10');
  await received(t, c, q.id, 24000, '2026-04-20');
  await paid(t, c, u.id, 12000, '2026-04-05');
  const r = await invoiceSent(t, c, [item({ unitPrice: 30000 })], '2026-04-10');
  await received(t, c, r.id, 18000, '2026-05-15');
  await billApproved(t, c, [item({ description: 'Ink', unitPrice: 5000 })], '2026-05-01');
  // Still on the accrual basis, the Q2 draft counts R and V by their dates: box 1 = 6000, box 4 = 1000.
  const accrualDraft = await returnOf(t, c, '2026-06');
  t.same(
    [accrualDraft.basis, accrualDraft.boxes.box1, accrualDraft.boxes.box4, accrualDraft.exact.box6, accrualDraft.exact.box7],
    ['accrual', 6000, 1000, 30000, 5000],
  );

  // Switched to cash before Q2 is filed: Q2 takes the cash basis from its start. The payments of P, Q and U count
  // nothing (Q1 took those documents whole); R's half: VAT 6000 × 18000/36000 = 3000, net 15000; V unpaid: nothing.
  await setBasis(t, c, 'cash');
  const q2 = await fileOk(t, c, '2026-06');
  t.equal(q2.basis, 'cash');
  t.same(q2.boxes, { box1: 3000, box2: 0, box3: 3000, box4: 0, box5: 3000, box6: 15000, box7: 0, box8: 0, box9: 0 });

  // Q3 back on the accrual basis. R's other half is paid (a cash share, which the accrual basis ignores);
  // S: £50.00 at 20% (total 6000, VAT 1000).
  await setBasis(t, c, 'accrual');
  await received(t, c, r.id, 18000, '2026-08-01');
  await invoiceSent(t, c, [item({ unitPrice: 5000 })], '2026-08-05');
  // R counts in full less what Q2 took: VAT 6000 − 3000 = 3000, net 30000 − 15000 = 15000; S: VAT 1000, net 5000;
  // V, dated in Q2 and counted by no return yet: VAT 1000, net 5000.
  // Box 1 = 3000 + 1000 = 4000; box 4 = 1000; box 5 = 3000; box 6 = 15000 + 5000 = 20000; box 7 = 5000.
  const q3 = await fileOk(t, c, '2026-09');
  t.equal(q3.basis, 'accrual');
  t.same(q3.boxes, { box1: 4000, box2: 0, box3: 4000, box4: 1000, box5: 3000, box6: 20000, box7: 5000, box8: 0, box9: 0 });

  // Sales VAT charged: 2000 + 4000 + 6000 + 1000 = 13000 = 6000 + 3000 + 4000 over the three returns; purchases:
  // 2000 + 1000 = 3000 = 2000 + 0 + 1000. So 2200 and 2201 are cleared, and 2202 holds 4000 + 3000 + 3000 = 10000 owed.
  t.same([await netOf(c, '2200'), await netOf(c, '2201'), await netOf(c, '2202')], [0, 0, -10000]);
});
