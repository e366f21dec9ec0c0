/**
 * The transactions API over posting: create, read, list, update a draft,
 * change status, reconcile, delete. Journals (manual and imported) change
 * here; what invoices and payments made is changed only by those features.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { actorOf, defineOperation, orgOf, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { checkRange, idOf, isoDate, pence, searchText } from '../schema.js';
import { vatTreatments } from '../vat.js';
import { containsText } from '../search.js';
import { pageMeta, pageOffset, pageQuery, sortQuery } from '../pagination.js';
import {
  createTransaction,
  deleteTransaction,
  maxLines,
  replaceDraft,
  setReconciled,
  setTransactionStatus,
  type Posting,
} from './posting.js';
import { findTransactionRow, loadTransaction, transactionSummary } from './transaction-view.js';
import type { OrgDb } from '../../store/tables.js';

const posting = (ctx: Ctx): Posting => ({ clock: ctx.clock, actor: actorOf(ctx) });

const line = z.strictObject({
  accountId: idOf('acc'),
  amount: pence(),
  description: z.string().max(500).nullable().optional(),
  contactId: idOf('cont').nullable().optional(),
  vatRate: z.number().int().min(0).max(100).nullable().optional(),
  vatTreatment: z.enum(vatTreatments).nullable().optional(),
});

const statuses = ['draft', 'posted'] as const;

const fields = {
  date: isoDate(),
  description: z.string().trim().min(1).max(500),
  reference: z.string().max(100).nullable().optional(),
  status: z.enum(statuses).default('posted'),
  lines: z.array(line).min(2).max(maxLines),
};

const txnParams = { id: idOf('txn') };

export const createTransactionOp = defineOperation({
  name: 'transactions.create',
  summary: 'Record a transaction: lines in pence (positive debit, negative credit) summing to exactly 0',
  description: 'Posted unless status is draft. VAT metadata on a line (vatRate with vatTreatment) stores vatAmount only.',
  access: 'transactions:write',
  method: 'POST',
  path: '/transactions',
  status: 201,
  body: fields,
  async run(ctx, input) {
    const view = await orgOf(ctx).write((trx) => createTransaction(trx, posting(ctx), { ...input, sourceType: 'manual' }));
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
    status: z.enum(statuses).optional(),
    reconciled: z.boolean().optional(),
    search: searchText().optional(),
    ...pageQuery(50),
    ...sortQuery(['createdAt', 'date']),
  },
  async run(ctx, input) {
    checkRange(input.from, input.to);
    const db = orgOf(ctx).db;
    let q = db.selectFrom('transactions');
    if (input.from) q = q.where('date', '>=', input.from);
    if (input.to) q = q.where('date', '<=', input.to);
    if (input.status) q = q.where('status', '=', input.status);
    if (input.reconciled !== undefined) q = q.where('is_reconciled', '=', input.reconciled ? 1 : 0);
    const { search } = input;
    if (search) q = q.where((eb) => containsText(eb, ['description', 'reference'], search));
    for (const [column, value] of [
      ['account_id', input.accountId],
      ['contact_id', input.contactId],
    ] as const) {
      if (value) q = q.where('id', 'in', db.selectFrom('lines').select('transaction_id').where(column, '=', value));
    }
    const { page, limit, sort, ...filters } = input;
    const filtered = Object.values(filters).some((v) => v !== undefined);
    // The unfiltered total is kept by triggers (migration 0009): counting a million rows per page is most of the request.
    const { total } = filtered
      ? await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
      : await db.selectFrom('row_counts').select('n as total').where('table_name', '=', 'transactions').executeTakeFirstOrThrow();
    const column = sort.field === 'date' ? 'date' : 'created_at';
    const rows = await q.selectAll().orderBy(column, sort.direction).orderBy('id', sort.direction).limit(limit).offset(pageOffset(page, limit)).execute();
    return { data: rows.map(transactionSummary), meta: pageMeta(Number(total), page, limit) };
  },
});

/**
 * Journals only: manual ones, and imported ones, which keep their import's
 * sourceId so that undoing the import still takes them. What invoices and
 * payments made is theirs to change.
 */
const journalSources: ReadonlySet<string> = new Set(['manual', 'import']);

async function journalOnly(trx: Kysely<OrgDb>, id: string, what: string): Promise<void> {
  const row = await findTransactionRow(trx, id);
  if (!journalSources.has(row.source_type)) {
    const source = row.source_id === null ? row.source_type : `${row.source_type} ${row.source_id}`;
    throw new AppError('unprocessable_entity', `transaction ${id} was made by ${source} and cannot be ${what} here`);
  }
}

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
    status: z.enum(statuses).optional(),
    lines: fields.lines.optional(),
  },
  async run(ctx, input) {
    const view = await orgOf(ctx).write(async (trx) => {
      await journalOnly(trx, input.id, 'changed');
      return replaceDraft(trx, posting(ctx), input.id, input);
    });
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
  body: { status: z.enum(statuses) },
  async run(ctx, input) {
    const row = await orgOf(ctx).write(async (trx) => {
      await journalOnly(trx, input.id, 'changed');
      return setTransactionStatus(trx, posting(ctx), input.id, input.status);
    });
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
  async run(ctx, input) {
    const row = await orgOf(ctx).write((trx) => setReconciled(trx, posting(ctx), input.id, input.reconciled));
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
  async run(ctx, input) {
    await orgOf(ctx).write(async (trx) => {
      const row = await findTransactionRow(trx, input.id);
      if (row.is_reconciled !== 1) await journalOnly(trx, input.id, 'deleted');
      await deleteTransaction(trx, input.id);
    });
    return { data: { id: input.id, deleted: true } };
  },
});
