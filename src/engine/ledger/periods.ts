/**
 * Financial periods are the organisation's fiscal years, derived from the
 * fiscal year start; only closing one is stored. A period's id is
 * `period_` + its start date (period_20260406), so it never changes.
 * A closed period is read-only: posting checks `assertDateOpen`. The
 * operations are in period-ops.ts.
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

async function closedByStart(db: Kysely<OrgDb>): Promise<Map<string, ClosedPeriodsTable>> {
  const rows = await db.selectFrom('closed_periods').selectAll().execute();
  return new Map(rows.map((r) => [r.start_date, r]));
}

/**
 * The periods shown: from the fiscal year before the one the organisation
 * was created in, to the current one, plus any closed outside that range;
 * newest first.
 */
export async function listPeriods(db: Kysely<OrgDb>, clock: Clock): Promise<Period[]> {
  const org = await loadOrganisation(db);
  const closed = await closedByStart(db);
  const created = fiscalYearContaining(org.created_at.slice(0, 10), org.fiscal_year_start);
  const first = fiscalYearContaining(`${Number(created.startDate.slice(0, 4)) - 1}${created.startDate.slice(4)}`, org.fiscal_year_start);
  const current = fiscalYearContaining(today(clock), org.fiscal_year_start);
  const starts = new Set(closed.keys());
  for (let range = first; range.startDate <= current.startDate; range = fiscalYearFrom(nextStart(range))) {
    starts.add(range.startDate);
  }
  return [...starts]
    .sort()
    .reverse()
    .map((start) => periodOf(fiscalYearFrom(start), clock, closed.get(start)));
}

const nextStart = (range: DateRange): string => `${String(Number(range.startDate.slice(0, 4)) + 1).padStart(4, '0')}${range.startDate.slice(4)}`;

/** One period by id: any fiscal year of the organisation, listed or not. */
export async function findPeriod(db: Kysely<OrgDb>, clock: Clock, id: string): Promise<Period> {
  const org = await loadOrganisation(db);
  const m = /^period_(\d{4})(\d{2})(\d{2})$/.exec(id);
  const start = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  const year = m ? Number(m[1]) : 0;
  if (!m || `${m[2]}-${m[3]}` !== org.fiscal_year_start || year < firstYear || year >= lastYear) throw notFound('period', id);
  const closed = await db.selectFrom('closed_periods').selectAll().where('start_date', '=', start).executeTakeFirst();
  return periodOf(fiscalYearFrom(start), clock, closed);
}

export type ClosedRange = Pick<ClosedPeriodsTable, 'start_date' | 'end_date'>;

/** The closed periods, for checking many dates at once. */
export async function closedRanges(db: Kysely<OrgDb>): Promise<ClosedRange[]> {
  return db.selectFrom('closed_periods').select(['start_date', 'end_date']).execute();
}

/** Refuse a date inside one of the given closed periods (422); `of` names what carries the date (a transaction of a batch). */
export function checkDateOpen(ranges: readonly ClosedRange[], date: string, of?: string): void {
  const closed = ranges.find((r) => r.start_date <= date && date <= r.end_date);
  if (closed) {
    const name = periodName({ startDate: closed.start_date, endDate: closed.end_date });
    throw new AppError('unprocessable_entity', `${of === undefined ? '' : `${of}: `}${date} falls in ${name}, which is closed`);
  }
}

/** Refuse a date inside a closed period (422): closed periods are read-only. */
export async function assertDateOpen(db: Kysely<OrgDb>, date: string): Promise<void> {
  const closed = await db
    .selectFrom('closed_periods')
    .select(['id', 'start_date', 'end_date'])
    .where('start_date', '<=', date)
    .where('end_date', '>=', date)
    .executeTakeFirst();
  if (closed) {
    const name = periodName({ startDate: closed.start_date, endDate: closed.end_date });
    throw new AppError('unprocessable_entity', `${date} falls in ${name}, which is closed`);
  }
}

/** Close a period that has ended (irreversibly); closing it twice is 409, before its end 422. */
export async function closePeriod(trx: Kysely<OrgDb>, clock: Clock, id: string): Promise<Period> {
  const period = await findPeriod(trx, clock, id);
  if (period.isClosed) throw new AppError('conflict', `${period.name} is already closed`);
  if (period.endDate >= today(clock)) {
    throw new AppError('unprocessable_entity', `${period.name} has not ended yet (it ends ${period.endDate})`);
  }
  await trx
    .insertInto('closed_periods')
    .values({ id: period.id, start_date: period.startDate, end_date: period.endDate, closed_at: timestamp(clock) })
    .execute();
  return findPeriod(trx, clock, id);
}
