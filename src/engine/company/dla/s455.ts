/**
 * S455 exposure for one accounting period (CTA 2010 s455, gap-facts
 * §10.1): each advance made in the period to the director or a connected
 * person that is still owed on the deadline (nine months and one day after
 * the period ends) is charged at the rate in force on the day it was made.
 * Repayments, dividends and salary set against the loan and write-offs
 * dated before the deadline reduce it (s458 relieves a loan "repaid,
 * released or written off"), oldest advance first; those on or after the
 * deadline do not (they earn a refund later). Movements after the as-of
 * date are not known yet.
 */
import { AppError } from '../../errors.js';
import { relievedBefore } from './advances.js';
import type { BedAndBreakfastFlag } from './bed-and-breakfast.js';
import { s455Deadline } from './deadline.js';
import { loanLedger } from './loan-ledger.js';
import type { LoanGroup } from './loan-types.js';
import { percent, s455RateOn, taxAt } from './s455-rate.js';

/** clear: nothing lent in the period; at_risk: owed, deadline to come; due: owed on the deadline; repaid: all lent in the period repaid in time. */
export type S455Status = 'clear' | 'at_risk' | 'due' | 'repaid';

export interface S455Query {
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly asOfDate: string;
}

export interface S455Advance {
  readonly person: string;
  readonly date: string;
  /** What the advance added to the overdrawn balance. */
  readonly amountPence: number;
  /** Percent, the rate in force on `date`. */
  readonly rate: number;
  /** Repaid, set off or written off before the deadline (and by the as-of date). */
  readonly relievedPence: number;
  readonly outstandingPence: number;
}

export interface S455RateTotal {
  readonly rate: number;
  readonly outstandingPence: number;
  readonly taxPence: number;
}

export interface S455Exposure {
  /** Something lent in the period is still owed (even if its tax rounds to nothing). */
  readonly exposed: boolean;
  readonly exposurePence: number;
  /** Percent: the rate of the latest advance still owed, else the rate a loan made on the as-of date (at the latest the period end) would bear. */
  readonly rate: number;
  readonly status: S455Status;
  readonly deadline: string;
  readonly perAdvance: readonly S455Advance[];
  /** The outstanding advances by rate, each rate's tax rounded down to the penny; exposurePence is their sum. */
  readonly byRate: readonly S455RateTotal[];
  /** Repayments made from the period start to the deadline that were matched against new borrowing. */
  readonly bedAndBreakfast: readonly BedAndBreakfastFlag[];
}

export function s455Exposure(group: LoanGroup, query: S455Query): S455Exposure {
  const { periodStart, periodEnd, asOfDate } = query;
  if (periodStart > periodEnd) {
    throw new AppError('validation_error', `the period must start (${periodStart}) on or before its end (${periodEnd})`, 'periodEnd');
  }
  const deadline = s455Deadline(periodEnd);
  const ledger = loanLedger(group, asOfDate);
  const perAdvance = ledger.advances
    .filter((a) => a.date >= periodStart && a.date <= periodEnd)
    .map((a): S455Advance => {
      const relievedPence = relievedBefore(a, deadline);
      return {
        person: a.person,
        date: a.date,
        amountPence: a.amountPence,
        rate: percent(s455RateOn(a.date)),
        relievedPence,
        outstandingPence: a.amountPence - relievedPence,
      };
    });
  const owed = perAdvance.filter((a) => a.outstandingPence > 0);
  const byRate = [...new Set(owed.map((a) => s455RateOn(a.date)))]
    .sort((a, b) => a - b)
    .map((basisPoints): S455RateTotal => {
      const outstandingPence = owed.filter((a) => s455RateOn(a.date) === basisPoints).reduce((s, a) => s + a.outstandingPence, 0);
      return { rate: percent(basisPoints), outstandingPence, taxPence: taxAt(outstandingPence, basisPoints) };
    });
  const exposurePence = byRate.reduce((s, r) => s + r.taxPence, 0);
  const latest = owed[owed.length - 1];
  return {
    exposed: owed.length > 0,
    exposurePence,
    // No advance owed: the rate of a loan made in the period on the as-of date, or on its last day when asked later
    // (a year-end pack, known on the day it is prepared, is as of the year end).
    rate: latest ? latest.rate : percent(s455RateOn(asOfDate < periodEnd ? asOfDate : periodEnd)),
    status: perAdvance.length === 0 ? 'clear' : owed.length === 0 ? 'repaid' : asOfDate >= deadline ? 'due' : 'at_risk',
    deadline,
    perAdvance,
    byRate,
    bedAndBreakfast: ledger.bedAndBreakfast.filter((f) => f.repaymentDate >= periodStart && f.repaymentDate < deadline),
  };
}

/** One accounting period's S455, as part of where a director's loans stand. */
export interface S455PeriodStanding extends S455Exposure {
  readonly periodStart: string;
  readonly periodEnd: string;
}

export interface S455Standing {
  /** The earlier periods with an advance still owed on the as-of date, oldest first, then the period holding it. */
  readonly periods: readonly S455PeriodStanding[];
  /** The period that sets the status: the oldest due, else the at-risk one whose deadline comes first, else the current one. */
  readonly lead: S455PeriodStanding;
  /** The tax of every period listed. */
  readonly exposurePence: number;
}

const gravity: Record<S455Status, number> = { due: 3, at_risk: 2, repaid: 1, clear: 0 };

/**
 * Where S455 stands on `asOfDate`: the accounting period holding it, and
 * every earlier period with an advance still owed that day: its deadline
 * to come (at risk), or passed (due: the tax is payable until the loan is
 * repaid, and refunded nine months after the period of repayment). A loan
 * made last year and still owed does not go quiet when the new year starts.
 * `periodOf` gives the accounting period holding a date.
 */
export function s455Standing(group: LoanGroup, asOfDate: string, periodOf: (date: string) => { startDate: string; endDate: string }): S455Standing {
  const owed = loanLedger(group, asOfDate).advances.filter((a) => a.remainingPence > 0);
  const current = periodOf(asOfDate);
  const earlier = new Map<string, { startDate: string; endDate: string }>();
  for (const a of owed) {
    const period = periodOf(a.date);
    if (period.endDate < current.startDate) earlier.set(period.endDate, period);
  }
  const periods = [...[...earlier.values()].sort((a, b) => (a.endDate < b.endDate ? -1 : 1)), current].map((p): S455PeriodStanding => ({
    periodStart: p.startDate,
    periodEnd: p.endDate,
    ...s455Exposure(group, { periodStart: p.startDate, periodEnd: p.endDate, asOfDate }),
  }));
  const lead = periods.reduce((best, p) => (gravity[p.status] > gravity[best.status] ? p : best));
  return { periods, lead, exposurePence: periods.reduce((s, p) => s + p.exposurePence, 0) };
}
