/**
 * The VAT bugs issue 14 found, each reversed: payments to HMRC posted the
 * way users posted them (against 2200 and 2201 directly, not 2202) are
 * settlements, not sales or purchases, so they reach no box.
 */
import t from 'tap';
import { vatBooks } from './support.js';

const empty = { box1: 0, box2: 0, box3: 0, box4: 0, box5: 0, box6: 0, box7: 0, box8: 0, box9: 0 };

t.test('standard: paying HMRC a quarter by debiting 2200 £7.91, crediting 2201 £7.25 and the bank £0.66 leaves the next quarter empty', async (t) => {
  // The old return read 2200 and 2201's movements: box 1 −791, box 4 −725, box 5 −66.
  const v = await vatBooks(t, { vatScheme: 'standard', vatRegistrationDate: '2026-01-01' }, '2026-07-20T10:00:00Z');
  await v.journal('2026-04-20', [
    ['2200', 791],
    ['2201', -725],
    ['1200', -66],
  ]);
  const q2 = await v.show('2026-06');
  t.same(q2.boxes, empty);
  t.equal(q2.netVatDirection, 'nil');
});

t.test('flat rate: a £144 payment to HMRC does not turn box 6 into −£144', async (t) => {
  // The old flat-rate box 6 added the movement of 2200 to revenue: a £144 debit made it −14400.
  const v = await vatBooks(
    t,
    { vatScheme: 'flat_rate', vatFlatRatePercent: 12, vatRegistrationDate: '2025-01-01', vatStagger: 'monthly' },
    '2026-12-10T10:00:00Z',
  );
  await v.journal('2026-11-07', [
    ['2200', 14_400],
    ['1200', -14_400],
  ]);
  const november = await v.show('2026-11');
  t.same(november.period, { from: '2026-11-01', to: '2026-11-30' }, 'a monthly period');
  t.same(november.boxes, empty);
  const report = await v.api.request('GET', '/v1/reports/vat?from=2026-11-01&to=2026-11-30');
  t.same(report.body.data.boxes, empty, 'the VAT report over the same dates too');
});

t.test('flat rate: the surplus is income once filed, so profit is not overstated by VAT kept', async (t) => {
  // Invoice 1 × £100 standard: 10000 + VAT 2000 = 12000 turnover; bill 1 × £50 standard on 5100: 6000 gross, a cost.
  // Flat rate 12% (registered over a year ago: no discount): box 1 = 12% × 12000 = 1440.
  // Before filing, profit = sales 10000 − costs 6000 = 4000; the £20 of VAT charged sits on 2200.
  // Filed: surplus = 2000 − 1440 = 560 to 4300, so profit = 10000 + 560 − 6000 = 4560,
  // and what is owed to HMRC is 1440, not the 2000 charged nor 2000 − 1000 (the bill's VAT, not reclaimable).
  const v = await vatBooks(t, { vatScheme: 'flat_rate', vatFlatRatePercent: 12, vatRegistrationDate: '2025-01-01' }, '2026-07-20T10:00:00Z');
  await v.invoice('2026-04-02', [{ unitPrice: 10_000 }]);
  await v.bill('2026-04-03', [{ unitPrice: 5_000, account: '5100' }]);
  const filed = await v.file('2026-06');
  t.same([filed.boxes.box1, filed.boxes.box4, filed.boxes.box5, filed.boxes.box6, filed.boxes.box7], [1_440, 0, 1_440, 12_000, 0]);
  t.equal(await v.balance('4300'), -560, 'surplus income £5.60');
  t.equal(await v.balance('2202'), -1_440, 'owed to HMRC £14.40');
  const pl = await v.api.request('GET', '/v1/reports/profit-loss?from=2026-04-01&to=2026-06-30');
  t.equal(pl.body.data.netProfit, 4_560);
});
