/**
 * The balance proof of a statement with a balance column: read in date
 * order, each stated balance must be the one before it plus the row's
 * amount. Files listed newest first are read from the bottom up.
 */
import type { BalanceBreak, BalanceProof, RowOrder, StatementRow } from './types.js';

export const noBalanceProof: BalanceProof = {
  basis: 'NONE',
  openingBalance: null,
  closingBalance: null,
  delta: 0,
  status: 'NONE',
  stepwisePass: null,
  firstBreak: null,
};

type Sign = 1 | -1;

/**
 * How many consecutive pairs of rows, read top down, satisfy balance = previous balance + sign × amount
 * (`oldestFirst`), or read bottom up (the file newest first).
 */
export function balanceSteps(
  rows: readonly { readonly amount: number | null; readonly balance: number | null }[],
  sign: Sign,
): { readonly oldestFirst: number; readonly newestFirst: number } {
  let oldestFirst = 0;
  let newestFirst = 0;
  for (let i = 1; i < rows.length; i++) {
    const [prev, row] = [rows[i - 1]!, rows[i]!];
    if (prev.balance === null || row.balance === null) continue;
    if (row.amount !== null && row.balance === prev.balance + sign * row.amount) oldestFirst++;
    if (prev.amount !== null && prev.balance === row.balance + sign * prev.amount) newestFirst++;
  }
  return { oldestFirst, newestFirst };
}

/** Oldest first unless the dates (or, when the first and last rows share a date, the balances) say otherwise. */
export function rowOrderOf(rows: readonly StatementRow[]): RowOrder {
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return 'OLDEST_FIRST';
  if (first.date !== last.date) return first.date < last.date ? 'OLDEST_FIRST' : 'NEWEST_FIRST';
  const steps = balanceSteps(rows, 1);
  return steps.newestFirst > steps.oldestFirst ? 'NEWEST_FIRST' : 'OLDEST_FIRST';
}

/**
 * Opening balance: the first stated balance (in date order) less its row's
 * amount. A row without a balance carries the running balance on; after a
 * break the check starts again from the stated balance, so that each break
 * is found where it is and `delta` sums them.
 */
export function proveRunningBalance(rows: readonly StatementRow[], order: RowOrder): BalanceProof {
  const dated = order === 'NEWEST_FIRST' ? [...rows].reverse() : rows;
  const firstStated = dated.findIndex((r) => r.balance !== null);
  if (firstStated < 0) return noBalanceProof;
  const before = dated.slice(0, firstStated + 1).reduce((sum, r) => sum + r.amount, 0);
  const openingBalance = dated[firstStated]!.balance! - before;
  let running = openingBalance;
  let total = 0;
  let firstBreak: BalanceBreak | null = null;
  for (const row of dated) {
    running += row.amount;
    total += row.amount;
    if (row.balance === null) continue;
    if (row.balance !== running) firstBreak ??= { rowIndex: row.rowIndex, expected: running, found: row.balance };
    running = row.balance;
  }
  const closingBalance = running;
  const delta = closingBalance - (openingBalance + total);
  const stepwisePass = firstBreak === null;
  return {
    basis: 'RUNNING_BALANCE',
    openingBalance,
    closingBalance,
    delta,
    status: delta === 0 && stepwisePass ? 'PASS' : 'FAIL',
    stepwisePass,
    firstBreak,
  };
}

/** An OFX statement states only its closing (ledger) balance: the opening balance follows from it, and nothing inside the file can contradict it. */
export function ledgerBalanceProof(rows: readonly StatementRow[], ledgerBalance: number): BalanceProof {
  const total = rows.reduce((sum, r) => sum + r.amount, 0);
  return { ...noBalanceProof, basis: 'LEDGER_BALANCE', openingBalance: ledgerBalance - total, closingBalance: ledgerBalance };
}
