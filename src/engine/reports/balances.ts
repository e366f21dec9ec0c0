/**
 * Posted balances per account over a date range: the one aggregate every
 * report reads. Reports store nothing and read only posted lines; the
 * result is ordered by code, so the same ledger gives the same output.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { day } from '../output.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

/** The dates a report covers, both included. */
export const periodSchema = z.strictObject({ from: day(), to: day() });

export interface AccountBalance {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly accountType: AccountsTable['account_type'];
  /** Sum of debit lines, sum of credit lines (positive), and debit − credit. */
  readonly debit: number;
  readonly credit: number;
  readonly net: number;
  /** Debit − credit of the lines dated before Range.split (0 without one). */
  readonly netBefore: number;
}

export interface Range {
  readonly from?: string;
  readonly to?: string;
  /** A day inside the range: netBefore sums the lines before it, in the same pass. */
  readonly split?: string;
}

/**
 * Sums the per-day totals the store keeps for posted lines (account_days):
 * a few rows per account and day, however many lines the ledger holds.
 * The days are summed per account first and the few sums then joined to
 * their accounts: grouping the joined rows by the accounts' columns sorted
 * every day's row (on 10,000 transactions, 12 ms of a report's 14).
 */
export async function postedBalances(db: Kysely<OrgDb>, range: Range): Promise<AccountBalance[]> {
  const split = range.split ?? '';
  let days = db
    .selectFrom('account_days')
    .select((eb) => [
      'account_days.account_id',
      eb.fn.sum<number>('account_days.debit').as('debit'),
      eb.fn.sum<number>('account_days.credit').as('credit'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('account_days.date', '<', split)
            .then(eb('account_days.debit', '-', eb.ref('account_days.credit')))
            .else(0)
            .end(),
        )
        .as('before'),
    ])
    .groupBy('account_days.account_id');
  if (range.from) days = days.where('account_days.date', '>=', range.from);
  if (range.to) days = days.where('account_days.date', '<=', range.to);
  const q = db
    .selectFrom(days.as('sums'))
    .innerJoin('accounts', 'accounts.id', 'sums.account_id')
    .select(['accounts.id', 'accounts.code', 'accounts.name', 'accounts.account_type', 'sums.debit', 'sums.credit', 'sums.before'])
    .orderBy('accounts.code');
  const rows = await q.execute();
  return rows
    .map((r) => {
      const debit = Number(r.debit);
      const credit = Number(r.credit);
      return { id: r.id, code: r.code, name: r.name, accountType: r.account_type, debit, credit, net: debit - credit, netBefore: Number(r.before) };
    })
    .filter((b) => b.debit !== 0 || b.credit !== 0);
}

/** The balance as a report shows it: debit − credit for assets and expenses, credit − debit for the rest. */
export function naturalBalance(b: Pick<AccountBalance, 'accountType' | 'net'>): number {
  return b.accountType === 'asset' || b.accountType === 'expense' ? b.net : -b.net;
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
