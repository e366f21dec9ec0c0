/**
 * How the CLI shows reports and lists (contacts, invoices, bills, quotes,
 * credit notes, imports): each operation that has one declares a typed
 * presenter here, from its output, turning its data into a titled table
 * whose money columns print in pounds, grouped (1,234.56) for people, or
 * as CSV, plain (1234.56) for programs. --json prints the API's data
 * instead, in pence.
 */
import chalk from 'chalk';
import { displayPounds, formatPounds } from '../../engine/money.js';
import type { Operation } from '../../engine/operation.js';
import { fittedTable, printable } from '../render.js';
import { essential, shrinkable, type ColumnPlan } from '../fit-table.js';
import { moneyTestOf } from '../money-columns.js';

export type Cell = string | number | null;

export interface Presented {
  readonly title: string;
  readonly columns: readonly string[];
  /** Indexes of the columns that hold pence. */
  readonly money: readonly number[];
  readonly rows: readonly (readonly Cell[])[];
  /** How soon each column is left out of a narrow table (fit-table's keep); by default the first column and the money stay, ids go first, then the rightmost. */
  readonly keep?: readonly number[];
  /** A tree's rows: the column indented, by each row's depth, in the table (not in CSV). */
  readonly indent?: { readonly column: number; readonly depths: readonly number[] };
  /** Rows printed bold in the table: headings and totals. */
  readonly bold?: readonly number[];
  /** Lines printed under the table (not in CSV): what the figures wait for. */
  readonly notes?: readonly string[];
}

export interface Presenter {
  readonly operation: string;
  present(data: unknown): Presented;
  /** For a report paged by cursor: its pages as one, so that the CLI can show all of it. */
  readonly join?: (pages: readonly unknown[]) => unknown;
}

/** A presenter of `op`'s data, typed by its declared output (and, paged by cursor, how its pages join). */
export function presenter<D>(op: Operation<D>, present: (data: D) => Presented, join?: (pages: readonly D[]) => D): Presenter {
  return { operation: op.name, present: (data) => present(data as D), ...(join ? { join: (pages: readonly unknown[]) => join(pages as D[]) } : {}) };
}

/** A column of a list: its label, the field it shows, and how to show the field when not as it is. */
export type Column<R> = {
  [F in keyof R & string]: readonly [label: string, field: F, format?: (value: R[F], record: R) => Cell];
}[keyof R & string];

/**
 * A list as a table: one row per record, one column per named field;
 * which columns are money comes from the operation's output schema.
 */
export function listPresenter<R extends object>(
  op: Operation<readonly R[]>,
  title: string,
  columns: readonly Column<R>[],
  keep?: readonly number[],
): Presenter {
  const isMoney = moneyTestOf(op);
  const money = columns.flatMap(([, field], i) => (isMoney(field) ? [i] : []));
  const cell = (r: R, [, field, format]: Column<R>): Cell => (format ? format(r[field], r) : ((r[field] ?? null) as Cell));
  return presenter(op, (rows) => ({
    title,
    columns: columns.map(([label]) => label),
    money,
    rows: rows.map((r) => columns.map((c) => cell(r, c))),
    ...(keep ? { keep } : {}),
  }));
}

function cells(p: Presented, pounds: (pence: number) => string): string[][] {
  return p.rows.map((row) => row.map((v, i) => (v === null ? '' : p.money.includes(i) && typeof v === 'number' ? pounds(v) : String(v))));
}

const idLike = /^[a-z]+_[0-9a-z]{20,}$/;

/** A presented table for people, money grouped (1,234.56), narrowed to `width` (none: every column); the books' text printable. */
export function renderTable(p: Presented, width?: number): string {
  const body = cells(p, displayPounds).map((row, r) => {
    const text = row.map(printable);
    const depth = p.indent?.depths[r] ?? 0;
    const shown = p.indent && depth > 0 ? text.map((c, i) => (i === p.indent?.column ? `${'  '.repeat(depth)}${c}` : c)) : text;
    return p.bold?.includes(r) ? shown.map((c) => (c === '' ? c : chalk.bold(c))) : shown;
  });
  const plans = p.columns.map((_, i): ColumnPlan => {
    const column = body.map((row) => row[i] ?? '');
    const shrink = !p.money.includes(i) && shrinkable(column);
    const given = p.keep?.[i];
    if (given !== undefined) return { keep: given, shrink };
    if (column.every((c) => c === '')) return { keep: 0, shrink };
    if (i === 0 || p.money.includes(i)) return { keep: essential, shrink };
    return { keep: column.every((c) => c === '' || idLike.test(c)) ? 2 : 3, shrink };
  });
  const notes = (p.notes ?? []).map((n) => `${printable(n)}\n`).join('');
  return `${chalk.bold(printable(p.title))}\n${fittedTable([p.columns.map(printable), ...body], plans, width, { right: p.money })}${notes}`;
}

/**
 * A cell that a spreadsheet would run as a formula (CSV injection): one
 * starting with = + - @, a tab or a carriage return. A plain number such as
 * -12.50 is not one, and stays a number the spreadsheet can add up.
 */
const formulaLike = (v: string): boolean => /^[=+\-@\t\r]/.test(v) && !/^[+-]?\d+(\.\d+)?$/.test(v);

/** One RFC 4180 field; a formula-like cell is neutralised as OWASP recommends: a ' in front, and quoted. */
export function csvField(v: string): string {
  const formula = formulaLike(v);
  const text = formula ? `'${v}` : v;
  return formula || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV, money in pounds with two decimals and no thousands separators, so that spreadsheets and scripts read numbers. */
export function renderCsv(p: Presented): string {
  return [p.columns, ...cells(p, formatPounds)].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}
