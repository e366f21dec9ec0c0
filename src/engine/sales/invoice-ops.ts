/**
 * The invoice operations: create (numbered, with draft ledger entries),
 * preview, read, list, update and delete drafts, send (posting the
 * entries, optionally e-mailing the PDF), payments, void, status moves,
 * the PDF, and the overdue sweep.
 */
import { z } from 'zod';
import { defineOperation, orgOf, pdfFile } from '../operation.js';
import { emit } from '../events.js';
import { today } from '../clock.js';
import { clearableText, currencyCode, idOf, isoDate, pence } from '../schema.js';
import { day, idOut, listOf } from '../output.js';
import { pageMetaSchema } from '../pagination.js';
import { postingOf } from '../ledger/posting.js';
import { loadOrganisation, schemeOn } from '../organisation/organisation.js';
import { priceItems, saleItemsInput } from './items.js';
import { findDocument, invoiceStatuses, salesInvoice as k, statusIn } from './documents.js';
import { computeDocument, dueDateOf } from './document-pricing.js';
import { createDocument, deleteDocument, updateDocument } from './document-lifecycle.js';
import { invoiceSchema, invoiceSummary, invoiceSummarySchema, invoiceView } from './document-view.js';
import { listDocuments, listQuery } from './document-list.js';
import { paymentSchema, paymentView } from './payment-view.js';
import { paymentBody, recordPayment, removePayment } from './payments.js';
import { announceReceipt, announceRemoval } from './receipt-events.js';
import { asRead, sweepBeforeList, sweepOverdue, sweptBeforeGet } from './overdue.js';
import { emailDraft, invoicePdf, invoicePdfData, moveInvoice, previewSchema, previewView, send, voidInvoice } from './invoices.js';

const invoiceParams = { id: idOf('inv') };

const fields = {
  contactId: idOf('cont'),
  currency: currencyCode().optional(),
  items: saleItemsInput(),
  issueDate: isoDate().optional(),
  dueDate: isoDate().optional(),
  dueDays: z.number().int().min(0).max(365).optional(),
  notes: clearableText(2000),
  reference: clearableText(100),
};

export const createInvoice = defineOperation({
  name: 'invoices.create',
  summary: 'Create a draft invoice: numbered, with its ledger entries as a draft transaction',
  description:
    'Items: description, quantity, unitPrice (pence), vatRate standard (20%), reduced (5%), zero (0%) or exempt ' +
    '(a business not registered for VAT leaves it out and may not charge standard or reduced), and optionally accountId ' +
    "(a revenue account; 4000 Sales by default). The due date is dueDate, else issueDate + dueDays, else + the contact's paymentTerms, " +
    "else + the organisation's defaultPaymentTerms.",
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices',
  status: 201,
  body: fields,
  output: invoiceSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const row = await createDocument(trx, k, postingOf(ctx), input);
      const view = await invoiceView(trx, row);
      await emit(trx, ctx.clock, 'invoice.created', view);
      return view;
    });
    return { data: view };
  },
});

export const previewInvoice = defineOperation({
  name: 'invoices.preview',
  summary: 'Work out an invoice (lines, VAT, totals, due date) without storing anything',
  description: 'Takes the create body; contactId is optional (without it the due date uses the organisation default terms).',
  access: 'any-key',
  method: 'POST',
  path: '/invoices/preview',
  body: { ...fields, contactId: fields.contactId.optional() },
  output: previewSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    if (input.contactId !== undefined) {
      const c = await computeDocument(db, k, ctx.clock, { ...input, contactId: input.contactId });
      return { data: previewView(c.priced, c.currency, c.issueDate, c.dueDate, c.contact.id) };
    }
    const org = await loadOrganisation(db);
    const issueDate = input.issueDate ?? today(ctx.clock);
    const priced = priceItems(input.items, (await schemeOn(db, org, issueDate)).vat_scheme);
    const dueDate = dueDateOf({ issueDate, dueDate: input.dueDate, dueDays: input.dueDays }, org.default_payment_terms);
    return { data: previewView(priced, input.currency ?? org.currency, issueDate, dueDate, null) };
  },
});

export const getInvoice = defineOperation({
  name: 'invoices.get',
  summary: 'Show an invoice with its lines and payments',
  access: 'invoices:read',
  method: 'GET',
  path: '/invoices/{id}',
  params: invoiceParams,
  output: invoiceSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    return { data: await invoiceView(books.db, await sweptBeforeGet(books, ctx.clock, k, await findDocument(books.db, k, input.id))) };
  },
});

export const listInvoices = defineOperation({
  name: 'invoices.list',
  summary: 'List invoices (without lines), newest first, filtered by status, contact and issue date',
  access: 'invoices:read',
  method: 'GET',
  path: '/invoices',
  query: {
    status: z.enum(invoiceStatuses).optional(),
    contactId: idOf('cont').optional(),
    fromDate: isoDate().optional(),
    toDate: isoDate().optional(),
    ...listQuery('invoiceNumber'),
  },
  output: listOf(invoiceSummarySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    await sweepBeforeList(books, ctx.clock, k);
    return listDocuments(books.db, k, input, invoiceSummary);
  },
});

export const updateInvoice = defineOperation({
  name: 'invoices.update',
  summary: 'Change a draft invoice (fields left out stay; items replace all lines); issued invoices are immutable',
  access: 'invoices:write',
  method: 'PUT',
  path: '/invoices/{id}',
  params: invoiceParams,
  body: {
    ...fields,
    contactId: fields.contactId.optional(),
    items: fields.items.optional(),
  },
  output: invoiceSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => invoiceView(trx, await updateDocument(trx, k, postingOf(ctx), input.id, input)));
    return { data: view };
  },
});

export const deleteInvoice = defineOperation({
  name: 'invoices.delete',
  summary: 'Delete a draft invoice and its draft entries (its number is not reused)',
  access: 'invoices:write',
  method: 'DELETE',
  path: '/invoices/{id}',
  params: invoiceParams,
  output: z.strictObject({ id: idOut('inv'), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteDocument(trx, k, input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const invoicePdfOp = defineOperation({
  name: 'invoices.pdf',
  summary: 'The invoice as a PDF document',
  access: 'invoices:read',
  method: 'GET',
  path: '/invoices/{id}/pdf',
  params: invoiceParams,
  produces: 'application/pdf',
  output: z.strictObject({
    id: idOut('inv'),
    invoiceNumber: invoiceSummarySchema.shape.invoiceNumber,
    bytes: z.number().int().describe('the size of the PDF'),
  }),
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const row = await findDocument(db, k, input.id);
    const bytes = await invoicePdf(ctx, await invoicePdfData(db, row));
    return { data: { id: row.id, invoiceNumber: row.number ?? row.id, bytes: bytes.length }, file: pdfFile(row.number ?? row.id, bytes) };
  },
});

export const sendInvoice = defineOperation({
  name: 'invoices.send',
  summary: 'Send a draft invoice: its entries are posted; sendEmail true e-mails the PDF to the contact',
  description: 'sendEmail needs an SMTP server (acct serve --smtp URL, or ACCT_SMTP_URL); without one it is refused (422) and nothing changes.',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices/{id}/send',
  params: invoiceParams,
  body: { sendEmail: z.boolean().default(false) },
  external: (ctx, input) => (input.sendEmail ? emailDraft(ctx, input.id) : Promise.resolve()),
  output: invoiceSummarySchema.pick({ id: true, invoiceNumber: true, status: true, sentAt: true }).extend({ emailed: z.boolean() }),
  async run(ctx, input) {
    const row = await send(ctx, input.id);
    return { data: { id: row.id, invoiceNumber: row.number ?? row.id, status: statusIn(invoiceStatuses, row), sentAt: row.sent_at, emailed: input.sendEmail } };
  },
});

export const recordInvoicePayment = defineOperation({
  name: 'invoices.pay',
  summary: 'Record a payment received against a sent or overdue invoice (never more than is due)',
  description:
    'Posts debit the bank account (accountId, a bank account, 1200 by default; a sole trader may name an equity account of the owner’s such as 3200 Drawings when the customer paid the owner personally) and credit 1100. The payment that clears the balance makes the invoice paid.',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices/{id}/payments',
  params: invoiceParams,
  status: 201,
  body: paymentBody,
  output: paymentSchema.extend({ invoiceStatus: invoiceSummarySchema.shape.status, amountDue: pence() }),
  async run(ctx, input) {
    const payment = await orgOf(ctx).write(async (trx) => {
      const { payment, document } = await recordPayment(trx, k, postingOf(ctx), input.id, input);
      const view = await announceReceipt(trx, ctx.clock, payment, asRead(k, ctx.clock, document));
      return { ...paymentView(payment), invoiceStatus: view.status, amountDue: view.amountDue };
    });
    return { data: payment };
  },
});

export const removeInvoicePayment = defineOperation({
  name: 'invoices.remove-payment',
  summary: 'Remove a payment recorded by mistake: its entry is deleted and the invoice owes that amount again',
  description:
    "A paid invoice goes back to sent, or overdue once past its due date. Refused when the payment's bank entry is reconciled (409 already_reconciled) " +
    'or dated in a closed period (422). Raises payment.removed.',
  access: 'invoices:write',
  method: 'DELETE',
  path: '/invoices/{id}/payments/{paymentId}',
  params: { ...invoiceParams, paymentId: idOf('pay') },
  output: paymentSchema.extend({
    invoiceNumber: invoiceSummarySchema.shape.invoiceNumber,
    invoiceStatus: invoiceSummarySchema.shape.status,
    amountDue: pence(),
    deleted: z.literal(true),
  }),
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      const { payment, document } = await removePayment(trx, k, postingOf(ctx), input.id, input.paymentId);
      const removed = await announceRemoval(trx, ctx.clock, payment, asRead(k, ctx.clock, document));
      return { ...removed, deleted: true as const };
    });
    return { data };
  },
});

export const voidInvoiceOp = defineOperation({
  name: 'invoices.void',
  summary: 'Void an invoice without payments: it is cancelled and its entries leave the ledger (irreversible)',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices/{id}/void',
  params: invoiceParams,
  output: invoiceSchema,
  async run(ctx, input) {
    return { data: await voidInvoice(ctx, input.id) };
  },
});

export const setInvoiceStatus = defineOperation({
  name: 'invoices.status',
  summary: 'Move an invoice: draft → sent (send without e-mail), → void (as void), sent → overdue once past due',
  description:
    'paid comes only from payments, and an issued invoice never returns to draft (422). Asking for the status the invoice already has changes nothing.',
  access: 'invoices:write',
  method: 'PATCH',
  path: '/invoices/{id}/status',
  params: invoiceParams,
  body: { status: z.enum(invoiceStatuses) },
  output: invoiceSummarySchema.pick({ id: true, status: true }),
  async run(ctx, input) {
    const row = asRead(k, ctx.clock, await moveInvoice(ctx, input.id, input.status));
    return { data: { id: row.id, status: statusIn(invoiceStatuses, row) } };
  },
});

export const sweepOp = defineOperation({
  name: 'invoices.sweep',
  summary: 'Mark sent invoices and approved bills past their due date overdue (acct serve does this every minute)',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices/sweep',
  output: z.strictObject({
    date: day().describe('today: invoices and bills due before it became overdue'),
    overdueInvoices: z.array(z.string()).describe('numbers of the invoices that became overdue'),
    overdueBills: z.array(idOut('bill')).describe('ids of the bills that became overdue'),
  }),
  async run(ctx) {
    const swept = await orgOf(ctx).write((trx) => sweepOverdue(trx, postingOf(ctx)));
    return { data: { date: today(ctx.clock), overdueInvoices: swept.invoices, overdueBills: swept.bills } };
  },
});
