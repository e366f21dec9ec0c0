/**
 * A signed balance as accountants print it: the amount without its sign,
 * and the side it stands on, Dr or Cr. The ledger keeps a balance as
 * debit − credit, so a credit balance is negative inside and 1,234.56 Cr on
 * paper; a nil balance is on neither side.
 */
import { displayPounds } from '../engine/money.js';

export type Side = 'Dr' | 'Cr' | '';

export interface SidedBalance {
  /** Pence, never negative. */
  readonly amount: number;
  readonly side: Side;
}

/** A debit − credit balance in pence as an amount and its side: 12345 → 12345 Dr, -500 → 500 Cr, 0 → 0 and no side. */
export function drCr(pence: number): SidedBalance {
  if (pence === 0) return { amount: 0, side: '' };
  return pence > 0 ? { amount: pence, side: 'Dr' } : { amount: -pence, side: 'Cr' };
}

/** A debit − credit balance as one cell: 123456 → "1,234.56 Dr", -500 → "5.00 Cr", 0 → "0.00". */
export function formatBalance(pence: number): string {
  const { amount, side } = drCr(pence);
  return side === '' ? displayPounds(amount) : `${displayPounds(amount)} ${side}`;
}

/**
 * A balance kept on an account's natural side (credit − debit for a
 * liability, equity or revenue account; debit − credit for the others) as
 * debit − credit, so that drCr shows its side: a contra balance, such as
 * VAT reclaimable within liabilities, then prints Dr.
 */
export function debitMinusCredit(natural: number, creditNatural: boolean): number {
  return creditNatural ? -natural : natural;
}
