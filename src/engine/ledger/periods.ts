/**
 * Financial periods are the organisation's fiscal years, derived from the
 * fiscal year start; only closing one is stored. A period's id is
 * `period_` + its start date (period_20260406), so it never changes.
 * A closed period is read-only: posting checks `assertDateOpen`. The
 * operations are in reports/period-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError, notFound } from '../errors.js';
import { timestamp, today, type Clock } from '../clock.js';
import { firstYear, fiscalYearContaining, fiscalYearFrom, lastYear, type DateRange } from '../dates.js';
import { day, idOut, instant } from '../output.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { ClosedPeriodsTable, OrgDb } from '../../store/tables.js';

export const periodSchema = z.strictObject({
  id: idOut('period').describe('period_ and the start date, such as period_20260406'),
  name: z.string().describe('FY 2026/27, or FY 2026 for a year within one calendar year'),
  startDate: day(),
  endDate: day(),
  isCurrent: z.boolean().describe('today falls in it'),
  isClosed: z.boolean().describe('closed periods are read-only'),
  closedAt: instant().nullable(),
});
export type Period = z.output<typeof periodSchema>;

export const periodId = (startDate: string): string => `period_${startDate.replaceAll('-', '')}`;

function periodName({ startDate, endDate }: DateRange): string {
  const from = startDate.slice(0, 4);
  const to = endDate.slice(0, 4);
  return from === to ? `FY ${from}` : `FY ${from}/${to.slice(2)}`;
}

/**
 * A period as shown. Closing a year closes every year before it too, as
 * a lock date does: a date before it would change the closed year's
 * balance sheet. Such a year is closed when the first closed year after
 * it was (`closed`: the closed period on or after the year, the earliest).
 */
function periodOf(range: DateRange, clock: Clock, closed: ClosedPeriodsTable | undefined): Period {
  const now = today(clock);
  return {
    id: periodId(range.startDate),
    name: periodName(range),
    startDate: range.startDate,
    endDate: range.endDate,
    isCurrent: range.startDate <= now && now <= range.endDate,
    isClosed: closed !== undefined,
    closedAt: closed?.closed_at ?? null,
  };
}

/** The closed period that closes `date` (a year's end, or any day): the first closed period ending on or after it. */
function closingOf<R extends Pick<ClosedPeriodsTable, 'end_date'>>(rows: readonly R[], date: string): R | undefined {
  return rows.filter((r) => r.end_date >= date).sort((a, b) => (a.end_date < b.end_date ? -1 : 1))[0];
}

async function closedRows(db: Kysely<OrgDb>): Promise<ClosedPeriodsTable[]> {
  return db.selectFrom('closed_periods').selectAll().execute();
}

/**
 * The periods shown: from the fiscal year before the one the organisation
 * was created in, or the year of its earliest transaction if that is
 * earlier (history brought in, each year closed with the later ones), to
 * the current one, plus any closed outside that range; newest first.
 */
export async function listPeriods(db: Kysely<OrgDb>, clock: Clock): Promise<Period[]> {
  const org = await loadOrganisation(db);
  const closed = await closedRows(db);
  const created = fiscalYearContaining(org.created_at.slice(0, 10), org.fiscal_year_start);
  const yearBefore = fiscalYearContaining(`${Number(created.startDate.slice(0, 4)) - 1}${created.startDate.slice(4)}`, org.fiscal_year_start);
  const earliest = (await db.selectFrom('transactions').select('date').orderBy('date').limit(1).executeTakeFirst())?.date;
  const first = earliest !== undefined && earliest < yearBefore.startDate ? fiscalYearContaining(earliest, org.fiscal_year_start) : yearBefore;
  const current = fiscalYearContaining(today(clock), org.fiscal_year_start);
  const starts = new Set(closed.map((r) => r.start_date));
  for (let range = first; range.startDate <= current.startDate; range = fiscalYearFrom(nextStart(range))) {
    starts.add(range.startDate);
  }
  return [...starts]
    .sort()
    .reverse()
    .map((start) => {
      const range = fiscalYearFrom(start);
      return periodOf(range, clock, closingOf(closed, range.endDate));
    });
}

const nextStart = (range: DateRange): string => `${String(Number(range.startDate.slice(0, 4)) + 1).padStart(4, '0')}${range.startDate.slice(4)}`;

/** One period by id: any fiscal year of the organisation, listed or not. */
export async function findPeriod(db: Kysely<OrgDb>, clock: Clock, id: string): Promise<Period> {
  const org = await loadOrganisation(db);
  const m = /^period_(\d{4})(\d{2})(\d{2})$/.exec(id);
  const start = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  const year = m ? Number(m[1]) : 0;
  if (!m || `${m[2]}-${m[3]}` !== org.fiscal_year_start || year < firstYear || year >= lastYear) throw notFound('period', id);
  const range = fiscalYearFrom(start);
  return periodOf(range, clock, closingOf(await closedRows(db), range.endDate));
}

export type ClosedRange = Pick<ClosedPeriodsTable, 'start_date' | 'end_date'>;

/** The closed periods, for checking many dates at once. */
export async function closedRanges(db: Kysely<OrgDb>): Promise<ClosedRange[]> {
  return db.selectFrom('closed_periods').select(['start_date', 'end_date']).execute();
}

/** Refuse a date inside one of the given closed periods, or before one (422); `of` names what carries the date (a transaction of a batch). */
export function checkDateOpen(ranges: readonly ClosedRange[], date: string, of?: string): void {
  const closing = closingOf(ranges, date);
  if (closing) {
    const name = periodName({ startDate: closing.start_date, endDate: closing.end_date });
    const where = closing.start_date <= date ? `falls in ${name}, which is closed` : `is before ${name}, which is closed, and so closes the years before it`;
    throw new AppError('unprocessable_entity', `${of === undefined ? '' : `${of}: `}${date} ${where}`);
  }
}

/** Refuse a date inside a closed period, or before one (422): closed periods are read-only, and so is what their balances hold. */
export async function assertDateOpen(db: Kysely<OrgDb>, date: string): Promise<void> {
  checkDateOpen(await db.selectFrom('closed_periods').select(['start_date', 'end_date']).where('end_date', '>=', date).execute(), date);
}

/** The period to close: one that has ended (before its end 422) and is not closed yet (409). */
export async function closablePeriod(trx: Kysely<OrgDb>, clock: Clock, id: string): Promise<Period> {
  const period = await findPeriod(trx, clock, id);
  if (period.isClosed) throw new AppError('conflict', `${period.name} is already closed`);
  if (period.endDate >= today(clock)) {
    throw new AppError('unprocessable_entity', `${period.name} has not ended yet (it ends ${period.endDate})`);
  }
  return period;
}

/** Close a period (irreversibly): reports/period-ops.ts asks closablePeriod and what is unfinished in it first. */
export async function closePeriod(trx: Kysely<OrgDb>, clock: Clock, period: Period): Promise<Period> {
  await trx
    .insertInto('closed_periods')
    .values({ id: period.id, start_date: period.startDate, end_date: period.endDate, closed_at: timestamp(clock) })
    .execute();
  return findPeriod(trx, clock, period.id);
}
