/**
 * Trial balance, profit and loss, and balance sheet: functions from
 * parameters and the posted ledger to data.
 */
import type { Kysely } from 'kysely';
import { addDays, daysBetween, fiscalYearContaining } from '../dates.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { naturalBalance, postedBalances, sum, type AccountBalance } from './balances.js';
import type { OrgDb } from '../../store/tables.js';

const line = (b: AccountBalance) => ({ id: b.id, code: b.code, name: b.name, balance: naturalBalance(b) });

export async function trialBalance(db: Kysely<OrgDb>, asOf: string) {
  const balances = (await postedBalances(db, { to: asOf })).filter((b) => b.net !== 0);
  const accounts = balances.map((b) => ({ id: b.id, code: b.code, name: b.name, debit: Math.max(b.net, 0), credit: Math.max(-b.net, 0) }));
  const totals = { debit: sum(accounts.map((a) => a.debit)), credit: sum(accounts.map((a) => a.credit)) };
  return { asOf, accounts, totals, balanced: totals.debit === totals.credit };
}

/** Gross profit is revenue less cost of sales: the accounts marked is_cost_of_sales, whatever their codes. */
async function profitAndLoss(db: Kysely<OrgDb>, from: string, to: string) {
  const balances = (await postedBalances(db, { from, to })).filter((b) => b.net !== 0);
  const costAccounts = new Set((await db.selectFrom('accounts').select('id').where('is_cost_of_sales', '=', 1).execute()).map((a) => a.id));
  const isCostOfSales = (b: AccountBalance) => costAccounts.has(b.id);
  const revenue = balances.filter((b) => b.accountType === 'revenue').map(line);
  const expenses = balances.filter((b) => b.accountType === 'expense');
  const totalRevenue = sum(revenue.map((r) => r.balance));
  const totalExpenses = sum(expenses.map(naturalBalance));
  const costOfSales = sum(expenses.filter(isCostOfSales).map(naturalBalance));
  return {
    revenue: { accounts: revenue, total: totalRevenue },
    expenses: { accounts: expenses.map(line), total: totalExpenses },
    grossProfit: totalRevenue - costOfSales,
    netProfit: totalRevenue - totalExpenses,
  };
}

/** The period of the same length that ends the day before `from`. */
export function priorPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysBetween(from, to) + 1;
  const priorTo = addDays(from, -1);
  return { from: addDays(priorTo, -(length - 1)), to: priorTo };
}

export async function profitLoss(db: Kysely<OrgDb>, from: string, to: string, comparative: boolean) {
  const current = await profitAndLoss(db, from, to);
  let prior = null;
  if (comparative) {
    const period = priorPeriod(from, to);
    const p = await profitAndLoss(db, period.from, period.to);
    prior = { period, totalRevenue: p.revenue.total, totalExpenses: p.expenses.total, netProfit: p.netProfit };
  }
  return { period: { from, to }, ...current, comparative: prior };
}

/**
 * Assets, liabilities and equity at a date. Profit not yet closed into
 * retained earnings is shown inside equity: the current fiscal year's as
 * "Current year earnings", earlier years' as "Prior years' earnings", so
 * assets = liabilities + equity holds on any balanced ledger.
 */
export async function balanceSheet(db: Kysely<OrgDb>, asOf: string) {
  const org = await loadOrganisation(db);
  const yearStart = fiscalYearContaining(asOf, org.fiscal_year_start).startDate;
  const balances = await postedBalances(db, { to: asOf });
  const section = (type: AccountBalance['accountType']) => {
    const accounts = balances.filter((b) => b.accountType === type && b.net !== 0).map(line);
    return { accounts, total: sum(accounts.map((a) => a.balance)) };
  };
  const earnings = (list: readonly AccountBalance[]) =>
    -sum(list.filter((b) => b.accountType === 'revenue' || b.accountType === 'expense').map((b) => b.net));
  // Two passes over the lines, not three: this year's earnings are all earnings to asOf less the earlier years'.
  const prior = earnings(await postedBalances(db, { to: addDays(yearStart, -1) }));
  const current = earnings(balances) - prior;
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  const synthetic = [
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
