/**
 * A change between the standard and flat rate schemes takes effect from the
 * start of a VAT period (VAT Notice 733), and the periods before keep the
 * scheme they were made under: switching on 15 September 2026 must not
 * turn the ended, unfiled June–August return into a flat rate one.
 *
 * The books: registered 2024-03-01 (so no first-year discount in 2026),
 * quarters ending February, May, August and November; today 2026-09-15.
 *   Mar–May 2026: invoice £1,000 + £200 VAT; bill £100 + £20 VAT on 5100;
 *     standard: box 1 = 20000, box 4 = 2000, box 5 = 18000; filed.
 *   Jun–Aug 2026: invoice £2,000 + £400 VAT; bill £500 + £100 VAT on 5100;
 *     standard: box 1 = 40000, box 4 = 10000, box 5 = 30000,
 *     box 6 = 200000, box 7 = 50000.
 *     flat rate 14.5% (backdated): box 6 = gross turnover 240000,
 *     box 1 = 14.5% × 240000 = 34800, box 4 = 0 (no capital purchase).
 *   Sep–Nov 2026: invoice £1,000 + £200 VAT on 10 September:
 *     flat rate 14.5%: box 1 = 14.5% × 120000 = 17400, box 6 = 120000;
 *     standard: box 1 = 20000, box 6 = 100000.
 */
import t from 'tap';
import type { Test } from 'tap';
import { vatBooks, type VatBooks } from './support.js';
import { expectError } from '../http/support.js';

const standard = { vatScheme: 'standard', vatRegistrationDate: '2024-03-01', vatStagger: 'quarterly', vatPeriodMonth: 2 } as const;

async function books(t: Test): Promise<VatBooks> {
  const v = await vatBooks(t, standard, '2026-09-15T10:00:00Z');
  await v.invoice('2026-04-10', [{ unitPrice: 100_000 }]);
  await v.bill('2026-04-12', [{ unitPrice: 10_000, account: '5100' }]);
  await v.invoice('2026-07-01', [{ unitPrice: 200_000 }]);
  await v.bill('2026-07-05', [{ unitPrice: 50_000, account: '5100' }]);
  return v;
}

const toFlat = (v: VatBooks, extra: Record<string, unknown> = {}) =>
  v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: 14.5, ...extra } });

const summerStandard = { box1: 40_000, box2: 0, box3: 40_000, box4: 10_000, box5: 30_000, box6: 200_000, box7: 50_000, box8: 0, box9: 0 };

t.test('a switch to flat rate today takes effect from the period holding today: the ended summer quarter stays standard', async (t) => {
  const v = await books(t);
  const spring = await v.file('2026-05');
  t.same([spring.boxes.box1, spring.boxes.box4, spring.boxes.box5], [20_000, 2_000, 18_000], 'spring filed under standard');

  // Refusals first, each leaving the settings as they are.
  expectError(t, await toFlat(v, { vatSchemeFrom: '2026-09-15' }), 400, 'validation_error', { field: 'vatSchemeFrom' }); // not a period start
  expectError(t, await toFlat(v, { vatSchemeFrom: '2026-03-01' }), 409, 'conflict', { message: /2026-03-01 to 2026-05-31 is filed/ });
  const alone = await v.api.request('PUT', '/v1/organisation/settings', { body: { vatSchemeFrom: '2026-09-01' } });
  expectError(t, alone, 400, 'validation_error', { field: 'vatSchemeFrom' }); // no change of scheme
  t.match((await v.api.request('GET', '/v1/organisation/settings')).body.data, { vatScheme: 'standard', vatSchemeFrom: null }, 'the refusals changed nothing');
  t.same((await v.show('2026-08')).boxes, summerStandard);

  const switched = await toFlat(v);
  t.equal(switched.status, 200, JSON.stringify(switched.body.error ?? ''));
  // Today, 15 September, is in the quarter from 1 September.
  t.match(switched.body.data, { vatScheme: 'flat_rate', vatFlatRatePercent: 14.5, vatSchemeFrom: '2026-09-01' }, 'the settings say from when');
  const summer = await v.show('2026-08');
  t.equal(summer['scheme'], 'standard', 'Jun–Aug ended before the switch');
  t.same(summer.boxes, summerStandard);

  await v.invoice('2026-09-10', [{ unitPrice: 100_000 }]);
  const autumn = await v.show('2026-11');
  t.equal(autumn['scheme'], 'flat_rate');
  t.equal(autumn['flatRatePercent'], 14.5);
  t.same([autumn.boxes.box1, autumn.boxes.box4, autumn.boxes.box6], [17_400, 0, 120_000], '14.5% × £1,200.00');

  const filed = await v.file('2026-08');
  t.equal(filed['scheme'], 'standard', 'filed as it was made');
  t.same(filed.boxes, summerStandard);
  const report = await v.api.request('GET', '/v1/reports/vat?from=2026-06-01&to=2026-08-31');
  t.equal(report.body.data.scheme, 'standard', 'the VAT report of the summer too');
});

t.test('vatSchemeFrom backdates the switch to an unfiled period, or schedules it for a later one', async (t) => {
  const back = await books(t);
  t.equal((await toFlat(back, { vatSchemeFrom: '2026-06-01' })).status, 200);
  const summer = await back.show('2026-08');
  t.equal(summer['scheme'], 'flat_rate', 'backdated to 1 June');
  t.same([summer.boxes.box1, summer.boxes.box4, summer.boxes.box6], [34_800, 0, 240_000], '14.5% × £2,400.00');
  t.equal((await back.show('2026-05'))['scheme'], 'standard', 'spring stays standard');

  const later = await books(t);
  t.equal((await toFlat(later, { vatSchemeFrom: '2026-12-01' })).status, 200);
  const scheduled = await later.api.request('GET', '/v1/organisation');
  t.match(scheduled.body.data.settings, { vatScheme: 'flat_rate', vatSchemeFrom: '2026-12-01' }, 'scheduled: the scheme shown is the one from 1 December');
  await later.invoice('2026-09-10', [{ unitPrice: 100_000 }]);
  const autumn = await later.show('2026-11');
  t.equal(autumn['scheme'], 'standard', 'Sep–Nov stays standard: the scheme changes on 1 December');
  t.same([autumn.boxes.box1, autumn.boxes.box6], [20_000, 100_000]);
  t.equal((await later.show('2027-02'))['scheme'], 'flat_rate');
});

t.test('registering again after leaving VAT takes the scheme chosen then, not the one in force when the books left', async (t) => {
  const v = await books(t);
  t.equal((await toFlat(v, { vatSchemeFrom: '2026-06-01' })).status, 200);
  await v.file('2026-05');
  await v.file('2026-08');
  const left = await v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered' } });
  t.equal(left.status, 200, JSON.stringify(left.body.error ?? ''));
  t.match(left.body.data, { vatScheme: 'not_registered', vatSchemeFrom: '2026-09-15' }, 'not registered from today');

  const back = await v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'standard' } });
  t.equal(back.status, 200, JSON.stringify(back.body.error ?? ''));
  t.match(back.body.data, { vatScheme: 'standard', vatSchemeFrom: '2026-09-01' }, 'standard from the period holding today, 15 September');
  await v.invoice('2026-09-10', [{ unitPrice: 100_000 }]);
  const autumn = await v.show('2026-11');
  // Standard: box 1 = 20% × £1,000.00 = £200.00, box 6 = £1,000.00; the flat rate would be 14.5% × £1,200.00 = £174.00.
  t.equal(autumn['scheme'], 'standard', 'before, the flat rate recorded from June held on');
  t.same([autumn.boxes.box1, autumn.boxes.box6], [20_000, 100_000]);
});

t.test('a change scheduled for a later period leaves bills and journals dated before it on the scheme in force then', async (t) => {
  const v = await books(t);
  // Flat rate from the quarter starting 1 December 2026; today is 15 September.
  const scheduled = await toFlat(v, { vatSchemeFrom: '2026-12-01' });
  t.equal(scheduled.status, 200, JSON.stringify(scheduled.body.error ?? ''));
  // The two bills so far, net on 5100: 10000 + 50000.
  t.equal(await v.balance('5100'), 60_000);
  // Sep–Nov is still standard: a bill of £100 + £20 VAT on 5100, and a journal of £10 + £2 VAT on 5100.
  await v.bill('2026-10-05', [{ unitPrice: 10_000, account: '5100' }]);
  await v.journal('2026-10-06', [
    ['5100', 1_000, { vatRate: 20, vatTreatment: 'exclusive' }],
    ['2201', 200],
    ['1200', -1_200],
  ]);
  // 60000 + 10000 + 1000: both net, their VAT on 2201 to reclaim.
  t.equal(await v.balance('5100'), 71_000, 'the October bill posted net, as on the standard scheme');
  const autumn = await v.show('2026-11');
  t.equal(autumn['scheme'], 'standard');
  t.same(
    autumn.boxes,
    // box 4 = 2000 + 200; box 7 = 10000 + 1000 = £110; box 5 = |0 − 2200|, repayable
    { box1: 0, box2: 0, box3: 0, box4: 2_200, box5: 2_200, box6: 0, box7: 11_000, box8: 0, box9: 0 },
    'the input VAT of the quarter before the change is reclaimed',
  );
  // From 1 December, flat rate: a bill's VAT is part of its cost, 10000 + 2000 gross on 5100.
  await v.bill('2026-12-03', [{ unitPrice: 10_000, account: '5100' }]);
  t.equal(await v.balance('5100'), 83_000, '71000 + 12000: the December bill posted gross');
});
