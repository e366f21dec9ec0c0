/**
 * The general ledger over a period, a page at a time: for every account with
 * a balance or activity (or one account), in code order, its opening
 * balance, its posted lines in date order with a running balance, and its
 * totals and closing balance (debit − credit) over the whole period.
 *
 * A page holds at most `limit` lines. An account whose lines run over a page
 * boundary appears on both pages, with the same balances and totals and its
 * running balance carried on; meta.nextCursor, sent back as `cursor`, asks
 * for the page after (null on the last). Balances and totals come from
 * account_days, so a page costs its own lines and a few sums per account,
 * however long the ledger: no request reads, holds or serialises all of it.
 *
 * Where the period crosses a financial year's start, income, expense and
 * 3100 accounts show the year end as a line of its own (year-end.ts), so
 * that every account closes at the trial balance's figure at `to`.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { accountTypes, earlierYearsProfit, findAccount, openingRule } from '../ledger/accounts.js';
import { yearEndRows, yearEnds, type YearEndRow } from '../ledger/year-end.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { cursorOf, cursorPosition, type CursorMeta } from '../pagination.js';
import { pence } from '../schema.js';
import { day, idOut } from '../output.js';
import { periodSchema } from './balances.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

const ledgerLine = z.strictObject({
  kind: z
    .enum(['line', 'year_end'])
    .describe(
      'line: a posted line; year_end: the close of a financial year inside the period, dated the new year’s first day, posted nowhere: an income or expense account brought to nothing, 3100 Retained Earnings taking the year’s profit (a loss as a debit)',
    ),
  id: idOut('txn').nullable().describe('the transaction; null on a year_end line'),
  date: day(),
  description: z.string(),
  reference: z.string().nullable(),
  debit: pence(),
  credit: pence(),
  runningBalance: pence().describe('debit − credit, from the opening balance to this line'),
});

const ledgerAccount = z.strictObject({
  id: idOut('acc'),
  code: z.string(),
  name: z.string(),
  accountType: z.enum(accountTypes),
  openingBalance: pence().describe(
    'debit − credit of the lines before from, as the trial balance of the day before shows it: an income or expense account’s of its financial year only, and 3100 Retained Earnings with the profit of the years before',
  ),
  transactions: z.array(ledgerLine).describe("this page's lines of the account, year ends among them"),
  closingBalance: pence().describe('over the whole period, not only this page: the trial balance’s figure at to'),
  totalDebit: pence().describe('over the whole period (year ends included), not only this page'),
  totalCredit: pence(),
});

export const generalLedgerSchema = z.strictObject({
  period: periodSchema,
  accounts: z
    .array(ledgerAccount)
    .describe(
      'by code: every account with an opening balance, lines or a year end in the period, or the one asked for; an account split between pages is on both',
    ),
});
export type GeneralLedger = z.output<typeof generalLedgerSchema>;
type LedgerAccount = GeneralLedger['accounts'][number];

export interface GeneralLedgerQuery {
  readonly from: string;
  readonly to: string;
  readonly accountId?: string | undefined;
  /** Lines on a page at most. */
  readonly limit: number;
  readonly cursor?: string | undefined;
}

/** Lines a page holds by default, and at most. */
export const ledgerPageLimits = { default: 500, max: 2000 } as const;

/**
 * Where a page ended: its last line, in the order lines are listed (account code, date, entry time, transaction, line).
 * A year end, listed before the lines of its date, is at its date with an empty entry time and transaction and line -1.
 */
interface Position {
  readonly accountId: string;
  readonly code: string;
  readonly date: string;
  readonly createdAt: string;
  readonly transactionId: string;
  readonly lineNo: number;
}

/** What a cursor was given for: a page goes on only from the query that made it (another `from` would misstate the running balance). */
const queryKey = (q: GeneralLedgerQuery): string => `${q.from} ${q.to} ${q.accountId ?? ''}`;

function positionOf(cursor: string, query: GeneralLedgerQuery): Position {
  const [key, accountId, code, date, createdAt, transactionId, lineNo] = cursorPosition(cursor);
  if (
    typeof key !== 'string' ||
    typeof accountId !== 'string' ||
    typeof code !== 'string' ||
    typeof date !== 'string' ||
    typeof createdAt !== 'string' ||
    typeof transactionId !== 'string' ||
    typeof lineNo !== 'number' ||
    !Number.isInteger(lineNo)
  ) {
    throw new AppError('validation_error', 'cursor is not a cursor this endpoint gave: pass meta.nextCursor as it came', 'cursor');
  }
  if (key !== queryKey(query)) {
    throw new AppError('validation_error', 'cursor was given for another query: send it with the from, to and accountId of the page it came from', 'cursor');
  }
  return { accountId, code, date, createdAt, transactionId, lineNo };
}

const cursorAt = (query: GeneralLedgerQuery, p: Position): string =>
  cursorOf([queryKey(query), p.accountId, p.code, p.date, p.createdAt, p.transactionId, p.lineNo]);

const postedLines = (db: Kysely<OrgDb>, accountId: string) =>
  db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .where('lines.account_id', '=', accountId)
    .where('lines.posted', '=', 1);

/**
 * An account's opening balance at `from` (by openingRule: as the trial
 * balance of the day before shows it), and its debits and credits from
 * `from` to `to`, in one pass over its per-day totals.
 */
async function sumsOf(db: Kysely<OrgDb>, account: AccountRow, from: string, to: string, fiscalYearStart: string) {
  const rule = openingRule(account, from, fiscalYearStart);
  const since = rule.since ?? '';
  const row = await db
    .selectFrom('account_days')
    .where('account_id', '=', account.id)
    .where('date', '>=', since)
    .where('date', '<=', to)
    .select((eb) => [
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('date', '<', from)
            .then(eb('debit', '-', eb.ref('credit')))
            .else(0)
            .end(),
        )
        .as('opening'),
      eb.fn.sum<number>(eb.case().when('date', '>=', from).then(eb.ref('debit')).else(0).end()).as('debit'),
      eb.fn.sum<number>(eb.case().when('date', '>=', from).then(eb.ref('credit')).else(0).end()).as('credit'),
    ])
    .executeTakeFirstOrThrow();
  const earlier = rule.retained ? await earlierYearsProfit(db, rule.yearStart) : 0;
  return { opening: Number(row.opening ?? 0) + earlier, debit: Number(row.debit ?? 0), credit: Number(row.credit ?? 0) };
}

const yearEndAt = (accountId: string, code: string, date: string): Position => ({ accountId, code, date, createdAt: '', transactionId: '', lineNo: -1 });

/** Debit − credit of an account's lines from `from` up to and including the line at `p` (the year ends are the caller's). */
async function balanceThrough(db: Kysely<OrgDb>, from: string, p: Position): Promise<number> {
  const days = await db
    .selectFrom('account_days')
    .where('account_id', '=', p.accountId)
    .where('date', '>=', from)
    .where('date', '<', p.date)
    .select((eb) => eb.fn.sum<number>(eb('debit', '-', eb.ref('credit'))).as('net'))
    .executeTakeFirstOrThrow();
  const sameDay = await postedLines(db, p.accountId)
    .where('lines.date', '=', p.date)
    .where((eb) => eb(eb.refTuple('transactions.created_at', 'lines.transaction_id', 'lines.line_no'), '<=', eb.tuple(p.createdAt, p.transactionId, p.lineNo)))
    .select((eb) => eb.fn.sum<number>('lines.amount').as('net'))
    .executeTakeFirstOrThrow();
  return Number(days.net ?? 0) + Number(sameDay.net ?? 0);
}

/** Up to `n` of an account's lines in the period, in order, after `after` when given. */
function linesAfter(db: Kysely<OrgDb>, accountId: string, from: string, to: string, after: Position | null, n: number) {
  let q = postedLines(db, accountId)
    .where('lines.date', '>=', after && after.date > from ? after.date : from)
    .where('lines.date', '<=', to);
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('lines.date', 'transactions.created_at', 'lines.transaction_id', 'lines.line_no'),
        '>',
        eb.tuple(after.date, after.createdAt, after.transactionId, after.lineNo),
      ),
    );
  }
  return q
    .select([
      'lines.transaction_id as id',
      'lines.date',
      'transactions.created_at',
      'lines.line_no',
      'transactions.description',
      'transactions.reference',
      'lines.amount',
    ])
    .orderBy('lines.date')
    .orderBy('transactions.created_at')
    .orderBy('lines.transaction_id')
    .orderBy('lines.line_no')
    .limit(n)
    .execute();
}

type AccountRow = Pick<AccountsTable, 'id' | 'code' | 'name' | 'account_type'>;

type Line = LedgerAccount['transactions'][number];

const yearEndLine = (row: YearEndRow): Omit<Line, 'runningBalance'> => ({
  kind: 'year_end',
  id: null,
  date: row.date,
  description: row.description,
  reference: null,
  debit: Math.max(row.amount, 0),
  credit: Math.max(-row.amount, 0),
});

/** One page of the general ledger, and where the next begins. */
export async function generalLedger(db: Kysely<OrgDb>, query: GeneralLedgerQuery): Promise<{ readonly ledger: GeneralLedger; readonly meta: CursorMeta }> {
  const { from, to, limit } = query;
  const only = query.accountId === undefined ? undefined : await findAccount(db, query.accountId);
  const after = query.cursor === undefined ? null : positionOf(query.cursor, query);
  const fiscalYearStart = (await loadOrganisation(db)).fiscal_year_start;
  const ends = await yearEnds(db, { from, to }, fiscalYearStart);
  let accounts: AccountRow[] = await db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'account_type'])
    .$if(only !== undefined, (qb) => qb.where('id', '=', only?.id ?? ''))
    .orderBy('code')
    .orderBy('id')
    .execute();
  // Resume with the cursor's account (codes are unique), or the first after it.
  if (after) accounts = accounts.filter((a) => a.code >= after.code);

  const page: LedgerAccount[] = [];
  let left = limit;
  let last: Position | null = null;
  let hasMore = false;
  for (const a of accounts) {
    const resumed = after !== null && a.id === after.accountId;
    const closings = yearEndRows(a, ends);
    const sums = await sumsOf(db, a, from, to, fiscalYearStart);
    const closed = { debit: closings.reduce((x, c) => x + Math.max(c.amount, 0), 0), credit: closings.reduce((x, c) => x + Math.max(-c.amount, 0), 0) };
    const shown = only !== undefined || sums.opening !== 0 || sums.debit !== 0 || sums.credit !== 0 || closings.length > 0;
    if (!shown) continue;
    if (left === 0) {
      // The page is full and another account has a balance or lines to show (the resumed one is always first).
      hasMore = true;
      break;
    }
    const rows = await linesAfter(db, a.id, from, to, resumed ? after : null, left + 1);
    // The year ends not yet shown (after the cursor's line: a year end comes before the lines of its date), among the
    // lines read; when more lines are left unread, those after the last one read wait for the next page.
    const lastRead = rows.length > left ? rows[rows.length - 1]!.date : to;
    const waiting = closings.filter((c) => (!resumed || c.date > after.date) && c.date <= lastRead);
    type Entry = { readonly line: Omit<Line, 'runningBalance'>; readonly amount: number; readonly at: Position };
    const merged: Entry[] = [];
    let next = 0;
    for (const r of rows) {
      while (next < waiting.length && waiting[next]!.date <= r.date) {
        const c = waiting[next++]!;
        merged.push({ line: yearEndLine(c), amount: c.amount, at: yearEndAt(a.id, a.code, c.date) });
      }
      merged.push({
        line: {
          kind: 'line',
          id: r.id,
          date: r.date,
          description: r.description,
          reference: r.reference,
          debit: Math.max(r.amount, 0),
          credit: Math.max(-r.amount, 0),
        },
        amount: r.amount,
        at: { accountId: a.id, code: a.code, date: r.date, createdAt: r.created_at, transactionId: r.id, lineNo: r.line_no },
      });
    }
    for (const c of waiting.slice(next)) merged.push({ line: yearEndLine(c), amount: c.amount, at: yearEndAt(a.id, a.code, c.date) });
    // An account the last page ended with exactly is not shown again, empty.
    if (resumed && merged.length === 0) continue;
    const taken = merged.slice(0, left);
    let running = sums.opening;
    if (resumed) running += (await balanceThrough(db, from, after)) + closings.reduce((x, c) => x + (c.date <= after.date ? c.amount : 0), 0);
    const transactions = taken.map((e): Line => {
      running += e.amount;
      return { ...e.line, runningBalance: running };
    });
    page.push({
      id: a.id,
      code: a.code,
      name: a.name,
      accountType: a.account_type,
      openingBalance: sums.opening,
      transactions,
      closingBalance: sums.opening + sums.debit + closed.debit - sums.credit - closed.credit,
      totalDebit: sums.debit + closed.debit,
      totalCredit: sums.credit + closed.credit,
    });
    left -= taken.length;
    const end = taken[taken.length - 1];
    if (end) last = end.at;
    if (merged.length > taken.length) {
      hasMore = true;
      break;
    }
  }
  return {
    ledger: { period: { from, to }, accounts: page },
    meta: { limit, hasMore, nextCursor: hasMore && last ? cursorAt(query, last) : null },
  };
}

/**
 * Pages of the ledger as one: an account split between consecutive pages
 * becomes one account again, its lines in order (the CLI shows the whole
 * ledger this way).
 */
export function joinLedgerPages(pages: readonly GeneralLedger[]): GeneralLedger {
  const first = pages[0];
  if (!first) throw new Error('joinLedgerPages needs at least one page');
  const accounts: LedgerAccount[] = [];
  for (const page of pages) {
    for (const account of page.accounts) {
      const previous = accounts[accounts.length - 1];
      if (previous?.id === account.id) accounts[accounts.length - 1] = { ...previous, transactions: [...previous.transactions, ...account.transactions] };
      else accounts.push(account);
    }
  }
  return { period: first.period, accounts };
}
