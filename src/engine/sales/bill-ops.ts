/**
 * Purchase bills from suppliers: the mirror of invoices. A draft carries
 * draft entries (debit each line's expense account and 2201 VAT input,
 * credit 2100 payables); approving posts them; payments debit 2100 and
 * credit the bank; void removes them. Bills use the invoices scopes and
 * raise no events (the spec's event list has none for them) but
 * payment.removed. Bills have no rules of their own beyond the `Kind`
 * (documents.ts): these are the operations over the shared document code.
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { clearableText, currencyCode, idOf, isoDate, pence } from '../schema.js';
import { idOut, listOf } from '../output.js';
import { pageMetaSchema } from '../pagination.js';
import { postingOf } from '../ledger/posting.js';
import { itemsInput } from './items.js';
import { amountDue, billStatuses, findDocument, purchaseBill as k, statusIn } from './documents.js';
import { createDocument, deleteDocument, issueDocument, updateDocument, voidDocument } from './document-lifecycle.js';
import { billSchema, billSummary, billSummarySchema, billView } from './document-view.js';
import { listDocuments, listQuery } from './document-list.js';
import { billPaymentSchema, billPaymentView } from './payment-view.js';
import { paymentBody, recordPayment, removePayment } from './payments.js';
import { emit } from '../events.js';
import { asRead, sweepBeforeList, sweptBeforeGet } from './overdue.js';

const billParams = { id: idOf('bill') };

const fields = {
  contactId: idOf('cont'),
  billNumber: clearableText(100),
  currency: currencyCode().optional(),
  items: itemsInput(),
  issueDate: isoDate().optional(),
  dueDate: isoDate().optional(),
  dueDays: z.number().int().min(0).max(365).optional(),
  notes: clearableText(2000),
  reference: clearableText(100),
};

export const createBill = defineOperation({
  name: 'bills.create',
  summary: "Record a supplier's bill as a draft, with its ledger entries as a draft transaction",
  description:
    "billNumber is the supplier's invoice number. Items as for invoices; accountId is the expense (or asset) account of each line, " +
    '5000 Cost of Sales by default. The due date follows the same rules as invoices.',
  access: 'invoices:write',
  method: 'POST',
  path: '/bills',
  status: 201,
  body: fields,
  output: billSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => billView(trx, await createDocument(trx, k, postingOf(ctx), { ...input, number: input.billNumber })));
    return { data: view };
  },
});

export const listBills = defineOperation({
  name: 'bills.list',
  summary: 'List bills (without lines), newest first, filtered by status, supplier and issue date',
  access: 'invoices:read',
  method: 'GET',
  path: '/bills',
  query: {
    status: z.enum(billStatuses).optional(),
    contactId: idOf('cont').optional(),
    fromDate: isoDate().optional(),
    toDate: isoDate().optional(),
    ...listQuery('billNumber'),
  },
  output: listOf(billSummarySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    await sweepBeforeList(books, ctx.clock, k);
    return listDocuments(books.db, k, input, billSummary);
  },
});

export const getBill = defineOperation({
  name: 'bills.get',
  summary: 'Show a bill with its lines and payments',
  access: 'invoices:read',
  method: 'GET',
  path: '/bills/{id}',
  params: billParams,
  output: billSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    return { data: await billView(books.db, await sweptBeforeGet(books, ctx.clock, k, await findDocument(books.db, k, input.id))) };
  },
});

export const updateBill = defineOperation({
  name: 'bills.update',
  summary: 'Change a draft bill (fields left out stay; items replace all lines); approved bills are immutable',
  access: 'invoices:write',
  method: 'PUT',
  path: '/bills/{id}',
  params: billParams,
  body: { ...fields, contactId: fields.contactId.optional(), items: fields.items.optional() },
  output: billSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) =>
      billView(trx, await updateDocument(trx, k, postingOf(ctx), input.id, { ...input, number: input.billNumber })),
    );
    return { data: view };
  },
});

export const deleteBill = defineOperation({
  name: 'bills.delete',
  summary: 'Delete a draft bill and its draft entries',
  access: 'invoices:write',
  method: 'DELETE',
  path: '/bills/{id}',
  params: billParams,
  output: z.strictObject({ id: idOut('bill'), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteDocument(trx, k, input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const approveBill = defineOperation({
  name: 'bills.approve',
  summary: 'Approve a draft bill: its entries are posted and it is owed',
  access: 'invoices:write',
  method: 'POST',
  path: '/bills/{id}/approve',
  params: billParams,
  output: billSummarySchema.pick({ id: true, billNumber: true, status: true }).extend({ approvedAt: billSummarySchema.shape.approvedAt.unwrap() }),
  async run(ctx, input) {
    const row = asRead(k, ctx.clock, await orgOf(ctx).write((trx) => issueDocument(trx, k, postingOf(ctx), input.id)));
    return { data: { id: row.id, billNumber: row.number, status: statusIn(billStatuses, row), approvedAt: row.sent_at } };
  },
});

export const payBill = defineOperation({
  name: 'bills.pay',
  summary: 'Record a payment of an approved or overdue bill (never more than is due)',
  description:
    'Posts debit 2100 and credit the bank account (accountId, a bank account, 1200 by default; a sole trader may name an equity account of the owner’s such as 3000 Owner’s Capital for a bill paid with the owner’s own money). The payment that clears the balance makes the bill paid.',
  access: 'invoices:write',
  method: 'POST',
  path: '/bills/{id}/payments',
  params: billParams,
  status: 201,
  body: paymentBody,
  output: billPaymentSchema.extend({ billStatus: billSummarySchema.shape.status, amountDue: pence() }),
  async run(ctx, input) {
    const { payment, document } = await orgOf(ctx).write((trx) => recordPayment(trx, k, postingOf(ctx), input.id, input));
    return { data: { ...billPaymentView(payment), billStatus: statusIn(billStatuses, asRead(k, ctx.clock, document)), amountDue: amountDue(document) } };
  },
});

export const removeBillPayment = defineOperation({
  name: 'bills.remove-payment',
  summary: 'Remove a bill payment recorded by mistake: its entry is deleted and the bill is owed again',
  description:
    "A paid bill goes back to approved, or overdue once past its due date. Refused when the payment's bank entry is reconciled (409 already_reconciled) " +
    'or dated in a closed period (422). Raises payment.removed.',
  access: 'invoices:write',
  method: 'DELETE',
  path: '/bills/{id}/payments/{paymentId}',
  params: { ...billParams, paymentId: idOf('pay') },
  output: billPaymentSchema.extend({
    billNumber: billSummarySchema.shape.billNumber,
    billStatus: billSummarySchema.shape.status,
    amountDue: pence(),
    deleted: z.literal(true),
  }),
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      const { payment, document } = await removePayment(trx, k, postingOf(ctx), input.id, input.paymentId);
      const removed = {
        ...billPaymentView(payment),
        billNumber: document.number,
        billStatus: statusIn(billStatuses, asRead(k, ctx.clock, document)),
        amountDue: amountDue(document),
      };
      await emit(trx, ctx.clock, 'payment.removed', removed);
      return { ...removed, deleted: true as const };
    });
    return { data };
  },
});

export const voidBill = defineOperation({
  name: 'bills.void',
  summary: 'Void a bill without payments: its entries leave the ledger (irreversible)',
  access: 'invoices:write',
  method: 'POST',
  path: '/bills/{id}/void',
  params: billParams,
  output: billSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => billView(trx, await voidDocument(trx, k, postingOf(ctx), input.id)));
    return { data: view };
  },
});
