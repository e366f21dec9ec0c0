/**
 * Where each director's loan account stands, from the movements in the
 * books and the pure rules of dla/: the balance (positive: the director
 * owes the company), with connected persons, S455 for the accounting
 * period (the organisation's fiscal year) holding the date and for every
 * earlier one with a loan still owed that day (or, for a year-end pack, one
 * period's as known on the day it is prepared), the beneficial loan for the
 * tax year holding the date, a warning level, the S455 summary, and
 * year-end snapshots kept as taken (immutable; a second for the same
 * director and period end is 409).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, today, type Clock } from '../clock.js';
import { fiscalYearContaining, taxYearOf, type DateRange } from '../dates.js';
import { newId } from '../ids.js';
import { day, idOut, instant } from '../output.js';
import { pence } from '../schema.js';
import { findDirector, requireCompany, yearEndingOn } from './directors.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { balanceAt, aggregatedBalanceAt } from './dla/balance.js';
import { s455Exposure, s455Standing, type S455Standing } from './dla/s455.js';
import { beneficialLoan } from './dla/bik.js';
import { warningLevel } from './dla/warning-level.js';
import { yearEndSnapshot } from './dla/snapshot.js';
import type { LoanGroup } from './dla/loan-types.js';
import type { DirectorsTable, DlaSnapshotsTable, OrgDb } from '../../store/tables.js';

export const positionSchema = z.strictObject({
  directorId: z.string(),
  fullName: z.string(),
  asOf: day(),
  balancePence: pence().describe('positive: the director owes the company (overdrawn)'),
  aggregatedBalancePence: pence().describe('with connected persons'),
  s455: z
    .strictObject({
      exposed: z.boolean(),
      exposurePence: pence().describe('the S455 tax of every period listed in periods'),
      rate: z.number().describe('percent'),
      status: z.enum(['clear', 'at_risk', 'due', 'repaid']),
      deadline: day(),
      periodEnd: day(),
      bedAndBreakfasting: z.boolean(),
      periods: z
        .array(
          z.strictObject({
            periodStart: day(),
            periodEnd: day(),
            deadline: day(),
            status: z.enum(['clear', 'at_risk', 'due', 'repaid']),
            outstandingPence: pence().describe('lent in the period and owed on the deadline (or today, while it is to come)'),
            exposurePence: pence(),
          }),
        )
        .describe('earlier accounting periods with a loan still owed, oldest first, then the one holding asOf'),
    })
    .describe(
      'status, rate, deadline and periodEnd are those of the gravest period: the oldest due, else the at-risk one whose deadline comes first, else the current one',
    ),
  bik: z.strictObject({
    applicable: z.boolean(),
    threshold: pence(),
    taxYear: z.string(),
    averageBalancePence: pence(),
    officialRate: z.number(),
    benefitPence: pence(),
  }),
  warningLevel: z.enum(['green', 'amber', 'red']),
});
export type Position = z.output<typeof positionSchema>;

async function groupOf(db: Kysely<OrgDb>, director: DirectorsTable): Promise<LoanGroup> {
  const connected = await db.selectFrom('directors').select('id').where('connected_to_director_id', '=', director.id).execute();
  const person = async (id: string) => ({
    key: id,
    movements: (
      await db
        .selectFrom('dla_transactions')
        .select(['date', 'amount', 'loan_type'])
        .where('director_id', '=', id)
        .orderBy('date')
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((m) => ({ date: m.date, amountPence: m.amount, loanType: m.loan_type })),
  });
  return { director: await person(director.id), connected: await Promise.all(connected.map((c) => person(c.id))) };
}

/** S455 of one accounting period as known on a day (a year-end pack), rather than where the loans stand on the position's date. */
export interface S455Basis {
  readonly period: DateRange;
  readonly knownOn: string;
}

function s455Of(group: LoanGroup, asOf: string, fiscalYearStart: string, basis: S455Basis | undefined): S455Standing {
  if (basis === undefined) return s455Standing(group, asOf, (date) => fiscalYearContaining(date, fiscalYearStart));
  const { period, knownOn } = basis;
  const only = {
    periodStart: period.startDate,
    periodEnd: period.endDate,
    ...s455Exposure(group, { periodStart: period.startDate, periodEnd: period.endDate, asOfDate: knownOn }),
  };
  return { periods: [only], lead: only, exposurePence: only.exposurePence };
}

export async function loanPosition(db: Kysely<OrgDb>, directorId: string, asOf: string, basis?: S455Basis): Promise<Position> {
  await requireCompany(db);
  const director = await findDirector(db, directorId);
  return positionOf(db, director, asOf, (await loadOrganisation(db)).fiscal_year_start, basis);
}

async function positionOf(db: Kysely<OrgDb>, director: DirectorsTable, asOf: string, fiscalYearStart: string, basis: S455Basis | undefined): Promise<Position> {
  const group = await groupOf(db, director);
  const s455 = s455Of(group, asOf, fiscalYearStart, basis);
  const bik = beneficialLoan(group.director.movements, taxYearOf(asOf));
  const balance = balanceAt(group.director.movements, asOf);
  const { lead } = s455;
  const bedAndBreakfasting = s455.periods.some((p) => p.bedAndBreakfast.length > 0);
  return {
    directorId: director.id,
    fullName: director.full_name,
    asOf,
    balancePence: balance,
    aggregatedBalancePence: aggregatedBalanceAt(group, asOf),
    s455: {
      exposed: s455.periods.some((p) => p.exposed),
      exposurePence: s455.exposurePence,
      rate: lead.rate,
      status: lead.status,
      deadline: lead.deadline,
      periodEnd: lead.periodEnd,
      bedAndBreakfasting,
      periods: s455.periods.map((p) => ({
        periodStart: p.periodStart,
        periodEnd: p.periodEnd,
        deadline: p.deadline,
        status: p.status,
        outstandingPence: p.perAdvance.reduce((sum, a) => sum + a.outstandingPence, 0),
        exposurePence: p.exposurePence,
      })),
    },
    bik: {
      applicable: bik.applicable,
      threshold: bik.threshold,
      taxYear: bik.taxYear,
      averageBalancePence: bik.averageBalancePence,
      officialRate: bik.officialRate,
      benefitPence: bik.benefitPence,
    },
    warningLevel: warningLevel({
      balancePence: balance,
      s455Status: lead.status,
      bedAndBreakfasted: bedAndBreakfasting,
      bikApplicable: bik.applicable,
    }),
  };
}

/** Every director's position (connected persons are shown with the director they belong to, not alone). */
export async function loanPositions(db: Kysely<OrgDb>, asOf: string, basis?: S455Basis): Promise<Position[]> {
  await requireCompany(db);
  const { fiscal_year_start } = await loadOrganisation(db);
  const directors = await db.selectFrom('directors').selectAll().where('connected_to_director_id', 'is', null).orderBy('full_name').orderBy('id').execute();
  return Promise.all(directors.map((d) => positionOf(db, d, asOf, fiscal_year_start, basis)));
}

export const s455SummarySchema = z.strictObject({
  asOfDate: day(),
  totalOverdrawnPence: pence(),
  totalExposurePence: pence(),
  directors: z.array(
    z.strictObject({
      directorId: z.string(),
      fullName: z.string(),
      balancePence: pence(),
      s455ExposurePence: pence(),
      s455Rate: z.number(),
      status: z.string(),
      bikApplicable: z.boolean(),
    }),
  ),
});

export async function s455Summary(db: Kysely<OrgDb>, asOf: string): Promise<z.output<typeof s455SummarySchema>> {
  const positions = await loanPositions(db, asOf);
  return {
    asOfDate: asOf,
    totalOverdrawnPence: positions.reduce((s, p) => s + Math.max(0, p.aggregatedBalancePence), 0),
    totalExposurePence: positions.reduce((s, p) => s + p.s455.exposurePence, 0),
    directors: positions.map((p) => ({
      directorId: p.directorId,
      fullName: p.fullName,
      balancePence: p.aggregatedBalancePence,
      s455ExposurePence: p.s455.exposurePence,
      s455Rate: p.s455.rate,
      status: p.s455.status,
      bikApplicable: p.bik.applicable,
    })),
  };
}

export const snapshotSchema = z.strictObject({
  id: idOut('dlas'),
  directorId: z.string(),
  periodEndDate: day(),
  balancePence: pence(),
  aggregatedBalancePence: pence().describe('with connected persons'),
  s455ExposurePence: pence(),
  bikTaxYear: z.string().describe('the tax year in which the period ends, of bikBenefitPence'),
  bikBenefitPence: pence(),
  deadline: day(),
  deadlineStatus: z.string(),
  createdAt: instant(),
});

const snapshotView = (r: DlaSnapshotsTable): z.output<typeof snapshotSchema> => ({
  id: r.id,
  directorId: r.director_id,
  periodEndDate: r.period_end_date,
  balancePence: r.balance,
  aggregatedBalancePence: r.aggregated_balance,
  s455ExposurePence: r.s455_exposure,
  bikTaxYear: taxYearOf(r.period_end_date),
  bikBenefitPence: r.bik_benefit,
  deadline: r.deadline,
  deadlineStatus: r.deadline_status,
  createdAt: r.created_at,
});

/** Take a year-end snapshot for the period ending `periodEndDate`, as of today; one per director and period end (409). */
export async function takeSnapshot(trx: Kysely<OrgDb>, clock: Clock, directorId: string, periodEndDate: string): Promise<z.output<typeof snapshotSchema>> {
  await requireCompany(trx);
  const director = await findDirector(trx, directorId);
  const taken = await trx
    .selectFrom('dla_snapshots')
    .select('id')
    .where('director_id', '=', directorId)
    .where('period_end_date', '=', periodEndDate)
    .executeTakeFirst();
  if (taken)
    throw new AppError(
      'conflict',
      `a snapshot of ${director.full_name}'s loan account at ${periodEndDate} exists already (${taken.id}); snapshots are kept as taken`,
    );
  const period = await yearEndingOn(trx, periodEndDate, 'periodEndDate');
  const s = yearEndSnapshot(await groupOf(trx, director), { periodStart: period.startDate, periodEnd: periodEndDate, asOfDate: today(clock) });
  const row: DlaSnapshotsTable = {
    id: newId('dlas', clock.now()),
    director_id: directorId,
    period_end_date: periodEndDate,
    balance: s.balancePence,
    aggregated_balance: s.aggregatedBalancePence,
    s455_exposure: s.s455ExposurePence,
    bik_benefit: s.bikBenefitPence,
    deadline: s.deadline,
    deadline_status: s.deadlineStatus,
    created_at: timestamp(clock),
  };
  await trx.insertInto('dla_snapshots').values(row).execute();
  return snapshotView(row);
}

export async function listSnapshots(db: Kysely<OrgDb>, directorId?: string): Promise<z.output<typeof snapshotSchema>[]> {
  await requireCompany(db);
  let q = db.selectFrom('dla_snapshots').selectAll();
  if (directorId !== undefined) q = q.where('director_id', '=', directorId);
  return (await q.orderBy('period_end_date', 'desc').orderBy('director_id').execute()).map(snapshotView);
}
