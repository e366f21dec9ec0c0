/**
 * Balances of a director's loan account: positive when the account is
 * overdrawn (the director owes the company), negative when the company owes
 * the director (gap-facts §2.14, balance object).
 */
import type { LoanGroup, Movement } from './loan-types.js';
import { membersOf } from './loan-types.js';

/** The balance at the end of `date`: every movement dated on or before it. */
export function balanceAt(movements: readonly Movement[], date: string): number {
  return movements.reduce((sum, m) => (m.date <= date ? sum + m.amountPence : sum), 0);
}

/** The director's balance plus each connected person's, signed: one person's credit nets another's overdrawn balance, as the balance object shows it. */
export function aggregatedBalanceAt(group: LoanGroup, date: string): number {
  return membersOf(group).reduce((sum, p) => sum + balanceAt(p.movements, date), 0);
}
