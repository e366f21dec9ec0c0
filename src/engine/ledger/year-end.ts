/**
 * The year ends a ledger shows where its range crosses the start of a
 * financial year, as Sage and FreeAgent print them: the trial balance starts
 * each year's income and expense accounts at nothing and carries the year
 * just ended into 3100 Retained Earnings (openingRule), so a ledger across a
 * year start shows that move as a row dated the new year's first day. Then
 * its closing balance is the trial balance's at `to`, whatever the range.
 * The rows are figures read from the per-day totals, never posted.
 */
import type { Kysely } from 'kysely';
import { addDays, fiscalYearContaining, fiscalYearFrom } from '../dates.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

/** A year end in a ledger's range: the new year's first day, and every income and expense account's movement in the year just ended. */
export interface YearEnd {
  /** The first day of the new financial year: the row's date. */
  readonly date: string;
  /** The last day of the year closed. */
  readonly yearEnd: string;
  /** Debit − credit of each income and expense account over the year closed (accounts with none left out). */
  readonly byAccount: ReadonlyMap<string, number>;
  /** Their sum: the year's profit as a debit (negative when a profit). */
  readonly profit: number;
}

/** A year end as one account's ledger shows it: what it moves, debit − credit. */
export interface YearEndRow {
  readonly date: string;
  readonly yearEnd: string;
  readonly amount: number;
  readonly description: string;
}

type Account = Pick<AccountsTable, 'id' | 'code' | 'account_type'>;

const isProfitOrLoss = (account: Pick<AccountsTable, 'account_type'>): boolean => account.account_type === 'revenue' || account.account_type === 'expense';
const isRetained = (account: Pick<AccountsTable, 'code' | 'account_type'>): boolean => account.code === '3100' && account.account_type === 'equity';

/** Whether an account's ledger can hold year end rows at all: income, expenses, and 3100 Retained Earnings. */
export const closesAtYearEnd = (account: Pick<AccountsTable, 'code' | 'account_type'>): boolean => isProfitOrLoss(account) || isRetained(account);

/** The first days of financial years after `after` up to and including `through`, in order. */
export function yearStartsBetween(after: string, through: string, fiscalYearStart: string): string[] {
  const starts: string[] = [];
  for (let next = addDays(fiscalYearContaining(after, fiscalYearStart).endDate, 1); next <= through; next = addDays(fiscalYearFrom(next).endDate, 1)) {
    starts.push(next);
  }
  return starts;
}

/**
 * The year ends between `from` (exclusive: a year starting on `from` is the
 * opening's) and `to`. An open end is the books' first or last posted day,
 * so a ledger without `to` closes where the trial balance of its last day
 * does. `accountId` limits the movements read to one account.
 */
export async function yearEnds(
  db: Kysely<OrgDb>,
  range: { readonly from?: string | undefined; readonly to?: string | undefined },
  fiscalYearStart: string,
  accountId?: string,
): Promise<YearEnd[]> {
  let { from, to } = range;
  if (from === undefined || to === undefined) {
    const span = await db
      .selectFrom('account_days')
      .select((eb) => [eb.fn.min<string | null>('date').as('first'), eb.fn.max<string | null>('date').as('last')])
      .executeTakeFirstOrThrow();
    if (span.first === null || span.last === null) return [];
    from ??= span.first;
    to ??= span.last;
  }
  const out: YearEnd[] = [];
  for (const date of yearStartsBetween(from, to, fiscalYearStart)) {
    const yearEnd = addDays(date, -1);
    const rows = await db
      .selectFrom('account_days')
      .innerJoin('accounts', 'accounts.id', 'account_days.account_id')
      .where('accounts.account_type', 'in', ['revenue', 'expense'])
      .where('account_days.date', '>=', fiscalYearContaining(yearEnd, fiscalYearStart).startDate)
      .where('account_days.date', '<', date)
      .$if(accountId !== undefined, (q) => q.where('account_days.account_id', '=', accountId ?? ''))
      .groupBy('account_days.account_id')
      .select((eb) => ['account_days.account_id', eb.fn.sum<number>(eb('account_days.debit', '-', eb.ref('account_days.credit'))).as('net')])
      .execute();
    const byAccount = new Map(rows.map((r) => [r.account_id, Number(r.net ?? 0)]));
    out.push({ date, yearEnd, byAccount, profit: [...byAccount.values()].reduce((a, b) => a + b, 0) });
  }
  return out;
}

/**
 * The rows an account's ledger shows for the year ends: an income or expense
 * account gives up its year's movement (back to nothing), 3100 Retained
 * Earnings takes the year's profit (a loss as a debit). A year end that moves
 * nothing is not shown.
 */
export function yearEndRows(account: Pick<AccountsTable, 'id' | 'code' | 'account_type'>, ends: readonly YearEnd[]): YearEndRow[] {
  const rows: YearEndRow[] = [];
  for (const end of ends) {
    if (isProfitOrLoss(account)) {
      const amount = -(end.byAccount.get(account.id) ?? 0);
      if (amount !== 0) rows.push({ date: end.date, yearEnd: end.yearEnd, amount, description: `Year end ${end.yearEnd}: closed to 3100 Retained Earnings` });
    } else if (isRetained(account) && end.profit !== 0) {
      const what = end.profit < 0 ? 'profit' : 'loss';
      rows.push({
        date: end.date,
        yearEnd: end.yearEnd,
        amount: end.profit,
        description: `Year end ${end.yearEnd}: ${what} for the year closed from income and expenses`,
      });
    }
  }
  return rows;
}

/** One account's year end rows in a range: only income, expense and 3100 accounts read anything. */
export async function accountYearEnds(
  db: Kysely<OrgDb>,
  account: Account,
  range: { readonly from?: string | undefined; readonly to?: string | undefined },
  fiscalYearStart: string,
): Promise<YearEndRow[]> {
  if (!closesAtYearEnd(account)) return [];
  return yearEndRows(account, await yearEnds(db, range, fiscalYearStart, isProfitOrLoss(account) ? account.id : undefined));
}
