/**
 * The advances of a director and their connected persons as the law sees
 * them: each person's repayments clear that person's oldest advance first,
 * except where bed and breakfasting sends a repayment to new borrowing
 * (which may be a connected person's, s464C counting associates).
 */
import { membersOf, type LoanGroup } from './loan-types.js';
import { newAdvance, relieve, type Advance } from './advances.js';
import { overdrawnParts, type OverdrawnPart } from './overdrawn-parts.js';
import { matchAfter, matchBefore, mayBeMatched, type BedAndBreakfastFlag, type Borrowed } from './bed-and-breakfast.js';

export interface LoanLedger {
  /** Every advance, oldest first. */
  readonly advances: readonly Advance[];
  readonly bedAndBreakfast: readonly BedAndBreakfastFlag[];
}

interface Event {
  readonly part: OverdrawnPart;
  readonly member: number;
  readonly order: number;
}

const byTime = (a: Event, b: Event): number => (a.part.date < b.part.date ? -1 : a.part.date > b.part.date ? 1 : a.member - b.member || a.order - b.order);

/** Replay the group's movements dated up to `asOfDate`; persons' keys must be distinct. */
export function loanLedger(group: LoanGroup, asOfDate: string): LoanLedger {
  const events = membersOf(group)
    .flatMap((person, member) => overdrawnParts(person, asOfDate).map((part, order) => ({ part, member, order })))
    .sort(byTime);
  const unmatched = events.map((e) => e.part.advancePence);
  const matchedAhead = events.map(() => 0);
  const advances: Advance[] = [];
  const flags: BedAndBreakfastFlag[] = [];
  const owedBy = (person: string) => advances.filter((a) => a.person === person);
  // borrower → repayer → pence: a repayment matched to someone else's borrowing left the repayer's own loan owed in its place.
  const displaced = new Map<string, Map<string, number>>();
  const displace = (borrower: string, repayer: string, pence: number) => {
    if (borrower === repayer) return;
    const byRepayer = displaced.get(borrower) ?? new Map<string, number>();
    byRepayer.set(repayer, (byRepayer.get(repayer) ?? 0) + pence);
    displaced.set(borrower, byRepayer);
  };

  events.forEach(({ part }, k) => {
    if (part.advancePence > 0) {
      const advance = newAdvance(part.person, part.date, part.advancePence);
      // Matched against a repayment made before it was lent: it was owed only in part.
      if ((matchedAhead[k] ?? 0) > 0) relieve([advance], matchedAhead[k] ?? 0, part.date);
      advances.push(advance);
      return;
    }
    let left = part.reliefPence;
    if (mayBeMatched(part)) {
      const later = events
        .map((e, i) => ({ i, person: e.part.person, date: e.part.date, unmatchedPence: i > k ? (unmatched[i] ?? 0) : 0 }))
        .filter((b) => b.unmatchedPence > 0);
      const after = matchAfter(part, left, later);
      if (after) {
        const borrowing: Borrowed[] = [];
        after.forEach((pence, j) => {
          const b = later[j];
          if (!b || pence === 0) return;
          unmatched[b.i] = (unmatched[b.i] ?? 0) - pence;
          matchedAhead[b.i] = (matchedAhead[b.i] ?? 0) + pence;
          borrowing.push({ person: b.person, date: b.date, pence });
          displace(b.person, part.person, pence);
        });
        const matched = borrowing.reduce((s, b) => s + b.pence, 0);
        flags.push(flag(part, 'after', matched, borrowing));
        left -= matched;
      }
      const before = left > 0 ? matchBefore(part, left, advances) : null;
      if (before) {
        const borrowing: Borrowed[] = [];
        for (const [advance, pence] of before) {
          relieve([advance], pence, part.date);
          borrowing.push({ person: advance.person, date: advance.date, pence });
          displace(advance.person, part.person, pence);
        }
        const matched = borrowing.reduce((s, b) => s + b.pence, 0);
        flags.push(flag(part, 'before', matched, borrowing));
        left -= matched;
      }
    }
    left = relieve(owedBy(part.person), left, part.date);
    // A borrower whose loan was repaid by a connected person's money, repaying it again, repays the loan that money left owed.
    for (const [repayer, pence] of displaced.get(part.person) ?? []) {
      if (left === 0) break;
      const moved = Math.min(left, pence) - relieve(owedBy(repayer), Math.min(left, pence), part.date);
      displaced.get(part.person)?.set(repayer, pence - moved);
      left -= moved;
    }
  });
  return { advances, bedAndBreakfast: flags };
}

const flag = (part: OverdrawnPart, direction: 'after' | 'before', matchedPence: number, borrowing: readonly Borrowed[]): BedAndBreakfastFlag => ({
  person: part.person,
  repaymentDate: part.date,
  repaymentPence: part.reliefPence,
  direction,
  matchedPence,
  borrowing,
});
