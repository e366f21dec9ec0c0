/**
 * An account's ledger: its posted lines in date order with the balance
 * before the range (opening), a running balance after each line, and the
 * balance at the end (closing). Balances are debit − credit. Where the range
 * crosses a financial year's start, an income, expense or 3100 account shows
 * the year end as an entry of its own (year-end.ts), so that it closes where
 * the trial balance at the end of the range does.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { checkRange, pence } from '../schema.js';
import { day, idOut } from '../output.js';
import { pageMeta, pageOffset, type PageMeta } from '../pagination.js';
import { accountRef, accountRefSchema, findAccount, openingBalance, rangeSchema } from './accounts.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { OrgDb } from '../../store/tables.js';
import { chunksOf } from '../chunks.js';
import { accountYearEnds, type YearEndRow } from './year-end.js';

export interface LedgerQuery {
  readonly accountId: string;
  readonly from?: string;
  readonly to?: string;
  readonly page: number;
  readonly limit: number;
}

async function sumOf(db: Kysely<OrgDb>, accountId: string, where: (q: ReturnType<typeof linesOf>) => ReturnType<typeof linesOf>) {
  const row = await where(linesOf(db, accountId))
    .select((eb) => [
      eb.fn.sum<number>('lines.amount').as('net'),
      eb.fn.sum<number>(eb.case().when('lines.amount', '>', 0).then(eb.ref('lines.amount')).else(0).end()).as('debit'),
      eb.fn.countAll<number>().as('count'),
    ])
    .executeTakeFirstOrThrow();
  return { net: Number(row.net ?? 0), debit: Number(row.debit ?? 0), count: Number(row.count) };
}

const linesOf = (db: Kysely<OrgDb>, accountId: string) =>
  db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .where('lines.account_id', '=', accountId)
    .where('lines.posted', '=', 1);

export const ledgerEntrySchema = z.strictObject({
  kind: z
    .enum(['line', 'year_end'])
    .describe(
      'line: a posted line; year_end: the close of a financial year inside the range, dated the new year’s first day, posted nowhere: an income or expense account brought to nothing, 3100 Retained Earnings taking the year’s profit (a loss as a debit)',
    ),
  transactionId: idOut('txn').nullable().describe('null on a year_end entry'),
  lineId: idOut('line').nullable().describe('null on a year_end entry'),
  date: day(),
  description: z.string().describe("the line's description, else its transaction's"),
  reference: z.string().nullable(),
  debit: pence(),
  credit: pence(),
  runningBalance: pence().describe('debit − credit, from the opening balance to this line'),
});

export const accountLedgerSchema = z.strictObject({
  account: accountRefSchema,
  period: rangeSchema,
  openingBalance: pence().describe(
    'debit − credit of the posted lines before from, as the trial balance of the day before shows it: an income or expense account’s of its financial year only, and 3100 Retained Earnings with the profit of the years before',
  ),
  entries: z.array(ledgerEntrySchema).describe("this page's entries: the lines and the year ends among them"),
  totalDebit: pence().describe('of every entry in the range (year ends included), not only this page'),
  totalCredit: pence(),
  closingBalance: pence().describe('openingBalance + totalDebit − totalCredit: the trial balance’s figure at to'),
});
export type AccountLedger = z.output<typeof accountLedgerSchema>;

/**
 * What both readings of a ledger begin with: the range checked, the account, its balance before the range, the range
 * as a filter, and the year ends in it with what they add up to.
 */
async function ledgerStart(db: Kysely<OrgDb>, query: { readonly accountId: string; readonly from?: string; readonly to?: string }) {
  checkRange(query.from, query.to);
  const account = await findAccount(db, query.accountId);
  const fiscalYearStart = (await loadOrganisation(db)).fiscal_year_start;
  const opening = query.from === undefined ? 0 : await openingBalance(db, account, query.from, fiscalYearStart);
  const inRange = (q: ReturnType<typeof linesOf>) => {
    let r = q;
    if (query.from) r = r.where('lines.date', '>=', query.from);
    if (query.to) r = r.where('lines.date', '<=', query.to);
    return r;
  };
  const yearEnds = await accountYearEnds(db, account, query, fiscalYearStart);
  const closed = {
    net: yearEnds.reduce((a, y) => a + y.amount, 0),
    debit: yearEnds.reduce((a, y) => a + Math.max(y.amount, 0), 0),
    longest: Math.max(0, ...yearEnds.map((y) => y.description.length)),
  };
  return { account, opening, inRange, yearEnds, closed };
}

/** A year end as an entry, its running balance given. */
function yearEndEntry(row: YearEndRow, runningBalance: number): LedgerEntry {
  return {
    kind: 'year_end',
    transactionId: null,
    lineId: null,
    date: row.date,
    description: row.description,
    reference: null,
    debit: Math.max(row.amount, 0),
    credit: Math.max(-row.amount, 0),
    runningBalance,
  };
}

/**
 * One page of an account's ledger: its entries, and balances and totals over the whole range. A year end is an entry
 * placed before the lines of its date, after every line dated before it: the page's lines are those the year ends
 * before and on it leave room for.
 */
export async function accountLedger(db: Kysely<OrgDb>, query: LedgerQuery): Promise<{ readonly ledger: AccountLedger; readonly meta: PageMeta }> {
  const { account, opening, inRange, yearEnds, closed } = await ledgerStart(db, query);
  const totals = await sumOf(db, account.id, inRange);
  const placed: { readonly row: YearEndRow; readonly position: number; readonly runningBalance: number }[] = [];
  let closedSoFar = 0;
  for (const [i, row] of yearEnds.entries()) {
    const before = await sumOf(db, account.id, (q) => inRange(q).where('lines.date', '<', row.date));
    closedSoFar += row.amount;
    placed.push({ row, position: before.count + i, runningBalance: opening + before.net + closedSoFar });
  }
  const offset = pageOffset(query.page, query.limit);
  const onPage = placed.filter((p) => p.position >= offset && p.position < offset + query.limit);
  const lineOffset = offset - placed.filter((p) => p.position < offset).length;
  const lineLimit = query.limit - onPage.length;
  const rows =
    lineLimit === 0
      ? []
      : await inRange(linesOf(db, account.id))
          .select((eb) => [
            'lines.transaction_id',
            'lines.id',
            'lines.date',
            'lines.amount',
            'lines.description as line_description',
            'transactions.description',
            'transactions.reference',
            eb.fn
              .sum<number>('lines.amount')
              .over((ob) => ob.orderBy('lines.date').orderBy('transactions.created_at').orderBy('transactions.id').orderBy('lines.line_no'))
              .as('running'),
          ])
          .orderBy('lines.date')
          .orderBy('transactions.created_at')
          .orderBy('transactions.id')
          .orderBy('lines.line_no')
          .limit(lineLimit)
          .offset(lineOffset)
          .execute();
  // What the year ends up to a line's date have moved: they come before it.
  const closedBy = (date: string): number => yearEnds.reduce((a, y) => a + (y.date <= date ? y.amount : 0), 0);
  const entries: LedgerEntry[] = [];
  let line = 0;
  for (let position = offset; entries.length < query.limit; position++) {
    const yearEnd = onPage.find((p) => p.position === position);
    if (yearEnd) {
      entries.push(yearEndEntry(yearEnd.row, yearEnd.runningBalance));
      continue;
    }
    const r = rows[line++];
    if (!r) break;
    entries.push({
      kind: 'line',
      transactionId: r.transaction_id,
      lineId: r.id,
      date: r.date,
      description: r.line_description ?? r.description,
      reference: r.reference,
      debit: r.amount > 0 ? r.amount : 0,
      credit: r.amount < 0 ? -r.amount : 0,
      runningBalance: opening + Number(r.running) + closedBy(r.date),
    });
  }
  const ledger: AccountLedger = {
    account: accountRef(account),
    period: { from: query.from ?? null, to: query.to ?? null },
    openingBalance: opening,
    entries,
    totalDebit: totals.debit + closed.debit,
    totalCredit: totals.debit + closed.debit - (totals.net + closed.net),
    closingBalance: opening + totals.net + closed.net,
  };
  return { ledger, meta: pageMeta(totals.count + yearEnds.length, query.page, query.limit) };
}

export type LedgerEntry = AccountLedger['entries'][number];

export interface LedgerTotals {
  readonly totalDebit: number;
  readonly totalCredit: number;
  readonly closingBalance: number;
  /** How many entries the range holds (before any limit). */
  readonly count: number;
}

/** What a table needs before its first row: the totals, and the most characters of a description and a reference. */
export interface LedgerLayout extends LedgerTotals {
  readonly longestDescription: number;
  readonly longestReference: number;
}

/** An entry as the command line prints it, without the ids that only JSON shows. */
export type LedgerLine = Omit<LedgerEntry, 'transactionId' | 'lineId'>;

/** An account's ledger read in one pass: what is known before the entries, the entries as the database gives them, the totals after. */
export interface LedgerStream<E extends LedgerLine = LedgerEntry> {
  readonly head: Pick<AccountLedger, 'account' | 'period' | 'openingBalance'>;
  /** Only when asked for (`layout`): one more pass over the range before the entries. */
  readonly layout: LedgerLayout | null;
  /** The entries in order, each with its running balance, in chunks of about a thousand; at most `limit`. */
  readonly entries: AsyncIterable<readonly E[]>;
  /** The range's totals: added up while the entries were read when they were read whole, else asked of the database. */
  totals(): Promise<LedgerTotals>;
}

export interface LedgerStreamQuery {
  readonly accountId: string;
  readonly from?: string;
  readonly to?: string;
  readonly limit?: number;
  readonly layout?: boolean;
  /** Whether each entry carries its transaction's and line's ids (default true); reading them costs a fifth of the time. */
  readonly ids?: boolean;
}

/**
 * The whole of an account's ledger, streamed (for the command line, which
 * prints as it reads): the same entries and figures as accountLedger's
 * pages, without paging. The running balance and the totals are added up
 * here, so the database reads the range once, or twice with `layout`.
 */
export async function streamAccountLedger(db: Kysely<OrgDb>, query: LedgerStreamQuery & { readonly ids: false }): Promise<LedgerStream<LedgerLine>>;
export async function streamAccountLedger(db: Kysely<OrgDb>, query: LedgerStreamQuery & { readonly ids?: true }): Promise<LedgerStream>;
export async function streamAccountLedger(db: Kysely<OrgDb>, query: LedgerStreamQuery): Promise<LedgerStream<LedgerLine>> {
  const { account, opening, inRange, yearEnds, closed } = await ledgerStart(db, query);
  const asked = async (): Promise<LedgerLayout> => {
    const row = await inRange(linesOf(db, account.id))
      .select((eb) => [
        eb.fn.sum<number>('lines.amount').as('net'),
        eb.fn.sum<number>(eb.case().when('lines.amount', '>', 0).then(eb.ref('lines.amount')).else(0).end()).as('debit'),
        eb.fn.countAll<number>().as('count'),
        eb.fn.max<number | null>(eb.fn('length', [eb.fn.coalesce('lines.description', 'transactions.description')])).as('description'),
        eb.fn.max<number | null>(eb.fn('length', ['transactions.reference'])).as('reference'),
      ])
      .executeTakeFirstOrThrow();
    const [net, debit] = [Number(row.net ?? 0) + closed.net, Number(row.debit ?? 0) + closed.debit];
    return {
      totalDebit: debit,
      totalCredit: debit - net,
      closingBalance: opening + net,
      count: Number(row.count) + yearEnds.length,
      longestDescription: Math.max(Number(row.description ?? 0), closed.longest),
      longestReference: Number(row.reference ?? 0),
    };
  };
  const layout = query.layout ? await asked() : null;
  const ids = query.ids !== false;
  let rows = inRange(linesOf(db, account.id))
    .select((eb) => ['lines.date', 'lines.amount', eb.fn.coalesce('lines.description', 'transactions.description').as('description'), 'transactions.reference'])
    .$if(ids, (q) => q.select(['lines.transaction_id', 'lines.id']))
    .orderBy('lines.date')
    .orderBy('transactions.created_at')
    .orderBy('transactions.id')
    .orderBy('lines.line_no');
  // The entries are at most limit, so never more lines than that (fewer when year ends come first).
  if (query.limit !== undefined) rows = rows.limit(query.limit);
  let readWhole: LedgerTotals | null = null;
  async function* entries(): AsyncGenerator<readonly LedgerLine[]> {
    let running = opening;
    let debit = 0;
    let count = 0;
    let lines = 0;
    let shownLines = 0;
    const most = query.limit ?? Infinity;
    // The next year end, shown before the first line of its date or later.
    let next = 0;
    let nextDate = yearEnds[0]?.date ?? null;
    const closeThrough = (date: string | null, out: LedgerLine[]): void => {
      while (nextDate !== null && (date === null || nextDate <= date) && count < most) {
        const row = yearEnds[next++]!;
        nextDate = yearEnds[next]?.date ?? null;
        running += row.amount;
        if (row.amount > 0) debit += row.amount;
        const entry = yearEndEntry(row, running);
        if (ids) out.push(entry);
        else
          out.push({
            kind: entry.kind,
            date: entry.date,
            description: entry.description,
            reference: null,
            debit: entry.debit,
            credit: entry.credit,
            runningBalance: running,
          });
        count++;
      }
    };
    for await (const chunk of chunksOf(db, rows)) {
      const out: LedgerLine[] = [];
      lines += chunk.length;
      for (let i = 0; i < chunk.length && count < most; i++) {
        const r = chunk[i]!;
        if (nextDate !== null && r.date >= nextDate) {
          closeThrough(r.date, out);
          if (count === most) break;
        }
        const amount = r.amount;
        running += amount;
        if (amount > 0) debit += amount;
        const debitOf = amount > 0 ? amount : 0;
        const creditOf = amount < 0 ? -amount : 0;
        if (ids) {
          const entry: LedgerEntry = {
            kind: 'line',
            transactionId: r.transaction_id as string,
            lineId: r.id as string,
            date: r.date,
            description: r.description,
            reference: r.reference,
            debit: debitOf,
            credit: creditOf,
            runningBalance: running,
          };
          out.push(entry);
        } else
          out.push({
            kind: 'line',
            date: r.date,
            description: r.description,
            reference: r.reference,
            debit: debitOf,
            credit: creditOf,
            runningBalance: running,
          });
        count++;
        shownLines++;
      }
      if (out.length > 0) yield out;
    }
    // Every line read (fewer than the limit came), so the year ends after the last line come now, as many as the limit leaves.
    const allLines = query.limit === undefined || lines < query.limit;
    if (allLines) {
      const out: LedgerLine[] = [];
      closeThrough(null, out);
      if (out.length > 0) yield out;
    }
    if (allLines && shownLines === lines && nextDate === null)
      readWhole = { totalDebit: debit, totalCredit: debit - (running - opening), closingBalance: running, count };
  }
  return {
    head: { account: accountRef(account), period: { from: query.from ?? null, to: query.to ?? null }, openingBalance: opening },
    layout,
    entries: entries(),
    totals: async () => readWhole ?? layout ?? (await asked()),
  };
}
