/**
 * What each column of a statement holds, told from its header (the names UK
 * banks use) or, in a file without one, from what its cells look like.
 */
import { parseBankAmount } from './bank-amount.js';
import { looksLikeDate } from './date-formats.js';
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
];

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
  return values.length > 0 && values.every((v) => parseBankAmount(v) !== null) && values.some((v) => /\.\d{1,2}\b/.test(v));
}

/**
 * Roles for a file without a header, from its cells: the column most often a
 * date; money columns (two that are never filled together are debit then
 * credit, as Lloyds, NatWest and Nationwide order them; a money column after
 * the amount columns is the balance); the text column with the most
 * different values is the description.
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
  const filledTogether = (a: number, b: number): boolean => rows.some((r) => (r[a] ?? '') !== '' && (r[b] ?? '') !== '');
  const pair = money.findIndex((a, k) => money[k + 1] !== undefined && !filledTogether(a, money[k + 1]!));
  if (pair >= 0) {
    roles[money[pair]!] = 'debit';
    roles[money[pair + 1]!] = 'credit';
    const rest = money.filter((_, k) => k !== pair && k !== pair + 1);
    if (rest[0] !== undefined) roles[rest[0]] = 'balance';
  } else if (money[0] !== undefined) {
    roles[money[0]] = 'amount';
    if (money[1] !== undefined) roles[money[1]] = 'balance';
  }
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
