/**
 * Trial balance, profit and loss, and balance sheet: functions from
 * parameters and the posted ledger to data.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { addDays, addYears, daysBetween, fiscalYearContaining } from '../dates.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { pence } from '../schema.js';
import { day, idOut } from '../output.js';
import { naturalBalance, periodSchema, postedBalances, sum, type AccountBalance } from './balances.js';
import type { OrgDb } from '../../store/tables.js';

const statementLine = z.strictObject({
  id: idOut('acc').nullable().describe("the account; null for the balance sheet's earnings lines, which no account holds"),
  code: z.string().nullable().describe("null for the balance sheet's earnings lines"),
  name: z.string(),
  balance: pence().describe('debit − credit for assets and expenses, credit − debit for the rest'),
});
type StatementLine = z.output<typeof statementLine>;

const section = z.strictObject({ accounts: z.array(statementLine), total: pence() });

const line = (b: AccountBalance): StatementLine => ({ id: b.id, code: b.code, name: b.name, balance: naturalBalance(b) });

export const trialBalanceSchema = z.strictObject({
  asOf: day(),
  accounts: z
    .array(z.strictObject({ id: idOut('acc'), code: z.string(), name: z.string(), debit: pence(), credit: pence() }))
    .describe(
      'every account whose balance is not zero, by code; a balance is either a debit or a credit, the other 0. Income and expense accounts hold the financial year to asOf; the earlier years’ profit (or loss) is in 3100 Retained Earnings',
    ),
  totals: z.strictObject({ debit: pence(), credit: pence() }),
  balanced: z.boolean().describe('whether the debit and credit totals are equal'),
});
export type TrialBalance = z.output<typeof trialBalanceSchema>;

const isProfitOrLoss = (b: Pick<AccountBalance, 'accountType'>): boolean => b.accountType === 'revenue' || b.accountType === 'expense';

/**
 * The trial balance as accountants and Xero, FreeAgent and Sage print it: the
 * income and expense accounts start each financial year at nothing, and the
 * profit of the years before (closed or not) is carried in 3100 Retained
 * Earnings, so the figures are the year's, ready for its accounts. 3100 is
 * provisioned and cannot be deleted; books without it keep every year on the
 * income and expense accounts, as hledger's balance report does.
 */
export async function trialBalance(db: Kysely<OrgDb>, asOf: string): Promise<TrialBalance> {
  const org = await loadOrganisation(db);
  const yearStart = fiscalYearContaining(asOf, org.fiscal_year_start).startDate;
  const balances = await postedBalances(db, { to: asOf, split: yearStart });
  const retained = balances.find((b) => b.code === '3100' && b.accountType === 'equity') ?? (await retainedEarnings(db));
  const earlier = retained === undefined ? 0 : sum(balances.filter(isProfitOrLoss).map((b) => b.netBefore));
  const nets = balances.map((b) => ({ id: b.id, code: b.code, name: b.name, net: retained !== undefined && isProfitOrLoss(b) ? b.net - b.netBefore : b.net }));
  if (retained !== undefined && earlier !== 0) {
    const at = nets.findIndex((b) => b.id === retained.id);
    if (at >= 0) nets[at] = { ...nets[at]!, net: nets[at]!.net + earlier };
    else nets.splice(nets.filter((b) => b.code < retained.code).length, 0, { ...retained, net: earlier });
  }
  const accounts = nets
    .filter((b) => b.net !== 0)
    .map((b) => ({ id: b.id, code: b.code, name: b.name, debit: Math.max(b.net, 0), credit: Math.max(-b.net, 0) }));
  const totals = { debit: sum(accounts.map((a) => a.debit)), credit: sum(accounts.map((a) => a.credit)) };
  return { asOf, accounts, totals, balanced: totals.debit === totals.credit };
}

/** 3100 Retained Earnings when it has no posted line to asOf. */
async function retainedEarnings(db: Kysely<OrgDb>): Promise<Pick<AccountBalance, 'id' | 'code' | 'name'> | undefined> {
  return db.selectFrom('accounts').select(['id', 'code', 'name']).where('code', '=', '3100').where('account_type', '=', 'equity').executeTakeFirst();
}

/** Gross profit is revenue less cost of sales: the accounts marked is_cost_of_sales, whatever their codes. */
async function profitAndLoss(db: Kysely<OrgDb>, from: string, to: string): Promise<PlFigures> {
  const balances = (await postedBalances(db, { from, to })).filter((b) => b.net !== 0);
  const costAccounts = new Set((await db.selectFrom('accounts').select('id').where('is_cost_of_sales', '=', 1).execute()).map((a) => a.id));
  const revenue = balances.filter((b) => b.accountType === 'revenue').map(line);
  const expenses = balances.filter((b) => b.accountType === 'expense').map((b) => ({ ...line(b), isCostOfSales: costAccounts.has(b.id) }));
  const totalRevenue = sum(revenue.map((r) => r.balance));
  const totalExpenses = sum(expenses.map((e) => e.balance));
  const costOfSales = sum(expenses.filter((e) => e.isCostOfSales).map((e) => e.balance));
  return {
    revenue: { accounts: revenue, total: totalRevenue },
    expenses: { accounts: expenses, total: totalExpenses },
    costOfSales,
    grossProfit: totalRevenue - costOfSales,
    netProfit: totalRevenue - totalExpenses,
  };
}

/** A month counted from year 0 (2026-11 is 2026 × 12 + 10), and back. */
const monthIndex = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
const firstOfMonth = (index: number): string => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;

/**
 * The comparative of a period: the period of the same length that ends the
 * day before `from`. A period of whole months (from the 1st to a month's
 * end) is as long as its months, so it is compared with as many whole months
 * before it (a quarter with the quarter before, a year holding 29 February
 * with the year before from its first day, November with all of October);
 * any other is as long as its days.
 */
export function priorPeriod(from: string, to: string, year?: { readonly startDate: string; readonly endDate: string }): { from: string; to: string } {
  const priorTo = addDays(from, -1);
  const wholeMonths = from.endsWith('-01') && addDays(to, 1).endsWith('-01');
  // A year to date (from the first day of a financial year, not whole months: 6 April to today, say) is compared with the
  // same days a year earlier, as the dashboard compares it; the days before it would straddle two years. `year` holds `from`.
  if (year !== undefined && !wholeMonths && from === year.startDate && to <= year.endDate) return { from: addYears(from, -1), to: addYears(to, -1) };
  if (wholeMonths) {
    const months = monthIndex(to) - monthIndex(from) + 1;
    return { from: firstOfMonth(monthIndex(from) - months), to: priorTo };
  }
  const length = daysBetween(from, to) + 1;
  return { from: addDays(priorTo, -(length - 1)), to: priorTo };
}

const expenseSection = z.strictObject({
  accounts: z.array(statementLine.extend({ isCostOfSales: z.boolean().describe('whether the account is marked as cost of sales') })),
  total: pence(),
});

/** The figures of a period, the current one and the comparative alike. */
const plFigures = {
  revenue: section,
  expenses: expenseSection.describe('every expense account, cost of sales included'),
  costOfSales: pence().describe('the expenses marked as cost of sales'),
  grossProfit: pence().describe('revenue less the expenses marked as cost of sales'),
  netProfit: pence(),
};
type PlFigures = z.output<z.ZodObject<typeof plFigures>>;

export const profitLossSchema = z.strictObject({
  period: periodSchema,
  ...plFigures,
  comparative: z
    .strictObject({ period: periodSchema, totalRevenue: pence(), totalExpenses: pence(), ...plFigures })
    .nullable()
    .describe(
      'the prior period of the same length, ending the day before from (as many whole months when the period is whole months, else days; a year to date that is not whole months, from the first day of a financial year, the same days a year earlier), with its accounts (a column beside this period); null unless comparative=true',
    ),
});
export type ProfitLoss = z.output<typeof profitLossSchema>;

export async function profitLoss(db: Kysely<OrgDb>, from: string, to: string, comparative: boolean): Promise<ProfitLoss> {
  const current = await profitAndLoss(db, from, to);
  let prior: ProfitLoss['comparative'] = null;
  if (comparative) {
    const period = priorPeriod(from, to, fiscalYearContaining(from, (await loadOrganisation(db)).fiscal_year_start));
    const p = await profitAndLoss(db, period.from, period.to);
    prior = { period, totalRevenue: p.revenue.total, totalExpenses: p.expenses.total, ...p };
  }
  return { period: { from, to }, ...current, comparative: prior };
}

/**
 * Assets, liabilities and equity at a date. Profit not yet closed into
 * retained earnings is shown inside equity: the current fiscal year's as
 * "Current year earnings", earlier years' as "Prior years' earnings", so
 * assets = liabilities + equity holds on any balanced ledger.
 */
export const balanceSheetSchema = z.strictObject({
  asOf: day(),
  assets: section,
  liabilities: section,
  equity: section.describe('equity accounts, then the profit not yet closed into retained earnings: "Prior years\' earnings" and "Current year earnings"'),
  netAssets: pence().describe('assets less liabilities'),
  checksum: z.boolean().describe('whether assets = liabilities + equity'),
});
export type BalanceSheet = z.output<typeof balanceSheetSchema>;

export async function balanceSheet(db: Kysely<OrgDb>, asOf: string): Promise<BalanceSheet> {
  const org = await loadOrganisation(db);
  const yearStart = fiscalYearContaining(asOf, org.fiscal_year_start).startDate;
  const balances = await postedBalances(db, { to: asOf, split: yearStart });
  const section = (type: AccountBalance['accountType']) => {
    const accounts = balances.filter((b) => b.accountType === type && b.net !== 0).map(line);
    return { accounts, total: sum(accounts.map((a) => a.balance)) };
  };
  const profitOrLoss = balances.filter(isProfitOrLoss);
  const prior = -sum(profitOrLoss.map((b) => b.netBefore));
  const current = -sum(profitOrLoss.map((b) => b.net)) - prior;
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  const synthetic: StatementLine[] = [
    { id: null, code: null, name: "Prior years' earnings", balance: prior },
    { id: null, code: null, name: 'Current year earnings', balance: current },
  ].filter((e) => e.balance !== 0);
  const equityAccounts = [...equity.accounts, ...synthetic];
  const equityTotal = sum(equityAccounts.map((a) => a.balance));
  return {
    asOf,
    assets,
    liabilities,
    equity: { accounts: equityAccounts, total: equityTotal },
    netAssets: assets.total - liabilities.total,
    checksum: assets.total === liabilities.total + equityTotal,
  };
}
