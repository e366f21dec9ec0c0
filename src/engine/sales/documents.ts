/**
 * What sales invoices and purchase bills are: one table (by kind), the
 * draft → issued → paid / overdue / void life, the rules that differ
 * between the two kinds (`Kind`), and finding one. Their ledger entries
 * (document-entries.ts) are a system-generated transaction made as a draft
 * with the document, posted when it is issued (an invoice sent, a bill
 * approved), removed when it is voided (document-lifecycle.ts).
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { precompiled } from '../../store/precompiled.js';
import type { AccountsTable, ContactsTable, InvoiceKind, InvoicesTable, InvoiceStatus, OrgDb } from '../../store/tables.js';

export const invoiceStatuses = ['draft', 'sent', 'paid', 'overdue', 'void'] as const satisfies readonly InvoiceStatus[];
export const billStatuses = ['draft', 'approved', 'paid', 'overdue', 'void'] as const satisfies readonly InvoiceStatus[];

export interface Kind {
  readonly kind: InvoiceKind;
  readonly noun: 'invoice' | 'bill';
  readonly idPrefix: 'inv' | 'bill';
  /** The status once issued: an invoice is sent, a bill approved. */
  readonly issued: Extract<InvoiceStatus, 'sent' | 'approved'>;
  /** Accounts receivable (1100) or payable (2100). */
  readonly controlCode: string;
  /** VAT output (2200) or input (2201). */
  readonly vatCode: string;
  /** The account of a line that names none: sales 4000, cost of sales 5000. */
  readonly defaultAccountCode: string;
  /** The account types a line may post to. */
  readonly lineAccountTypes: readonly AccountsTable['account_type'][];
  /** +1: lines are debits and the control account is credited (bills); −1 the reverse (invoices). */
  readonly lineSign: 1 | -1;
  readonly contactTypes: readonly ContactsTable['contact_type'][];
  readonly sourceType: 'invoice' | 'bill';
}

export const salesInvoice: Kind = {
  kind: 'sales',
  noun: 'invoice',
  idPrefix: 'inv',
  issued: 'sent',
  controlCode: '1100',
  vatCode: '2200',
  defaultAccountCode: '4000',
  lineAccountTypes: ['revenue'],
  lineSign: -1,
  contactTypes: ['customer', 'both'],
  sourceType: 'invoice',
};

export const purchaseBill: Kind = {
  kind: 'purchase',
  noun: 'bill',
  idPrefix: 'bill',
  issued: 'approved',
  controlCode: '2100',
  vatCode: '2201',
  defaultAccountCode: '5000',
  lineAccountTypes: ['expense', 'asset'],
  lineSign: 1,
  contactTypes: ['supplier', 'both'],
  sourceType: 'bill',
};

/** The statuses in which a document is issued and unpaid: what is owed. */
export const openStatuses = (k: Kind): InvoiceStatus[] => [k.issued, 'overdue'];

const documentById = precompiled((db: Kysely<OrgDb>, id: string, kind: InvoiceKind) =>
  db.selectFrom('invoices').selectAll().where('id', '=', id).where('kind', '=', kind),
);

export async function findDocument(db: Kysely<OrgDb>, k: Kind, id: string): Promise<InvoicesTable> {
  return found(documentById.first(db, id, k.kind), k.noun, id);
}

/** A document's status as one of its kind's (an invoice is never approved, a bill never sent). */
export function statusIn<S extends InvoiceStatus>(statuses: readonly S[], row: InvoicesTable): S {
  const status = statuses.find((s) => s === row.status);
  if (status === undefined) throw new Error(`${row.id} has status ${row.status}, which its kind does not have`);
  return status;
}

/** What is still owed: the total less payments and credit allocated; nothing once paid or void. */
export const amountDue = (row: InvoicesTable): number =>
  row.status === 'paid' || row.status === 'void' ? 0 : row.total - row.amount_paid - row.amount_credited;

/** Refuse a change that only a draft allows: paid 409 already_paid, void 409 already_voided, otherwise 422. */
export function refuseUnlessDraft(k: Kind, row: InvoicesTable, what: string): void {
  if (row.status === 'draft') return;
  const name = row.number ?? row.id;
  if (row.status === 'paid') throw new AppError('already_paid', `${k.noun} ${name} is paid and cannot be ${what}`);
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is void and cannot be ${what}`);
  throw new AppError('unprocessable_entity', `${k.noun} ${name} is ${row.status}: only a draft can be ${what} (${k.noun}s are immutable once issued)`);
}

export async function accountByCode(db: Kysely<OrgDb>, code: string): Promise<AccountsTable> {
  const row = await db.selectFrom('accounts').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row)
    throw new AppError('unprocessable_entity', `the chart has no account ${code}, which ${code === '1200' ? 'payments' : 'invoices and bills'} post to`);
  return row;
}
