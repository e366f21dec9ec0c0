/**
 * The warning level of a director's loan account (gap-facts §2.14 names
 * green, amber and red but no thresholds): red when S455 is due (the
 * deadline passed with a loan of the period still owed) or a repayment was
 * bed and breakfasted; amber when the account is overdrawn, S455 is at
 * risk or a benefit in kind arises; green otherwise.
 */
import type { S455Status } from './s455.js';

export type WarningLevel = 'green' | 'amber' | 'red';

export interface WarningFacts {
  readonly balancePence: number;
  readonly s455Status: S455Status;
  readonly bedAndBreakfasted: boolean;
  readonly bikApplicable: boolean;
}

export function warningLevel(facts: WarningFacts): WarningLevel {
  if (facts.s455Status === 'due' || facts.bedAndBreakfasted) return 'red';
  if (facts.balancePence > 0 || facts.s455Status === 'at_risk' || facts.bikApplicable) return 'amber';
  return 'green';
}
