/**
 * What a sales credit note's PDF shows: the invoice layout, with the credit note's number, date, lines and credit,
 * and the seller and customer as they were when it was issued.
 */
import type { Kysely } from 'kysely';
import { pdfFile, type Ctx, type FileResult } from '../operation.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { invoicePdf, issuedWithVat } from './invoices.js';
import { particularsOf } from './issued-particulars.js';
import { salesCredit } from './credit-kinds.js';
import { creditNoteView } from './credit-note-views.js';
import type { InvoicePdfData } from '../../pdf/invoice-data.js';
import { pdfBankDetails } from './pdf-bank-details.js';
import type { CreditNotesTable, OrgDb } from '../../store/tables.js';

export async function creditNotePdfData(db: Kysely<OrgDb>, row: CreditNotesTable): Promise<InvoicePdfData> {
  const [organisation, particulars, view, invoice] = await Promise.all([
    loadOrganisation(db),
    particularsOf(db, row),
    creditNoteView(db, salesCredit, row),
    db.selectFrom('invoices').select('number').where('id', '=', row.invoice_id).executeTakeFirst(),
  ]);
  const number = row.number ?? row.id;
  const bankDetails = await pdfBankDetails(db, organisation.name);
  return {
    organisation: particulars.seller,
    contact: particulars.customer,
    vatDocument: await issuedWithVat(db, organisation, row.transaction_id, view.items),
    ...(bankDetails ? { bankDetails } : {}),
    invoice: {
      invoiceNumber: number,
      status: row.status,
      currency: row.currency,
      issueDate: row.date,
      dueDate: row.date,
      paidDate: null,
      reference: row.reference,
      notes: null,
      subtotal: row.subtotal,
      vatAmount: row.vat_amount,
      total: row.total,
      amountPaid: 0,
      amountDue: 0,
      items: view.items,
      payments: [],
    },
    creditNote: {
      creditsInvoiceNumber: invoice?.number ?? row.invoice_id,
      reason: row.reason,
      allocated: row.allocated,
      refunded: row.refunded,
      remainingCredit: view.remainingCredit,
    },
  };
}

/** The PDF, named after the credit note's number, else its id. */
export async function creditNotePdf(ctx: Ctx, db: Kysely<OrgDb>, row: CreditNotesTable): Promise<FileResult> {
  return pdfFile(row.number ?? row.id, await invoicePdf(ctx, await creditNotePdfData(db, row)));
}
