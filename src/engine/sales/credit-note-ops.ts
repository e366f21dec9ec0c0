/**
 * The operations of credit notes, declared once for both kinds: sales
 * credit notes (/credit-notes, cn_, against invoices, with a PDF and
 * events) and supplier credit notes (/supplier-credit-notes, scn_, against
 * bills, without events, as bills raise none). Both use the invoices scopes.
 */
import { z } from 'zod';
import { actorOf, defineOperation, orgOf, type Ctx, type Operation } from '../operation.js';
import { emit } from '../events.js';
import { checkRange, clearableText, idOf, isoDate, pence } from '../schema.js';
import { pageMeta, pageOffset, pageQuery, sortQuery } from '../pagination.js';
import type { Posting } from '../ledger/posting.js';
import { amountDue } from './documents.js';
import { documentView } from './document-view.js';
import { paymentMethods } from './payments.js';
import type { Settled } from './settle.js';
import { createCreditNote, creditNoteSummary, creditNoteView, findCreditNote, refundView, salesCredit, supplierCredit, voidCreditNote, type CreditKind } from './credit-notes.js';
import { allocateCredit, refundCredit, removeAllocation, removeRefund } from './credits.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { findContact } from './contacts.js';
import type { InvoicePdfData } from '../../pdf/invoice-data.js';
import type { Kysely } from 'kysely';
import type { CreditNotesTable, OrgDb } from '../../store/tables.js';

const posting = (ctx: Ctx): Posting => ({ clock: ctx.clock, actor: actorOf(ctx) });

export const creditNoteStatuses = ['issued', 'void'] as const;

/** invoice.paid when a credit settles an invoice in full (bills raise no events). */
async function documentEvents(trx: Kysely<OrgDb>, ck: CreditKind, ctx: Ctx, settled: readonly Settled[]): Promise<void> {
  if (ck.doc.kind !== 'sales') return;
  for (const s of settled) if (s.change === 'paid') await emit(trx, ctx.clock, 'invoice.paid', await documentView(trx, ck.doc, s.row));
}

/** Everything a credit note's PDF shows: the invoice layout, with the credit note's number, date, lines and credit. */
async function creditNotePdfData(db: Kysely<OrgDb>, row: CreditNotesTable): Promise<InvoicePdfData> {
  const [organisation, contact, view, invoice] = await Promise.all([
    loadOrganisation(db),
    findContact(db, row.contact_id),
    creditNoteView(db, salesCredit, row),
    db.selectFrom('invoices').select('number').where('id', '=', row.invoice_id).executeTakeFirst(),
  ]);
  const number = row.number ?? row.id;
  return {
    organisation,
    contact,
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

const creditNotePdf = defineOperation({
  name: 'credit-notes.pdf',
  summary: 'The credit note as a PDF document',
  access: 'invoices:read',
  method: 'GET',
  path: '/credit-notes/{id}/pdf',
  params: { id: idOf('cn') },
  produces: 'application/pdf',
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const row = await findCreditNote(db, salesCredit, input.id);
    const { invoicePdf } = await import('../../pdf/invoice.js');
    const bytes = await invoicePdf(await creditNotePdfData(db, row));
    const number = row.number ?? row.id;
    return { data: { id: row.id, creditNoteNumber: row.number, bytes: bytes.length }, file: { contentType: 'application/pdf', filename: `${number}.pdf`, bytes } };
  },
});

function operationsFor(ck: CreditKind, group: string, base: string): Operation[] {
  const sales = ck.doc.kind === 'sales';
  const docField = sales ? 'invoiceId' : 'billId';
  const docId = idOf(ck.doc.idPrefix);
  const params = { id: idOf(ck.idPrefix) };
  const docNoun = ck.doc.noun;

  const create = defineOperation({
    name: `${group}.create`,
    summary: `Issue a ${ck.noun} against a ${sales ? 'sent, overdue or paid invoice' : 'approved, overdue or paid bill'}: the whole of it, chosen lines, or an amount`,
    description:
      `Without lineIds or amount it credits everything not yet credited; lineIds credits those lines in full; amount (pence, VAT included) is shared over the lines. ` +
      `It posts the reversal of the credited lines, VAT included, dated date (today by default), and settles what the ${docNoun} still owes; ` +
      `credit beyond that stays on the ${ck.noun} (remainingCredit) to allocate to another ${docNoun} of the contact or to refund.` +
      (sales ? ' Numbered from the organisation\'s creditNotePrefix (CN-0001).' : ' creditNoteNumber is the supplier\'s number.'),
    access: 'invoices:write',
    method: 'POST',
    path: base,
    status: 201,
    body: {
      [docField]: docId,
      date: isoDate().optional(),
      lineIds: z.array(idOf('line')).min(1).max(200).optional(),
      amount: pence().positive().optional(),
      reason: clearableText(500),
      reference: clearableText(100),
      ...(sales ? {} : { creditNoteNumber: clearableText(100) }),
    },
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const body = input as unknown as Record<string, unknown>;
        const { note, document } = await createCreditNote(trx, ck, posting(ctx), docField, {
          documentId: body[docField] as string,
          date: input.date,
          lineIds: input.lineIds,
          amount: input.amount,
          reason: input.reason,
          reference: input.reference,
          number: (body['creditNoteNumber'] as string | null | undefined) ?? null,
        });
        const view = await creditNoteView(trx, ck, note);
        if (sales) await emit(trx, ctx.clock, 'credit_note.created', view);
        await documentEvents(trx, ck, ctx, [document]);
        return { ...view, [sales ? 'invoiceStatus' : 'billStatus']: document.row.status, [sales ? 'invoiceAmountDue' : 'billAmountDue']: amountDue(document.row) };
      });
      return { data };
    },
  });

  const list = defineOperation({
    name: `${group}.list`,
    summary: `List ${ck.noun}s (without lines), newest first, filtered by status, contact, ${docNoun} and date`,
    access: 'invoices:read',
    method: 'GET',
    path: base,
    query: {
      status: z.enum(creditNoteStatuses).optional(),
      contactId: idOf('cont').optional(),
      [docField]: docId.optional(),
      fromDate: isoDate().optional(),
      toDate: isoDate().optional(),
      ...pageQuery(20),
      ...sortQuery(['createdAt', 'date', 'total', 'creditNoteNumber']),
    },
    async run(ctx, input) {
      checkRange(input.fromDate, input.toDate);
      const db = orgOf(ctx).db;
      const documentId = (input as Record<string, unknown>)[docField] as string | undefined;
      let q = db
        .selectFrom('credit_notes')
        .innerJoin('contacts', 'contacts.id', 'credit_notes.contact_id')
        .innerJoin('invoices', 'invoices.id', 'credit_notes.invoice_id')
        .where('credit_notes.kind', '=', ck.doc.kind);
      if (input.status) q = q.where('credit_notes.status', '=', input.status);
      if (input.contactId) q = q.where('credit_notes.contact_id', '=', input.contactId);
      if (documentId) q = q.where('credit_notes.invoice_id', '=', documentId);
      if (input.fromDate) q = q.where('credit_notes.date', '>=', input.fromDate);
      if (input.toDate) q = q.where('credit_notes.date', '<=', input.toDate);
      const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const column = ({ date: 'credit_notes.date', total: 'credit_notes.total', creditNoteNumber: 'credit_notes.number' } as const)[input.sort.field as string] ?? 'credit_notes.created_at';
      const rows = await q
        .selectAll('credit_notes')
        .select(['contacts.name as contact_name', 'invoices.number as document_number'])
        .orderBy(column, input.sort.direction)
        .orderBy('credit_notes.id', input.sort.direction)
        .limit(input.limit)
        .offset(pageOffset(input.page, input.limit))
        .execute();
      return {
        data: rows.map((r) => creditNoteSummary(ck, r, { contactName: r.contact_name, documentNumber: r.document_number })),
        meta: pageMeta(Number(total), input.page, input.limit),
      };
    },
  });

  const get = defineOperation({
    name: `${group}.get`,
    summary: `Show a ${ck.noun} with its lines, allocations and refunds`,
    access: 'invoices:read',
    method: 'GET',
    path: `${base}/{id}`,
    params,
    async run(ctx, input) {
      const db = orgOf(ctx).db;
      return { data: await creditNoteView(db, ck, await findCreditNote(db, ck, input.id)) };
    },
  });

  const voidOp = defineOperation({
    name: `${group}.void`,
    summary: `Void a ${ck.noun} without refunds: its entry leaves the ledger and its allocations are undone (irreversible)`,
    access: 'invoices:write',
    method: 'POST',
    path: `${base}/{id}/void`,
    params,
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { note } = await voidCreditNote(trx, ck, posting(ctx), input.id);
        const view = await creditNoteView(trx, ck, note);
        if (sales) await emit(trx, ctx.clock, 'credit_note.voided', view);
        return view;
      });
      return { data };
    },
  });

  const allocate = defineOperation({
    name: `${group}.allocate`,
    summary: `Apply a ${ck.noun}'s remaining credit to another open ${docNoun} of the same contact`,
    description: `amount defaults to as much as the credit and the ${docNoun} allow; date to today (or the later of the two documents' dates).`,
    access: 'invoices:write',
    method: 'POST',
    path: `${base}/{id}/allocations`,
    params,
    status: 201,
    body: { [docField]: docId, amount: pence().positive().optional(), date: isoDate().optional() },
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const body = input as unknown as Record<string, unknown>;
        const { allocation, note, document } = await allocateCredit(trx, ck, posting(ctx), input.id, docField, {
          documentId: body[docField] as string,
          amount: input.amount,
          date: input.date,
        });
        await documentEvents(trx, ck, ctx, [document]);
        return {
          id: allocation.id,
          creditNoteId: note.id,
          [docField]: allocation.invoice_id,
          amount: allocation.amount,
          date: allocation.date,
          createdAt: allocation.created_at,
          remainingCredit: note.total - note.allocated - note.refunded,
          [sales ? 'invoiceStatus' : 'billStatus']: document.row.status,
          [sales ? 'invoiceAmountDue' : 'billAmountDue']: amountDue(document.row),
        };
      });
      return { data };
    },
  });

  const unallocate = defineOperation({
    name: `${group}.remove-allocation`,
    summary: `Take back credit allocated to ${sales ? 'an invoice' : 'a bill'}: it is owed again`,
    access: 'invoices:write',
    method: 'DELETE',
    path: `${base}/{id}/allocations/{allocationId}`,
    params: { ...params, allocationId: idOf('alloc') },
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { allocation, note, document } = await removeAllocation(trx, ck, posting(ctx), input.id, input.allocationId);
        return {
          id: allocation.id,
          deleted: true,
          remainingCredit: note.total - note.allocated - note.refunded,
          [docField]: allocation.invoice_id,
          [sales ? 'invoiceStatus' : 'billStatus']: document.row.status,
          [sales ? 'invoiceAmountDue' : 'billAmountDue']: amountDue(document.row),
        };
      });
      return { data };
    },
  });

  const refund = defineOperation({
    name: `${group}.refund`,
    summary: sales
      ? 'Refund a credit note\'s remaining credit to the customer out of a bank account (debit 1100, credit the bank)'
      : 'Record a supplier\'s refund of a credit note\'s remaining credit into a bank account (debit the bank, credit 2100)',
    description: 'amount defaults to all the credit left; date to today; accountId to 1200.',
    access: 'invoices:write',
    method: 'POST',
    path: `${base}/{id}/refunds`,
    params,
    status: 201,
    body: {
      amount: pence().positive().optional(),
      date: isoDate().optional(),
      method: z.enum(paymentMethods).default('bank_transfer'),
      reference: z.string().max(100).nullable().optional(),
      accountId: idOf('acc').optional(),
    },
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { refund: row, note } = await refundCredit(trx, ck, posting(ctx), input.id, input);
        return { ...refundView(row), remainingCredit: note.total - note.allocated - note.refunded };
      });
      return { data };
    },
  });

  const unrefund = defineOperation({
    name: `${group}.remove-refund`,
    summary: 'Remove a refund recorded by mistake: its entry is deleted (not when reconciled or in a closed period)',
    access: 'invoices:write',
    method: 'DELETE',
    path: `${base}/{id}/refunds/{refundId}`,
    params: { ...params, refundId: idOf('rfd') },
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { refund: row, note } = await removeRefund(trx, ck, posting(ctx), input.id, input.refundId);
        return { id: row.id, deleted: true, remainingCredit: note.total - note.allocated - note.refunded };
      });
      return { data };
    },
  });

  return [list, create, get, voidOp, allocate, unallocate, refund, unrefund];
}

export const creditNoteOperations = [...operationsFor(salesCredit, 'credit-notes', '/credit-notes'), creditNotePdf];
export const supplierCreditNoteOperations = operationsFor(supplierCredit, 'supplier-credit-notes', '/supplier-credit-notes');
