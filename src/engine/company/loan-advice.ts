/**
 * What the reply to a director's loan movement says of the account after
 * it, as FreeAgent warns on an overdrawn director's loan: the balance, the
 * warning level and, in words, each reason for it (S455 due or at risk,
 * bed and breakfasting, a benefit in kind) and where the ledger parts from
 * the loan accounts. Worded from the director's position (loan-position.ts),
 * which GET /director-loans/balance/{id} shows in full.
 */
import { z } from 'zod';
import { pence } from '../schema.js';
import { sterling } from '../money.js';
import type { Position } from './loan-position.js';

export const adviceFields = {
  balancePence: pence().describe("the director's balance after the movement, on its date or today if later (positive: owed to the company)"),
  warningLevel: z.enum(['green', 'amber', 'red']),
  warnings: z.array(z.string()).describe('each reason for the warning level, in words; empty when green'),
};

export interface Advice {
  readonly balancePence: number;
  readonly warningLevel: Position['warningLevel'];
  readonly warnings: string[];
}

export function adviceOf(position: Position): Advice {
  const { fullName, s455, bik } = position;
  const warnings: string[] = [];
  for (const p of s455.periods) {
    const lent = `${sterling(p.outstandingPence)} lent to ${fullName} in the year to ${p.periodEnd}`;
    if (p.status === 'due')
      warnings.push(`S455 tax of ${sterling(p.exposurePence)} is due: ${lent} was still owed on ${p.deadline}, nine months and a day after the year end`);
    if (p.status === 'at_risk') {
      warnings.push(`S455 tax of ${sterling(p.exposurePence)} (${s455.rate}% of ${lent}) is due unless it is repaid before ${p.deadline}`);
    }
  }
  if (s455.bedAndBreakfasting) {
    warnings.push(
      'a repayment of £5,000.00 or more was borrowed back within 30 days (bed and breakfasting, CTA 2010 s464C): it is matched to the new borrowing and does not relieve S455',
    );
  }
  if (bik.applicable) {
    const owed = `over ${sterling(bik.threshold)} was owed in the tax year ${bik.taxYear}: a beneficial loan`;
    warnings.push(
      bik.benefitPence > 0
        ? `${owed}, a benefit in kind of ${sterling(bik.benefitPence)} at the official rate of ${bik.officialRate}% on ${fullName}'s P11D unless interest at that rate is paid`
        : `${owed}, with no benefit in kind on the balances so far`,
    );
  }
  return { balancePence: position.balancePence, warningLevel: position.warningLevel, warnings: [...warnings, ...position.warnings] };
}
