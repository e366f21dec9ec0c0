/**
 * The dashboard: the business at a glance, today. Figures:
 * - currentPeriod: the fiscal year to date (its first day to today);
 * - bankBalance: posted balance of every bank control account; accountsReceivable
 *   and accountsPayable: the receivables (debit − credit) and payables
 *   (credit − debit) control accounts;
 * - revenue, expenses, netProfit: current = the fiscal year to date, prior =
 *   the same days a year earlier, change = (current − prior) / |prior| × 100 to
 *   one decimal place (null when prior is 0);
 * - overdueInvoices: sent or overdue invoices due before today, and what they
 *   still owe; upcomingBills: approved bills due from today to 30 days ahead;
 * - taxSetAside.vat: the VAT returns' own derivation, so that paying HMRC
 *   or moving VAT between accounts changes it only through 2202: what
 *   filed returns still owe (the credit balance of 2202 VAT Liability today,
 *   a debit balance being a repayment due) plus box 3 − box 4 of the draft
 *   return of every period not yet filed, to today (the current period's
 *   entries to today only; each draft takes what the one before left, as
 *   filing in order would), never below 0. The flat rate scheme the same
 *   (its drafts are flat-rate returns); not_registered, 0.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { today, type Clock } from '../clock.js';
import { addDays, addYears, fiscalYearContaining } from '../dates.js';
import { deregisteredFrom, loadOrganisation, vatSchemes, type OrganisationRow } from '../organisation/organisation.js';
import { pence } from '../schema.js';
import { draftReturn, firstStart, registration } from '../vat/returns.js';
import { periodsUntil } from '../vat/periods.js';
import { naturalBalance, periodSchema, postedBalances, sum, type AccountBalance } from './balances.js';
import type { OrgDb } from '../../store/tables.js';

const measureSchema = z.strictObject({
  current: pence().describe('the fiscal year to date'),
  prior: pence().describe('the same days a year earlier'),
  change: z.number().nullable().describe('(current − prior) / |prior| × 100, to one decimal place; null when prior is 0'),
});
type Measure = z.output<typeof measureSchema>;

const openDocuments = z.strictObject({ count: z.number().int(), total: pence().describe('what they still owe') });

export const dashboardSchema = z.strictObject({
  currentPeriod: periodSchema.describe('the fiscal year to date'),
  priorPeriod: periodSchema.describe('the same days a year earlier'),
  bankBalance: pence(),
  accountsReceivable: pence(),
  accountsPayable: pence(),
  revenue: measureSchema,
  expenses: measureSchema,
  netProfit: measureSchema,
  overdueInvoices: openDocuments.describe('sent or overdue sales invoices due before today'),
  upcomingBills: openDocuments.describe('approved bills due from today to 30 days ahead'),
  taxSetAside: z.strictObject({
    vatScheme: z.enum(vatSchemes),
    vat: pence().describe('VAT to set aside for HMRC today: owed on filed returns (2202) plus the drafts of the periods not yet filed; never below 0'),
  }),
});
export type Dashboard = z.output<typeof dashboardSchema>;

const change = (current: number, prior: number): number | null => (prior === 0 ? null : Math.round(((current - prior) / Math.abs(prior)) * 1000) / 10);

const measure = (current: number, prior: number): Measure => ({ current, prior, change: change(current, prior) });

function profit(balances: readonly AccountBalance[]) {
  const revenue = sum(balances.filter((b) => b.accountType === 'revenue').map(naturalBalance));
  const expenses = sum(balances.filter((b) => b.accountType === 'expense').map(naturalBalance));
  return { revenue, expenses, netProfit: revenue - expenses };
}

/** The VAT to set aside: `liability` (what filed returns still owe, from 2202) plus the drafts of the unfiled periods to today. */
async function vatSetAside(db: Kysely<OrgDb>, row: OrganisationRow, clock: Clock, todayDate: string, liability: number): Promise<number> {
  // Left VAT from a day: the returns up to it are still owed; left before acct dated it (or never registered): none.
  if (row.vat_scheme === 'not_registered' && (await deregisteredFrom(db, row)) === null) return 0;
  const { org, lastDay } = await registration(db, row);
  const first = await firstStart(db, org, clock);
  const filed = new Set((await db.selectFrom('vat_returns').select('period_end').execute()).map((r) => r.period_end));
  let owed = liability;
  let from = first;
  for (const period of periodsUntil(org, first, todayDate, lastDay)) {
    if (filed.has(period.end)) continue;
    const d = await draftReturn(db, org, clock, period.end > todayDate ? { ...period, end: todayDate } : period, from);
    owed += d.derived.boxes.box3 - d.derived.boxes.box4;
    from = addDays(period.end, 1);
  }
  return Math.max(owed, 0);
}

export async function dashboard(db: Kysely<OrgDb>, clock: Clock): Promise<Dashboard> {
  const todayDate = today(clock);
  const org = await loadOrganisation(db);
  const fy = fiscalYearContaining(todayDate, org.fiscal_year_start);
  const currentPeriod = { from: fy.startDate, to: todayDate };
  const priorPeriod = { from: addYears(fy.startDate, -1), to: addYears(todayDate, -1) };
  const [atToday, current, prior, controls] = await Promise.all([
    postedBalances(db, { to: todayDate }),
    postedBalances(db, currentPeriod),
    postedBalances(db, priorPeriod),
    db.selectFrom('accounts').select(['id', 'control_type']).where('control_type', 'is not', null).execute(),
  ]);
  const controlOf = new Map(controls.map((a) => [a.id, a.control_type]));
  const netOf = (type: string) => sum(atToday.filter((b) => controlOf.get(b.id) === type).map((b) => b.net));
  const now = profit(current);
  const before = profit(prior);

  const open = (kind: 'sales' | 'purchase', statuses: ('sent' | 'approved' | 'overdue')[]) =>
    db
      .selectFrom('invoices')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>(eb(eb('total', '-', eb.ref('amount_paid')), '-', eb.ref('amount_credited'))).as('total'),
      ])
      .where('kind', '=', kind)
      .where('status', 'in', statuses);
  const overdue = await open('sales', ['sent', 'overdue']).where('due_date', '<', todayDate).executeTakeFirstOrThrow();
  const upcoming = await open('purchase', ['approved'])
    .where('due_date', '>=', todayDate)
    .where('due_date', '<=', addDays(todayDate, 30))
    .executeTakeFirstOrThrow();

  const liability = -(atToday.find((b) => b.code === '2202')?.net ?? 0);
  const vat = await vatSetAside(db, org, clock, todayDate, liability);

  return {
    currentPeriod,
    priorPeriod,
    bankBalance: netOf('bank'),
    accountsReceivable: netOf('receivables'),
    accountsPayable: -netOf('payables'),
    revenue: measure(now.revenue, before.revenue),
    expenses: measure(now.expenses, before.expenses),
    netProfit: measure(now.netProfit, before.netProfit),
    overdueInvoices: { count: Number(overdue.count), total: Number(overdue.total ?? 0) },
    upcomingBills: { count: Number(upcoming.count), total: Number(upcoming.total ?? 0) },
    taxSetAside: { vatScheme: org.vat_scheme, vat },
  };
}
