/**
 * What sales invoices do beyond what bills share with them: the preview,
 * the PDF and its e-mail, sending and voiding with their events, and the
 * moves between statuses. The operations are declared in invoice-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { orgOf, pdfFile, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { emit } from '../events.js';
import { today } from '../clock.js';
import { pence } from '../schema.js';
import { day, idOut } from '../output.js';
import { formatPounds } from '../money.js';
import { sendMail } from '../mail.js';
import { loadOrganisation, type OrganisationRow } from '../organisation/organisation.js';
import { postingOf } from '../ledger/posting.js';
import { itemView, pricedItemSchema, type Priced } from './items.js';
import { findContact } from './contacts.js';
import { findDocument, invoiceStatuses, refuseUnlessDraft, salesInvoice as k } from './documents.js';
import { issueDocument, refuseSaleAgainstRegistration, voidDocument } from './document-lifecycle.js';
import { invoiceView, type Invoice } from './document-view.js';
import { asRead, sweepOverdue } from './overdue.js';
import type { InvoicePdfData, InvoicePdfLine } from '../../pdf/invoice-data.js';
import { pdfBankDetails } from './pdf-bank-details.js';
import { pdfCredits } from './pdf-credits.js';
import { particularsOf } from './issued-particulars.js';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

/** An invoice worked out and not stored. */
export const previewSchema = z.strictObject({
  contactId: idOut('cont').nullable(),
  currency: z.string(),
  issueDate: day(),
  dueDate: day(),
  items: z.array(pricedItemSchema),
  subtotal: pence(),
  vatAmount: pence(),
  total: pence(),
});

export type Preview = z.output<typeof previewSchema>;

export function previewView(priced: Priced, currency: string, issueDate: string, dueDate: string, contactId: string | null): Preview {
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

/**
 * Whether a sale was issued as a VAT invoice (or credit note): it charges VAT, or its lines state rates and its
 * entry recorded VAT facts, as a registered business's does (zero-rated too) and one not registered never does,
 * though it may name its sales zero or exempt. A draft, not yet posted, is as the business is now.
 */
export async function issuedWithVat(
  db: Kysely<OrgDb>,
  organisation: OrganisationRow,
  transactionId: string | null,
  items: readonly Pick<InvoicePdfLine, 'vatRateName' | 'vatAmount'>[],
): Promise<boolean> {
  if (items.some((l) => l.vatAmount !== 0)) return true;
  if (items.every((l) => l.vatRateName === null)) return false;
  if (transactionId === null) return organisation.vat_scheme !== 'not_registered';
  return (await db.selectFrom('vat_entries').select('id').where('transaction_id', '=', transactionId).limit(1).executeTakeFirst()) !== undefined;
}

/** Everything the invoice PDF shows: the seller and customer as it was issued to (as they stand while a draft). */
export async function invoicePdfData(db: Kysely<OrgDb>, row: InvoicesTable): Promise<InvoicePdfData> {
  const [organisation, particulars, view] = await Promise.all([loadOrganisation(db), particularsOf(db, row), invoiceView(db, row)]);
  const bankDetails = await pdfBankDetails(db, organisation.name);
  return {
    organisation: particulars.seller,
    contact: particulars.customer,
    vatDocument: await issuedWithVat(db, organisation, row.transaction_id, view.items),
    ...(bankDetails ? { bankDetails } : {}),
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
      credits: await pdfCredits(db, row.id),
    },
  };
}

/**
 * Render the PDF, with the context's renderer if it has one; pdfmake is loaded on first use, not by every command that loads the registry.
 * Every PDF made from the test books is marked so: they keep an organisation profile of their own, which may carry the real VAT number.
 */
export async function invoicePdf(ctx: Ctx, data: InvoicePdfData): Promise<Uint8Array> {
  const marked: InvoicePdfData = orgOf(ctx).mode === 'test' ? { ...data, testBooks: true } : data;
  if (ctx.renderPdf) return ctx.renderPdf(marked);
  const { invoicePdf: render } = await import('../../pdf/invoice.js');
  return render(marked);
}

/** E-mail a draft invoice's PDF (as it will be once sent) to the customer; nothing is stored. */
async function emailInvoice(ctx: Ctx, row: InvoicesTable): Promise<void> {
  if (!ctx.mailer) {
    throw new AppError('unprocessable_entity', 'sendEmail needs an SMTP server: give --smtp URL (to acct serve, or to this command) or set ACCT_SMTP_URL');
  }
  const db = orgOf(ctx).db;
  const contact = await findContact(db, row.contact_id);
  if (!contact.email) throw new AppError('unprocessable_entity', `contact ${contact.name} has no email address to send invoice ${row.number} to`);
  const data = await invoicePdfData(db, { ...row, status: 'sent' });
  const bytes = await invoicePdf(ctx, data);
  const org = data.organisation;
  const number = row.number ?? row.id;
  const file = pdfFile(number, bytes);
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
      attachments: [{ filename: file.filename, contentType: file.contentType, content: file.bytes }],
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('service_unavailable', `the invoice could not be e-mailed: ${(e as Error).message}; it is still a draft`, undefined, { cause: e });
  }
}

/** E-mail a draft before it is sent (the external step of invoices.send: no transaction is open). */
export async function emailDraft(ctx: Ctx, id: string): Promise<void> {
  const db = orgOf(ctx).db;
  const row = await findDocument(db, k, id);
  refuseUnlessDraft(k, row, 'sent');
  // Refused before the customer has it, rather than at sending once it has gone.
  await refuseSaleAgainstRegistration(db, k, row);
  await emailInvoice(ctx, row);
}

/** Send a draft: its entries are posted; invoice.sent. */
export async function send(ctx: Ctx, id: string): Promise<InvoicesTable> {
  const org = orgOf(ctx);
  return org.write(async (trx) => {
    const row = await issueDocument(trx, k, postingOf(ctx), id);
    await emit(trx, ctx.clock, 'invoice.sent', await invoiceView(trx, row));
    return asRead(k, ctx.clock, row);
  });
}

/** Void an invoice; invoice.cancelled. */
export async function voidInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return orgOf(ctx).write(async (trx) => {
    const row = await voidDocument(trx, k, postingOf(ctx), id);
    const view = await invoiceView(trx, row);
    await emit(trx, ctx.clock, 'invoice.cancelled', view);
    return view;
  });
}

export type InvoiceStatusName = (typeof invoiceStatuses)[number];

/**
 * Move an invoice to a status: draft → sent (send without e-mail), → void,
 * sent → overdue once past due; its status afterwards. paid comes only
 * from payments, and an issued invoice never returns to draft.
 */
export async function moveInvoice(ctx: Ctx, id: string, status: InvoiceStatusName): Promise<InvoicesTable> {
  const db = orgOf(ctx).db;
  const row = await findDocument(db, k, id);
  const name = row.number ?? row.id;
  if (row.status === status) return row;
  switch (status) {
    case 'sent':
      await send(ctx, id);
      break;
    case 'void':
      await voidInvoice(ctx, id);
      break;
    case 'overdue': {
      if (row.status !== 'sent') refuseMove(row, status);
      if (row.due_date >= today(ctx.clock)) {
        throw new AppError('unprocessable_entity', `invoice ${name} is due on ${row.due_date} and cannot be overdue before then`);
      }
      await orgOf(ctx).write((trx) => sweepOverdue(trx, postingOf(ctx), row.id));
      break;
    }
    case 'paid':
      if (row.status === 'void') refuseMove(row, status);
      throw new AppError('unprocessable_entity', `invoice ${name} becomes paid when payments clear it: POST /invoices/${row.id}/payments`);
    case 'draft':
      refuseMove(row, status);
  }
  return findDocument(db, k, id);
}

function refuseMove(row: InvoicesTable, to: string): never {
  const name = row.number ?? row.id;
  if (row.status === 'void') throw new AppError('already_voided', `invoice ${name} is void`);
  if (row.status === 'paid') throw new AppError('already_paid', `invoice ${name} is paid`);
  throw new AppError(
    'unprocessable_entity',
    `invoice ${name} cannot move from ${row.status} to ${to}${to === 'draft' ? ': invoices are immutable once issued' : ''}`,
  );
}
