/** What acct post prints: the transaction it recorded, in one line. */
import type { z } from 'zod';
import { displayPounds } from '../engine/money.js';
import type { transactionSchema } from '../engine/ledger/transaction-view.js';

export type Posted = Pick<z.output<typeof transactionSchema>, 'id' | 'status' | 'date' | 'reference' | 'description' | 'totalDebit' | 'lines'>;

/**
 * A posting in one line, as git and hledger echo what they did: its id
 * (to act on it), date, reference in brackets as hledger prints a code,
 * description, the amount (its debits, which equal its credits) and how
 * many lines. "Posted txn_… 2026-11-01 (REF) Chairs: 144.00 (3 lines)".
 */
export function postedLine(t: Posted): string {
  const what = t.status === 'draft' ? 'Saved draft' : 'Posted';
  const reference = t.reference === null ? '' : ` (${t.reference})`;
  const lines = `${t.lines.length} line${t.lines.length === 1 ? '' : 's'}`;
  return `${what} ${t.id} ${t.date}${reference} ${t.description}: ${displayPounds(t.totalDebit)} (${lines})`;
}
