/**
 * The overdue sweep: issued invoices and bills whose due date has passed
 * (due before today, in the UK) become overdue, each once; an invoice
 * raises invoice.overdue. `acct serve` runs it at start and every
 * --sweep-interval seconds over every organisation; `acct invoices sweep`
 * (invoice-ops.ts) runs it for cron users.
 */
import type { Kysely } from 'kysely';
import { emit } from '../events.js';
import { timestamp, today, type Clock } from '../clock.js';
import type { Posting } from '../ledger/posting.js';
import { purchaseBill, salesInvoice, type Kind } from './documents.js';
import { invoiceView } from './document-view.js';
import type { DbHandle, Store } from '../../store/store.js';
import { modes } from '../../store/data-dir.js';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

export interface Swept {
  /** Numbers of the invoices that became overdue. */
  readonly invoices: string[];
  /** Ids of the bills that became overdue. */
  readonly bills: string[];
}

/**
 * Move issued documents whose due date has passed (before today) to
 * overdue; the rows moved, each once.
 */
export async function markOverdue(trx: Kysely<OrgDb>, k: Kind, posting: Posting, onlyId?: string): Promise<InvoicesTable[]> {
  let q = trx.selectFrom('invoices');
  if (onlyId !== undefined) q = q.where('id', '=', onlyId);
  const rows = await q
    .selectAll()
    .where('kind', '=', k.kind)
    .where('status', '=', k.issued)
    .where('due_date', '<', today(posting.clock))
    .orderBy('due_date')
    .orderBy('id')
    .execute();
  if (rows.length === 0) return [];
  const now = timestamp(posting.clock);
  await trx
    .updateTable('invoices')
    .set({ status: 'overdue', updated_at: now })
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.map((r) => ({ ...r, status: 'overdue', updated_at: now }));
}

/** Sweep every overdue invoice and bill, or only the invoice named. */
export async function sweepOverdue(trx: Kysely<OrgDb>, posting: Posting, onlyInvoiceId?: string): Promise<Swept> {
  const invoices = await markOverdue(trx, salesInvoice, posting, onlyInvoiceId);
  for (const row of invoices) await emit(trx, posting.clock, 'invoice.overdue', await invoiceView(trx, row));
  if (onlyInvoiceId !== undefined) return { invoices: invoices.map((r) => r.number ?? r.id), bills: [] };
  const bills = await markOverdue(trx, purchaseBill, posting);
  return { invoices: invoices.map((r) => r.number ?? r.id), bills: bills.map((r) => r.id) };
}

/** The sweep over one organisation's books, by the service itself. */
export function sweepBooks(books: DbHandle<OrgDb>, clock: Clock): Promise<Swept> {
  return books.write((trx) => sweepOverdue(trx, { clock, actor: { id: 'system', name: 'overdue sweep' } }));
}

/**
 * The sweep over every organisation's live and test books, as `acct serve`
 * runs it; a failure in one set of books is reported and the rest go on.
 */
export async function sweepEverything(store: Store, clock: Clock, report: (message: string) => void): Promise<number> {
  const organisations = await store.platform.db.selectFrom('organisations').select('id').orderBy('id').execute();
  let moved = 0;
  for (const { id } of organisations) {
    for (const mode of modes) {
      try {
        const swept = await sweepBooks(store.org(id, mode), clock);
        moved += swept.invoices.length + swept.bills.length;
      } catch (e) {
        report(`overdue sweep of ${id} (${mode}) failed: ${(e as Error).message}`);
      }
    }
  }
  return moved;
}
