/** The credit notes' credit set against an invoice, for its PDF: each allocation with its credit note's number. */
import type { Kysely } from 'kysely';
import type { InvoicePdfCredit } from '../../pdf/invoice-data.js';
import type { OrgDb } from '../../store/tables.js';

/** In the order they were made: the sum is the invoice's amountCredited. */
export async function pdfCredits(db: Kysely<OrgDb>, invoiceId: string): Promise<InvoicePdfCredit[]> {
  const rows = await db
    .selectFrom('credit_allocations')
    .innerJoin('credit_notes', 'credit_notes.id', 'credit_allocations.credit_note_id')
    .select(['credit_notes.id', 'credit_notes.number', 'credit_allocations.date', 'credit_allocations.amount'])
    .where('credit_allocations.invoice_id', '=', invoiceId)
    .orderBy('credit_allocations.date')
    .orderBy('credit_allocations.created_at')
    .orderBy('credit_allocations.id')
    .execute();
  return rows.map((r) => ({ creditNoteNumber: r.number ?? r.id, date: r.date, amount: r.amount }));
}
