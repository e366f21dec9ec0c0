/**
 * What a row's status and type cells say about it: only approved documents
 * still owed are migrated (the source's receivables and payables balances
 * leave drafts, voided and paid documents out, so importing them would
 * break the clearing proof), and only invoices in an invoice import, bills
 * in a bill import.
 */
import { headerKey } from '../../tabular/header-row.js';
import type { Direction } from './document-columns.js';

/** Statuses (compared as header keys) of documents that are not owed, with why. */
const notOwed: Readonly<Record<string, string>> = {
  draft: 'a draft',
  submitted: 'awaiting approval, not yet in the source ledger',
  awaitingapproval: 'awaiting approval, not yet in the source ledger',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  void: 'voided',
  voided: 'voided',
  deleted: 'deleted',
  paid: 'paid',
  writtenoff: 'written off',
};

/** The reason a row is ignored for its status, or null when the document is owed (Open, Overdue, Part Paid, Awaiting Payment …). */
export function statusIgnored(status: string): string | null {
  const why = notOwed[headerKey(status)];
  return why === undefined ? null : `status ${status}: ${why}; only outstanding documents are migrated`;
}

/** Why a credit note is refused, and what to do instead: its allocation in the source is not in the export. */
export const creditNotesNotImported = 'credit notes are not imported; allocate it in the source before exporting, or enter it after the migration';

const invoiceTypes = new Set(['accrec', 'salesinvoice', 'invoice']);
const billTypes = new Set(['accpay', 'bill', 'purchaseinvoice', 'supplierinvoice', 'purchasebill']);

export type TypeVerdict = { readonly kind: 'ok' } | { readonly kind: 'credit' } | { readonly kind: 'wrong'; readonly reason: string };

/** Whether a row's type (Xero's `Sales invoice`/`ACCREC`, QuickBooks' `Invoice`/`Bill` …) belongs in this import; a blank type does. */
export function typeVerdict(type: string, direction: Direction): TypeVerdict {
  const key = headerKey(type);
  if (key === '') return { kind: 'ok' };
  if (key.includes('credit')) return { kind: 'credit' };
  const [mine, theirs, wanted] = direction === 'receivables' ? [invoiceTypes, billTypes, 'sales invoices'] : [billTypes, invoiceTypes, 'bills'];
  if (mine.has(key)) return { kind: 'ok' };
  if (theirs.has(key))
    return { kind: 'wrong', reason: `type ${type} is the other side of the ledger; this import takes ${wanted} only: import it with the other direction` };
  return { kind: 'wrong', reason: `type ${type} is not an invoice or a bill; this import takes ${wanted} only` };
}
