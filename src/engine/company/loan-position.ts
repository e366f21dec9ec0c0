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
import { findDirector, requireCompany, yearEndingOn, type PageAt } from './directors.js';
import { listPage, type PageMeta } from '../pagination.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { balanceAt, aggregatedBalanceAt } from './dla/balance.js';
import { s455Exposure, s455Standing, type S455Standing } from './dla/s455.js';
import { beneficialLoan } from './dla/bik.js';
import { warningLevel } from './dla/warning-level.js';
import { yearEndSnapshot } from './dla/snapshot.js';
import { inDateOrder, type LoanGroup, type Movement } from './dla/loan-types.js';
import { sterling } from '../money.js';
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
  fromLedgerPence: pence().describe(
    "entries on 2400 Director's Loan Account in the ledger that no loan movement made, to asOf, counted as this director's: the only director, every movement journalled",
  ),
  warnings: z.array(z.string()).describe('where the loan accounts and 2400 in the ledger part'),
});
export type Position = z.output<typeof positionSchema>;

async function groupOf(db: Kysely<OrgDb>, director: DirectorsTable, fromLedger: readonly Movement[] = []): Promise<LoanGroup> {
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
  const own = await person(director.id);
  const merged = fromLedger.length === 0 ? own : { key: own.key, movements: inDateOrder([...own.movements, ...fromLedger]) };
  return { director: merged, connected: await Promise.all(connected.map((c) => person(c.id))) };
}

/**
 * Where the loan accounts and the ledger part: the entries on 2400
 * Director's Loan Account (or an account under it) that no loan movement
 * posted (a journal or a bank line categorised to 2400), and each movement
 * recorded without a journal taken off again, as movements of nobody. With
 * one director, no connected person and every movement journalled, the
 * entries are that director's (`attributed`); else they are unallocated,
 * with an S455 of their own so that the charge is never understated.
 */
export interface LedgerGap {
  readonly movements: readonly Movement[];
  readonly soleDirectorId: string | null;
}

async function ledgerGap(db: Kysely<OrgDb>): Promise<LedgerGap> {
  const accounts = await db.selectFrom('accounts').select(['id', 'code', 'parent_id']).execute();
  const under = new Set(accounts.filter((a) => a.code === '2400').map((a) => a.id));
  for (let grew = true; grew;) {
    grew = false;
    for (const a of accounts)
      if (a.parent_id !== null && under.has(a.parent_id) && !under.has(a.id)) {
        under.add(a.id);
        grew = true;
      }
  }
  const lines =
    under.size === 0
      ? []
      : await db
          .selectFrom('lines')
          .select(['lines.date', 'lines.amount'])
          .where('lines.posted', '=', 1)
          .where('lines.account_id', 'in', [...under])
          .where((eb) => eb.not(eb.exists(eb.selectFrom('dla_transactions as m').select('m.id').whereRef('m.transaction_id', '=', 'lines.transaction_id'))))
          .orderBy('lines.date')
          .execute();
  const unjournalled = await db.selectFrom('dla_transactions').select(['date', 'amount']).where('transaction_id', 'is', null).orderBy('date').execute();
  const move = (date: string, amount: number): Movement => ({ date, amountPence: amount, loanType: amount > 0 ? 'loan_to_director' : 'repayment_to_company' });
  const fromLines = lines.filter((l) => l.amount !== 0).map((l) => move(l.date, l.amount));
  const directors = await db.selectFrom('directors').select(['id', 'connected_to_director_id']).execute();
  const sole = directors.length === 1 && unjournalled.length === 0 ? directors[0]!.id : null;
  if (sole !== null) return { movements: fromLines, soleDirectorId: sole };
  return { movements: inDateOrder([...fromLines, ...unjournalled.filter((m) => m.amount !== 0).map((m) => move(m.date, -m.amount))]), soleDirectorId: null };
}

/** What no director's loan account holds: the gap's balance and its S455 (none when the gap is attributed or empty). */
export interface Unallocated {
  readonly balancePence: number;
  readonly s455ExposurePence: number;
  readonly warnings: readonly string[];
}

function unallocatedOf(gap: LedgerGap, asOf: string, fiscalYearStart: string, basis: S455Basis | undefined): Unallocated {
  if (gap.soleDirectorId !== null) return { balancePence: 0, s455ExposurePence: 0, warnings: [] };
  const group: LoanGroup = { director: { key: 'unallocated', movements: gap.movements }, connected: [] };
  const balance = balanceAt(gap.movements, asOf);
  const exposure = gap.movements.some((m) => m.date <= asOf) ? s455Of(group, asOf, fiscalYearStart, basis).exposurePence : 0;
  if (balance === 0 && exposure === 0) return { balancePence: 0, s455ExposurePence: 0, warnings: [] };
  const side = balance >= 0 ? `${sterling(balance)} more than` : `${sterling(-balance)} less than`;
  return {
    balancePence: balance,
    s455ExposurePence: exposure,
    warnings: [
      `2400 Director's Loan Account in the ledger at ${asOf} is ${side} the directors' loan accounts: entries posted to 2400 other than by a loan movement, or movements recorded without a journal, are in no director's account${exposure > 0 ? ` (S455 on them: ${sterling(exposure)}, counted in the total)` : ''}; record each as a movement of the director it belongs to`,
    ],
  };
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
  const { fiscal_year_start } = await loadOrganisation(db);
  const gap = await ledgerGap(db);
  return positionOf(db, director, asOf, fiscal_year_start, basis, gap, unallocatedOf(gap, asOf, fiscal_year_start, basis));
}

async function positionOf(
  db: Kysely<OrgDb>,
  director: DirectorsTable,
  asOf: string,
  fiscalYearStart: string,
  basis: S455Basis | undefined,
  gap: LedgerGap,
  unallocated: Unallocated,
): Promise<Position> {
  const fromLedger = gap.soleDirectorId === director.id ? gap.movements : [];
  const group = await groupOf(db, director, fromLedger);
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
    fromLedgerPence: balanceAt(fromLedger, asOf),
    warnings: [
      ...(balanceAt(fromLedger, asOf) === 0 && !fromLedger.some((m) => m.date <= asOf)
        ? []
        : [
            `${sterling(balanceAt(fromLedger, asOf))} posted to 2400 Director's Loan Account in the ledger other than by a loan movement is counted as ${director.full_name}'s, the only director`,
          ]),
      ...unallocated.warnings,
    ],
  };
}

/** Every director's position (connected persons are shown with the director they belong to, not alone). */
export async function loanPositions(db: Kysely<OrgDb>, asOf: string, basis?: S455Basis): Promise<Position[]> {
  return (await loansWithGap(db, asOf, basis)).positions;
}

/** Every director's position, and what no director's account holds. */
export async function loansWithGap(db: Kysely<OrgDb>, asOf: string, basis?: S455Basis): Promise<{ positions: Position[]; unallocated: Unallocated }> {
  await requireCompany(db);
  const { fiscal_year_start } = await loadOrganisation(db);
  const gap = await ledgerGap(db);
  const unallocated = unallocatedOf(gap, asOf, fiscal_year_start, basis);
  const directors = await db.selectFrom('directors').selectAll().where('connected_to_director_id', 'is', null).orderBy('full_name').orderBy('id').execute();
  const positions = await Promise.all(directors.map((d) => positionOf(db, d, asOf, fiscal_year_start, basis, gap, unallocated)));
  return { positions, unallocated };
}

export const s455SummarySchema = z.strictObject({
  asOfDate: day(),
  totalOverdrawnPence: pence(),
  totalExposurePence: pence().describe('with the S455 on unallocatedPence'),
  unallocatedPence: pence().describe("2400 Director's Loan Account in the ledger less the directors' loan accounts, when no one director takes it"),
  unallocatedS455ExposurePence: pence(),
  warnings: z.array(z.string()),
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
  const { positions, unallocated } = await loansWithGap(db, asOf);
  return {
    asOfDate: asOf,
    totalOverdrawnPence: positions.reduce((s, p) => s + Math.max(0, p.aggregatedBalancePence), 0) + Math.max(0, unallocated.balancePence),
    totalExposurePence: positions.reduce((s, p) => s + p.s455.exposurePence, 0) + unallocated.s455ExposurePence,
    unallocatedPence: unallocated.balancePence,
    unallocatedS455ExposurePence: unallocated.s455ExposurePence,
    warnings: [...new Set(positions.flatMap((p) => p.warnings).concat(unallocated.warnings))],
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
  const gap = await ledgerGap(trx);
  const s = yearEndSnapshot(await groupOf(trx, director, gap.soleDirectorId === director.id ? gap.movements : []), {
    periodStart: period.startDate,
    periodEnd: periodEndDate,
    asOfDate: today(clock),
  });
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

/** A page of the year-end snapshots, newest period first. */
export async function listSnapshots(
  db: Kysely<OrgDb>,
  directorId: string | undefined,
  page: PageAt,
): Promise<{ rows: z.output<typeof snapshotSchema>[]; meta: PageMeta }> {
  await requireCompany(db);
  let q = db.selectFrom('dla_snapshots');
  if (directorId !== undefined) q = q.where('director_id', '=', directorId);
  const { rows, meta } = await listPage(q, (all) => all.selectAll().orderBy('period_end_date', 'desc').orderBy('director_id').orderBy('id'), page);
  return { rows: rows.map(snapshotView), meta };
}
