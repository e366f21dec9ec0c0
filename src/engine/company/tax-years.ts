/**
 * The income tax figures a dividend is taxed by, one row per UK tax year
 * (6 April to 5 April), in pence and basis points (875 = 8.75%).
 *
 * Sources (gap-facts §10.3 and gov.uk "Income Tax rates and Personal
 * Allowances: previous tax years"):
 * - personal allowance £11,000 (2016/17), £11,500, £11,850, £12,500,
 *   £12,500, then £12,570 from 2021/22 (frozen to 2027/28);
 * - basic rate band £32,000 (2016/17), £33,500, £34,500, £37,500, £37,500,
 *   then £37,700 from 2021/22;
 * - higher rate limit (the additional rate threshold, on taxable income)
 *   £150,000 up to 2022/23, £125,140 from 2023/24 (ITA 2007 s10(5A));
 * - dividend allowance £5,000 (2016/17–2017/18), £2,000 (2018/19–2022/23),
 *   £1,000 (2023/24), £500 (from 2024/25);
 * - dividend rates 7.5/32.5/38.1 before 6 April 2022, 8.75/33.75/39.35
 *   from then, 10.75/35.75/39.35 from 6 April 2026 (Budget of November
 *   2025, which the spec predates: the law wins).
 * The bands are the UK ones: dividends are never Scottish-rate income, so
 * a Scottish taxpayer's dividends are banded the same way.
 */
import { taxYearOf } from '../dates.js';
import { AppError } from '../errors.js';

export interface DividendRates {
  /** Basis points: 875 is 8.75%. */
  readonly basic: number;
  readonly higher: number;
  readonly additional: number;
}

export interface TaxYearFigures {
  readonly taxYear: string;
  readonly personalAllowancePence: number;
  readonly basicRateBandPence: number;
  /** Where the additional rate starts, measured in taxable income (after allowances). */
  readonly higherRateLimitPence: number;
  readonly dividendAllowancePence: number;
  readonly dividendRates: DividendRates;
}

/** Income above which the personal allowance is tapered (ITA 2007 s35), the same in every year here. */
export const taperThresholdPence = 10_000_000;

const before2022: DividendRates = { basic: 750, higher: 3250, additional: 3810 };
const from2022: DividendRates = { basic: 875, higher: 3375, additional: 3935 };
const from2026: DividendRates = { basic: 1075, higher: 3575, additional: 3935 };

const row = (taxYear: string, pa: number, band: number, limit: number, allowance: number, dividendRates: DividendRates): TaxYearFigures => ({
  taxYear,
  personalAllowancePence: pa * 100,
  basicRateBandPence: band * 100,
  higherRateLimitPence: limit * 100,
  dividendAllowancePence: allowance * 100,
  dividendRates,
});

/** In pounds for reading; `row` turns them into pence. */
const figures: readonly TaxYearFigures[] = [
  row('2016/17', 11_000, 32_000, 150_000, 5_000, before2022),
  row('2017/18', 11_500, 33_500, 150_000, 5_000, before2022),
  row('2018/19', 11_850, 34_500, 150_000, 2_000, before2022),
  row('2019/20', 12_500, 37_500, 150_000, 2_000, before2022),
  row('2020/21', 12_500, 37_500, 150_000, 2_000, before2022),
  row('2021/22', 12_570, 37_700, 150_000, 2_000, before2022),
  row('2022/23', 12_570, 37_700, 150_000, 2_000, from2022),
  row('2023/24', 12_570, 37_700, 125_140, 1_000, from2022),
  row('2024/25', 12_570, 37_700, 125_140, 500, from2022),
  row('2025/26', 12_570, 37_700, 125_140, 500, from2022),
  row('2026/27', 12_570, 37_700, 125_140, 500, from2026),
];

/** The tax years the calculator knows, oldest first ('2016/17' … '2026/27'). */
export const taxYears: readonly string[] = figures.map((f) => f.taxYear);

/** The figures of a tax year written '2025/26'; any other year, or another spelling, is a validation_error on taxYear. */
export function taxYearFigures(taxYear: string): TaxYearFigures {
  const found = figures.find((f) => f.taxYear === taxYear);
  if (!found) {
    throw new AppError(
      'validation_error',
      `taxYear must be a tax year from ${taxYears[0]} to ${taxYears[taxYears.length - 1]} written like 2025/26, not ${taxYear}`,
      'taxYear',
    );
  }
  return found;
}

export { taxYearOf };
