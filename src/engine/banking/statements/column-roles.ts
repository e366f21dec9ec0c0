/**
 * What each column of a statement holds, told from its header (the names UK
 * banks use) or, in a file without one, from what its cells look like.
 */
import { balanceSteps } from './balance-proof.js';
import { parseAmountText } from '../../tabular/amount-text.js';
import { looksLikeDate } from '../../tabular/date-formats.js';
import type { ColumnRole } from './types.js';

/** Header words → role, first match wins; names are compared lower-case with currency labels such as "(GBP)" dropped. */
const headerRoles: readonly (readonly [RegExp, ColumnRole])[] = [
  [/^(transaction |posting |posted |value |completed |booking )?date$|^date (of )?transaction$/, 'date'],
  [/^(debit|debits|debit amount|money out|paid out|withdrawals?|out|payments?|spent)$/, 'debit'],
  [/^(credit|credits|credit amount|money in|paid in|deposits?|in|receipts?|received)$/, 'credit'],
  [/^(running )?balance$|^balance after$/, 'balance'],
  [/^(amount|value|transaction amount|net amount|amount in gbp)$/, 'amount'],
  [/^(description|transaction description|details|transaction details|narrative|memo|counter ?party|payee|name|merchant|particulars)$/, 'description'],
  [/^(reference|ref|payment reference|transaction reference|cheque number|check number)$/, 'reference'],
  [/^(type|transaction type)$/, 'type'],
  [
    /^((debit|dr|d) ?\/ ?(credit|cr|c)|(credit|cr|c) ?\/ ?(debit|dr|d)|debit or credit|credit or debit|(debit ?\/ ?credit |dr ?\/ ?cr |d ?\/ ?c )?indicator)$/,
    'indicator',
  ],
];

/**
 * A row's money from its debit and credit cells, in pence (null when both are
 * empty). Banks print debits bare or with a minus: money out is the debit's
 * size either way. A minus in the credit column is a credit reversed (the
 * bank's balance column falls by it): money out.
 */
export function dualAmount(debit: number | null, credit: number | null): number | null {
  if (debit === null && credit === null) return null;
  return (credit ?? 0) - Math.abs(debit ?? 0);
}

/** Money out (-1) or in (+1) as an indicator cell says it (Debit, Credit, DR, CR, D, C in any case), or null. */
export function indicatorSign(cell: string): -1 | 1 | null {
  const word = cell.trim().toLowerCase();
  if (word === 'debit' || word === 'dr' || word === 'd') return -1;
  if (word === 'credit' || word === 'cr' || word === 'c') return 1;
  return null;
}

/** A column whose every cell says Debit or Credit (a bank's "Type" column often does), with at least one filled. */
export function isIndicatorColumn(values: readonly string[]): boolean {
  const filled = values.filter((v) => v.trim() !== '');
  return filled.length > 0 && filled.every((v) => indicatorSign(v) !== null);
}

export function normaliseHeaderCell(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/\((gbp|£)\)|£|\bgbp\b/g, '')
    .replace(/[\s_]+/g, ' ')
    .trim();
}

export function roleOfHeader(cell: string): ColumnRole {
  const name = normaliseHeaderCell(cell);
  return headerRoles.find(([pattern]) => pattern.test(name))?.[1] ?? 'skip';
}

/**
 * Roles from a header row: the first column of each role keeps it (a second
 * "Date" column, such as Monzo's, is skipped), except descriptions, which
 * are read together; a signed amount column wins over debit and credit ones.
 */
export function rolesFromHeader(header: readonly string[]): ColumnRole[] {
  const seen = new Set<ColumnRole>();
  const roles = header.map((cell) => {
    const role = roleOfHeader(cell);
    if (role === 'skip' || (role !== 'description' && seen.has(role))) return 'skip';
    seen.add(role);
    return role;
  });
  return seen.has('amount') ? roles.map((r) => (r === 'debit' || r === 'credit' ? 'skip' : r)) : roles;
}

const share = (values: readonly string[], test: (v: string) => boolean): number => (values.length === 0 ? 0 : values.filter(test).length / values.length);

/** A column of money: every filled cell an amount, and some with pence (so account numbers and years are not taken for money). */
function isMoneyColumn(values: readonly string[]): boolean {
  return values.length > 0 && values.every((v) => parseAmountText(v) !== null) && values.some((v) => /\.\d{1,2}\b/.test(v));
}

/**
 * Roles for a file without a header, from its cells: the column most often a
 * date; money columns (two that are never filled together are debit then
 * credit, as Lloyds, NatWest and Nationwide order them; a later one that
 * moves by the amounts, read either way up, is the balance); the text column
 * with the most different values is the description.
 */
export function rolesFromContent(rows: readonly (readonly string[])[], width: number): ColumnRole[] {
  const columns = Array.from({ length: width }, (_, i) => rows.map((r) => r[i] ?? '').filter((v) => v !== ''));
  const roles: ColumnRole[] = Array.from({ length: width }, () => 'skip');
  let dateColumn = -1;
  let dateShare = 0.5;
  columns.forEach((values, i) => {
    const s = share(values, looksLikeDate);
    if (s > dateShare) [dateColumn, dateShare] = [i, s];
  });
  if (dateColumn >= 0) roles[dateColumn] = 'date';
  const money = columns.flatMap((values, i) => (i !== dateColumn && isMoneyColumn(values) ? [i] : []));
  const pence = (row: readonly string[], i: number): number | null => (row[i] ? parseAmountText(row[i]) : null);
  const filledTogether = (a: number, b: number): boolean => rows.some((r) => (r[a] ?? '') !== '' && (r[b] ?? '') !== '');
  const pair = money.findIndex((a, k) => money[k + 1] !== undefined && !filledTogether(a, money[k + 1]!));
  let amounts: (number | null)[];
  let used: number[];
  if (pair >= 0) {
    const [debit, credit] = [money[pair]!, money[pair + 1]!];
    [roles[debit], roles[credit]] = ['debit', 'credit'];
    amounts = rows.map((r) => dualAmount(pence(r, debit), pence(r, credit)));
    used = [debit, credit];
  } else if (money[0] !== undefined) {
    roles[money[0]] = 'amount';
    const indicator = columns.findIndex((values, i) => roles[i] === 'skip' && isIndicatorColumn(values));
    if (indicator >= 0) roles[indicator] = 'indicator';
    amounts = rows.map((r) => {
      const amount = pence(r, money[0]!);
      return amount === null || indicator < 0 ? amount : (indicatorSign(r[indicator] ?? '') ?? 1) * Math.abs(amount);
    });
    used = [money[0]];
  } else {
    return withDescription(roles, columns);
  }
  const movesByAmounts = (column: number): boolean => {
    const stated = rows.map((r, k) => ({ amount: amounts[k] ?? null, balance: pence(r, column) }));
    const agreeing = Math.max(...([1, -1] as const).flatMap((sign) => Object.values(balanceSteps(stated, sign))));
    return rows.length > 1 && agreeing * 2 >= rows.length - 1;
  };
  const balance = money.find((column) => column > Math.max(...used) && movesByAmounts(column));
  if (balance !== undefined) roles[balance] = 'balance';
  return withDescription(roles, columns);
}

function withDescription(roles: ColumnRole[], columns: readonly (readonly string[])[]): ColumnRole[] {
  let description = -1;
  let distinct = 0;
  columns.forEach((values, i) => {
    if (roles[i] !== 'skip' || share(values, (v) => /[A-Za-z]/.test(v)) < 0.5) return;
    const n = new Set(values).size;
    if (n > distinct) [description, distinct] = [i, n];
  });
  if (description >= 0) roles[description] = 'description';
  return roles;
}
