/**
 * The operations of credit notes, declared once for both kinds: sales
 * credit notes (/credit-notes, cn_, against invoices, with a PDF and
 * events) and supplier credit notes (/supplier-credit-notes, scn_, against
 * bills, without events, as bills raise none). Both use the invoices
 * scopes. The domain: credit-notes.ts, credits.ts, credit-note-views.ts.
 */
import { z } from 'zod';
import { defineOperation, orgOf, type Ctx, type Operation } from '../operation.js';
import { emit } from '../events.js';
import { checkRange, clearableText, idOf, isoDate, pence } from '../schema.js';
import { pageMetaSchema, pageQuery, sortQuery } from '../pagination.js';
import { day, idOut, instant, listOf } from '../output.js';
import { postingOf } from '../ledger/posting.js';
import { amountDue } from './documents.js';
import { documentView } from './document-view.js';
import { paymentMethods } from './payments.js';
import type { Settled } from './settle.js';
import { asRead } from './overdue.js';
import { createCreditNote, findCreditNote, voidCreditNote } from './credit-notes.js';
import { salesCredit, supplierCredit, type CreditKind, type Credited } from './credit-kinds.js';
import {
  creditedField,
  creditNoteSchema,
  creditNoteStatuses,
  creditNoteSummarySchema,
  creditNoteView,
  createdCreditNoteSchema,
  documentStandingShape,
  listCreditNotes,
  refundSchema,
  refundView,
  typedAs,
  type CreditNoteSummary,
  type DocumentStanding,
  type Refund,
} from './credit-note-views.js';
import { allocateCredit, refundCredit, removeAllocation, removeRefund } from './credits.js';
import { creditNotePdf } from './credit-note-pdf.js';
import type { Kysely } from 'kysely';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

/** invoice.paid when a credit settles an invoice in full (bills raise no events). */
async function documentEvents(trx: Kysely<OrgDb>, ck: CreditKind, ctx: Ctx, settled: readonly Settled[]): Promise<void> {
  if (ck.doc.kind !== 'sales') return;
  for (const s of settled) if (s.change === 'paid') await emit(trx, ctx.clock, 'invoice.paid', await documentView(trx, ck.doc, s.row));
}

/** The credited document's status and amount due, named for the kind (invoiceStatus, billAmountDue…), as a GET would show them. */
const standing = <D extends Credited>(ck: CreditKind<D>, ctx: Ctx, row: InvoicesTable): DocumentStanding<D> => ({
  ...creditedField(ck.credits, 'Status', asRead(ck.doc, ctx.clock, row).status),
  ...creditedField(ck.credits, 'AmountDue', amountDue(row)),
});

const remainingCredit = pence().describe('credit left on the credit note after the change');

export const creditNotePdfOp = defineOperation({
  name: 'credit-notes.pdf',
  summary: 'The credit note as a PDF document',
  access: 'invoices:read',
  method: 'GET',
  path: '/credit-notes/{id}/pdf',
  params: { id: idOf('cn') },
  produces: 'application/pdf',
  output: z.strictObject({
    id: idOut('cn'),
    creditNoteNumber: z.string().nullable(),
    bytes: z.number().int().describe('the size of the PDF file'),
  }),
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const row = await findCreditNote(db, salesCredit, input.id);
    const file = await creditNotePdf(ctx, db, row);
    return { data: { id: row.id, creditNoteNumber: row.number, bytes: file.bytes.length }, file };
  },
});

function operationsFor<D extends Credited>(ck: CreditKind<D>, group: string, base: string) {
  const sales = ck.doc.kind === 'sales';
  const docField = `${ck.credits}Id` as const;
  const docId = idOf(ck.doc.idPrefix);
  const params = { id: idOf(ck.idPrefix) };
  const docNoun = ck.doc.noun;
  const view = creditNoteSchema(ck);

  const create = defineOperation({
    name: `${group}.create`,
    summary: `Issue a ${ck.noun} against ${sales ? 'a sent, overdue or paid invoice' : 'an approved, overdue or paid bill'}: the whole of it, chosen lines, or an amount`,
    description:
      `Without lineIds or amount it credits everything not yet credited; lineIds credits those lines in full; amount (pence, VAT included) is shared over the lines. ` +
      `It posts the reversal of the credited lines, VAT included, dated date (today by default), and settles what the ${docNoun} still owes; ` +
      `credit beyond that stays on the ${ck.noun} (remainingCredit) to allocate to another ${docNoun} of the contact or to refund.` +
      (sales ? " Numbered from the organisation's creditNotePrefix (CN-0001)." : " creditNoteNumber is the supplier's number."),
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
    output: createdCreditNoteSchema(ck),
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const body = input as unknown as Record<string, unknown>;
        const { note, document } = await createCreditNote(trx, ck, postingOf(ctx), docField, {
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
        return { ...view, ...standing(ck, ctx, document.row) };
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
    output: typedAs<CreditNoteSummary<D>[]>(listOf(creditNoteSummarySchema(ck))),
    meta: pageMetaSchema,
    async run(ctx, input) {
      checkRange(input.fromDate, input.toDate, ['fromDate', 'toDate']);
      const documentId = (input as Record<string, unknown>)[docField] as string | undefined;
      const { rows, meta } = await listCreditNotes(orgOf(ctx).db, ck, { ...input, documentId });
      return { data: rows, meta };
    },
  });

  const get = defineOperation({
    name: `${group}.get`,
    summary: `Show a ${ck.noun} with its lines, allocations and refunds`,
    access: 'invoices:read',
    method: 'GET',
    path: `${base}/{id}`,
    params,
    output: view,
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
    output: view,
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { note } = await voidCreditNote(trx, ck, postingOf(ctx), input.id);
        const view = await creditNoteView(trx, ck, note);
        if (sales) await emit(trx, ctx.clock, 'credit_note.voided', view);
        return view;
      });
      return { data };
    },
  });

  type Allocated = { id: string; creditNoteId: string; amount: number; date: string; createdAt: string; remainingCredit: number } & Record<`${D}Id`, string> &
    DocumentStanding<D>;

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
    output: typedAs<Allocated>(
      z.strictObject({
        id: idOut('alloc'),
        creditNoteId: idOut(ck.idPrefix),
        ...creditedField(ck.credits, 'Id', idOut(ck.doc.idPrefix)),
        amount: pence(),
        date: day(),
        createdAt: instant(),
        remainingCredit,
        ...documentStandingShape(ck),
      }),
    ),
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const body = input as unknown as Record<string, unknown>;
        const { allocation, note, document } = await allocateCredit(trx, ck, postingOf(ctx), input.id, docField, {
          documentId: body[docField] as string,
          amount: input.amount,
          date: input.date,
        });
        await documentEvents(trx, ck, ctx, [document]);
        return {
          id: allocation.id,
          creditNoteId: note.id,
          ...creditedField(ck.credits, 'Id', allocation.invoice_id),
          amount: allocation.amount,
          date: allocation.date,
          createdAt: allocation.created_at,
          remainingCredit: note.total - note.allocated - note.refunded,
          ...standing(ck, ctx, document.row),
        };
      });
      return { data };
    },
  });

  type Unallocated = { id: string; deleted: true; remainingCredit: number } & Record<`${D}Id`, string> & DocumentStanding<D>;

  const unallocate = defineOperation({
    name: `${group}.remove-allocation`,
    summary: `Take back credit allocated to ${sales ? 'an invoice' : 'a bill'}: it is owed again`,
    access: 'invoices:write',
    method: 'DELETE',
    path: `${base}/{id}/allocations/{allocationId}`,
    params: { ...params, allocationId: idOf('alloc') },
    output: typedAs<Unallocated>(
      z.strictObject({
        id: idOut('alloc'),
        deleted: z.literal(true),
        remainingCredit,
        ...creditedField(ck.credits, 'Id', idOut(ck.doc.idPrefix)),
        ...documentStandingShape(ck),
      }),
    ),
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { allocation, note, document } = await removeAllocation(trx, ck, postingOf(ctx), input.id, input.allocationId);
        return {
          id: allocation.id,
          deleted: true as const,
          remainingCredit: note.total - note.allocated - note.refunded,
          ...creditedField(ck.credits, 'Id', allocation.invoice_id),
          ...standing(ck, ctx, document.row),
        };
      });
      return { data };
    },
  });

  const refund = defineOperation({
    name: `${group}.refund`,
    summary: sales
      ? "Refund a credit note's remaining credit to the customer out of a bank account (debit 1100, credit the bank)"
      : "Record a supplier's refund of a credit note's remaining credit into a bank account (debit the bank, credit 2100)",
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
    output: refundSchema.extend({ remainingCredit }),
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { refund: row, note } = await refundCredit(trx, ck, postingOf(ctx), input.id, input);
        const refunded: Refund & { remainingCredit: number } = { ...refundView(row), remainingCredit: note.total - note.allocated - note.refunded };
        return refunded;
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
    output: z.strictObject({ id: idOut('rfd'), deleted: z.literal(true), remainingCredit }),
    async run(ctx, input) {
      const data = await orgOf(ctx).write(async (trx) => {
        const { refund: row, note } = await removeRefund(trx, ck, postingOf(ctx), input.id, input.refundId);
        return { id: row.id, deleted: true as const, remainingCredit: note.total - note.allocated - note.refunded };
      });
      return { data };
    },
  });

  return { list, create, get, voidOp, allocate, unallocate, refund, unrefund };
}

const sales = operationsFor(salesCredit, 'credit-notes', '/credit-notes');
const supplier = operationsFor(supplierCredit, 'supplier-credit-notes', '/supplier-credit-notes');

/** The lists, typed, for the CLI's tables. */
export const listCreditNotesOp = sales.list;
export const listSupplierCreditNotesOp = supplier.list;

export const creditNoteOperations: Operation[] = [...Object.values(sales), creditNotePdfOp];
export const supplierCreditNoteOperations: Operation[] = Object.values(supplier);
