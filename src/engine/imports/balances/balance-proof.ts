/**
 * Whether an opening trial balance balances. A difference of a few pence is
 * the rounding of the source's reports and is put right by one line to the
 * rounding account; anything larger is the user's to fix (the Retained
 * Earnings row must be supplied), never balanced automatically.
 */

/** Pence: £0.05. */
export const roundingTolerance = 5;

/** The account the rounding line goes to (created on demand: the provisioned chart has none). */
export const roundingAccountCode = '7999';

export interface BalanceProof {
  readonly balanced: boolean;
  /** The lines as supplied, without the rounding line. */
  readonly totalDebit: number;
  readonly totalCredit: number;
  /** totalDebit − totalCredit, pence. */
  readonly delta: number;
  readonly roundingInjected: boolean;
  /** The rounding line: a debit when positive, a credit when negative, 0 when none. */
  readonly roundingAmount: number;
}

export function balanceProof(lines: readonly { readonly debit: number; readonly credit: number }[]): BalanceProof {
  let totalDebit = 0;
  let totalCredit = 0;
  for (const line of lines) {
    totalDebit += line.debit;
    totalCredit += line.credit;
  }
  const delta = totalDebit - totalCredit;
  const rounds = delta !== 0 && Math.abs(delta) <= roundingTolerance;
  return { balanced: delta === 0 || rounds, totalDebit, totalCredit, delta, roundingInjected: rounds, roundingAmount: rounds ? -delta : 0 };
}

/** The rounding line a proof calls for, or null. */
export function roundingLine(proof: BalanceProof): { readonly code: string; readonly debit: number; readonly credit: number } | null {
  if (!proof.roundingInjected) return null;
  return { code: roundingAccountCode, debit: Math.max(proof.roundingAmount, 0), credit: Math.max(-proof.roundingAmount, 0) };
}
