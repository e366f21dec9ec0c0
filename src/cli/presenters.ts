/**
 * How the CLI shows reports and lists of contacts, invoices, bills,
 * quotes, credit notes and imports: each as a titled table whose money
 * columns print in pounds, grouped (1,234.56) for people, or as CSV,
 * plain (1234.56) for programs. --json prints the API's data instead, in pence.
 */
import chalk from 'chalk';
import { displayPounds, formatPounds } from '../engine/money.js';
import { plainTable } from './render.js';

type Cell = string | number | null;

export interface Presented {
  readonly title: string;
  readonly columns: readonly string[];
  /** Indexes of the columns that hold pence. */
  readonly money: readonly number[];
  readonly rows: readonly (readonly Cell[])[];
}

interface Line {
  code: string | null;
  name: string;
  balance: number;
}
interface Section {
  accounts: Line[];
  total: number;
}

const section = (name: string, s: Section, total: string): Cell[][] => [
  ...s.accounts.map((a): Cell[] => [name, a.code, a.name, a.balance]),
  [name, '', total, s.total],
];

/* eslint-disable @typescript-eslint/no-explicit-any -- each presenter reads the data its own operation returns */
export const presenters: Readonly<Record<string, (data: any) => Presented>> = {
  'reports.trial-balance': (d) => ({
    title: `Trial balance at ${d.asOf}${d.balanced ? '' : ' (NOT BALANCED)'}`,
    columns: ['code', 'account', 'debit', 'credit'],
    money: [2, 3],
    rows: [...d.accounts.map((a: any) => [a.code, a.name, a.debit || null, a.credit || null]), ['', 'Total', d.totals.debit, d.totals.credit]],
  }),
  'reports.profit-loss': (d) => ({
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
  }),
  'reports.balance-sheet': (d) => ({
    title: `Balance sheet at ${d.asOf}${d.checksum ? '' : ' (DOES NOT BALANCE)'}`,
    columns: ['section', 'code', 'account', 'amount'],
    money: [3],
    rows: [
      ...section('assets', d.assets, 'Total assets'),
      ...section('liabilities', d.liabilities, 'Total liabilities'),
      ['', '', 'Net assets', d.netAssets],
      ...section('equity', d.equity, 'Total equity'),
    ],
  }),
  'reports.general-ledger': (d) => ({
    title: `General ledger ${d.period.from} to ${d.period.to}`,
    columns: ['account', 'date', 'description', 'reference', 'debit', 'credit', 'balance'],
    money: [4, 5, 6],
    rows: d.accounts.flatMap((a: any) => [
      [`${a.code} ${a.name}`, d.period.from, 'Opening balance', '', null, null, a.openingBalance],
      ...a.transactions.map((x: any) => [`${a.code} ${a.name}`, x.date, x.description, x.reference, x.debit, x.credit, x.runningBalance]),
      [`${a.code} ${a.name}`, d.period.to, 'Closing balance', '', a.totalDebit, a.totalCredit, a.closingBalance],
    ]),
  }),
  'reports.vat': (d) => ({
    title: `VAT return ${d.period.from} to ${d.period.to} (${d.scheme}${d.flatRatePercent === null ? '' : ` ${d.flatRatePercent}%`})`,
    columns: ['box', 'description', 'amount'],
    money: [2],
    rows: Object.entries(d.boxes).map(([box, amount]) => [box.replace('box', ''), d.description[box], amount as number]),
  }),
  'reports.dashboard': (d) => ({
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
  }),
  'reports.aged-debtors': (d) => aged(d),
  'reports.aged-creditors': (d) => aged(d),
  'contacts.list': (d) => ({
    title: 'Contacts',
    columns: ['id', 'type', 'name', 'company', 'email', 'terms'],
    money: [],
    rows: d.map((c: any) => [c.id, c.contactType, c.name, c.company, c.email, c.paymentTerms]),
  }),
  'invoices.list': (d) => documents('Invoices', 'invoiceNumber', d),
  'bills.list': (d) => documents('Bills', 'billNumber', d),
  'credit-notes.list': (d) => creditNotes('Credit notes', 'invoiceNumber', d),
  'supplier-credit-notes.list': (d) => creditNotes('Supplier credit notes', 'billNumber', d),
  'imports.list': (d) => ({
    title: 'Journal imports',
    columns: ['id', 'imported at (UTC)', 'source', 'transactions', 'total debit', 'status'],
    money: [4],
    rows: d.map((b: any) => [b.id, b.createdAt.slice(0, 16).replace('T', ' '), b.source, b.transactionCount, b.totalDebit, b.undoneAt === null ? b.status : `${b.status} ${b.undoneAt.slice(0, 10)}`]),
  }),
  'quotes.list': (d) => ({
    title: 'Quotes',
    columns: ['number', 'status', 'contact', 'issued', 'valid until', 'total', 'id'],
    money: [5],
    rows: d.map((q: any) => [q.quoteNumber, q.status, q.contactName, q.issueDate, q.validUntil, q.total, q.id]),
  }),
};

/** An aged report: a row per contact and the totals, by bucket. */
function aged(d: any): Presented {
  const buckets = ['current', 'days1to30', 'days31to60', 'days61to90', 'days90plus', 'total'];
  return {
    title: `${d.reportTitle} at ${d.reportDate}`,
    columns: ['contact', 'current', '1-30', '31-60', '61-90', '90+', 'total'],
    money: [1, 2, 3, 4, 5, 6],
    rows: [...d.contacts.map((c: any) => [c.contactName, ...buckets.map((b) => c[b])]), ['Total', ...buckets.map((b) => d.totals[b])]],
  };
}

/** Invoices or bills, one a row, amounts in pounds. */
function documents(title: string, numberField: string, d: any[]): Presented {
  return {
    title,
    columns: ['number', 'status', 'contact', 'issued', 'due', 'total', 'amount due', 'id'],
    money: [5, 6],
    rows: d.map((x) => [x[numberField], x.status, x.contactName, x.issueDate, x.dueDate, x.total, x.amountDue, x.id]),
  };
}
/** Credit notes, one a row: what each credited and the credit it has left, in pounds. */
function creditNotes(title: string, documentField: string, d: any[]): Presented {
  return {
    title,
    columns: ['number', 'status', 'credits', 'contact', 'date', 'total', 'credit left', 'id'],
    money: [5, 6],
    rows: d.map((x) => [x.creditNoteNumber, x.status, x[documentField], x.contactName, x.date, x.total, x.remainingCredit, x.id]),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function cells(p: Presented, pounds: (pence: number) => string): string[][] {
  return p.rows.map((row) => row.map((v, i) => (v === null ? '' : p.money.includes(i) && typeof v === 'number' ? pounds(v) : String(v))));
}

export function renderTable(p: Presented): string {
  const columns = Object.fromEntries(p.money.map((i) => [i, { alignment: 'right' as const }]));
  return `${chalk.bold(p.title)}\n${plainTable([p.columns.map((c) => chalk.bold(c)), ...cells(p, displayPounds)], columns)}`;
}

const csvField = (v: string): string => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** RFC 4180 CSV, money in pounds with two decimals and no thousands separators, so that spreadsheets and scripts read numbers. */
export function renderCsv(p: Presented): string {
  return [p.columns, ...cells(p, formatPounds)].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}
