/**
 * The API's view of invoices and bills: the summary a list shows, and the
 * full record (contact, lines, payments, credit allocated) that get,
 * create, update, void and the invoice events carry. The two kinds share
 * every field but their number, their issued time and their statuses.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { pence } from '../schema.js';
import { day, idOut, instant } from '../output.js';
import { itemSchema, itemView, loadItemsOf } from './items.js';
import { amountDue, billStatuses, invoiceStatuses, statusIn, type Kind } from './documents.js';
import { paymentSchema, paymentView } from './payment-view.js';
import { precompiled } from '../../store/precompiled.js';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

// What both kinds show, around the field each names its own way (sentAt, approvedAt), in the order the API has always sent.
const sharedFields = {
  contactId: idOut('cont'),
  contactName: z.string(),
  currency: z.string().describe('ISO 4217; always the currency the books are kept in'),
  subtotal: pence().describe("the sum of the lines' net amounts"),
  vatAmount: pence(),
  total: pence(),
  amountPaid: pence(),
  amountCredited: pence().describe("credit notes' credit allocated to it"),
  amountDue: pence().describe('total less amountPaid and amountCredited; 0 once paid or void'),
  issueDate: day(),
  dueDate: day(),
  paidDate: day().nullable(),
  notes: z.string().nullable(),
  reference: z.string().nullable(),
};

const sharedTail = {
  voidedAt: instant().nullable(),
  quoteId: z.string().nullable().describe('the quote it was converted from'),
  transactionId: idOut('txn').nullable().describe('its ledger entry: a draft until issued, none once void'),
  createdAt: instant(),
  updatedAt: instant(),
};

export const invoiceSummarySchema = z.strictObject({
  id: idOut('inv'),
  invoiceNumber: z.string().describe("from the organisation's invoice prefix and next number"),
  status: z.enum(invoiceStatuses),
  ...sharedFields,
  sentAt: instant().nullable(),
  ...sharedTail,
});

export const billSummarySchema = z.strictObject({
  id: idOut('bill'),
  billNumber: z.string().nullable().describe("the supplier's invoice number"),
  status: z.enum(billStatuses),
  ...sharedFields,
  approvedAt: instant().nullable(),
  ...sharedTail,
});

const creditSchema = z.strictObject({
  allocationId: idOut('alloc'),
  creditNoteId: z.string(),
  creditNoteNumber: z.string().nullable(),
  amount: pence(),
  date: day(),
});

const details = {
  contact: z.strictObject({ id: idOut('cont'), name: z.string(), email: z.string().nullable() }),
  items: z.array(itemSchema),
  payments: z.array(paymentSchema),
  credits: z.array(creditSchema).describe('credit allocated from credit notes'),
};

export const invoiceSchema = invoiceSummarySchema.extend(details);
export const billSchema = billSummarySchema.extend(details);

export type InvoiceSummary = z.output<typeof invoiceSummarySchema>;
export type BillSummary = z.output<typeof billSummarySchema>;
export type Invoice = z.output<typeof invoiceSchema>;
export type Bill = z.output<typeof billSchema>;

/** sharedFields of a row. */
function sharedOf(row: InvoicesTable, contactName: string) {
  return {
    contactId: row.contact_id,
    contactName,
    currency: row.currency,
    subtotal: row.subtotal,
    vatAmount: row.vat_amount,
    total: row.total,
    amountPaid: row.amount_paid,
    amountCredited: row.amount_credited,
    amountDue: amountDue(row),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    paidDate: row.paid_date,
    notes: row.notes,
    reference: row.reference,
  };
}

/** sharedTail of a row. */
function tailOf(row: InvoicesTable) {
  return {
    voidedAt: row.voided_at,
    quoteId: row.quote_id,
    transactionId: row.transaction_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** An invoice in a list: everything but lines and payments. */
export const invoiceSummary = (row: InvoicesTable, contactName: string): InvoiceSummary => ({
  id: row.id,
  // Every invoice is numbered when it is created; the id stands in only for the column's type, shared with bills.
  invoiceNumber: row.number ?? row.id,
  status: statusIn(invoiceStatuses, row),
  ...sharedOf(row, contactName),
  sentAt: row.sent_at,
  ...tailOf(row),
});

/** A bill in a list: everything but lines and payments. */
export const billSummary = (row: InvoicesTable, contactName: string): BillSummary => ({
  id: row.id,
  billNumber: row.number,
  status: statusIn(billStatuses, row),
  ...sharedOf(row, contactName),
  approvedAt: row.sent_at,
  ...tailOf(row),
});

const contactOf = precompiled((db: Kysely<OrgDb>, id: string) => db.selectFrom('contacts').select(['id', 'name', 'email']).where('id', '=', id));
const paymentsOf = precompiled((db: Kysely<OrgDb>, invoiceId: string) =>
  db.selectFrom('payments').selectAll().where('invoice_id', '=', invoiceId).orderBy('date').orderBy('created_at'),
);
const creditsOf = precompiled((db: Kysely<OrgDb>, invoiceId: string) =>
  db
    .selectFrom('credit_allocations')
    .innerJoin('credit_notes', 'credit_notes.id', 'credit_allocations.credit_note_id')
    .select(['credit_allocations.id', 'credit_allocations.credit_note_id', 'credit_notes.number', 'credit_allocations.amount', 'credit_allocations.date'])
    .where('credit_allocations.invoice_id', '=', invoiceId)
    .orderBy('credit_allocations.date')
    .orderBy('credit_allocations.created_at'),
);

/** What the full view adds to the summary: contact, lines, payments and credit allocated. */
async function detailsOf(db: Kysely<OrgDb>, row: InvoicesTable) {
  const [contact, items, payments, credits] = await Promise.all([
    contactOf.first(db, row.contact_id),
    loadItemsOf(db, row.id),
    paymentsOf.all(db, row.id),
    creditsOf.all(db, row.id),
  ]);
  const name = contact?.name ?? '';
  return {
    name,
    details: {
      contact: { id: row.contact_id, name, email: contact?.email ?? null },
      items: items.map(itemView),
      payments: payments.map(paymentView),
      credits: credits.map((c) => ({ allocationId: c.id, creditNoteId: c.credit_note_id, creditNoteNumber: c.number, amount: c.amount, date: c.date })),
    },
  };
}

/** The full view of an invoice. */
export async function invoiceView(db: Kysely<OrgDb>, row: InvoicesTable): Promise<Invoice> {
  const { name, details } = await detailsOf(db, row);
  return { ...invoiceSummary(row, name), ...details };
}

/** The full view of a bill. */
export async function billView(db: Kysely<OrgDb>, row: InvoicesTable): Promise<Bill> {
  const { name, details } = await detailsOf(db, row);
  return { ...billSummary(row, name), ...details };
}

/** The full view of either kind, for code that serves both. */
export const documentView = (db: Kysely<OrgDb>, k: Kind, row: InvoicesTable): Promise<Invoice | Bill> =>
  k.kind === 'sales' ? invoiceView(db, row) : billView(db, row);
