/**
 * Bed and breakfasting (CTA 2010 s464C, gap-facts §10.1): a repayment of
 * £5,000 or more matched against new borrowing of £5,000 or more by the
 * director or a connected person within 30 days is treated as repaying the
 * new borrowing, not the old loan, so the old loan stays charged.
 *
 * As implemented: the repayment is one movement of repayment_to_company or
 * loan_from_director whose repaying part is at least £5,000 (a dividend or
 * salary set against the loan is taxed as income and a write-off is no
 * repayment: s464C leaves those alone). "After" is the statute's rule: new
 * advances totalling £5,000 or more from the same day to 30 days later.
 * "Before" goes further, as a warning would: advances totalling £5,000 or
 * more made up to 30 days earlier and still owed, when older debt of the
 * repaying person would otherwise be cleared by the repayment.
 */
import { addDays } from '../../dates.js';
import type { LoanType } from './loan-types.js';
import type { Advance } from './advances.js';
import type { OverdrawnPart } from './overdrawn-parts.js';

export const bedAndBreakfastMinimumPence = 500_000;
export const bedAndBreakfastDays = 30;

const repayments: ReadonlySet<LoanType> = new Set<LoanType>(['repayment_to_company', 'loan_from_director']);

export interface Borrowed {
  readonly person: string;
  readonly date: string;
  readonly pence: number;
}

export interface BedAndBreakfastFlag {
  readonly person: string;
  readonly repaymentDate: string;
  /** The part of the repayment that cleared overdrawn balance. */
  readonly repaymentPence: number;
  /** Whether the new borrowing came after the repayment (s464C) or before it. */
  readonly direction: 'after' | 'before';
  /** How much of the repayment went to the new borrowing instead of the old loan. */
  readonly matchedPence: number;
  readonly borrowing: readonly Borrowed[];
}

/** A borrowing not yet made when the repayment is looked at, and how much of it no earlier repayment has been matched against. */
export interface LaterBorrowing {
  readonly person: string;
  readonly date: string;
  readonly unmatchedPence: number;
}

export const mayBeMatched = (part: OverdrawnPart): boolean => repayments.has(part.loanType) && part.reliefPence >= bedAndBreakfastMinimumPence;

/** Share `pence` over `amounts` in order: how much each takes. */
function share(amounts: readonly number[], pence: number): number[] {
  let left = pence;
  return amounts.map((a) => {
    const taken = Math.min(a, left);
    left -= taken;
    return taken;
  });
}

const total = (amounts: readonly number[]): number => amounts.reduce((s, a) => s + a, 0);

/** The statute's rule: how much of `left` goes to each later borrowing (in `later`'s order), or null when they total under £5,000 within 30 days. */
export function matchAfter(repayment: OverdrawnPart, left: number, later: readonly LaterBorrowing[]): number[] | null {
  const last = addDays(repayment.date, bedAndBreakfastDays);
  const within = later.map((b) => (b.date <= last ? b.unmatchedPence : 0));
  if (total(within) < bedAndBreakfastMinimumPence) return null;
  return share(within, left);
}

/**
 * The earlier rule: how much of `left` goes to each advance of `everyone`
 * (the repaying person's own first, oldest first), or null when the recent
 * advances still owed total under £5,000, when the repaying person owes
 * nothing older, or when the repayment clears the older debt and the recent
 * advances alike.
 */
export function matchBefore(repayment: OverdrawnPart, left: number, everyone: readonly Advance[]): Map<Advance, number> | null {
  const since = addDays(repayment.date, -bedAndBreakfastDays);
  const recent = everyone.filter((a) => a.date >= since && a.remainingPence > 0);
  const mine = recent.filter((a) => a.person === repayment.person);
  const ordered = [...mine, ...recent.filter((a) => a.person !== repayment.person)];
  const recentPence = total(ordered.map((a) => a.remainingPence));
  const olderPence = total(everyone.filter((a) => a.person === repayment.person && a.date < since).map((a) => a.remainingPence));
  if (recentPence < bedAndBreakfastMinimumPence || olderPence === 0 || left >= olderPence + recentPence) return null;
  const taken = share(
    ordered.map((a) => a.remainingPence),
    left,
  );
  return new Map(ordered.map((a, i) => [a, taken[i] ?? 0] as const).filter(([, p]) => p > 0));
}
