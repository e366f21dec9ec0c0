/**
 * Purchase bills from suppliers: the mirror of invoices. A draft carries
 * draft entries (debit each line's expense account and 2201 VAT input,
 * credit 2100 payables); approving posts them; payments debit 2100 and
 * credit the bank; void removes them. Bills use the invoices scopes and
 * raise no events (the spec's event list has none for them).
 */
import { z } from 'zod';
import { actorOf, defineOperation, orgOf, type Ctx } from '../operation.js';
import { clearableText, idOf, isoDate } from '../schema.js';
import type { Posting } from '../ledger/posting.js';
import { itemsInput } from './items.js';
import {
  amountDue,
  createDocument,
  deleteDocument,
  documentView,
  findDocument,
  issueDocument,
  listDocuments,
  listQuery,
  purchaseBill as k,
  updateDocument,
  voidDocument,
} from './documents.js';
import { paymentBody, paymentData, recordPayment, removePayment } from './payments.js';
import { emit } from '../events.js';

const posting = (ctx: Ctx): Posting => ({ clock: ctx.clock, actor: actorOf(ctx) });

export const billStatuses = ['draft', 'approved', 'paid', 'overdue', 'void'] as const;

const billParams = { id: idOf('bill') };

const fields = {
  contactId: idOf('cont'),
  billNumber: clearableText(100),
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
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => documentView(trx, k, await createDocument(trx, k, posting(ctx), { ...input, number: input.billNumber })));
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
  async run(ctx, input) {
    return listDocuments(orgOf(ctx).db, k, input);
  },
});

export const getBill = defineOperation({
  name: 'bills.get',
  summary: 'Show a bill with its lines and payments',
  access: 'invoices:read',
  method: 'GET',
  path: '/bills/{id}',
  params: billParams,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await documentView(db, k, await findDocument(db, k, input.id)) };
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
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) =>
      documentView(trx, k, await updateDocument(trx, k, posting(ctx), input.id, { ...input, number: input.billNumber })),
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
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteDocument(trx, k, input.id));
    return { data: { id: input.id, deleted: true } };
  },
});

export const approveBill = defineOperation({
  name: 'bills.approve',
  summary: 'Approve a draft bill: its entries are posted and it is owed',
  access: 'invoices:write',
  method: 'POST',
  path: '/bills/{id}/approve',
  params: billParams,
  async run(ctx, input) {
    const row = await orgOf(ctx).write((trx) => issueDocument(trx, k, posting(ctx), input.id));
    return { data: { id: row.id, billNumber: row.number, status: row.status, approvedAt: row.sent_at } };
  },
});

export const payBill = defineOperation({
  name: 'bills.pay',
  summary: 'Record a payment of an approved or overdue bill (never more than is due)',
  description: 'Posts debit 2100 and credit the bank account (accountId, a bank account; 1200 by default). The payment that clears the balance makes the bill paid.',
  access: 'invoices:write',
  method: 'POST',
  path: '/bills/{id}/payments',
  params: billParams,
  status: 201,
  body: paymentBody,
  async run(ctx, input) {
    const { payment, document } = await orgOf(ctx).write((trx) => recordPayment(trx, k, posting(ctx), input.id, input));
    return { data: { ...paymentData(k, payment), billStatus: document.status, amountDue: amountDue(document) } };
  },
});

export const removeBillPayment = defineOperation({
  name: 'bills.remove-payment',
  summary: 'Remove a bill payment recorded by mistake: its entry is deleted and the bill is owed again',
  description:
    'A paid bill goes back to approved, or overdue once past its due date. Refused when the payment\'s bank entry is reconciled (409 already_reconciled) ' +
    'or dated in a closed period (422). Raises payment.removed.',
  access: 'invoices:write',
  method: 'DELETE',
  path: '/bills/{id}/payments/{paymentId}',
  params: { ...billParams, paymentId: idOf('pay') },
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      const { payment, document } = await removePayment(trx, k, posting(ctx), input.id, input.paymentId);
      const removed = { ...paymentData(k, payment), billNumber: document.number, billStatus: document.status, amountDue: amountDue(document) };
      await emit(trx, ctx.clock, 'payment.removed', removed);
      return { ...removed, deleted: true };
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
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => documentView(trx, k, await voidDocument(trx, k, posting(ctx), input.id)));
    return { data: view };
  },
});
