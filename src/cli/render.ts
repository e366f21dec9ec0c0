/** Human output of an operation's data: tables for lists, key/value tables for records, money in pounds. */
import chalk from 'chalk';
import { createRequire } from 'node:module';
import type { ColumnUserConfig } from 'table';
import type { AppError } from '../engine/errors.js';
import { displayPounds } from '../engine/money.js';
import { noMoney, type MoneyTest } from './money-columns.js';

type Row = Record<string, unknown>;

const isRecord = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPrimitive = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A value as a table shows it; `key` names its field, which says whether a number is pence. */
function cell(v: unknown, key: string, isMoney: MoneyTest): string {
  if (v === null || v === undefined) return chalk.dim('—');
  if (typeof v === 'number' && isMoney(key)) return displayPounds(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  // A long list would swamp the table: show how many, and --json for the items.
  if (Array.isArray(v)) return v.length <= 4 && v.every(isPrimitive) ? v.map(String).join(', ') : `(${v.length} items)`;
  if (isRecord(v)) return JSON.stringify(v);
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
}

let tableModule: typeof import('table') | undefined;
let widthOf: ((text: string) => number) | undefined;

/** Past this many rows a table is laid out by padLayout: the table package takes about 150 µs a row (18 s for a year's bank ledger). */
export const largeTable = 1000;

/**
 * Cells laid out in borderless columns, two spaces after each, money
 * columns aligned right. The table package does it, loaded on first use at
 * run time rather than bundled (JSON output never needs it); a large table
 * is laid out by padLayout, the same layout in a single pass.
 */
export function plainTable(data: readonly (readonly string[])[], columns?: Record<number, ColumnUserConfig>): string {
  if (data.length > largeTable) return padLayout(data, columns);
  tableModule ??= createRequire(import.meta.url)('table') as typeof import('table');
  return tableModule.table(data, {
    border: tableModule.getBorderCharacters('void'),
    columnDefault: { paddingLeft: 0, paddingRight: 2 },
    ...(columns ? { columns } : {}),
    drawHorizontalLine: () => false,
  });
}

/**
 * The layout of plainTable, in one pass over the cells: each padded to its
 * column's width as the terminal shows it (string-width, which the table
 * package measures with too: colour codes take none, wide characters two)
 * and two spaces; a line break inside a cell becomes a space.
 */
export function padLayout(data: readonly (readonly string[])[], columns?: Record<number, ColumnUserConfig>): string {
  const rows = data.map((row) => row.map((c) => c.replace(/\r?\n/g, ' ')));
  const measured = rows.map((row) => row.map(textWidth));
  const widths: number[] = [];
  for (const row of measured) row.forEach((w, i) => (widths[i] = Math.max(widths[i] ?? 0, w)));
  const right = new Set(Object.entries(columns ?? {}).flatMap(([i, c]) => (c.alignment === 'right' ? [Number(i)] : [])));
  let out = '';
  rows.forEach((row, r) => {
    row.forEach((c, i) => {
      const pad = ' '.repeat((widths[i] ?? 0) - (measured[r]?.[i] ?? 0));
      out += right.has(i) ? `${pad}${c}  ` : `${c}${pad}  `;
    });
    out += '\n';
  });
  return out;
}

/** How wide text shows on a terminal (colour codes none, wide characters two). */
export function textWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  widthOf ??= createRequire(import.meta.url)('string-width') as (text: string) => number;
  return widthOf(text);
}

/**
 * One line of a plainTable whose column widths are known before its rows
 * (a table printed as it is read): each cell padded to its width, or
 * left as it is when wider, and two spaces; `right` columns aligned right.
 */
export function padRow(cells: readonly string[], widths: readonly number[], right: ReadonlySet<number>): string {
  let out = '';
  cells.forEach((cell, i) => {
    const c = cell.replace(/\r?\n/g, ' ');
    const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - textWidth(c)));
    out += right.has(i) ? `${pad}${c}  ` : `${c}${pad}  `;
  });
  return `${out}\n`;
}

/** A table of records: one column per field that holds a plain value. */
export function renderRows(rows: readonly Row[], isMoney: MoneyTest = noMoney): string {
  if (rows.length === 0) return chalk.dim('(none)\n');
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => !isRecord(r[k]))))];
  const money = Object.fromEntries(columns.flatMap((c, i) => (isMoney(c) ? [[i, { alignment: 'right' as const }]] : [])));
  return plainTable([columns.map((c) => chalk.bold(c)), ...rows.map((r) => columns.map((c) => cell(r[c], c, isMoney)))], money);
}

function flatten(record: Row, prefix = ''): [string, unknown][] {
  return Object.entries(record).flatMap(([k, v]): [string, unknown][] => (isRecord(v) ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
}

/** A record as a two-column table, nested objects flattened as a.b. */
export function renderRecord(record: Row, isMoney: MoneyTest = noMoney): string {
  const lines = flatten(record);
  if (lines.length === 0) return chalk.dim('(empty)\n');
  return plainTable(lines.map(([k, v]) => [chalk.bold(k), cell(v, k, isMoney)]));
}

/** An operation's data for people; `isMoney` says which fields are pence (from the operation's output schema). */
export function renderData(data: unknown, meta?: unknown, isMoney: MoneyTest = noMoney): string {
  let out: string;
  if (Array.isArray(data)) out = renderRows(data.filter(isRecord), isMoney);
  else if (isRecord(data)) {
    // A record holding one list of records (a transaction's lines, {periods: […]}): its own fields, then the list as a table.
    const lists = Object.entries(data).filter(([, v]) => Array.isArray(v) && v.some(isRecord));
    const [only] = lists;
    if (lists.length === 1 && only) {
      const rest = Object.fromEntries(Object.entries(data).filter(([k]) => k !== only[0] && k !== 'meta'));
      const rows = renderRows((only[1] as unknown[]).filter(isRecord), isMoney);
      out = Object.keys(rest).length === 0 ? rows : `${renderRecord(rest, isMoney)}\n${chalk.bold(only[0])}\n${rows}`;
    } else out = renderRecord(data, isMoney);
  } else out = `${cell(data, '', isMoney)}\n`;
  return out + pageFooter(meta);
}

/** "12 in all, page 1 of 3" under a page of a list, the next page's --cursor under a page asked for by cursor; nothing for other results. */
export function pageFooter(meta: unknown): string {
  if (isRecord(meta) && typeof meta['nextCursor'] === 'string') return chalk.dim(`more: --cursor ${meta['nextCursor']}\n`);
  if (!isRecord(meta) || typeof meta['total'] !== 'number') return '';
  const { total, page, limit } = meta as { total: number; page?: number; limit?: number };
  const pages = limit ? Math.max(1, Math.ceil(total / limit)) : 1;
  return chalk.dim(`${total} in all${page ? `, page ${page} of ${pages}` : ''}\n`);
}

export function renderError(error: AppError, json: boolean): string {
  if (json) return JSON.stringify({ error: error.toJSON() });
  const field = error.field ? ` (field ${error.field})` : '';
  return `${chalk.red('error')} ${error.code}: ${error.message}${field}`;
}
