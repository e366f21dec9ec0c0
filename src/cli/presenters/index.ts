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
import { plainTable } from '../render.js';
import { moneyTestOf } from '../money-columns.js';

export type Cell = string | number | null;

export interface Presented {
  readonly title: string;
  readonly columns: readonly string[];
  /** Indexes of the columns that hold pence. */
  readonly money: readonly number[];
  readonly rows: readonly (readonly Cell[])[];
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
export function listPresenter<R extends object>(op: Operation<readonly R[]>, title: string, columns: readonly Column<R>[]): Presenter {
  const isMoney = moneyTestOf(op);
  const money = columns.flatMap(([, field], i) => (isMoney(field) ? [i] : []));
  const cell = (r: R, [, field, format]: Column<R>): Cell => (format ? format(r[field], r) : ((r[field] ?? null) as Cell));
  return presenter(op, (rows) => ({
    title,
    columns: columns.map(([label]) => label),
    money,
    rows: rows.map((r) => columns.map((c) => cell(r, c))),
  }));
}

function cells(p: Presented, pounds: (pence: number) => string): string[][] {
  return p.rows.map((row) => row.map((v, i) => (v === null ? '' : p.money.includes(i) && typeof v === 'number' ? pounds(v) : String(v))));
}

export function renderTable(p: Presented): string {
  const columns = Object.fromEntries(p.money.map((i) => [i, { alignment: 'right' as const }]));
  return `${chalk.bold(p.title)}\n${plainTable([p.columns.map((c) => chalk.bold(c)), ...cells(p, displayPounds)], columns)}`;
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
