/**
 * Reconciling a bank account against a statement: the posted lines on its
 * ledger account not yet reconciled up to a date, and marking them
 * reconciled in bulk only when the reconciled balance then equals the
 * statement's (422 balance_mismatch otherwise, nothing marked). A
 * transaction is reconciled as a whole (setReconciled), so a transfer
 * between two bank accounts is reconciled for both.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { sterling } from '../money.js';
import { pence } from '../schema.js';
import { day } from '../output.js';
import { setReconciled, type Posting } from '../ledger/posting.js';
import { findBankAccount } from './bank-accounts.js';
import type { OrgDb } from '../../store/tables.js';

export const unreconciledLineSchema = z.strictObject({
  transactionId: z.string(),
  date: day(),
  description: z.string(),
  reference: z.string().nullable(),
  amount: pence().describe('money in positive, out negative'),
});
export type UnreconciledLine = z.output<typeof unreconciledLineSchema>;

export const unreconciledSchema = z.strictObject({
  bankAccountId: z.number().int(),
  asOf: day(),
  reconciledBalance: pence().describe('the balance of the reconciled lines up to asOf'),
  unreconciledTotal: pence(),
  lines: z.array(unreconciledLineSchema),
});

/** The ledger balance of the reconciled lines on `accountId` up to `asOf`. */
async function reconciledBalance(db: Kysely<OrgDb>, accountId: string, asOf: string): Promise<number> {
  const row = await db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('lines.amount'), eb.val(0)).as('total'))
    .where('lines.account_id', '=', accountId)
    .where('lines.posted', '=', 1)
    .where('lines.date', '<=', asOf)
    .where('transactions.is_reconciled', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Posted, unreconciled lines on the bank account's ledger account up to `asOf`, oldest first, one per transaction. */
export async function unreconciledLines(db: Kysely<OrgDb>, bankAccountId: number, asOf: string): Promise<z.output<typeof unreconciledSchema>> {
  const bank = await findBankAccount(db, bankAccountId);
  const rows = await db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .select(['transactions.id as transactionId', 'transactions.date', 'transactions.description', 'transactions.reference'])
    .select((eb) => eb.fn.sum<number>('lines.amount').as('amount'))
    .where('lines.account_id', '=', bank.account_id)
    .where('lines.posted', '=', 1)
    .where('lines.date', '<=', asOf)
    .where('transactions.is_reconciled', '=', 0)
    .groupBy('transactions.id')
    .orderBy('transactions.date')
    .orderBy('transactions.created_at')
    .orderBy('transactions.id')
    .execute();
  const lines = rows.map((r) => ({ ...r, amount: Number(r.amount) }));
  return {
    bankAccountId,
    asOf,
    reconciledBalance: await reconciledBalance(db, bank.account_id, asOf),
    unreconciledTotal: lines.reduce((sum, l) => sum + l.amount, 0),
    lines,
  };
}

export interface Reconciliation {
  readonly statementBalance: number;
  readonly asOf: string;
  /** The transactions to mark; all the unreconciled ones up to asOf when left out. */
  readonly transactionIds?: readonly string[];
}

export const reconciledSchema = z.strictObject({
  bankAccountId: z.number().int(),
  asOf: day(),
  statementBalance: pence(),
  reconciledBalance: pence(),
  marked: z.array(z.string()).describe('the transactions marked reconciled now'),
});

/** Mark lines reconciled when the reconciled balance then equals the statement's; else 422 balance_mismatch and nothing marked. */
export async function reconcileBankAccount(
  trx: Kysely<OrgDb>,
  posting: Posting,
  bankAccountId: number,
  input: Reconciliation,
): Promise<z.output<typeof reconciledSchema>> {
  const open = await unreconciledLines(trx, bankAccountId, input.asOf);
  const byId = new Map(open.lines.map((l) => [l.transactionId, l]));
  const chosen = [...new Set(input.transactionIds ?? byId.keys())];
  const unknown = chosen.find((id) => !byId.has(id));
  if (unknown !== undefined) {
    throw new AppError(
      'validation_error',
      `transactionIds: ${unknown} is not an unreconciled posted line of bank account ${bankAccountId} up to ${input.asOf}`,
      'transactionIds',
    );
  }
  const after = open.reconciledBalance + chosen.reduce((sum, id) => sum + byId.get(id)!.amount, 0);
  if (after !== input.statementBalance) {
    const difference = input.statementBalance - after;
    throw new AppError(
      'balance_mismatch',
      `the reconciled balance at ${input.asOf} would be ${sterling(after)}, not the statement's ${sterling(input.statementBalance)}: ${sterling(Math.abs(difference))} ${difference > 0 ? 'more' : 'less'} on the statement; nothing was marked`,
      'statementBalance',
    );
  }
  for (const id of chosen) await setReconciled(trx, posting, id, true);
  return { bankAccountId, asOf: input.asOf, statementBalance: input.statementBalance, reconciledBalance: after, marked: chosen };
}
