/**
 * The benefit in kind of an overdrawn director's loan account for one tax
 * year (ITEPA 2003 ss175, 180, 182; gap-facts §10.2). No benefit unless the
 * balance exceeds £10,000 at some moment of the year. The benefit is the
 * official rate × the average balance by normal averaging (s182): the
 * highest balance on 5 April before the year (or on the day the account
 * went overdrawn, if later) and on 5 April at its end (or on the day it
 * was cleared, if earlier), halved, × the whole tax months (6th to 5th)
 * it was overdrawn / 12; an account overdrawn all year is simply the
 * average of its opening and closing balances. Each spell of being
 * overdrawn in the year counts as one loan. No interest paid is assumed.
 */
import { addDays } from '../../dates.js';
import { inDateOrder, type Movement } from './loan-types.js';
import { officialRateFor } from './official-rate.js';
import { percent } from './s455-rate.js';
import { taxYearDates } from './tax-year.js';

export const bikThresholdPence = 1_000_000;

export interface BeneficialLoan {
  readonly taxYear: string;
  readonly applicable: boolean;
  readonly threshold: number;
  /** Σ (opening + closing) / 2 × months / 12 over the spells, rounded down to the penny. */
  readonly averageBalancePence: number;
  /** Percent. */
  readonly officialRate: number;
  /** Rounded down to the penny from the exact product; 0 when not applicable. */
  readonly benefitPence: number;
}

/** The highest balance at any moment of a day with movements, and its balance at the end. */
interface Day {
  readonly date: string;
  readonly highest: number;
  readonly end: number;
}

function daysWithMovements(movements: readonly Movement[], from: string, to: string): { opening: number; days: Day[] } {
  let opening = 0;
  const days: Day[] = [];
  let current: { date: string; highest: number; end: number } | undefined;
  for (const m of inDateOrder(movements)) {
    if (m.date > to) break;
    if (m.date < from) {
      opening += m.amountPence;
      continue;
    }
    if (current?.date !== m.date) {
      const start = current ? current.end : opening;
      if (current) days.push(current);
      current = { date: m.date, highest: start, end: start };
    }
    current.end += m.amountPence;
    current.highest = Math.max(current.highest, current.end);
  }
  if (current) days.push(current);
  return { opening, days };
}

/** Whole tax months (each from the 6th to the 5th) of the tax year starting `yearStart` that lie within [from, to]. */
function wholeMonths(yearStart: string, from: string, to: string): number {
  let count = 0;
  for (let k = 0; k < 12; k++) {
    const start = monthStart(yearStart, k);
    const end = addDays(monthStart(yearStart, k + 1), -1);
    if (from <= start && end <= to) count++;
  }
  return count;
}

const monthStart = (yearStart: string, k: number): string => {
  const months = Number(yearStart.slice(0, 4)) * 12 + 3 + k;
  return `${Math.floor(months / 12)}-${String((months % 12) + 1).padStart(2, '0')}-06`;
};

/** The benefit for `taxYear` ('2025/26') from the director's movements. */
export function beneficialLoan(movements: readonly Movement[], taxYear: string): BeneficialLoan {
  const { startDate, endDate } = taxYearDates(taxYear);
  const basisPoints = officialRateFor(taxYear);
  const eve = addDays(startDate, -1);
  const { opening, days } = daysWithMovements(movements, eve, endDate);
  const eveDay = days[0]?.date === eve ? days[0] : undefined;
  const yearDays = eveDay ? days.slice(1) : days;
  const openingBalance = eveDay ? eveDay.end : opening;

  const peak = Math.max(openingBalance, ...yearDays.map((d) => d.highest));
  // Σ (A + B) × months: the average is this / 24, the benefit this × rate / 24.
  let weighted = 0n;
  let spell: { from: string; first: number } | undefined = openingBalance > 0 ? { from: startDate, first: eveDay?.highest ?? opening } : undefined;
  const close = (to: string, last: number) => {
    if (spell) weighted += BigInt(spell.first + last) * BigInt(wholeMonths(startDate, spell.from, to));
    spell = undefined;
  };
  for (const d of yearDays) {
    if (!spell && d.highest > 0) spell = { from: d.date, first: d.highest };
    if (spell && d.end <= 0) close(d.date, d.highest);
  }
  const lastDay = yearDays[yearDays.length - 1];
  close(endDate, lastDay?.date === endDate ? lastDay.highest : (lastDay?.end ?? openingBalance));

  const applicable = peak > bikThresholdPence;
  return {
    taxYear,
    applicable,
    threshold: bikThresholdPence,
    averageBalancePence: Number(weighted / 24n),
    officialRate: percent(basisPoints),
    benefitPence: applicable ? Number((weighted * BigInt(basisPoints)) / 240_000n) : 0,
  };
}
