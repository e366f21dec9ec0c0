/**
 * The flat rate scheme (VAT Notice 733), worked by hand: an IT consultant at
 * 14.5%, registered 2026-03-01, so 13.5% (one point lower) until
 * 2027-02-28; quarters end February, May, August and November. Today is
 * 2026-09-15.
 *
 * Mar–May 2026:
 *   invoice 1 × £1,000 standard: net 100000 + VAT 20000 = 120000 charged to the customer at the normal rate;
 *   invoice 1 × £500 zero-rated: 50000;
 *   bill 1 × £100 standard on 5100: 12000 posted gross to 5100, no VAT reclaimed, not in box 7;
 *   bill 1 × £1,500 standard on 1010: 180000 gross (< £2,000): a cost, not a capital reclaim;
 *   bill 1 × £2,400 standard on 1020: net 240000 + VAT 48000 = 288000 (≥ £2,000): VAT reclaimed.
 *   box 6 = VAT-inclusive turnover 120000 + 50000 = 170000;
 *   box 1 = 13.5% × 170000 = 22950; box 4 = 48000; box 5 = |22950 − 48000| = 25050 repayable;
 *   box 7 = 240000 (the capital purchase only);
 *   surplus = VAT charged 20000 − 22950 = −2950 (a cost: zero-rated sales pay flat-rate VAT too).
 *   Settlement: Dr 2200 20000, Cr 2201 48000, Dr 2202 25050, Dr 4300 2950 (debits 48000 = credits 48000).
 * Jun–Aug 2026:
 *   invoice 1 × £2,000 standard: 200000 + 40000 = 240000; box 1 = 13.5% × 240000 = 32400;
 *   surplus = 40000 − 32400 = 7600 income; Settlement: Dr 2200 40000, Cr 2202 32400, Cr 4300 7600.
 */
import t from 'tap';
import { vatBooks } from './support.js';

const flat = { vatScheme: 'flat_rate', vatFlatRatePercent: 14.5, vatRegistrationDate: '2026-03-01', vatStagger: 'quarterly', vatPeriodMonth: 2 } as const;

t.test('flat rate: turnover × the discounted rate, purchase VAT in the cost, a capital purchase reclaimed, the surplus recognised on filing', async (t) => {
  const v = await vatBooks(t, flat, '2026-09-15T10:00:00Z');
  await v.invoice('2026-03-10', [{ unitPrice: 100_000 }]);
  await v.invoice('2026-05-20', [{ unitPrice: 50_000, vatRate: 'zero' }]);
  const office = await v.bill('2026-04-12', [{ unitPrice: 10_000, account: '5100' }]);
  await v.bill('2026-04-20', [{ unitPrice: 150_000, account: '1010' }]);
  await v.bill('2026-05-02', [{ unitPrice: 240_000, account: '1020' }]);

  const bill = await v.api.request('GET', `/v1/bills/${office}`);
  t.equal(bill.body.data.total, 12_000, 'the supplier still charged £120.00');
  t.equal(await v.balance('5100'), 12_000, 'office costs £120.00: the VAT is part of the cost');
  t.equal(await v.balance('1010'), 180_000, 'a £1,800 asset under £2,000: its VAT is part of the cost');
  t.equal(await v.balance('1020'), 240_000, 'the capital purchase at its net £2,400');
  t.equal(await v.balance('2201'), 48_000, 'only the capital purchase VAT waits to be reclaimed');

  const spring = await v.file('2026-05');
  t.same(spring.period, { from: '2026-03-01', to: '2026-05-31' }, 'the first period starts on the registration date');
  t.equal(spring.flatRatePercent, 14.5);
  t.same(spring.boxes, { box1: 22_950, box2: 0, box3: 22_950, box4: 48_000, box5: 25_050, box6: 170_000, box7: 240_000, box8: 0, box9: 0 });
  t.equal(spring.netVatDirection, 'repayable');
  t.equal(spring.flatRateSurplus, -2_950);
  t.equal(await v.balance('4300'), 2_950, 'the surplus account takes the shortfall as a debit');
  t.equal(await v.balance('2202'), 25_050, 'HMRC owes £250.50');
  t.equal(await v.balance('2200'), 0);
  t.equal(await v.balance('2201'), 0);

  await v.invoice('2026-07-01', [{ unitPrice: 200_000 }]);
  const summer = await v.file('2026-08');
  t.same(summer.boxes, { box1: 32_400, box2: 0, box3: 32_400, box4: 0, box5: 32_400, box6: 240_000, box7: 0, box8: 0, box9: 0 });
  t.equal(summer.flatRateSurplus, 7_600);
  t.equal(await v.balance('4300'), 2_950 - 7_600, '−4650: £46.50 of surplus income over the two returns');
});

t.test('flat rate: turnover on or after the first anniversary of registration takes the full rate', async (t) => {
  // Registered 2025-07-15: 13.5% until 2026-07-14, 14.5% from 2026-07-15.
  // Jun–Aug 2026: 1 × £1,000 + VAT on 1 July: 120000 × 13.5% = 16200; 1 × £1,000 + VAT on 20 July: 120000 × 14.5% = 17400.
  // box 1 = 16200 + 17400 = 33600; box 6 = 240000.
  const v = await vatBooks(t, { ...flat, vatRegistrationDate: '2025-07-15' }, '2026-09-15T10:00:00Z');
  await v.invoice('2026-07-01', [{ unitPrice: 100_000 }]);
  await v.invoice('2026-07-20', [{ unitPrice: 100_000 }]);
  const draft = await v.show('2026-08');
  t.equal(draft.status, 'draft');
  t.same([draft.boxes.box1, draft.boxes.box6], [33_600, 240_000]);
});

t.test('flat rate: box 1 rounds to the nearest penny, halves up', async (t) => {
  // 1 × £1.11 standard: 111 + 22 = 133p; 13.5% × 133 = 17.955 → 18p.
  const v = await vatBooks(t, flat, '2026-09-15T10:00:00Z');
  await v.invoice('2026-04-01', [{ unitPrice: 111 }]);
  const draft = await v.show('2026-05');
  t.same([draft.boxes.box1, draft.exact.box6, draft.boxes.box6], [18, 133, 100], 'box 6: £1.33 → £1');
});

t.test('flat rate: a supplier credit on a capital purchase takes back its share of the reclaimed VAT', async (t) => {
  /**
   * A van on 1020, 1 × £2,400 + £480 VAT = £2,880 (≥ £2,000 with VAT: capital, its VAT reclaimed). The supplier
   * credits £600.00 of it: £500.00 + £100.00 VAT at 20%. The credit is part of the capital purchase, however small,
   * so it takes back £100.00 of the reclaim: 2201 = 48000 − 10000 = 38000; 1020 = 240000 − 50000 = 190000.
   * Mar–May 2026: box 4 = 38000, box 7 = 190000, nothing sold: box 1 = box 6 = 0, box 5 = 38000 repayable.
   * (Treated as a cost, the credit would have left the £480.00 reclaimed and taken £600.00 off the van.)
   */
  const v = await vatBooks(t, flat, '2026-09-15T10:00:00Z');
  const van = await v.bill('2026-04-02', [{ unitPrice: 240_000, account: '1020' }]);
  const note = await v.api.request('POST', '/v1/supplier-credit-notes', { body: { billId: van, amount: 60_000, date: '2026-04-20' } });
  t.equal(note.status, 201, JSON.stringify(note.body.error ?? ''));
  t.match(note.body.data, { subtotal: 50_000, vatAmount: 10_000, total: 60_000 });
  t.equal(await v.balance('1020'), 190_000, 'the van at £1,900.00 net');
  t.equal(await v.balance('2201'), 38_000, '£380.00 left to reclaim');
  const spring = await v.file('2026-05');
  t.same(spring.boxes, { box1: 0, box2: 0, box3: 0, box4: 38_000, box5: 38_000, box6: 0, box7: 190_000, box8: 0, box9: 0 });
});
