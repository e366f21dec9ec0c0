/**
 * Quotes: priced like invoices, numbered with the quote prefix, and never
 * in the ledger. Moves: draft → sent → accepted, rejected or expired; an
 * accepted quote converts once into a draft invoice (the quote becomes
 * converted). Only drafts can be changed or deleted. The operations are
 * declared in quote-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp, today, type Clock } from '../clock.js';
import { addDays, daysBetween } from '../dates.js';
import { pence } from '../schema.js';
import { day, idOut, instant } from '../output.js';
import { loadOrganisation, schemeOn } from '../organisation/organisation.js';
import type { Posting } from '../ledger/posting.js';
import { itemInputsOf, itemSchema, itemView, loadItems, priceItems, pricedItemSchema, saveItems, type ItemInput } from './items.js';
import { salesInvoice } from './documents.js';
import { findContact } from './contacts.js';
import { computeDocument, documentCurrency } from './document-pricing.js';
import { createDocument } from './document-lifecycle.js';
import { allocateNumber, quoteNumbers } from './document-numbers.js';
import type { InvoicesTable, OrgDb, QuotesTable, QuoteStatus } from '../../store/tables.js';

export const quoteStatuses = ['draft', 'sent', 'accepted', 'rejected', 'expired', 'converted'] as const;

/** The moves PATCH /quotes/{id}/status allows. */
const moves: Readonly<Record<QuoteStatus, readonly QuoteStatus[]>> = {
  draft: ['sent'],
  sent: ['accepted', 'rejected', 'expired'],
  accepted: [],
  rejected: [],
  expired: [],
  converted: [],
};

export async function findQuote(db: Kysely<OrgDb>, id: string): Promise<QuotesTable> {
  return found(db.selectFrom('quotes').selectAll().where('id', '=', id).executeTakeFirst(), 'quote', id);
}

/** A quote in a list: everything but its lines. */
export const quoteSummarySchema = z.strictObject({
  id: idOut('quo'),
  quoteNumber: z.string(),
  status: z.enum(quoteStatuses),
  contactId: idOut('cont'),
  contactName: z.string(),
  currency: z.string(),
  issueDate: day(),
  validUntil: day(),
  subtotal: pence(),
  vatAmount: pence(),
  total: pence(),
  notes: z.string().nullable(),
  terms: z.string().nullable(),
  reference: z.string().nullable(),
  convertedInvoiceId: idOut('inv').nullable().describe('the draft invoice it was converted to'),
  createdAt: instant(),
  updatedAt: instant(),
});
export type QuoteSummary = z.output<typeof quoteSummarySchema>;

/** A quote with its lines. */
export const quoteSchema = quoteSummarySchema.extend({
  contact: z.strictObject({ id: idOut('cont'), name: z.string() }),
  items: z.array(itemSchema),
  convertedInvoiceNumber: z.string().nullable(),
});
export type Quote = z.output<typeof quoteSchema>;

export async function quoteView(db: Kysely<OrgDb>, row: QuotesTable): Promise<Quote> {
  const [contact, items, invoice] = await Promise.all([
    db.selectFrom('contacts').select(['id', 'name']).where('id', '=', row.contact_id).executeTakeFirst(),
    loadItems(db, [row.id]),
    row.converted_invoice_id === null ? undefined : db.selectFrom('invoices').select('number').where('id', '=', row.converted_invoice_id).executeTakeFirst(),
  ]);
  return {
    ...quoteSummary(row, contact?.name ?? ''),
    contact: { id: row.contact_id, name: contact?.name ?? '' },
    items: (items.get(row.id) ?? []).map((i) => itemView(i)),
    convertedInvoiceNumber: invoice?.number ?? null,
  };
}

export function quoteSummary(row: QuotesTable, contactName: string): QuoteSummary {
  return {
    id: row.id,
    quoteNumber: row.number,
    status: row.status,
    contactId: row.contact_id,
    contactName,
    currency: row.currency,
    issueDate: row.issue_date,
    validUntil: row.valid_until,
    subtotal: row.subtotal,
    vatAmount: row.vat_amount,
    total: row.total,
    notes: row.notes,
    terms: row.terms,
    reference: row.reference,
    convertedInvoiceId: row.converted_invoice_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

interface QuoteInput {
  readonly contactId: string;
  /** The books' own currency only, as on invoices (400 on currency otherwise). */
  readonly currency?: string | undefined;
  readonly items: readonly ItemInput[];
  readonly issueDate?: string | undefined;
  readonly validUntil?: string | undefined;
}

/** Check and price a quote: the contact and line accounts as for an invoice; validUntil defaults to issueDate + the organisation's validity days. */
async function computeQuote(db: Kysely<OrgDb>, clock: Clock, input: QuoteInput) {
  const org = await loadOrganisation(db);
  const currency = documentCurrency(org, input.currency, 'quote');
  const c = await computeDocument(db, salesInvoice, clock, { contactId: input.contactId, currency, items: input.items, issueDate: input.issueDate });
  const validUntil = validUntilOf(c.issueDate, input.validUntil, org.quote_validity_days);
  return { ...c, validUntil };
}

/** validUntil as given, else issueDate + the validity days; never before the issue date. */
function validUntilOf(issueDate: string, given: string | undefined, validityDays: number): string {
  const validUntil = given ?? addDays(issueDate, validityDays);
  if (validUntil < issueDate) throw new AppError('validation_error', `validUntil ${validUntil} is before issueDate ${issueDate}`, 'validUntil');
  return validUntil;
}

/** The texts of a quote: null clears one; left out, it stays (a new quote: none). */
interface QuoteTexts {
  readonly notes?: string | null | undefined;
  readonly terms?: string | null | undefined;
  readonly reference?: string | null | undefined;
}

export type NewQuote = QuoteInput & QuoteTexts;

/** Store a new draft quote, numbered from the quote prefix. */
export async function insertQuote(trx: Kysely<OrgDb>, posting: Posting, input: NewQuote): Promise<Quote> {
  const c = await computeQuote(trx, posting.clock, input);
  const now = timestamp(posting.clock);
  const row: QuotesTable = {
    id: newId('quo', posting.clock.now()),
    number: await allocateNumber(trx, quoteNumbers),
    status: 'draft',
    contact_id: c.contact.id,
    currency: c.currency,
    issue_date: c.issueDate,
    valid_until: c.validUntil,
    notes: input.notes ?? null,
    terms: input.terms ?? null,
    reference: input.reference ?? null,
    subtotal: c.priced.subtotal,
    vat_amount: c.priced.vatAmount,
    total: c.priced.total,
    converted_invoice_id: null,
    created_by: posting.actor.id,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('quotes').values(row).execute();
  await saveItems(trx, posting.clock, row.id, c.priced.items);
  return quoteView(trx, row);
}

export const quotePreviewSchema = z.strictObject({
  contactId: idOut('cont').nullable(),
  issueDate: day(),
  validUntil: day(),
  items: z.array(pricedItemSchema),
  subtotal: pence(),
  vatAmount: pence(),
  total: pence(),
});
export type QuotePreview = z.output<typeof quotePreviewSchema>;

/** A quote worked out (lines, VAT, totals) and not stored; without a contact, priced by the organisation's VAT scheme. */
export async function workOutQuote(
  db: Kysely<OrgDb>,
  clock: Clock,
  input: Omit<QuoteInput, 'contactId'> & { readonly contactId?: string | undefined },
): Promise<QuotePreview> {
  const { contactId } = input;
  if (contactId !== undefined) {
    const c = await computeQuote(db, clock, { ...input, contactId });
    return previewView(c.priced, c.issueDate, c.validUntil, c.contact.id);
  }
  const org = await loadOrganisation(db);
  documentCurrency(org, input.currency, 'quote');
  const issueDate = input.issueDate ?? today(clock);
  const priced = priceItems(input.items, (await schemeOn(db, org, issueDate)).vat_scheme);
  return previewView(priced, issueDate, validUntilOf(issueDate, input.validUntil, org.quote_validity_days), null);
}

function previewView(priced: ReturnType<typeof priceItems>, issueDate: string, validUntil: string, contactId: string | null): QuotePreview {
  return {
    contactId,
    issueDate,
    validUntil,
    items: priced.items.map((i) => itemView(i)),
    subtotal: priced.subtotal,
    vatAmount: priced.vatAmount,
    total: priced.total,
  };
}

function refuseUnlessDraft(row: QuotesTable, what: string): void {
  if (row.status !== 'draft') throw new AppError('unprocessable_entity', `quote ${row.number} is ${row.status}: only a draft quote can be ${what}`);
}

export type QuoteChange = Partial<QuoteInput> & QuoteTexts;

/** Change a draft quote: fields left out stay; items replace all its lines. */
export async function changeQuote(trx: Kysely<OrgDb>, clock: Clock, id: string, input: QuoteChange): Promise<Quote> {
  const row = await findQuote(trx, id);
  refuseUnlessDraft(row, 'changed');
  const c = await computeQuote(trx, clock, {
    contactId: input.contactId ?? row.contact_id,
    currency: input.currency ?? row.currency,
    items: input.items ?? itemInputsOf((await loadItems(trx, [row.id])).get(row.id) ?? []),
    issueDate: input.issueDate ?? row.issue_date,
    // A new issue date without validUntil keeps the quote valid for as many days as before.
    validUntil: input.validUntil ?? (input.issueDate === undefined ? row.valid_until : addDays(input.issueDate, daysBetween(row.issue_date, row.valid_until))),
  });
  const changes: Partial<QuotesTable> = {
    contact_id: c.contact.id,
    issue_date: c.issueDate,
    valid_until: c.validUntil,
    notes: input.notes === undefined ? row.notes : input.notes,
    terms: input.terms === undefined ? row.terms : input.terms,
    reference: input.reference === undefined ? row.reference : input.reference,
    subtotal: c.priced.subtotal,
    vat_amount: c.priced.vatAmount,
    total: c.priced.total,
    updated_at: timestamp(clock),
  };
  await trx.updateTable('quotes').set(changes).where('id', '=', row.id).execute();
  await saveItems(trx, clock, row.id, c.priced.items);
  return quoteView(trx, { ...row, ...changes });
}

/** Delete a draft quote and its lines. */
export async function removeDraftQuote(trx: Kysely<OrgDb>, id: string): Promise<void> {
  refuseUnlessDraft(await findQuote(trx, id), 'deleted');
  await trx.deleteFrom('document_items').where('document_id', '=', id).execute();
  await trx.deleteFrom('quotes').where('id', '=', id).execute();
}

/** The statuses a client may ask for: converted comes only from a conversion. */
export const requestableStatuses = ['draft', 'sent', 'accepted', 'rejected', 'expired'] as const;

/** Move a quote to a status `moves` allows; the status it has already changes nothing (moved: false). */
export async function moveQuote(
  trx: Kysely<OrgDb>,
  clock: Clock,
  id: string,
  status: (typeof requestableStatuses)[number],
): Promise<{ view: Quote; moved: boolean }> {
  const row = await findQuote(trx, id);
  if (row.status === status) return { view: await quoteView(trx, row), moved: false };
  if (!moves[row.status].includes(status)) {
    const allowed = moves[row.status];
    throw new AppError(
      'unprocessable_entity',
      `quote ${row.number} cannot move from ${row.status} to ${status}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`,
    );
  }
  const changed = { ...row, status, updated_at: timestamp(clock) };
  await trx.updateTable('quotes').set({ status: changed.status, updated_at: changed.updated_at }).where('id', '=', row.id).execute();
  return { view: await quoteView(trx, changed), moved: true };
}

export interface Converted {
  readonly quote: QuotesTable;
  readonly invoice: InvoicesTable;
}

/** Turn an accepted quote into a draft invoice (once): same contact, lines, notes and reference (the quote's number when it has none). */
export async function convertToInvoice(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<Converted> {
  const row = await findQuote(trx, id);
  if (row.status === 'converted' || row.converted_invoice_id !== null) {
    throw new AppError('conflict', `quote ${row.number} has already been converted to invoice ${row.converted_invoice_id}`);
  }
  if (row.status !== 'accepted') throw new AppError('unprocessable_entity', `quote ${row.number} is ${row.status}: only an accepted quote can be converted`);
  // The request names no contact (convert has no body): an archived one is a business rule the quote breaks, 422, not bad input on contactId.
  const contact = await findContact(trx, row.contact_id);
  if (contact.is_active !== 1) throw new AppError('unprocessable_entity', `contact ${contact.name} is inactive; reactivate it first`);
  if (!salesInvoice.contactTypes.includes(contact.contact_type)) {
    throw new AppError('unprocessable_entity', `contact ${contact.name} is now a ${contact.contact_type}; an invoice needs a customer (or both)`);
  }
  const items = itemInputsOf((await loadItems(trx, [row.id])).get(row.id) ?? []);
  const invoice = await createDocument(
    trx,
    salesInvoice,
    posting,
    { contactId: row.contact_id, items, notes: row.notes, reference: row.reference ?? row.number },
    { quoteId: row.id },
  );
  await trx
    .updateTable('quotes')
    .set({ status: 'converted', converted_invoice_id: invoice.id, updated_at: timestamp(posting.clock) })
    .where('id', '=', row.id)
    .execute();
  return { quote: row, invoice };
}
