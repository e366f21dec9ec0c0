/** Reading transactions: one with its lines, or a summary without them, as the API shows them. */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { found } from '../lookup.js';
import { pence } from '../schema.js';
import { vatTreatments } from './line-vat.js';
import { day, idOut, instant } from '../output.js';
import { actorIdOut } from '../ids.js';
import { precompiled } from '../../store/precompiled.js';
import type { LinesTable, OrgDb, TransactionsTable } from '../../store/tables.js';

export type TransactionRow = TransactionsTable;

export const transactionStatuses = ['draft', 'posted'] as const;

/** A transaction without its lines, as lists show it. */
export const transactionSummarySchema = z.strictObject({
  id: idOut('txn'),
  date: day(),
  description: z.string(),
  reference: z.string().nullable(),
  status: z.enum(transactionStatuses),
  isReconciled: z.boolean(),
  reconciledAt: instant().nullable(),
  sourceType: z.string().describe('what made it: manual, import, invoice, payment, bill…'),
  sourceId: z.string().nullable().describe('the id of the record that made it (an invoice, an import…)'),
  totalDebit: pence(),
  totalCredit: pence(),
  accountCodes: z.string().describe('the codes of the accounts its lines use, comma-separated, in line order'),
  createdBy: z.string().describe('the user (usr_…) of a session, the API key id, or cli'),
  createdByName: z.string(),
  createdAt: instant(),
  updatedAt: instant(),
});
export type TransactionSummary = z.output<typeof transactionSummarySchema>;

export function transactionSummary(row: TransactionRow): TransactionSummary {
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
    createdBy: actorIdOut(row.created_by),
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const lineSchema = z.strictObject({
  id: idOut('line'),
  accountId: idOut('acc'),
  accountCode: z.string(),
  accountName: z.string(),
  contactId: idOut('cont').nullable(),
  amount: pence().describe('positive debit, negative credit'),
  vatRate: z.number().int().nullable().describe('percent'),
  vatTreatment: z.enum(vatTreatments).nullable(),
  vatAmount: pence().nullable().describe('the VAT inside or on top of amount, as metadata: no line of its own'),
  description: z.string().nullable(),
});

/** A transaction with its lines. */
export const transactionSchema = z.strictObject({ ...transactionSummarySchema.shape, lines: z.array(lineSchema) });
export type TransactionView = z.output<typeof transactionSchema>;

const transactionById = precompiled((db: Kysely<OrgDb>, id: string) => db.selectFrom('transactions').selectAll().where('id', '=', id));

export async function findTransactionRow(db: Kysely<OrgDb>, id: string): Promise<TransactionRow> {
  return found(transactionById.first(db, id), 'transaction', id);
}

const linesOf = precompiled((db: Kysely<OrgDb>, transactionId: string) =>
  db
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
    .where('lines.transaction_id', '=', transactionId)
    .orderBy('lines.line_no'),
);

/** A line as the view shows it: the line's columns with its account's code and name. */
export type LineWithAccount = Pick<LinesTable, 'id' | 'account_id' | 'contact_id' | 'amount' | 'vat_rate' | 'vat_treatment' | 'vat_amount' | 'description'> & {
  readonly code: string;
  readonly name: string;
};

/** A transaction with its lines in the order they were given. */
export async function loadTransaction(db: Kysely<OrgDb>, id: string): Promise<TransactionView> {
  return transactionViewOf(await findTransactionRow(db, id), await linesOf.all(db, id));
}

/** The view of a transaction row and its lines (in line order): as read back, or as posting has just written them. */
export function transactionViewOf(row: TransactionRow, lines: readonly LineWithAccount[]): TransactionView {
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
