/**
 * What each movement does to the overdrawn part of one person's account,
 * the only part S455 charges. A payment out while the company owes the
 * director draws on that credit first and lends nothing; a payment in
 * beyond what the director owes becomes a credit and repays nothing.
 */
import { inDateOrder, type LoanType, type Person } from './loan-types.js';

export interface OverdrawnPart {
  readonly person: string;
  readonly date: string;
  readonly loanType: LoanType;
  /** How much further overdrawn the movement took the account: a new advance. */
  readonly advancePence: number;
  /** How much of the overdrawn balance the movement cleared: a repayment, set-off or write-off. */
  readonly reliefPence: number;
}

/** The person's movements dated up to `asOfDate`, in date order, each with its overdrawn part; those that change nothing are left out. */
export function overdrawnParts(person: Person, asOfDate: string): OverdrawnPart[] {
  const parts: OverdrawnPart[] = [];
  let balance = 0;
  for (const m of inDateOrder(person.movements)) {
    if (m.date > asOfDate) break;
    const before = Math.max(0, balance);
    balance += m.amountPence;
    const after = Math.max(0, balance);
    if (after === before) continue;
    parts.push({
      person: person.key,
      date: m.date,
      loanType: m.loanType,
      advancePence: Math.max(0, after - before),
      reliefPence: Math.max(0, before - after),
    });
  }
  return parts;
}
