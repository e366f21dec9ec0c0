/**
 * What credit notes look like from outside: their records (the list's
 * summary and the full view with lines, allocations and refunds), with
 * their schemas, and the filtered list. A sales credit note names the
 * invoice it credits (invoiceId, invoiceNumber), a supplier's the bill
 * (billId, billNumber): the fields are named after `CreditKind.credits`.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { pence } from '../schema.js';
import { day, idOut, instant } from '../output.js';
import { listPage, numberLength, type Page, type Sort } from '../pagination.js';
import { itemSchema, itemView, loadItems } from './items.js';
import { paymentMethods } from './payments.js';
import { billStatuses, invoiceStatuses } from './documents.js';
import { remainingCredit } from './credit-notes.js';
import type { CreditKind, Credited } from './credit-kinds.js';
import type { CreditNotesTable, InvoiceStatus, OrgDb, RefundsTable } from '../../store/tables.js';

export const creditNoteStatuses = ['issued', 'void'] as const;

/** `{ invoice<Suffix>: value }` or `{ bill<Suffix>: value }`: a field named after what a credit note credits. */
export function creditedField<D extends Credited, S extends string, T>(credits: D, suffix: S, value: T): Record<`${D}${S}`, T> {
  return { [`${credits}${suffix}`]: value } as Record<`${D}${S}`, T>;
}

/**
 * A schema typed as the record `T` its view builds. Where the field names
 * depend on the kind, zod cannot infer them for both kinds at once; schema
 * and type are built from the same parts, side by side, and the contract
 * check of the tests compares every reply with the schema.
 */
export const typedAs = <T>(schema: z.ZodType): z.ZodType<T, T> => schema as z.ZodType<T, T>;

/** The status of the credited document: an invoice's or a bill's. */
const documentStatusOf = (ck: CreditKind) => z.enum(ck.credits === 'invoice' ? invoiceStatuses : billStatuses);

/** The fields naming the credited document. */
const documentShape = (ck: CreditKind) => ({
  ...creditedField(ck.credits, 'Id', idOut(ck.doc.idPrefix)),
  ...creditedField(ck.credits, 'Number', z.string().nullable()),
});

const summaryShape = {
  creditNoteNumber: z.string().nullable().describe("a sales credit note's number from the organisation's prefix; a supplier's, its own number if given"),
  status: z.enum(creditNoteStatuses),
  contactId: idOut('cont'),
  contactName: z.string(),
  currency: z.string(),
  date: day(),
  reason: z.string().nullable(),
  reference: z.string().nullable(),
  subtotal: pence(),
  vatAmount: pence(),
  total: pence(),
  allocated: pence().describe('credit applied to documents of the contact'),
  refunded: pence(),
  remainingCredit: pence().describe('total − allocated − refunded; 0 once void'),
  transactionId: idOut('txn').nullable().describe('its ledger entry; null once void'),
  voidedAt: instant().nullable(),
  createdAt: instant(),
  updatedAt: instant(),
};

type DocumentRef<D extends Credited> = Record<`${D}Id`, string> & Record<`${D}Number`, string | null>;
export type CreditNoteSummary<D extends Credited> = { id: string } & z.output<z.ZodObject<typeof summaryShape>> & DocumentRef<D>;

export const creditNoteSummarySchema = <D extends Credited>(ck: CreditKind<D>) =>
  typedAs<CreditNoteSummary<D>>(z.strictObject({ id: idOut(ck.idPrefix), ...documentShape(ck), ...summaryShape }));

/** The list view: everything but lines, allocations and refunds. */
export function creditNoteSummary<D extends Credited>(
  ck: CreditKind<D>,
  row: CreditNotesTable,
  names: { contactName: string; documentNumber: string | null },
): CreditNoteSummary<D> {
  return {
    id: row.id,
    creditNoteNumber: row.number,
    status: row.status,
    ...creditedField(ck.credits, 'Id', row.invoice_id),
    ...creditedField(ck.credits, 'Number', names.documentNumber),
    contactId: row.contact_id,
    contactName: names.contactName,
    currency: row.currency,
    date: row.date,
    reason: row.reason,
    reference: row.reference,
    subtotal: row.subtotal,
    vatAmount: row.vat_amount,
    total: row.total,
    allocated: row.allocated,
    refunded: row.refunded,
    remainingCredit: remainingCredit(row),
    transactionId: row.transaction_id,
    voidedAt: row.voided_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const refundSchema = z.strictObject({
  id: idOut('rfd'),
  creditNoteId: z.string().describe('the credit note (cn_) or supplier credit note (scn_) refunded'),
  amount: pence(),
  date: day(),
  method: z.enum(paymentMethods),
  reference: z.string().nullable(),
  accountId: idOut('acc').describe('the bank account'),
  transactionId: idOut('txn'),
  createdAt: instant(),
});
export type Refund = z.output<typeof refundSchema>;

export function refundView(r: RefundsTable): Refund {
  return {
    id: r.id,
    creditNoteId: r.credit_note_id,
    amount: r.amount,
    date: r.date,
    method: r.method,
    reference: r.reference,
    accountId: r.account_id,
    transactionId: r.transaction_id,
    createdAt: r.created_at,
  };
}

const creditLineSchema = itemSchema.extend({ sourceLineId: idOut('line').nullable().describe('the line of the invoice or bill it credits') });
const allocationShape = { id: idOut('alloc'), amount: pence(), date: day(), createdAt: instant() };

type Allocation<D extends Credited> = z.output<z.ZodObject<typeof allocationShape>> & DocumentRef<D>;
export type CreditNoteView<D extends Credited> = CreditNoteSummary<D> & {
  items: z.output<typeof creditLineSchema>[];
  allocations: Allocation<D>[];
  refunds: Refund[];
};

const creditNoteShape = (ck: CreditKind) => ({
  id: idOut(ck.idPrefix),
  ...documentShape(ck),
  ...summaryShape,
  items: z.array(creditLineSchema),
  allocations: z.array(z.strictObject({ ...allocationShape, ...documentShape(ck) })).describe('its credit applied to documents, the first one included'),
  refunds: z.array(refundSchema),
});

export const creditNoteSchema = <D extends Credited>(ck: CreditKind<D>) => typedAs<CreditNoteView<D>>(z.strictObject(creditNoteShape(ck)));

/** The full view: lines, allocations and refunds. */
export async function creditNoteView<D extends Credited>(db: Kysely<OrgDb>, ck: CreditKind<D>, row: CreditNotesTable): Promise<CreditNoteView<D>> {
  const [contact, document, items, allocations, refunds] = await Promise.all([
    db.selectFrom('contacts').select('name').where('id', '=', row.contact_id).executeTakeFirst(),
    db.selectFrom('invoices').select('number').where('id', '=', row.invoice_id).executeTakeFirst(),
    loadItems(db, [row.id]),
    db
      .selectFrom('credit_allocations')
      .innerJoin('invoices', 'invoices.id', 'credit_allocations.invoice_id')
      .select([
        'credit_allocations.id',
        'credit_allocations.invoice_id',
        'invoices.number',
        'credit_allocations.amount',
        'credit_allocations.date',
        'credit_allocations.created_at',
      ])
      .where('credit_allocations.credit_note_id', '=', row.id)
      .orderBy('credit_allocations.date')
      .orderBy('credit_allocations.created_at')
      .execute(),
    db.selectFrom('refunds').selectAll().where('credit_note_id', '=', row.id).orderBy('date').orderBy('created_at').execute(),
  ]);
  return {
    ...creditNoteSummary(ck, row, { contactName: contact?.name ?? '', documentNumber: document?.number ?? null }),
    items: (items.get(row.id) ?? []).map((i) => ({ ...itemView(i), sourceLineId: i.source_item_id })),
    allocations: allocations.map((a) => ({
      id: a.id,
      ...creditedField(ck.credits, 'Id', a.invoice_id),
      ...creditedField(ck.credits, 'Number', a.number),
      amount: a.amount,
      date: a.date,
      createdAt: a.created_at,
    })),
    refunds: refunds.map(refundView),
  };
}

/** Where a credited document stands after a change: its status and what it still owes. */
export type DocumentStanding<D extends Credited> = Record<`${D}Status`, InvoiceStatus> & Record<`${D}AmountDue`, number>;

export const documentStandingShape = (ck: CreditKind) => ({
  ...creditedField(ck.credits, 'Status', documentStatusOf(ck)),
  ...creditedField(ck.credits, 'AmountDue', pence().describe('what it still owes after the change')),
});

/** A new credit note and where the document it credits stands. */
export const createdCreditNoteSchema = <D extends Credited>(ck: CreditKind<D>) =>
  typedAs<CreditNoteView<D> & DocumentStanding<D>>(z.strictObject({ ...creditNoteShape(ck), ...documentStandingShape(ck) }));

export interface CreditNoteFilter {
  readonly status?: (typeof creditNoteStatuses)[number] | undefined;
  readonly contactId?: string | undefined;
  readonly documentId?: string | undefined;
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
  readonly sort: Sort<'createdAt' | 'date' | 'total' | 'creditNoteNumber'>;
  readonly page: number;
  readonly limit: number;
}

const sortColumn = {
  createdAt: 'credit_notes.created_at',
  date: 'credit_notes.date',
  total: 'credit_notes.total',
  creditNoteNumber: 'credit_notes.number',
} as const;

/** A page of a kind's credit notes, filtered, in the order asked for. */
export async function listCreditNotes<D extends Credited>(db: Kysely<OrgDb>, ck: CreditKind<D>, filter: CreditNoteFilter): Promise<Page<CreditNoteSummary<D>>> {
  let q = db
    .selectFrom('credit_notes')
    .innerJoin('contacts', 'contacts.id', 'credit_notes.contact_id')
    .innerJoin('invoices', 'invoices.id', 'credit_notes.invoice_id')
    .where('credit_notes.kind', '=', ck.doc.kind);
  if (filter.status) q = q.where('credit_notes.status', '=', filter.status);
  if (filter.contactId) q = q.where('credit_notes.contact_id', '=', filter.contactId);
  if (filter.documentId) q = q.where('credit_notes.invoice_id', '=', filter.documentId);
  if (filter.fromDate) q = q.where('credit_notes.date', '>=', filter.fromDate);
  if (filter.toDate) q = q.where('credit_notes.date', '<=', filter.toDate);
  const { field, direction } = filter.sort;
  const { rows, meta } = await listPage(
    q,
    (all) => {
      const rows = all.selectAll('credit_notes').select(['contacts.name as contact_name', 'invoices.number as document_number']);
      return (field === 'creditNoteNumber' ? rows.orderBy(numberLength(sortColumn[field]), direction) : rows)
        .orderBy(sortColumn[field], direction)
        .orderBy('credit_notes.id', direction);
    },
    filter,
  );
  return { rows: rows.map((r) => creditNoteSummary(ck, r, { contactName: r.contact_name, documentNumber: r.document_number })), meta };
}
