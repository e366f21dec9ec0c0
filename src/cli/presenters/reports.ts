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
import type { BalanceSheet } from '../../engine/reports/statements.js';
import { joinLedgerPages } from '../../engine/reports/general-ledger.js';
import { presenter, type Cell, type Presented, type Presenter } from './index.js';

type Section = BalanceSheet['assets'];

const section = (name: string, s: Section, total: string): Cell[][] => [
  ...s.accounts.map((a): Cell[] => [name, a.code, a.name, a.balance]),
  [name, '', total, s.total],
];

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
    rows: [...d.accounts.map((a): Cell[] => [a.code, a.name, a.debit || null, a.credit || null]), ['', 'Total', d.totals.debit, d.totals.credit]],
  })),
  presenter(profitLossOp, (d) => ({
    title: `Profit and loss ${d.period.from} to ${d.period.to}`,
    columns: ['section', 'code', 'account', 'amount'],
    money: [3],
    rows: [
      ...section('revenue', d.revenue, 'Total revenue'),
      ...section('expenses', d.expenses, 'Total expenses'),
      ['', '', 'Gross profit', d.grossProfit],
      ['', '', 'Net profit', d.netProfit],
      ...(d.comparative ? [['', '', `Net profit ${d.comparative.period.from} to ${d.comparative.period.to}`, d.comparative.netProfit]] : []),
    ],
  })),
  presenter(balanceSheetOp, (d) => ({
    title: `Balance sheet at ${d.asOf}${d.checksum ? '' : ' (DOES NOT BALANCE)'}`,
    columns: ['section', 'code', 'account', 'amount'],
    money: [3],
    rows: [
      ...section('assets', d.assets, 'Total assets'),
      ...section('liabilities', d.liabilities, 'Total liabilities'),
      ['', '', 'Net assets', d.netAssets],
      ...section('equity', d.equity, 'Total equity'),
    ],
  })),
  presenter(
    generalLedgerOp,
    (d) => ({
      title: `General ledger ${d.period.from} to ${d.period.to}`,
      columns: ['account', 'date', 'description', 'reference', 'debit', 'credit', 'balance'],
      money: [4, 5, 6],
      rows: d.accounts.flatMap((a): Cell[][] => [
        [`${a.code} ${a.name}`, d.period.from, 'Opening balance', '', null, null, a.openingBalance],
        ...a.transactions.map((x): Cell[] => [`${a.code} ${a.name}`, x.date, x.description, x.reference, x.debit, x.credit, x.runningBalance]),
        [`${a.code} ${a.name}`, d.period.to, 'Closing balance', '', a.totalDebit, a.totalCredit, a.closingBalance],
      ]),
    }),
    joinLedgerPages,
  ),
  presenter(vatReturnOp, (d) => ({
    title: `VAT return ${d.period.from} to ${d.period.to} (${d.scheme}${d.flatRatePercent === null ? '' : ` ${d.flatRatePercent}%`})`,
    columns: ['box', 'description', 'amount'],
    money: [2],
    rows: (Object.keys(d.boxes) as (keyof typeof d.boxes)[]).map((box): Cell[] => [box.replace('box', ''), d.description[box], d.boxes[box]]),
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
