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
 * - taxSetAside.vat: standard, the VAT owed on the VAT accounts today
 *   (credit − debit of 2200 and 2201, negative when a refund is due); flat_rate,
 *   the flat rate percentage of the fiscal year's VAT-inclusive turnover
 *   (revenue plus VAT charged on 2200) less VAT paid to HMRC this year
 *   (debits to 2200), never below 0; not_registered, 0.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { addDays, addYears, fiscalYearContaining } from '../dates.js';
import { loadOrganisation, vatSchemes } from '../organisation/organisation.js';
import { pence } from '../schema.js';
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
    vat: pence().describe('VAT to set aside for HMRC today, by the scheme; negative when a refund is due'),
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

/** a × bp / 10000 to the nearest integer, halves away from zero. */
const percentOf = (amount: number, basisPoints: number): number => Math.sign(amount) * Math.floor((2 * Math.abs(amount) * basisPoints + 10_000) / 20_000);

export async function dashboard(db: Kysely<OrgDb>, todayDate: string): Promise<Dashboard> {
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

  const codeNet = (balances: readonly AccountBalance[], code: string) => balances.find((b) => b.code === code)?.net ?? 0;
  let vat = 0;
  if (org.vat_scheme === 'standard') vat = -(codeNet(atToday, '2200') + codeNet(atToday, '2201'));
  if (org.vat_scheme === 'flat_rate') {
    const output = current.find((b) => b.code === '2200');
    const charged = output?.credit ?? 0;
    const paidToHmrc = output?.debit ?? 0;
    vat = Math.max(percentOf(now.revenue + charged, org.vat_flat_rate_bp ?? 0) - paidToHmrc, 0);
  }

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
