/**
 * The figures a year-end snapshot keeps (gap-facts §2.14) for the CT600A
 * and the P11D: the director's balance at the period end, the S455
 * exposure of the director and connected persons as known on the day the
 * snapshot is taken, with its deadline and status, and the benefit in kind
 * of the tax year in which the period ends, from the director's own
 * movements known that day (a year not yet over is taken as it stands).
 */
import { AppError } from '../../errors.js';
import { aggregatedBalanceAt, balanceAt } from './balance.js';
import { beneficialLoan } from './bik.js';
import type { LoanGroup } from './loan-types.js';
import { s455Exposure, type S455Query, type S455Status } from './s455.js';
import { taxYearOf } from './tax-year.js';

export interface YearEndSnapshot {
  readonly periodEndDate: string;
  readonly balancePence: number;
  readonly aggregatedBalancePence: number;
  readonly s455ExposurePence: number;
  readonly deadline: string;
  readonly deadlineStatus: S455Status;
  readonly bikTaxYear: string;
  readonly bikBenefitPence: number;
}

export function yearEndSnapshot(group: LoanGroup, query: S455Query): YearEndSnapshot {
  const { periodEnd, asOfDate } = query;
  if (asOfDate < periodEnd) {
    throw new AppError('validation_error', `a year-end snapshot is taken on or after the period end (${periodEnd}), not on ${asOfDate}`, 'asOfDate');
  }
  const s455 = s455Exposure(group, query);
  const bikTaxYear = taxYearOf(periodEnd);
  const known = group.director.movements.filter((m) => m.date <= asOfDate);
  return {
    periodEndDate: periodEnd,
    balancePence: balanceAt(group.director.movements, periodEnd),
    aggregatedBalancePence: aggregatedBalanceAt(group, periodEnd),
    s455ExposurePence: s455.exposurePence,
    deadline: s455.deadline,
    deadlineStatus: s455.status,
    bikTaxYear,
    bikBenefitPence: beneficialLoan(known, bikTaxYear).benefitPence,
  };
}
