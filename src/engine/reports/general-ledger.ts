/**
 * The general ledger over a period: for every account with a balance or
 * activity (or one account), its opening balance, its posted lines in date
 * order with a running balance, totals and closing balance (debit − credit).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { addDays } from '../dates.js';
import { accountTypes, findAccount } from '../ledger/accounts.js';
import { pence } from '../schema.js';
import { day, idOut } from '../output.js';
import { periodSchema, postedBalances } from './balances.js';
import type { OrgDb } from '../../store/tables.js';

const ledgerLine = z.strictObject({
  id: idOut('txn').describe('the transaction'),
  date: day(),
  description: z.string(),
  reference: z.string().nullable(),
  debit: pence(),
  credit: pence(),
  runningBalance: pence().describe('debit − credit, from the opening balance to this line'),
});

export const generalLedgerSchema = z.strictObject({
  period: periodSchema,
  accounts: z
    .array(
      z.strictObject({
        id: idOut('acc'),
        code: z.string(),
        name: z.string(),
        accountType: z.enum(accountTypes),
        openingBalance: pence().describe('debit − credit of the lines before from'),
        transactions: z.array(ledgerLine),
        closingBalance: pence(),
        totalDebit: pence(),
        totalCredit: pence(),
      }),
    )
    .describe('by code: every account with an opening balance or lines in the period, or the one asked for'),
});
export type GeneralLedger = z.output<typeof generalLedgerSchema>;

export async function generalLedger(db: Kysely<OrgDb>, from: string, to: string, accountId?: string): Promise<GeneralLedger> {
  const only = accountId === undefined ? undefined : await findAccount(db, accountId);
  const opening = new Map((await postedBalances(db, { to: addDays(from, -1) })).map((b) => [b.id, b.net]));
  // Lines only, in posting order; grouped by account below (the accounts come from their own query).
  let q = db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .where('lines.posted', '=', 1)
    .where('lines.date', '>=', from)
    .where('lines.date', '<=', to)
    .select(['lines.account_id', 'lines.transaction_id as id', 'lines.date', 'transactions.description', 'transactions.reference', 'lines.amount'])
    .orderBy('lines.date')
    .orderBy('transactions.created_at')
    .orderBy('transactions.id')
    .orderBy('lines.line_no');
  if (only) q = q.where('lines.account_id', '=', only.id);
  const byAccount = new Map<string, Awaited<ReturnType<typeof q.execute>>>();
  for (const row of await q.execute()) {
    const list = byAccount.get(row.account_id);
    if (list) list.push(row);
    else byAccount.set(row.account_id, [row]);
  }
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'account_type'])
    .$if(only !== undefined, (qb) => qb.where('id', '=', only?.id ?? ''))
    .orderBy('code')
    .execute();
  return {
    period: { from, to },
    accounts: accounts
      .map((a) => {
        const openingBalance = opening.get(a.id) ?? 0;
        let running = openingBalance;
        let totalDebit = 0;
        let totalCredit = 0;
        const transactions = (byAccount.get(a.id) ?? []).map((r) => {
          running += r.amount;
          const debit = Math.max(r.amount, 0);
          const credit = Math.max(-r.amount, 0);
          totalDebit += debit;
          totalCredit += credit;
          return { id: r.id, date: r.date, description: r.description, reference: r.reference, debit, credit, runningBalance: running };
        });
        return {
          id: a.id,
          code: a.code,
          name: a.name,
          accountType: a.account_type,
          openingBalance,
          transactions,
          closingBalance: running,
          totalDebit,
          totalCredit,
        };
      })
      .filter((a) => only !== undefined || a.openingBalance !== 0 || a.transactions.length > 0),
  };
}
