/** Reading transactions: one with its lines, as the API shows it. */
import type { Kysely } from 'kysely';
import { notFound } from '../errors.js';
import type { OrgDb, TransactionsTable } from '../../store/tables.js';

export type TransactionRow = TransactionsTable;

/** A transaction without its lines, as lists show it. */
export function transactionSummary(row: TransactionRow) {
  return {
    id: row.id,
    date: row.date,
    description: row.description,
    reference: row.reference,
    status: row.status,
    isReconciled: row.is_reconciled === 1,
    reconciledAt: row.reconciled_at,
    sourceType: row.source_type,
    sourceId: row.source_id,
    totalDebit: row.total_debit,
    totalCredit: row.total_debit,
    accountCodes: row.account_codes,
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findTransactionRow(db: Kysely<OrgDb>, id: string): Promise<TransactionRow> {
  const row = await db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('transaction', id);
  return row;
}

/** A transaction with its lines in the order they were given. */
export async function loadTransaction(db: Kysely<OrgDb>, id: string) {
  const row = await findTransactionRow(db, id);
  const lines = await db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .select([
      'lines.id',
      'lines.account_id',
      'accounts.code',
      'accounts.name',
      'lines.contact_id',
      'lines.amount',
      'lines.vat_rate',
      'lines.vat_treatment',
      'lines.vat_amount',
      'lines.description',
    ])
    .where('lines.transaction_id', '=', id)
    .orderBy('lines.line_no')
    .execute();
  return {
    ...transactionSummary(row),
    lines: lines.map((l) => ({
      id: l.id,
      accountId: l.account_id,
      accountCode: l.code,
      accountName: l.name,
      contactId: l.contact_id,
      amount: l.amount,
      vatRate: l.vat_rate,
      vatTreatment: l.vat_treatment,
      vatAmount: l.vat_amount,
      description: l.description,
    })),
  };
}

export type TransactionView = Awaited<ReturnType<typeof loadTransaction>>;
