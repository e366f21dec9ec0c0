/**
 * Leaving VAT on the cash basis: the final return accounts for the VAT of
 * every supply made and received while registered that no return has yet
 * taken, paid or not (VAT Regulations 1995 reg. 63(1); HMRC VATDREG08050:
 * "this applies even when the customer has not been paid"). Registered
 * 2026-01-01, cash basis, quarters ending March, June, September and
 * December; registration ends 2026-10-15, so the final period is
 * 2026-10-01 to 2026-10-14. Figures in pence, worked by hand.
 */
import t from 'tap';
import { billApproved, cashBooks, fileOk, invoiceSent, item, netOf, received, returnOf } from './cash-support.js';

t.test('the final cash-basis return takes the VAT of unpaid invoices and bills, once', async (t) => {
  const c = await cashBooks(t, {}, '2026-11-10T09:00:00Z');
  // Q3: A £1,000.00 + £200.00 VAT, paid in full 2026-08-01; B £500.00 + £100.00 VAT, unpaid; C, a bill of £200.00 + £40.00 VAT, unpaid.
  const a = await invoiceSent(t, c, [item({ unitPrice: 100_000 })], '2026-07-10');
  await received(t, c, a.id, 120_000, '2026-08-01');
  const b = await invoiceSent(t, c, [item({ unitPrice: 50_000 })], '2026-08-15');
  await billApproved(t, c, [item({ description: 'Paper', unitPrice: 20_000 })], '2026-09-01');
  // Q3 on the cash basis takes A alone: box 1 = 20,000, box 6 = 100,000.
  const q3 = await fileOk(t, c, '2026-09');
  t.same([q3.boxes.box1, q3.boxes.box4, q3.boxes.box6, q3.boxes.box7], [20_000, 0, 100_000, 0], 'Q3: A, paid');

  // D, 2026-10-05: £300.00 + £60.00 VAT, half paid (£180.00) on 2026-10-10.
  const d = await invoiceSent(t, c, [item({ unitPrice: 30_000 })], '2026-10-05');
  await received(t, c, d.id, 18_000, '2026-10-10');
  const left = await c.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered', vatSchemeFrom: '2026-10-15' } });
  t.equal(left.status, 200, JSON.stringify(left.body.error ?? ''));

  // The final return: B's 10,000 (unpaid) + D's 6,000 whole (3,000 paid, 3,000 not) = box 1 16,000;
  // C's 4,000 (unpaid) = box 4; box 5 = 16,000 − 4,000 = 12,000. Box 6 = 50,000 + 30,000 = 80,000; box 7 = 20,000.
  const final = await returnOf(t, c, '2026-10');
  t.same(
    [final.boxes.box1, final.boxes.box4, final.boxes.box5, final.boxes.box6, final.boxes.box7],
    [16_000, 4_000, 12_000, 80_000, 20_000],
    'every supply of the registered time not yet returned',
  );
  const filed = await fileOk(t, c, '2026-10');
  t.same([filed.boxes.box1, filed.boxes.box4, filed.boxes.box5], [16_000, 4_000, 12_000], 'filed as shown');
  // The VAT accounts are clear: 2200 held 10,000 (B) + 6,000 (D) after Q3 took A's 20,000, 2201 held C's 4,000;
  // 2202 owes HMRC Q3's 20,000 + the final 12,000 = 32,000 (a credit).
  t.same([await netOf(c, '2200'), await netOf(c, '2201'), await netOf(c, '2202')], [0, 0, -32_000], 'nothing left on 2200 and 2201');

  // B paid after registration ended: its VAT was in the final return, and no return follows it.
  await received(t, c, b.id, 60_000, '2026-11-02');
  const periods = (await c.api.request('GET', '/v1/vat/periods')).body.data.periods as { periodKey: string; status: string }[];
  t.same(
    periods.filter((p) => p.periodKey >= '2026-09').map((p) => [p.periodKey, p.status]),
    [
      ['2026-10', 'filed'],
      ['2026-09', 'filed'],
    ],
  );
  t.same((await returnOf(t, c, '2026-10')).boxes.box1, 16_000, 'the filed final return unchanged');
});
