/**
 * Financial periods are the organisation's fiscal years, derived from the
 * fiscal year start; only closing one is stored. A period's id is
 * `period_` + its start date (period_20260406), so it never changes.
 * A closed period is read-only: posting checks `assertDateOpen`.
 */
import type { Kysely } from 'kysely';
import { defineOperation, orgOf } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp, today, type Clock } from '../clock.js';
import { firstYear, fiscalYearContaining, fiscalYearFrom, lastYear, type DateRange } from '../dates.js';
import { idOf } from '../schema.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { ClosedPeriodsTable, OrgDb } from '../../store/tables.js';

export interface Period {
  readonly id: string;
  readonly name: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly isCurrent: boolean;
  readonly isClosed: boolean;
  readonly closedAt: string | null;
}

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
  if (!m || `${m[2]}-${m[3]}` !== org.fiscal_year_start || year < firstYear || year >= lastYear) throw new AppError('not_found', `period ${id} not found`);
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

const periodParams = { id: idOf('period') };

export const listPeriodsOp = defineOperation({
  name: 'periods.list',
  summary: 'List the financial periods (fiscal years), newest first',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/periods',
  async run(ctx) {
    return { data: { periods: await listPeriods(orgOf(ctx).db, ctx.clock) } };
  },
});

export const getPeriodOp = defineOperation({
  name: 'periods.get',
  summary: 'Show one financial period',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/periods/{id}',
  params: periodParams,
  async run(ctx, input) {
    return { data: await findPeriod(orgOf(ctx).db, ctx.clock, input.id) };
  },
});

export const closePeriodOp = defineOperation({
  name: 'periods.close',
  summary: 'Close a financial period that has ended; it becomes read-only, irreversibly',
  access: 'all-scopes',
  method: 'POST',
  path: '/reports/periods/{id}/close',
  params: periodParams,
  body: {},
  async run(ctx, input) {
    const org = orgOf(ctx);
    const period = await org.write(async (trx) => {
      const found = await findPeriod(trx, ctx.clock, input.id);
      if (found.isClosed) throw new AppError('conflict', `${found.name} is already closed`);
      if (found.endDate >= today(ctx.clock)) {
        throw new AppError('unprocessable_entity', `${found.name} has not ended yet (it ends ${found.endDate})`);
      }
      await trx
        .insertInto('closed_periods')
        .values({ id: found.id, start_date: found.startDate, end_date: found.endDate, closed_at: timestamp(ctx.clock) })
        .execute();
      return findPeriod(trx, ctx.clock, input.id);
    });
    return { data: period };
  },
});

