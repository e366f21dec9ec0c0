/**
 * Quotes: priced like invoices, numbered with the quote prefix, and never
 * in the ledger. Moves: draft → sent → accepted, rejected or expired; an
 * accepted quote converts once into a draft invoice (the quote becomes
 * converted). Only drafts can be changed or deleted.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { actorOf, defineOperation, orgOf, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { emit } from '../events.js';
import { newId } from '../ids.js';
import { timestamp, today } from '../clock.js';
import { addDays, daysBetween } from '../dates.js';
import { clearableText, idOf, isoDate } from '../schema.js';
import { pageMeta, pageOffset, pageQuery, sortQuery } from '../pagination.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { Posting } from '../ledger/posting.js';
import { itemInputsOf, itemsInput, itemView, loadItems, priceItems, saveItems, type ItemInput } from './items.js';
import { salesInvoice } from './documents.js';
import { computeDocument } from './document-pricing.js';
import { createDocument } from './document-lifecycle.js';
import { documentView } from './document-view.js';
import { allocateNumber, quoteNumbers } from './document-numbers.js';
import type { OrgDb, QuotesTable, QuoteStatus } from '../../store/tables.js';

const posting = (ctx: Ctx): Posting => ({ clock: ctx.clock, actor: actorOf(ctx) });

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

const quoteParams = { id: idOf('quo') };

const fields = {
  contactId: idOf('cont'),
  items: itemsInput(),
  issueDate: isoDate().optional(),
  validUntil: isoDate().optional(),
  notes: clearableText(2000),
  terms: clearableText(2000),
  reference: clearableText(100),
};

async function findQuote(db: Kysely<OrgDb>, id: string): Promise<QuotesTable> {
  const row = await db.selectFrom('quotes').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `quote ${id} not found`);
  return row;
}

async function quoteView(db: Kysely<OrgDb>, row: QuotesTable) {
  const [contact, items, invoice] = await Promise.all([
    db.selectFrom('contacts').select(['id', 'name']).where('id', '=', row.contact_id).executeTakeFirst(),
    loadItems(db, [row.id]),
    row.converted_invoice_id === null ? undefined : db.selectFrom('invoices').select('number').where('id', '=', row.converted_invoice_id).executeTakeFirst(),
  ]);
  return {
    ...summary(row, contact?.name ?? ''),
    contact: { id: row.contact_id, name: contact?.name ?? '' },
    items: (items.get(row.id) ?? []).map(itemView),
    convertedInvoiceNumber: invoice?.number ?? null,
  };
}

function summary(row: QuotesTable, contactName: string) {
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
  readonly items: readonly ItemInput[];
  readonly issueDate?: string | undefined;
  readonly validUntil?: string | undefined;
}

/** Check and price a quote: the contact and line accounts as for an invoice; validUntil defaults to issueDate + the organisation's validity days. */
async function computeQuote(db: Kysely<OrgDb>, ctx: Ctx, input: QuoteInput) {
  const c = await computeDocument(db, salesInvoice, ctx.clock, { contactId: input.contactId, items: input.items, issueDate: input.issueDate });
  const org = await loadOrganisation(db);
  const validUntil = validUntilOf(c.issueDate, input.validUntil, org.quote_validity_days);
  return { ...c, validUntil };
}

/** validUntil as given, else issueDate + the validity days; never before the issue date. */
function validUntilOf(issueDate: string, given: string | undefined, validityDays: number): string {
  const validUntil = given ?? addDays(issueDate, validityDays);
  if (validUntil < issueDate) throw new AppError('validation_error', `validUntil ${validUntil} is before issueDate ${issueDate}`, 'validUntil');
  return validUntil;
}

export const createQuote = defineOperation({
  name: 'quotes.create',
  summary: 'Create a draft quote, numbered with the quote prefix (never in the ledger)',
  description: "Items as for invoices. validUntil defaults to issueDate + the organisation's quoteValidityDays.",
  access: 'quotes:write',
  method: 'POST',
  path: '/quotes',
  status: 201,
  body: fields,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const c = await computeQuote(trx, ctx, input);
      const now = timestamp(ctx.clock);
      const row: QuotesTable = {
        id: newId('quo', ctx.clock.now()),
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
        created_by: actorOf(ctx).id,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('quotes').values(row).execute();
      await saveItems(trx, ctx.clock, row.id, c.priced.items);
      const view = await quoteView(trx, row);
      await emit(trx, ctx.clock, 'quote.created', view);
      return view;
    });
    return { data: view };
  },
});

export const previewQuote = defineOperation({
  name: 'quotes.preview',
  summary: 'Work out a quote (lines, VAT, totals) without storing anything',
  access: 'any-key',
  method: 'POST',
  path: '/quotes/preview',
  body: { ...fields, contactId: fields.contactId.optional() },
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    if (input.contactId !== undefined) {
      const c = await computeQuote(db, ctx, { ...input, contactId: input.contactId });
      return { data: previewView(c.priced, c.issueDate, c.validUntil, c.contact.id) };
    }
    const org = await loadOrganisation(db);
    const priced = priceItems(input.items, org.vat_scheme);
    const issueDate = input.issueDate ?? today(ctx.clock);
    return { data: previewView(priced, issueDate, validUntilOf(issueDate, input.validUntil, org.quote_validity_days), null) };
  },
});

function previewView(priced: ReturnType<typeof priceItems>, issueDate: string, validUntil: string, contactId: string | null) {
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

export const getQuote = defineOperation({
  name: 'quotes.get',
  summary: 'Show a quote with its lines',
  access: 'quotes:read',
  method: 'GET',
  path: '/quotes/{id}',
  params: quoteParams,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await quoteView(db, await findQuote(db, input.id)) };
  },
});

export const listQuotes = defineOperation({
  name: 'quotes.list',
  summary: 'List quotes (without lines), newest first, filtered by status and contact',
  access: 'quotes:read',
  method: 'GET',
  path: '/quotes',
  query: {
    status: z.enum(quoteStatuses).optional(),
    contactId: idOf('cont').optional(),
    ...pageQuery(20),
    ...sortQuery(['createdAt', 'issueDate', 'validUntil', 'total', 'quoteNumber']),
  },
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('quotes').innerJoin('contacts', 'contacts.id', 'quotes.contact_id');
    if (input.status) q = q.where('quotes.status', '=', input.status);
    if (input.contactId) q = q.where('quotes.contact_id', '=', input.contactId);
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const column = {
      createdAt: 'quotes.created_at',
      issueDate: 'quotes.issue_date',
      validUntil: 'quotes.valid_until',
      total: 'quotes.total',
      quoteNumber: 'quotes.number',
    } as const;
    const rows = await q
      .selectAll('quotes')
      .select('contacts.name as contact_name')
      .orderBy(column[input.sort.field], input.sort.direction)
      .orderBy('quotes.id', input.sort.direction)
      .limit(input.limit)
      .offset(pageOffset(input.page, input.limit))
      .execute();
    return { data: rows.map((r) => summary(r, r.contact_name)), meta: pageMeta(Number(total), input.page, input.limit) };
  },
});

function refuseUnlessDraft(row: QuotesTable, what: string): void {
  if (row.status !== 'draft') throw new AppError('unprocessable_entity', `quote ${row.number} is ${row.status}: only a draft quote can be ${what}`);
}

export const updateQuote = defineOperation({
  name: 'quotes.update',
  summary: 'Change a draft quote (fields left out stay; items replace all lines)',
  access: 'quotes:write',
  method: 'PUT',
  path: '/quotes/{id}',
  params: quoteParams,
  body: { ...fields, contactId: fields.contactId.optional(), items: fields.items.optional() },
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const row = await findQuote(trx, input.id);
      refuseUnlessDraft(row, 'changed');
      const c = await computeQuote(trx, ctx, {
        contactId: input.contactId ?? row.contact_id,
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
        updated_at: timestamp(ctx.clock),
      };
      await trx.updateTable('quotes').set(changes).where('id', '=', row.id).execute();
      await saveItems(trx, ctx.clock, row.id, c.priced.items);
      return quoteView(trx, { ...row, ...changes });
    });
    return { data: view };
  },
});

export const deleteQuote = defineOperation({
  name: 'quotes.delete',
  summary: 'Delete a draft quote',
  access: 'quotes:write',
  method: 'DELETE',
  path: '/quotes/{id}',
  params: quoteParams,
  async run(ctx, input) {
    await orgOf(ctx).write(async (trx) => {
      refuseUnlessDraft(await findQuote(trx, input.id), 'deleted');
      await trx.deleteFrom('document_items').where('document_id', '=', input.id).execute();
      await trx.deleteFrom('quotes').where('id', '=', input.id).execute();
    });
    return { data: { id: input.id, deleted: true } };
  },
});

export const setQuoteStatus = defineOperation({
  name: 'quotes.status',
  summary: 'Move a quote: draft → sent; sent → accepted, rejected or expired',
  description: 'Asking for the status the quote already has changes nothing; any other move is refused (422). converted comes only from convert.',
  access: 'quotes:write',
  method: 'PATCH',
  path: '/quotes/{id}/status',
  params: quoteParams,
  body: { status: z.enum(['draft', 'sent', 'accepted', 'rejected', 'expired']) },
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const row = await findQuote(trx, input.id);
      if (row.status === input.status) return quoteView(trx, row);
      if (!moves[row.status].includes(input.status)) {
        const allowed = moves[row.status];
        throw new AppError(
          'unprocessable_entity',
          `quote ${row.number} cannot move from ${row.status} to ${input.status}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`,
        );
      }
      const changed = { ...row, status: input.status, updated_at: timestamp(ctx.clock) };
      await trx.updateTable('quotes').set({ status: changed.status, updated_at: changed.updated_at }).where('id', '=', row.id).execute();
      const view = await quoteView(trx, changed);
      if (input.status === 'accepted') await emit(trx, ctx.clock, 'quote.accepted', view);
      if (input.status === 'rejected') await emit(trx, ctx.clock, 'quote.rejected', view);
      return view;
    });
    return { data: view };
  },
});

export const convertQuote = defineOperation({
  name: 'quotes.convert',
  summary: 'Turn an accepted quote into a draft invoice (once): same contact, lines, notes and reference',
  description: "The invoice is dated today and due by the contact's or the organisation's payment terms. Deleting that draft invoice lets the quote be converted again.",
  access: 'quotes:write',
  method: 'POST',
  path: '/quotes/{id}/convert',
  params: quoteParams,
  status: 201,
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      const row = await findQuote(trx, input.id);
      if (row.status === 'converted' || row.converted_invoice_id !== null) {
        throw new AppError('conflict', `quote ${row.number} has already been converted to invoice ${row.converted_invoice_id}`);
      }
      if (row.status !== 'accepted') throw new AppError('unprocessable_entity', `quote ${row.number} is ${row.status}: only an accepted quote can be converted`);
      const items = itemInputsOf((await loadItems(trx, [row.id])).get(row.id) ?? []);
      const invoice = await createDocument(
        trx,
        salesInvoice,
        posting(ctx),
        { contactId: row.contact_id, items, notes: row.notes, reference: row.reference ?? row.number },
        { quoteId: row.id },
      );
      await trx.updateTable('quotes').set({ status: 'converted', converted_invoice_id: invoice.id, updated_at: timestamp(ctx.clock) }).where('id', '=', row.id).execute();
      const view = await documentView(trx, salesInvoice, invoice);
      await emit(trx, ctx.clock, 'invoice.created', view);
      return { quoteId: row.id, quoteNumber: row.number, invoiceId: invoice.id, invoiceNumber: invoice.number, invoice: view };
    });
    return { data };
  },
});
