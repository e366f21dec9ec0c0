/**
 * Sales invoices over the operation registry: create (numbered, with draft
 * ledger entries), preview, read, list, update and delete drafts, send
 * (posting the entries, optionally e-mailing the PDF), payments, void,
 * status moves, the PDF, and the overdue sweep.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { actorOf, defineOperation, orgOf, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { emit } from '../events.js';
import { today } from '../clock.js';
import { clearableText, idOf, isoDate } from '../schema.js';
import { formatPounds } from '../money.js';
import { sendMail } from '../mail.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { Posting } from '../ledger/posting.js';
import { itemsInput, itemView, priceItems } from './items.js';
import { findContact } from './contacts.js';
import {
  computeDocument,
  createDocument,
  deleteDocument,
  documentView,
  dueDateOf,
  listDocuments,
  listQuery,
  findDocument,
  issueDocument,
  refuseUnlessDraft,
  salesInvoice as k,
  summaryView,
  updateDocument,
  voidDocument,
} from './documents.js';
import { paymentBody, paymentData, recordPayment, removePayment } from './payments.js';
import { sweepOverdue } from './overdue.js';
import type { InvoicePdfData } from '../../pdf/invoice-data.js';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

const posting = (ctx: Ctx): Posting => ({ clock: ctx.clock, actor: actorOf(ctx) });

export const invoiceStatuses = ['draft', 'sent', 'paid', 'overdue', 'void'] as const;

const invoiceParams = { id: idOf('inv') };

const fields = {
  contactId: idOf('cont'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as GBP')
    .optional(),
  items: itemsInput(),
  issueDate: isoDate().optional(),
  dueDate: isoDate().optional(),
  dueDays: z.number().int().min(0).max(365).optional(),
  notes: clearableText(2000),
  reference: clearableText(100),
};

export const invoiceView = (db: Kysely<OrgDb>, row: InvoicesTable) => documentView(db, k, row);

export const createInvoice = defineOperation({
  name: 'invoices.create',
  summary: 'Create a draft invoice: numbered, with its ledger entries as a draft transaction',
  description:
    'Items: description, quantity, unitPrice (pence), vatRate standard (20%), reduced (5%), zero (0%) or exempt, and optionally accountId ' +
    '(a revenue account; 4000 Sales by default). The due date is dueDate, else issueDate + dueDays, else + the contact\'s paymentTerms, ' +
    'else + the organisation\'s defaultPaymentTerms.',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices',
  status: 201,
  body: fields,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      const row = await createDocument(trx, k, posting(ctx), input);
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
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    if (input.contactId !== undefined) {
      const c = await computeDocument(db, k, ctx.clock, { ...input, contactId: input.contactId });
      return { data: previewView(c.priced, c.currency, c.issueDate, c.dueDate, c.contact.id) };
    }
    const org = await loadOrganisation(db);
    const issueDate = input.issueDate ?? today(ctx.clock);
    const priced = priceItems(input.items, org.vat_scheme);
    const dueDate = dueDateOf({ issueDate, dueDate: input.dueDate, dueDays: input.dueDays }, org.default_payment_terms);
    return { data: previewView(priced, input.currency ?? org.currency, issueDate, dueDate, null) };
  },
});

function previewView(priced: ReturnType<typeof priceItems>, currency: string, issueDate: string, dueDate: string, contactId: string | null) {
  return {
    contactId,
    currency,
    issueDate,
    dueDate,
    items: priced.items.map((i) => itemView(i)),
    subtotal: priced.subtotal,
    vatAmount: priced.vatAmount,
    total: priced.total,
  };
}

export const getInvoice = defineOperation({
  name: 'invoices.get',
  summary: 'Show an invoice with its lines and payments',
  access: 'invoices:read',
  method: 'GET',
  path: '/invoices/{id}',
  params: invoiceParams,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await invoiceView(db, await findDocument(db, k, input.id)) };
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
  async run(ctx, input) {
    return listDocuments(orgOf(ctx).db, k, input);
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
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => invoiceView(trx, await updateDocument(trx, k, posting(ctx), input.id, input)));
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
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteDocument(trx, k, input.id));
    return { data: { id: input.id, deleted: true } };
  },
});

/** Everything the invoice PDF shows. */
export async function invoicePdfData(db: Kysely<OrgDb>, row: InvoicesTable): Promise<InvoicePdfData> {
  const [organisation, contact, view] = await Promise.all([loadOrganisation(db), findContact(db, row.contact_id), invoiceView(db, row)]);
  return {
    organisation,
    contact,
    invoice: {
      invoiceNumber: row.number ?? row.id,
      status: row.status,
      currency: row.currency,
      issueDate: row.issue_date,
      dueDate: row.due_date,
      paidDate: row.paid_date,
      reference: row.reference,
      notes: row.notes,
      subtotal: view.subtotal,
      vatAmount: view.vatAmount,
      total: view.total,
      amountPaid: view.amountPaid,
      amountCredited: view.amountCredited,
      amountDue: view.amountDue,
      items: view.items,
      payments: view.payments,
    },
  };
}

/** Render the PDF; pdfmake is loaded on first use, not by every command that loads the registry. */
async function invoicePdf(data: InvoicePdfData): Promise<Buffer> {
  const { invoicePdf: render } = await import('../../pdf/invoice.js');
  return render(data);
}

const pdfFile = (number: string, bytes: Uint8Array) => ({ contentType: 'application/pdf', filename: `${number}.pdf`, bytes });

export const invoicePdfOp = defineOperation({
  name: 'invoices.pdf',
  summary: 'The invoice as a PDF document',
  access: 'invoices:read',
  method: 'GET',
  path: '/invoices/{id}/pdf',
  params: invoiceParams,
  produces: 'application/pdf',
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const row = await findDocument(db, k, input.id);
    const bytes = await invoicePdf(await invoicePdfData(db, row));
    return { data: { id: row.id, invoiceNumber: row.number, bytes: bytes.length }, file: pdfFile(row.number ?? row.id, bytes) };
  },
});

/** E-mail a draft invoice's PDF (as it will be once sent) to the customer; nothing is stored. */
async function emailInvoice(ctx: Ctx, row: InvoicesTable): Promise<void> {
  if (!ctx.mailer) {
    throw new AppError('unprocessable_entity', 'sendEmail needs an SMTP server: give --smtp URL (to acct serve, or to this command) or set ACCT_SMTP_URL');
  }
  const db = orgOf(ctx).db;
  const contact = await findContact(db, row.contact_id);
  if (!contact.email) throw new AppError('unprocessable_entity', `contact ${contact.name} has no email address to send invoice ${row.number} to`);
  const data = await invoicePdfData(db, { ...row, status: 'sent' });
  const bytes = await invoicePdf(data);
  const org = data.organisation;
  const number = row.number ?? row.id;
  const text = [
    `Dear ${contact.name},`,
    '',
    `Please find attached invoice ${number} for £${formatPounds(row.total)}, due on ${row.due_date}.`,
    ...(row.reference ? [`Your reference: ${row.reference}.`] : []),
    '',
    'Kind regards,',
    org.name,
  ].join('\n');
  try {
    await sendMail(ctx.mailer, {
      to: contact.email,
      replyTo: org.email,
      fromName: org.name,
      subject: `Invoice ${number} from ${org.name}`,
      text,
      attachments: [{ filename: `${number}.pdf`, contentType: 'application/pdf', content: bytes }],
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('service_unavailable', `the invoice could not be e-mailed: ${(e as Error).message}; it is still a draft`, undefined, { cause: e });
  }
}

/** E-mail a draft before it is sent (the external step of invoices.send: no transaction is open). */
async function emailDraft(ctx: Ctx, id: string): Promise<void> {
  const row = await findDocument(orgOf(ctx).db, k, id);
  refuseUnlessDraft(k, row, 'sent');
  await emailInvoice(ctx, row);
}

/** Send a draft: its entries are posted; invoice.sent. */
async function send(ctx: Ctx, id: string): Promise<InvoicesTable> {
  const org = orgOf(ctx);
  return org.write(async (trx) => {
    const row = await issueDocument(trx, k, posting(ctx), id);
    await emit(trx, ctx.clock, 'invoice.sent', await invoiceView(trx, row));
    return row;
  });
}

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
  async run(ctx, input) {
    const row = await send(ctx, input.id);
    return { data: { id: row.id, invoiceNumber: row.number, status: row.status, sentAt: row.sent_at, emailed: input.sendEmail } };
  },
});

export const recordInvoicePayment = defineOperation({
  name: 'invoices.pay',
  summary: 'Record a payment received against a sent or overdue invoice (never more than is due)',
  description: 'Posts debit the bank account (accountId, a bank account; 1200 by default) and credit 1100. The payment that clears the balance makes the invoice paid.',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices/{id}/payments',
  params: invoiceParams,
  status: 201,
  body: paymentBody,
  async run(ctx, input) {
    const payment = await orgOf(ctx).write(async (trx) => {
      const { payment, document } = await recordPayment(trx, k, posting(ctx), input.id, input);
      const view = await invoiceView(trx, document);
      const paymentData = { id: payment.id, invoiceId: payment.invoice_id, amount: payment.amount, date: payment.date, method: payment.method, createdAt: payment.created_at };
      await emit(trx, ctx.clock, 'payment.received', { ...paymentData, invoiceNumber: document.number, amountDue: view.amountDue });
      if (document.status === 'paid') await emit(trx, ctx.clock, 'invoice.paid', view);
      return { ...paymentData, reference: payment.reference, accountId: payment.account_id, transactionId: payment.transaction_id, invoiceStatus: document.status, amountDue: view.amountDue };
    });
    return { data: payment };
  },
});

export const removeInvoicePayment = defineOperation({
  name: 'invoices.remove-payment',
  summary: 'Remove a payment recorded by mistake: its entry is deleted and the invoice owes that amount again',
  description:
    'A paid invoice goes back to sent, or overdue once past its due date. Refused when the payment\'s bank entry is reconciled (409 already_reconciled) ' +
    'or dated in a closed period (422). Raises payment.removed.',
  access: 'invoices:write',
  method: 'DELETE',
  path: '/invoices/{id}/payments/{paymentId}',
  params: { ...invoiceParams, paymentId: idOf('pay') },
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      const { payment, document } = await removePayment(trx, k, posting(ctx), input.id, input.paymentId);
      const view = await invoiceView(trx, document);
      const removed = { ...paymentData(k, payment), invoiceNumber: document.number, invoiceStatus: document.status, amountDue: view.amountDue };
      await emit(trx, ctx.clock, 'payment.removed', removed);
      return { ...removed, deleted: true };
    });
    return { data };
  },
});

async function voidInvoice(ctx: Ctx, id: string) {
  return orgOf(ctx).write(async (trx) => {
    const row = await voidDocument(trx, k, posting(ctx), id);
    const view = await invoiceView(trx, row);
    await emit(trx, ctx.clock, 'invoice.cancelled', view);
    return view;
  });
}

export const voidInvoiceOp = defineOperation({
  name: 'invoices.void',
  summary: 'Void an invoice without payments: it is cancelled and its entries leave the ledger (irreversible)',
  access: 'invoices:write',
  method: 'POST',
  path: '/invoices/{id}/void',
  params: invoiceParams,
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
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const row = await findDocument(db, k, input.id);
    const name = row.number ?? row.id;
    if (row.status === input.status) return { data: { id: row.id, status: row.status } };
    switch (input.status) {
      case 'sent':
        await send(ctx, input.id);
        break;
      case 'void':
        await voidInvoice(ctx, input.id);
        break;
      case 'overdue': {
        if (row.status !== 'sent') refuseMove(row, input.status);
        if (row.due_date >= today(ctx.clock)) {
          throw new AppError('unprocessable_entity', `invoice ${name} is due on ${row.due_date} and cannot be overdue before then`);
        }
        await orgOf(ctx).write((trx) => sweepOverdue(trx, posting(ctx), row.id));
        break;
      }
      case 'paid':
        if (row.status === 'void') refuseMove(row, input.status);
        throw new AppError('unprocessable_entity', `invoice ${name} becomes paid when payments clear it: POST /invoices/${row.id}/payments`);
      case 'draft':
        refuseMove(row, input.status);
    }
    const after = await findDocument(db, k, input.id);
    return { data: { id: after.id, status: after.status } };
  },
});

function refuseMove(row: InvoicesTable, to: string): never {
  const name = row.number ?? row.id;
  if (row.status === 'void') throw new AppError('already_voided', `invoice ${name} is void`);
  if (row.status === 'paid') throw new AppError('already_paid', `invoice ${name} is paid`);
  throw new AppError('unprocessable_entity', `invoice ${name} cannot move from ${row.status} to ${to}${to === 'draft' ? ': invoices are immutable once issued' : ''}`);
}
