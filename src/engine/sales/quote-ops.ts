/** The operations of quotes (quotes.ts): create, preview, get, list, update, delete, move and convert. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { emit } from '../events.js';
import { clearableText, currencyCode, idOf, isoDate } from '../schema.js';
import { listPage, numberLength, pageMetaSchema, pageQuery, sortQuery } from '../pagination.js';
import { idOut, listOf } from '../output.js';
import { postingOf } from '../ledger/posting.js';
import { saleItemsInput } from './items.js';
import { invoiceSchema, invoiceView } from './document-view.js';
import {
  changeQuote,
  convertToInvoice,
  findQuote,
  insertQuote,
  moveQuote,
  quotePreviewSchema,
  quoteSchema,
  quoteStatuses,
  quoteSummary,
  quoteSummarySchema,
  quoteView,
  removeDraftQuote,
  requestableStatuses,
  workOutQuote,
} from './quotes.js';

const quoteParams = { id: idOf('quo') };

const fields = {
  contactId: idOf('cont'),
  currency: currencyCode().optional(),
  items: saleItemsInput(),
  issueDate: isoDate().optional(),
  validUntil: isoDate().optional(),
  notes: clearableText(2000),
  terms: clearableText(2000),
  reference: clearableText(100),
};

export const createQuote = defineOperation({
  name: 'quotes.create',
  summary: 'Create a draft quote, numbered with the quote prefix (never in the ledger)',
  description: "Items as for invoices. validUntil defaults to issueDate + the organisation's quoteValidityDays.",
  access: 'quotes:write',
  method: 'POST',
  path: '/quotes',
  status: 201,
  body: fields,
  output: quoteSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const view = await insertQuote(trx, postingOf(ctx), input);
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
  output: quotePreviewSchema,
  async run(ctx, input) {
    return { data: await workOutQuote(orgOf(ctx).db, ctx.clock, input) };
  },
});

export const getQuote = defineOperation({
  name: 'quotes.get',
  summary: 'Show a quote with its lines',
  access: 'quotes:read',
  method: 'GET',
  path: '/quotes/{id}',
  params: quoteParams,
  output: quoteSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await quoteView(db, await findQuote(db, input.id)) };
  },
});

const sortColumn = {
  createdAt: 'quotes.created_at',
  issueDate: 'quotes.issue_date',
  validUntil: 'quotes.valid_until',
  total: 'quotes.total',
  quoteNumber: 'quotes.number',
} as const;

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
  output: listOf(quoteSummarySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('quotes').innerJoin('contacts', 'contacts.id', 'quotes.contact_id');
    if (input.status) q = q.where('quotes.status', '=', input.status);
    if (input.contactId) q = q.where('quotes.contact_id', '=', input.contactId);
    const { field, direction } = input.sort;
    const { rows, meta } = await listPage(
      q,
      (all) => {
        const rows = all.selectAll('quotes').select('contacts.name as contact_name');
        return (field === 'quoteNumber' ? rows.orderBy(numberLength(sortColumn[field]), direction) : rows)
          .orderBy(sortColumn[field], direction)
          .orderBy('quotes.id', direction);
      },
      input,
    );
    return { data: rows.map((r) => quoteSummary(r, r.contact_name)), meta };
  },
});

export const updateQuote = defineOperation({
  name: 'quotes.update',
  summary: 'Change a draft quote (fields left out stay; items replace all lines)',
  access: 'quotes:write',
  method: 'PUT',
  path: '/quotes/{id}',
  params: quoteParams,
  body: { ...fields, contactId: fields.contactId.optional(), items: fields.items.optional() },
  output: quoteSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => changeQuote(trx, ctx.clock, input.id, input)) };
  },
});

export const deleteQuote = defineOperation({
  name: 'quotes.delete',
  summary: 'Delete a draft quote',
  access: 'quotes:write',
  method: 'DELETE',
  path: '/quotes/{id}',
  params: quoteParams,
  output: z.strictObject({ id: idOut('quo'), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => removeDraftQuote(trx, input.id));
    return { data: { id: input.id, deleted: true as const } };
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
  body: { status: z.enum(requestableStatuses) },
  output: quoteSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const { view, moved } = await moveQuote(trx, ctx.clock, input.id, input.status);
      if (moved && input.status === 'accepted') await emit(trx, ctx.clock, 'quote.accepted', view);
      if (moved && input.status === 'rejected') await emit(trx, ctx.clock, 'quote.rejected', view);
      return view;
    });
    return { data: view };
  },
});

export const convertQuote = defineOperation({
  name: 'quotes.convert',
  summary: 'Turn an accepted quote into a draft invoice (once): same contact, lines, notes and reference',
  description:
    "The invoice is dated today and due by the contact's or the organisation's payment terms. Deleting that draft invoice lets the quote be converted again.",
  access: 'quotes:write',
  method: 'POST',
  path: '/quotes/{id}/convert',
  params: quoteParams,
  status: 201,
  output: z.strictObject({
    quoteId: idOut('quo'),
    quoteNumber: z.string(),
    invoiceId: idOut('inv'),
    invoiceNumber: z.string().nullable(),
    invoice: invoiceSchema.describe('the draft invoice, as invoices.get shows it'),
  }),
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      const { quote, invoice } = await convertToInvoice(trx, postingOf(ctx), input.id);
      const view = await invoiceView(trx, invoice);
      await emit(trx, ctx.clock, 'invoice.created', view);
      return { quoteId: quote.id, quoteNumber: quote.number, invoiceId: invoice.id, invoiceNumber: invoice.number, invoice: view };
    });
    return { data };
  },
});
