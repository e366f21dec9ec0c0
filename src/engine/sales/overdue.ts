/**
 * The overdue sweep: issued invoices and bills whose due date has passed
 * (due before today, in the UK) become overdue, each once; an invoice
 * raises invoice.overdue. `acct serve` runs it (OverdueSweeper) over every
 * organisation at start and each new day, and every --sweep-interval
 * seconds over the books issued into since; `acct invoices sweep`
 * (invoice-ops.ts) runs it for cron users; and a list or get of invoices
 * or bills runs it first over what it reads, so that it answers by today's
 * date with no server running.
 */
import type { Kysely } from 'kysely';
import { emit } from '../events.js';
import { timestamp, today, type Clock } from '../clock.js';
import type { Posting } from '../ledger/posting.js';
import { findDocument, purchaseBill, salesInvoice, type Kind } from './documents.js';
import { invoiceView } from './document-view.js';
import type { BooksRef, ChangeReader, DbHandle, Store } from '../../store/store.js';
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

/** Move the documents of a kind past their due date (or the one named) to overdue; an invoice raises invoice.overdue. */
async function sweepKind(trx: Kysely<OrgDb>, k: Kind, posting: Posting, onlyId?: string): Promise<InvoicesTable[]> {
  const rows = await markOverdue(trx, k, posting, onlyId);
  if (k.kind === 'sales') for (const row of rows) await emit(trx, posting.clock, 'invoice.overdue', await invoiceView(trx, row));
  return rows;
}

/** Sweep every overdue invoice and bill, or only the invoice named. */
export async function sweepOverdue(trx: Kysely<OrgDb>, posting: Posting, onlyInvoiceId?: string): Promise<Swept> {
  const invoices = await sweepKind(trx, salesInvoice, posting, onlyInvoiceId);
  if (onlyInvoiceId !== undefined) return { invoices: invoices.map((r) => r.number ?? r.id), bills: [] };
  const bills = await sweepKind(trx, purchaseBill, posting);
  return { invoices: invoices.map((r) => r.number ?? r.id), bills: bills.map((r) => r.id) };
}

const sweeper = (clock: Clock): Posting => ({ clock, actor: { id: 'system', name: 'overdue sweep' } });

/** The sweep over one organisation's books, by the service itself. */
export function sweepBooks(books: DbHandle<OrgDb>, clock: Clock): Promise<Swept> {
  return books.write((trx) => sweepOverdue(trx, sweeper(clock)));
}

/**
 * The sweep before a list of invoices or bills, so that the list answers
 * by today's date where no acct serve has swept yet (the CLI alone, or a
 * due date passed since the server's last sweep): the kind's documents
 * past their due date move, with their events, in a write taken only when
 * one is due to move.
 */
export async function sweepBeforeList(books: DbHandle<OrgDb>, clock: Clock, k: Kind): Promise<void> {
  const due = await books.db
    .selectFrom('invoices')
    .select('id')
    .where('status', '=', k.issued)
    .where('due_date', '<', today(clock))
    .where('kind', '=', k.kind)
    .limit(1)
    .executeTakeFirst();
  if (due) await books.write((trx) => sweepKind(trx, k, sweeper(clock)));
}

/** The document read, moved to overdue first when it is past its due date and no sweep has moved it yet (as sweepBeforeList). */
export async function sweptBeforeGet(books: DbHandle<OrgDb>, clock: Clock, k: Kind, row: InvoicesTable): Promise<InvoicesTable> {
  if (row.status !== k.issued || row.due_date >= today(clock)) return row;
  const [moved] = await books.write((trx) => sweepKind(trx, k, sweeper(clock), row.id));
  // Nothing moved: another writer changed it since it was read.
  return moved ?? findDocument(books.db, k, row.id);
}

/**
 * The document a write left (sent, approved, paid or credited in part, a
 * payment or allocation taken back) as a GET straight after would show it:
 * overdue when it is issued and past its due date. The next read or sweep
 * moves it there, with its invoice.overdue (sweptBeforeGet); the reply only
 * says so, without a query.
 */
export function asRead<R extends InvoicesTable>(k: Kind, clock: Clock, row: R): R {
  return row.status === k.issued && row.due_date < today(clock) ? { ...row, status: 'overdue' } : row;
}

export interface SweeperOptions {
  readonly clock: Clock;
  /** Milliseconds between sweeps after the first (0: only the one at start). */
  readonly intervalMs: number;
  /** Where a failure is reported; the sweep goes on with the other books. */
  readonly report: (message: string) => void;
}

/**
 * The overdue sweep as `acct serve` runs it. Every organisation's live and
 * test books are swept at start and again on the first sweep of each new
 * UK day (a due date passes only at midnight); the sweeps in between, every
 * intervalMs, open only the books in which an invoice or bill was issued
 * since (announced by the store's triggers) or which another process wrote
 * (the CLI beside the server), so that an idle server opens nothing.
 */
export class OverdueSweeper {
  readonly #store: Store;
  readonly #options: SweeperOptions;
  readonly #reader: ChangeReader;
  readonly #unsubscribe: () => void;
  /** Books with a document issued since their last sweep. */
  #issued = new Map<string, BooksRef>();
  /** The UK date of the last sweep of everything. */
  #day = '';
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<unknown> = Promise.resolve();
  #stopped = false;

  constructor(store: Store, options: SweeperOptions) {
    this.#store = store;
    this.#options = options;
    this.#reader = store.changeReader();
    this.#unsubscribe = store.onWork('issued', (orgId, mode) => this.#issued.set(`${orgId}/${mode}`, { orgId, mode }));
  }

  /**
   * Sweep every set of books now, then every interval; `each` is given each
   * set of books after its sweep, while its file is open. Resolves with how
   * many documents became overdue.
   */
  async start(each?: (books: BooksRef) => Promise<void>): Promise<number> {
    const sweeping = this.#everything(each);
    this.#sweeping = sweeping;
    const moved = await sweeping;
    this.#arm();
    return moved;
  }

  /** Stop; resolves once a sweep in flight has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    clearTimeout(this.#timer);
    await this.#sweeping;
  }

  #arm(): void {
    if (this.#stopped || this.#options.intervalMs <= 0) return;
    this.#timer = setTimeout(() => {
      this.#sweeping = this.#next()
        .catch((e: unknown) => this.#options.report(`overdue sweep failed: ${String(e)}`))
        .finally(() => this.#arm());
    }, this.#options.intervalMs);
  }

  /** Everything on a new day, else only the books issued into or written elsewhere since the last sweep. */
  async #next(): Promise<number> {
    if (today(this.#options.clock) !== this.#day) return this.#everything();
    const due = this.#issued;
    this.#issued = new Map();
    for (const books of await this.#store.changedElsewhere(this.#reader)) due.set(`${books.orgId}/${books.mode}`, books);
    let moved = 0;
    for (const books of due.values()) {
      if (this.#stopped) break;
      moved += await this.#sweep(books);
    }
    return moved;
  }

  async #everything(each?: (books: BooksRef) => Promise<void>): Promise<number> {
    this.#day = today(this.#options.clock);
    // Everything is swept: what was announced or written elsewhere before now is covered (later writes are announced again).
    this.#issued = new Map();
    await this.#store.changedElsewhere(this.#reader);
    const organisations = await this.#store.platform.db.selectFrom('organisations').select('id').orderBy('id').execute();
    let moved = 0;
    for (const { id } of organisations) {
      for (const mode of modes) {
        if (this.#stopped) return moved;
        const books = { orgId: id, mode };
        moved += await this.#sweep(books);
        await each?.(books);
      }
    }
    return moved;
  }

  /** Sweep one set of books; a failure is reported, not thrown. */
  async #sweep(books: BooksRef): Promise<number> {
    try {
      const swept = await sweepBooks(this.#store.org(books.orgId, books.mode), this.#options.clock);
      return swept.invoices.length + swept.bills.length;
    } catch (e) {
      this.#options.report(`overdue sweep of ${books.orgId} (${books.mode}) failed: ${(e as Error).message}`);
      return 0;
    }
  }
}
