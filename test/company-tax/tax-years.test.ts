/**
 * The tax year figures (src/engine/company/tax-years.ts) against the
 * published ones (gap-facts §10.3; gov.uk's previous tax years), and the
 * tax year of a date: 6 April starts it.
 */
import t from 'tap';
import { taxYearFigures, taxYearOf, taxYears } from '../../src/engine/company/tax-years.js';

t.test('taxYearOf: 5 April ends a tax year, 6 April starts the next', async (t) => {
  t.equal(taxYearOf('2026-04-05'), '2025/26');
  t.equal(taxYearOf('2026-04-06'), '2026/27');
  t.equal(taxYearOf('2026-01-01'), '2025/26');
  t.equal(taxYearOf('2025-12-31'), '2025/26');
  t.equal(taxYearOf('2016-04-06'), '2016/17');
  t.equal(taxYearOf('2000-03-01'), '1999/00', 'the century turns in the short form');
  t.equal(taxYearOf('2009-04-06'), '2009/10');
});

t.test('the years known are 2016/17 to 2026/27', async (t) => {
  t.strictSame(taxYears, ['2016/17', '2017/18', '2018/19', '2019/20', '2020/21', '2021/22', '2022/23', '2023/24', '2024/25', '2025/26', '2026/27']);
});

t.test('dividend allowance by year: £5,000, then £2,000 from 2018/19, £1,000 in 2023/24, £500 from 2024/25', async (t) => {
  const allowance = (y: string) => taxYearFigures(y).dividendAllowancePence;
  t.strictSame(taxYears.map(allowance), [500_000, 500_000, 200_000, 200_000, 200_000, 200_000, 200_000, 100_000, 50_000, 50_000, 50_000]);
});

t.test('dividend rates change on 6 April 2022 and on 6 April 2026 (Budget of November 2025)', async (t) => {
  const rates = (y: string) => Object.values(taxYearFigures(y).dividendRates).join('/');
  t.equal(rates('2021/22'), '750/3250/3810', '7.5% / 32.5% / 38.1% in basis points');
  t.equal(rates('2022/23'), '875/3375/3935', '8.75% / 33.75% / 39.35%');
  t.equal(rates('2025/26'), '875/3375/3935');
  t.equal(rates('2026/27'), '1075/3575/3935', '10.75% / 35.75% / 39.35%');
});

t.test('personal allowance, basic rate band and additional rate threshold by year', async (t) => {
  const bands = (y: string) => {
    const f = taxYearFigures(y);
    return [f.personalAllowancePence, f.basicRateBandPence, f.higherRateLimitPence];
  };
  t.strictSame(bands('2016/17'), [1_100_000, 3_200_000, 15_000_000], '£11,000; £32,000; £150,000');
  t.strictSame(bands('2017/18'), [1_150_000, 3_350_000, 15_000_000], '£11,500; £33,500; £150,000');
  t.strictSame(bands('2018/19'), [1_185_000, 3_450_000, 15_000_000], '£11,850; £34,500; £150,000');
  t.strictSame(bands('2020/21'), [1_250_000, 3_750_000, 15_000_000], '£12,500; £37,500; £150,000');
  t.strictSame(bands('2022/23'), [1_257_000, 3_770_000, 15_000_000], '£12,570; £37,700; £150,000 up to 2022/23');
  t.strictSame(bands('2023/24'), [1_257_000, 3_770_000, 12_514_000], '£125,140 from 6 April 2023');
  t.strictSame(bands('2026/27'), [1_257_000, 3_770_000, 12_514_000]);
});
