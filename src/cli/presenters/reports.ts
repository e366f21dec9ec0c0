/** The presenters of the reports: statements, the VAT return, the dashboard, aged debtors and creditors. */
import type { Operation } from '../../engine/operation.js';
import {
  agedCreditorsOp,
  agedDebtorsOp,
  balanceSheetOp,
  dashboardOp,
  generalLedgerOp,
  profitLossOp,
  trialBalanceOp,
  vatReturnOp,
} from '../../engine/reports/operations.js';
import type { AgedReport } from '../../engine/reports/aged.js';
import type { BalanceSheet, ProfitLoss } from '../../engine/reports/statements.js';
import { debitMinusCredit, drCr } from '../balance-side.js';
import { essential } from '../fit-table.js';
import { joinLedgerPages } from '../../engine/reports/general-ledger.js';
import { presenter, type Cell, type Presented, type Presenter } from './index.js';
import { box5Direction, boxColumns, boxKeep, flatRateNotes } from './vat.js';

type Section = BalanceSheet['assets'];
type Row = readonly Cell[];

/** Rows of a statement, and which of them are headings or totals (bold) and which accounts (indented under their heading). */
class Statement {
  readonly rows: Row[] = [];
  readonly bold: number[] = [];
  readonly depths: number[] = [];
  /** A section's heading in the account column, above `amounts` empty columns. */
  heading(name: string, amounts: number): this {
    return this.add(['', name, ...Array<Cell>(amounts).fill(null)], 0, true);
  }
  add(row: Row, depth = 1, bold = false): this {
    if (bold) this.bold.push(this.rows.length);
    this.depths.push(depth);
    this.rows.push(row);
    return this;
  }
}

/** A statement's layout: the account column indented by depth, totals bold; the account name is column `column`. */
const layout = (s: Statement, column: number): Pick<Presented, 'rows' | 'bold' | 'indent'> => ({
  rows: s.rows,
  bold: s.bold,
  indent: { column, depths: s.depths },
});

/** A statement's columns in a narrow terminal: the code goes before the account's name is cut; the name and the amounts stay. */
const accountFirst = (columns: number): number[] => [2, ...Array<number>(columns - 1).fill(essential)];

type PlAccount = ProfitLoss['revenue']['accounts'][number];

/** The accounts of a section in this period and the prior one, by code: [code, name, this period's balance, the prior's]. */
function columnsOf(current: readonly PlAccount[], prior: readonly PlAccount[] | undefined): [string, string, Cell, Cell][] {
  const byCode = new Map<string, [string, string, Cell, Cell]>();
  for (const a of current) byCode.set(a.code ?? a.name, [a.code ?? '', a.name, a.balance, null]);
  for (const a of prior ?? []) {
    const seen = byCode.get(a.code ?? a.name);
    if (seen) seen[3] = a.balance;
    else byCode.set(a.code ?? a.name, [a.code ?? '', a.name, null, a.balance]);
  }
  return [...byCode.values()].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * The profit and loss in its conventional order: revenue, cost of sales
 * (the expenses marked so), gross profit, the other expenses (overheads),
 * net profit; with the comparative, a second amount column for the prior
 * period, account by account.
 */
function profitLossTable(d: ProfitLoss): Presented {
  const prior = d.comparative;
  const s = new Statement();
  const width = prior ? 2 : 1;
  const line = (code: string, name: string, now: Cell, before: Cell): Row => (prior ? [code, name, now, before] : [code, name, now]);
  const total = (name: string, now: number, before: number | undefined): Row => line('', name, now, before ?? null);
  const accounts = (list: [string, string, Cell, Cell][]) => list.forEach(([code, name, now, before]) => s.add(line(code, name, now, before)));
  const isCost = (a: { isCostOfSales: boolean }) => a.isCostOfSales;
  const isOverhead = (a: { isCostOfSales: boolean }) => !a.isCostOfSales;

  s.heading('Revenue', width);
  accounts(columnsOf(d.revenue.accounts, prior?.revenue.accounts));
  s.add(total('Total revenue', d.revenue.total, prior?.revenue.total), 0, true);
  const costs = columnsOf(d.expenses.accounts.filter(isCost), prior?.expenses.accounts.filter(isCost));
  if (costs.length > 0) {
    s.heading('Cost of sales', width);
    accounts(costs);
    s.add(total('Total cost of sales', d.costOfSales, prior?.costOfSales), 0, true);
  }
  s.add(total('Gross profit', d.grossProfit, prior?.grossProfit), 0, true);
  s.heading('Expenses', width);
  accounts(columnsOf(d.expenses.accounts.filter(isOverhead), prior?.expenses.accounts.filter(isOverhead)));
  // Overheads: every expense but cost of sales.
  s.add(total('Total expenses', d.expenses.total - d.costOfSales, prior ? prior.expenses.total - prior.costOfSales : undefined), 0, true);
  s.add(total('Net profit', d.netProfit, prior?.netProfit), 0, true);
  const period = (p: { from: string; to: string }) => `${p.from} to ${p.to}`;
  return {
    title: `Profit and loss ${period(d.period)}${prior ? `, beside ${period(prior.period)}` : ''}`,
    columns: prior ? ['code', 'account', 'this period', 'prior period'] : ['code', 'account', 'amount'],
    money: prior ? [2, 3] : [2],
    keep: prior ? accountFirst(4) : accountFirst(3),
    ...layout(s, 1),
  };
}

/**
 * The balance sheet by section, each balance without its sign and with its
 * side (Dr or Cr), as accountants print them: a contra balance, such as VAT
 * reclaimable among the liabilities, shows Dr where the others show Cr.
 */
function balanceSheetTable(d: BalanceSheet): Presented {
  const s = new Statement();
  const sided = (natural: number, creditNatural: boolean): [Cell, Cell] => {
    const { amount, side } = drCr(debitMinusCredit(natural, creditNatural));
    return [amount, side];
  };
  const section = (heading: string, sec: Section, totalName: string, creditNatural: boolean) => {
    s.heading(heading, 2);
    for (const a of sec.accounts) s.add([a.code ?? '', a.name, ...sided(a.balance, creditNatural)]);
    s.add(['', totalName, ...sided(sec.total, creditNatural)], 0, true);
  };
  section('Assets', d.assets, 'Total assets', false);
  section('Liabilities', d.liabilities, 'Total liabilities', true);
  s.add(['', d.netAssets < 0 ? 'Net liabilities' : 'Net assets', Math.abs(d.netAssets), null], 0, true);
  section('Equity', d.equity, 'Total equity', true);
  return {
    title: `Balance sheet at ${d.asOf}${d.checksum ? '' : ' (DOES NOT BALANCE)'}`,
    columns: ['code', 'account', 'balance', 'Dr/Cr'],
    money: [2],
    keep: accountFirst(4),
    ...layout(s, 1),
  };
}

/** A general ledger line's balance, debit − credit, as an amount and its side. */
const balanceCells = (pence: number): [Cell, Cell] => {
  const { amount, side } = drCr(pence);
  return [amount, side];
};

/** An aged report: a row per contact and the totals, by bucket. */
const aged = (op: Operation<AgedReport>): Presenter =>
  presenter(op, (d): Presented => {
    const buckets = ['current', 'days1to30', 'days31to60', 'days61to90', 'days90plus', 'total'] as const;
    return {
      title: `${d.reportTitle} at ${d.reportDate}`,
      columns: ['contact', 'current', '1-30', '31-60', '61-90', '90+', 'total'],
      money: [1, 2, 3, 4, 5, 6],
      rows: [...d.contacts.map((c): Cell[] => [c.contactName, ...buckets.map((b) => c[b])]), ['Total', ...buckets.map((b) => d.totals[b])]],
    };
  });

export const reportPresenters: readonly Presenter[] = [
  presenter(trialBalanceOp, (d) => ({
    title: `Trial balance at ${d.asOf}${d.balanced ? '' : ' (NOT BALANCED)'}`,
    columns: ['code', 'account', 'debit', 'credit'],
    money: [2, 3],
    keep: accountFirst(4),
    rows: [...d.accounts.map((a): Cell[] => [a.code, a.name, a.debit || null, a.credit || null]), ['', 'Total', d.totals.debit, d.totals.credit]],
  })),
  presenter(profitLossOp, profitLossTable),
  presenter(balanceSheetOp, balanceSheetTable),
  presenter(
    generalLedgerOp,
    (d) => ({
      title: `General ledger ${d.period.from} to ${d.period.to}`,
      columns: ['account', 'date', 'description', 'reference', 'debit', 'credit', 'balance', 'Dr/Cr'],
      money: [4, 5, 6],
      rows: d.accounts.flatMap((a): Cell[][] => [
        [`${a.code} ${a.name}`, d.period.from, 'Opening balance', '', null, null, ...balanceCells(a.openingBalance)],
        ...a.transactions.map((x): Cell[] => [`${a.code} ${a.name}`, x.date, x.description, x.reference, x.debit, x.credit, ...balanceCells(x.runningBalance)]),
        [`${a.code} ${a.name}`, d.period.to, 'Closing balance', '', a.totalDebit, a.totalCredit, ...balanceCells(a.closingBalance)],
      ]),
      // The reference goes first in a narrow terminal; the date, amounts and (cut short) the account and description stay.
      keep: [essential, essential, essential, 3, essential, essential, essential, essential],
    }),
    joinLedgerPages,
  ),
  presenter(vatReturnOp, (d) => ({
    title: `VAT return ${d.period.from} to ${d.period.to} (${d.scheme}${d.flatRatePercent === null ? '' : ` ${d.flatRatePercent}%`})`,
    columns: boxColumns,
    money: [2],
    keep: boxKeep,
    rows: (Object.keys(d.boxes) as (keyof typeof d.boxes)[]).map((box): Cell[] => [
      box.replace('box', ''),
      d.description[box],
      d.boxes[box],
      box === 'box5' ? box5Direction(d.netVatDirection) : null,
    ]),
    notes: flatRateNotes(d.flatRates),
  })),
  presenter(dashboardOp, (d) => ({
    title: `Dashboard ${d.currentPeriod.from} to ${d.currentPeriod.to}`,
    columns: ['measure', 'amount', 'a year earlier', 'change %'],
    money: [1, 2],
    rows: [
      ['Bank balance', d.bankBalance, null, null],
      ['Accounts receivable', d.accountsReceivable, null, null],
      ['Accounts payable', d.accountsPayable, null, null],
      ['Revenue', d.revenue.current, d.revenue.prior, d.revenue.change],
      ['Expenses', d.expenses.current, d.expenses.prior, d.expenses.change],
      ['Net profit', d.netProfit.current, d.netProfit.prior, d.netProfit.change],
      [`Overdue invoices (${d.overdueInvoices.count})`, d.overdueInvoices.total, null, null],
      [`Bills due in 30 days (${d.upcomingBills.count})`, d.upcomingBills.total, null, null],
      [`VAT to set aside (${d.taxSetAside.vatScheme})`, d.taxSetAside.vat, null, null],
    ],
  })),
  aged(agedDebtorsOp),
  aged(agedCreditorsOp),
];
