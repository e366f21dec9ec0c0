/**
 * The income tax on a year's dividends, as the top slice of a person's
 * income (ITA 2007 s16: dividends are treated as the highest part of total
 * income). Pure: no books are read.
 *
 * The order, each step in pence:
 * 1. The personal allowance is the one the caller gives
 *    (personalAllowanceUsedPence: the allowance the person has before the
 *    taper, default the year's standard one, £12,570 from 2021/22; less
 *    when part was transferred as Marriage Allowance), tapered by half of
 *    total income (other income + gross dividends) over £100,000, the
 *    half-penny of an odd excess in the taxpayer's favour, never below nil.
 *    Total income stands in for adjusted net income: reliefs such as
 *    pension contributions and Gift Aid are not asked for.
 * 2. Other income (salary and the like, non-savings income) uses the
 *    allowance first, then the bands from the bottom.
 * 3. Whatever allowance other income leaves covers dividends next.
 * 4. The dividend allowance (a nil-rate band) covers the next slice, which
 *    still fills band space.
 * 5. The rest of the dividends is taxed at the dividend rate of the band
 *    each pound falls in: basic up to the basic rate band, higher up to the
 *    higher rate limit, additional above it, both measured in taxable
 *    income (after the personal allowance).
 *
 * Rounding: each band's tax is rounded down to the penny, because HMRC
 * rounds tax down on a calculation and each band is a line of it; the
 * total is the sum of the bands, so the figures shown always add up (it may
 * be up to 2p below the unrounded total). Incomes are used to the penny,
 * not rounded to whole pounds.
 */
import { AppError } from '../errors.js';
import { sterling } from '../money.js';
import { taperThresholdPence, taxYearFigures } from './tax-years.js';

export interface DividendTaxInput {
  readonly grossDividendPence: number;
  /** Salary and other non-savings income of the year; default 0. */
  readonly otherIncomePence?: number | undefined;
  /** The personal allowance before the taper; default the tax year's standard allowance. */
  readonly personalAllowanceUsedPence?: number | undefined;
  /** Written '2025/26'. */
  readonly taxYear: string;
}

export interface BandTax {
  /** A fraction: 0.0875 is 8.75%. */
  readonly rate: number;
  readonly taxPence: number;
}

export interface DividendTaxResult {
  readonly calculation: {
    readonly basicRate: BandTax;
    readonly higherRate: BandTax;
    readonly additionalRate: BandTax;
    /** The part of the year's dividend allowance the dividends used. */
    readonly dividendAllowancePence: number;
    /** Dividends taxed at a dividend rate: gross less the personal allowance left to them and the dividend allowance. */
    readonly taxableAfterAllowancePence: number;
    readonly totalTaxPence: number;
    readonly netDividendPence: number;
    /** totalTaxPence / grossDividendPence rounded half up to 4 decimal places; 0 when there are no dividends. */
    readonly effectiveRate: number;
  };
  readonly input: {
    readonly grossDividendPence: number;
    readonly otherIncomePence: number;
    readonly personalAllowanceUsedPence: number;
  };
  readonly taxYear: string;
}

/** £100bn, the ceiling of a ledger line too: far above any income, and every sum and product below stays exact. */
export const maxIncomePence = 10_000_000_000_000;

/** A money input: a whole number of pence from 0 to `max`, else a validation_error naming the field. */
function amount(value: number, field: string, max: number, what = ''): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new AppError('validation_error', `${field} must be a whole number of pence, 0 or more`, field);
  if (value > max) throw new AppError('validation_error', `${field} must be at most ${sterling(max)}${what}`, field);
  return value;
}

/** `pence` × `basisPoints` / 10,000, rounded down; in BigInt so that no product loses a penny. */
const taxAt = (pence: number, basisPoints: number): number => Number((BigInt(pence) * BigInt(basisPoints)) / 10_000n);

/** The length of [from, to) that lies within [low, high). */
const overlap = (from: number, to: number, low: number, high: number): number => Math.max(0, Math.min(to, high) - Math.max(from, low));

/** tax / gross to 4 decimal places, half up, exactly (in BigInt). */
function effectiveRate(taxPence: number, grossPence: number): number {
  if (grossPence === 0) return 0;
  const tenThousandths = (BigInt(taxPence) * 20_000n + BigInt(grossPence)) / (2n * BigInt(grossPence));
  return Number(tenThousandths) / 10_000;
}

/**
 * The answer of POST /dividends/tax-calculator: the tax on `grossDividendPence`
 * in `taxYear`, band by band. Refuses (validation_error, naming the field) an
 * unknown tax year, an amount that is not a whole number of pence from 0 to
 * £100bn, and a personal allowance above the year's standard one.
 */
export function dividendTax(input: DividendTaxInput): DividendTaxResult {
  const year = taxYearFigures(input.taxYear);
  const gross = amount(input.grossDividendPence, 'grossDividendPence', maxIncomePence);
  const other = amount(input.otherIncomePence ?? 0, 'otherIncomePence', maxIncomePence);
  // No one has had a personal allowance above the standard one since 2016/17, when the age allowances ended.
  const allowanceBeforeTaper = amount(
    input.personalAllowanceUsedPence ?? year.personalAllowancePence,
    'personalAllowanceUsedPence',
    year.personalAllowancePence,
    `, the standard personal allowance of ${year.taxYear}`,
  );

  const excess = Math.max(0, other + gross - taperThresholdPence);
  const allowance = Math.max(0, allowanceBeforeTaper - Math.floor(excess / 2));
  const allowanceOnOther = Math.min(other, allowance);
  const allowanceOnDividends = Math.min(gross, allowance - allowanceOnOther);

  // Positions in taxable income: other income fills it from 0, dividends go on top.
  const dividendsStart = other - allowanceOnOther;
  const dividendAllowance = Math.min(gross - allowanceOnDividends, year.dividendAllowancePence);
  const taxedFrom = dividendsStart + dividendAllowance;
  const taxedTo = dividendsStart + gross - allowanceOnDividends;

  const { basic, higher, additional } = year.dividendRates;
  const basicTax = taxAt(overlap(taxedFrom, taxedTo, 0, year.basicRateBandPence), basic);
  const higherTax = taxAt(overlap(taxedFrom, taxedTo, year.basicRateBandPence, year.higherRateLimitPence), higher);
  const additionalTax = taxAt(overlap(taxedFrom, taxedTo, year.higherRateLimitPence, Infinity), additional);
  const total = basicTax + higherTax + additionalTax;

  return {
    calculation: {
      basicRate: { rate: basic / 10_000, taxPence: basicTax },
      higherRate: { rate: higher / 10_000, taxPence: higherTax },
      additionalRate: { rate: additional / 10_000, taxPence: additionalTax },
      dividendAllowancePence: dividendAllowance,
      taxableAfterAllowancePence: taxedTo - taxedFrom,
      totalTaxPence: total,
      netDividendPence: gross - total,
      effectiveRate: effectiveRate(total, gross),
    },
    input: { grossDividendPence: gross, otherIncomePence: other, personalAllowanceUsedPence: allowanceBeforeTaper },
    taxYear: year.taxYear,
  };
}
