/** The operations of transactions: create, read, list, update a draft, change status, reconcile, delete, and an account's ledger. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { checkRange, idOf, isoDate, pence, searchText } from '../schema.js';
import { vatTreatments } from './line-vat.js';
import { idOut, instant } from '../output.js';
import { pageMetaSchema, pageQuery, sortQuery } from '../pagination.js';
import { categoriseTransaction, maxDescriptionLength, maxLines, maxReferenceLength, postingOf, setReconciled } from './posting.js';
import { loadTransaction, transactionSchema, transactionStatuses, transactionSummarySchema } from './transaction-view.js';
import { changeJournal, createJournal, deleteJournal, listTransactionPage, setJournalStatus } from './transactions.js';
import { accountLedger, accountLedgerSchema } from './account-ledger.js';

const line = z.strictObject({
  accountId: idOf('acc'),
  amount: pence(),
  description: z.string().max(500).nullable().optional(),
  contactId: idOf('cont').nullable().optional(),
  vatRate: z.number().int().min(0).max(100).nullable().optional(),
  vatTreatment: z.enum(vatTreatments).nullable().optional(),
  vatAmount: pence().min(0).nullable().optional().describe('the VAT as rounded by the caller, within a penny of vatRate × amount; computed when left out'),
});

const fields = {
  date: isoDate(),
  description: z.string().trim().min(1).max(maxDescriptionLength),
  reference: z.string().max(maxReferenceLength).nullable().optional(),
  status: z.enum(transactionStatuses).default('posted'),
  lines: z.array(line).min(2).max(maxLines),
};

const txnParams = { id: idOf('txn') };

export const createTransactionOp = defineOperation({
  name: 'transactions.create',
  summary: 'Record a transaction: lines in pence (positive debit, negative credit) summing to exactly 0',
  description:
    'Posted unless status is draft. VAT facts on a line (vatRate with vatTreatment inclusive or exclusive) add no lines: they store vatAmount and make the line count in the VAT return (see acct-api(7)).',
  access: 'transactions:write',
  method: 'POST',
  path: '/transactions',
  status: 201,
  body: fields,
  output: transactionSchema,
  async run(ctx, input) {
    const view = await orgOf(ctx).write((trx) => createJournal(trx, postingOf(ctx), input));
    return { data: view };
  },
});

export const getTransaction = defineOperation({
  name: 'transactions.get',
  summary: 'Show a transaction with its lines',
  access: 'transactions:read',
  method: 'GET',
  path: '/transactions/{id}',
  params: txnParams,
  output: transactionSchema,
  async run(ctx, input) {
    return { data: await loadTransaction(orgOf(ctx).db, input.id) };
  },
});

export const listTransactions = defineOperation({
  name: 'transactions.list',
  summary: 'List transactions without their lines, with filters',
  access: 'transactions:read',
  method: 'GET',
  path: '/transactions',
  query: {
    from: isoDate().optional(),
    to: isoDate().optional(),
    accountId: idOf('acc').optional(),
    contactId: idOf('cont').optional(),
    status: z.enum(transactionStatuses).optional(),
    reconciled: z.boolean().optional(),
    search: searchText().optional(),
    ...pageQuery(50),
    ...sortQuery(['createdAt', 'date']),
  },
  output: z.array(transactionSummarySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    checkRange(input.from, input.to);
    const { rows, meta } = await listTransactionPage(orgOf(ctx).db, input);
    return { data: rows, meta };
  },
});

export const updateTransaction = defineOperation({
  name: 'transactions.update',
  summary: 'Change a draft transaction; lines, when sent, replace all its lines',
  access: 'transactions:write',
  method: 'PUT',
  path: '/transactions/{id}',
  params: txnParams,
  body: {
    date: fields.date.optional(),
    description: fields.description.optional(),
    reference: fields.reference,
    status: z.enum(transactionStatuses).optional(),
    lines: fields.lines.optional(),
  },
  output: z.strictObject({ id: idOut('txn'), updatedAt: instant() }),
  async run(ctx, input) {
    const view = await orgOf(ctx).write((trx) => changeJournal(trx, postingOf(ctx), input.id, input));
    return { data: { id: view.id, updatedAt: view.updatedAt } };
  },
});

export const setStatusOp = defineOperation({
  name: 'transactions.status',
  summary: 'Post a draft, or return a posted transaction to draft (not when reconciled)',
  access: 'transactions:write',
  method: 'PATCH',
  path: '/transactions/{id}/status',
  params: txnParams,
  body: { status: z.enum(transactionStatuses) },
  output: z.strictObject({ id: idOut('txn'), status: z.enum(transactionStatuses) }),
  async run(ctx, input) {
    const row = await orgOf(ctx).write((trx) => setJournalStatus(trx, postingOf(ctx), input.id, input.status));
    return { data: { id: row.id, status: row.status } };
  },
});

export const reconcileOp = defineOperation({
  name: 'transactions.reconcile',
  summary: 'Mark a posted transaction reconciled (true) or not (false)',
  access: 'transactions:write',
  method: 'PATCH',
  path: '/transactions/{id}/reconcile',
  params: txnParams,
  body: { reconciled: z.boolean() },
  output: z.strictObject({ id: idOut('txn'), isReconciled: z.boolean(), reconciledAt: instant().nullable() }),
  async run(ctx, input) {
    const row = await orgOf(ctx).write((trx) => setReconciled(trx, postingOf(ctx), input.id, input.reconciled));
    return { data: { id: row.id, isReconciled: row.is_reconciled === 1, reconciledAt: row.reconciled_at } };
  },
});

export const deleteTransactionOp = defineOperation({
  name: 'transactions.delete',
  summary: 'Delete a draft manual or imported transaction',
  access: 'transactions:write',
  method: 'DELETE',
  path: '/transactions/{id}',
  params: txnParams,
  output: z.strictObject({ id: idOut('txn'), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteJournal(trx, input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const accountLedgerOp = defineOperation({
  name: 'transactions.ledger',
  summary: "An account's ledger: posted lines in date order with opening, running and closing balances",
  access: 'transactions:read',
  method: 'GET',
  path: '/transactions/account/{accountId}',
  params: { accountId: idOf('acc') },
  query: { from: isoDate().optional(), to: isoDate().optional(), ...pageQuery(50) },
  cli: { group: 'transactions', action: 'account' },
  output: accountLedgerSchema,
  meta: pageMetaSchema,
  async run(ctx, input) {
    const { ledger, meta } = await accountLedger(orgOf(ctx).db, input);
    return { data: ledger, meta };
  },
});

export const categoriseOp = defineOperation({
  name: 'transactions.categorise',
  summary: 'Move a transaction’s suspense line (9999) to the account it belongs to, with its VAT facts',
  description:
    'For imported bank lines. vatRate with vatTreatment inclusive makes the line count in the VAT return (no extra lines; exclusive is refused: the bank line is what was paid, VAT included); the bank line is unchanged, so a reconciled transaction may be categorised. A bank line an import categorised already (by a rule, or by hand) may be categorised again: its line beside the bank’s moves, with the VAT facts given (a rule’s line carries none). 422 when nothing is on suspense on any other entry, or when a filed VAT return counted the transaction. The bank line’s own account, and the receivables and payables control accounts (record the payment on the invoice or bill), are refused.',
  access: 'transactions:write',
  method: 'PATCH',
  path: '/transactions/{id}/categorise',
  params: txnParams,
  body: { accountId: line.shape.accountId, vatRate: line.shape.vatRate, vatTreatment: line.shape.vatTreatment, contactId: line.shape.contactId },
  output: transactionSchema,
  async run(ctx, input) {
    const { id, ...change } = input;
    return { data: await orgOf(ctx).write((trx) => categoriseTransaction(trx, postingOf(ctx), id, change)) };
  },
});
