/**
 * A flat-rate return shows the rates it applied (flatRates): the first-year
 * rate one point lower on turnover dated before the first anniversary of
 * registration, the full rate from it, each with its days, turnover and
 * part of box 1, in the draft, the filed return, the period view and the
 * VAT report; box 1's description names them instead of claiming one rate.
 * Quarters end March, June, September and December. Worked by hand below.
 */
import t from 'tap';
import { vatBooks } from './support.js';

const flat = { vatScheme: 'flat_rate', vatFlatRatePercent: 14.5, vatRegistrationDate: '2025-06-01', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;

/**
 * Registered 2025-06-01: 13.5% to 2026-05-31, 14.5% from 2026-06-01.
 * Apr–Jun 2026: £1,000 + £200 VAT on 15 May: 120000 × 13.5% = 16200;
 *               £1,000 + £200 VAT on 10 June: 120000 × 14.5% = 17400.
 * box 1 = 16200 + 17400 = 33600 (not 14.5% × 240000 = 34800); box 6 = 240000.
 */
const spring = [
  { from: '2026-04-01', to: '2026-05-31', percent: 13.5, turnover: 120_000, vat: 16_200 },
  { from: '2026-06-01', to: '2026-06-30', percent: 14.5, turnover: 120_000, vat: 17_400 },
];
const springBox1 = 'VAT due: 13.5% × VAT-inclusive turnover dated to 2026-05-31 + 14.5% × that dated from 2026-06-01 (together box 6)';

t.test('flat rate across the first anniversary: both rates with their days, in the draft, the filed return and the report', async (t) => {
  const v = await vatBooks(t, flat, '2026-07-15T10:00:00Z');
  await v.invoice('2026-05-15', [{ unitPrice: 100_000 }]);
  await v.invoice('2026-06-10', [{ unitPrice: 100_000 }]);

  const draft = await v.show('2026-06');
  t.same([draft.boxes.box1, draft.exact.box6, draft['flatRatePercent']], [33_600, 240_000, 14.5]);
  t.same(draft['flatRates'], spring);
  t.equal((draft['description'] as Record<string, string>)['box1'], springBox1);

  const report = await v.api.request('GET', '/v1/reports/vat?from=2026-04-01&to=2026-06-30');
  t.equal(report.status, 200);
  t.same(report.body.data.flatRates, spring, 'the VAT report over the same days applies the same rates');
  t.equal(report.body.data.description.box1, springBox1);

  const filed = await v.file('2026-06');
  t.same(filed['flatRates'], spring, 'filing returns the rates it applied');
  t.equal((filed['description'] as Record<string, string>)['box1'], springBox1);
  const byId = await v.api.request('GET', `/v1/vat/returns/${filed.id}`);
  t.same(byId.body.data.flatRates, spring, 'GET /vat/returns/{id}: the rates as filed');
  const period = await v.show('2026-06');
  t.equal(period['status'], 'filed');
  t.same(period['flatRates'], spring, 'GET /vat/periods/{period} of a filed period: the rates as filed');
  const list = await v.api.request('GET', '/v1/vat/returns');
  t.same(list.body.data.returns[0].flatRates, spring);
});

t.test('a sale dated in a filed period, carried into the next return, stretches its rate back to its day', async (t) => {
  /**
   * After filing Apr–Jun 2026 (above), a £100 + £20 VAT sale dated 20 May 2026 (first year) and a £1,000 + £200 VAT
   * sale dated 1 August reach the Jul–Sep return:
   *   13.5% × 12000 = 1620 (dated 2026-05-20 to 2026-05-31); 14.5% × 120000 = 17400 (2026-07-01 to 2026-09-30);
   *   box 1 = 1620 + 17400 = 19020; box 6 = 12000 + 120000 = 132000.
   */
  const v = await vatBooks(t, flat, '2026-10-15T10:00:00Z');
  await v.invoice('2026-05-15', [{ unitPrice: 100_000 }]);
  await v.invoice('2026-06-10', [{ unitPrice: 100_000 }]);
  await v.file('2026-06');
  await v.invoice('2026-05-20', [{ unitPrice: 10_000 }]);
  await v.invoice('2026-08-01', [{ unitPrice: 100_000 }]);
  const autumn = await v.file('2026-09');
  t.same([autumn.boxes.box1, autumn.boxes.box6], [19_020, 132_000]);
  t.same(autumn['flatRates'], [
    { from: '2026-05-20', to: '2026-05-31', percent: 13.5, turnover: 12_000, vat: 1_620 },
    { from: '2026-07-01', to: '2026-09-30', percent: 14.5, turnover: 120_000, vat: 17_400 },
  ]);
});

t.test('a quarter wholly inside the first year: the 12% scheme rate shown as 11% applied', async (t) => {
  /**
   * 12% scheme, registered 2026-01-01: 11% until 2026-12-31. Jan–Mar 2026:
   *   £500 + £100 VAT on 10 February = 60000; £1.11 + £0.22 VAT on 3 March = 133; turnover 60133;
   *   box 1 = 11% × 60133 = 6614.63 → 6615; box 6 = £601.33 → £601 (60100).
   */
  const v = await vatBooks(t, { ...flat, vatFlatRatePercent: 12, vatRegistrationDate: '2026-01-01' }, '2026-04-15T10:00:00Z');
  await v.invoice('2026-02-10', [{ unitPrice: 50_000 }]);
  await v.invoice('2026-03-03', [{ unitPrice: 111 }]);
  const draft = await v.show('2026-03');
  t.same([draft.boxes.box1, draft.boxes.box6, draft.exact.box6, draft['flatRatePercent']], [6_615, 60_100, 60_133, 12]);
  const rates = [{ from: '2026-01-01', to: '2026-03-31', percent: 11, turnover: 60_133, vat: 6_615 }];
  t.same(draft['flatRates'], rates);
  t.equal(
    (draft['description'] as Record<string, string>)['box1'],
    'VAT due: 11% (the 12% flat rate less 1 point in the first year of VAT registration) × VAT-inclusive turnover (box 6)',
  );
  const filed = await v.file('2026-03');
  t.same(filed['flatRates'], rates);
});

t.test('a quarter wholly after the first year: the full rate alone', async (t) => {
  // Registered 2025-06-01; Jul–Sep 2026: £1,000 + £200 VAT on 1 August: 14.5% × 120000 = 17400.
  const v = await vatBooks(t, flat, '2026-10-15T10:00:00Z');
  await v.invoice('2026-08-01', [{ unitPrice: 100_000 }]);
  const draft = await v.show('2026-09');
  t.same(draft['flatRates'], [{ from: '2026-07-01', to: '2026-09-30', percent: 14.5, turnover: 120_000, vat: 17_400 }]);
  t.equal((draft['description'] as Record<string, string>)['box1'], 'VAT due: 14.5% × VAT-inclusive turnover (box 6)');
});

t.test('the standard scheme lists no flat rates', async (t) => {
  const v = await vatBooks(t, { vatScheme: 'standard', vatRegistrationDate: '2025-06-01', vatStagger: 'quarterly', vatPeriodMonth: 3 }, '2026-07-15T10:00:00Z');
  await v.invoice('2026-05-15', [{ unitPrice: 100_000 }]);
  t.equal((await v.show('2026-06'))['flatRates'], null);
  t.equal((await v.file('2026-06'))['flatRates'], null);
  const report = await v.api.request('GET', '/v1/reports/vat?from=2026-04-01&to=2026-06-30');
  t.equal(report.body.data.flatRates, null);
});
