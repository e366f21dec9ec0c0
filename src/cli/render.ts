/** Human output of an operation's data: tables for lists, key/value tables for records, money in pounds. */
import chalk from 'chalk';
import type { ColumnUserConfig } from 'table';
import type { AppError } from '../engine/errors.js';
import { displayPounds } from '../engine/money.js';
import { noMoney, withoutPence, type MoneyTest } from './money-columns.js';
import { essential, fitColumns, hiddenNote, shrinkable, textWidth, truncate, type ColumnPlan } from './fit-table.js';

export { textWidth } from './fit-table.js';

type Row = Record<string, unknown>;

/** A line break (CRLF or LF) or a tab: a space in one line of text. */
const breaks = /\r\n|[\n\t]/g;
/** The C0 controls, DEL and the C1 controls: ESC starts a terminal's escape sequences, CSI (U+009B) and OSC (U+009D) too. */
const controls = /[\u0000-\u001f\u007f-\u009f]/;
const everyControl = new RegExp(controls.source, 'g');

/**
 * Text from the books as a terminal may show it: line breaks and tabs a
 * space, and every other control character (ESC, a lone CR, BEL, DEL, the
 * C1 controls) U+FFFD, so that a name or a bank line's description cannot
 * move the cursor, clear the screen, recolour the output or set the
 * clipboard (OSC 52). Every text of the books that the CLI prints for
 * people passes through here, before it is styled; --json and --csv print
 * it as it is.
 */
export function printable(text: string): string {
  return controls.test(text) ? text.replace(breaks, ' ').replace(everyControl, '\ufffd') : text;
}

/** Text of several lines made printable line by line, its line breaks kept (a CRLF an LF). */
export const printableLines = (text: string): string => text.split(/\r?\n/).map(printable).join('\n');

/** Data (an operation's, a record, a list) with printable() applied to every string in it, field names too. */
export function printableData<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map(printableData) as T;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [printable(k), printableData(v)])) as T;
  return value;
}

const isRecord = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPrimitive = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isRecordList = (v: unknown): v is unknown[] => Array.isArray(v) && v.some(isRecord);

/** What names a record in a cell: its number, code or name (INV-0001, 4000, Acme Ltd), else its id. */
function labelOf(r: unknown): string | undefined {
  if (!isRecord(r)) return undefined;
  const named = ['number', 'code', 'name', 'id'].map((k) => r[k]).find((x) => typeof x === 'string' && x !== '');
  return named as string | undefined;
}

/** A value as a table shows it; `key` names its field, which says whether a number is pence. */
function cell(v: unknown, key: string, isMoney: MoneyTest): string {
  if (v === null || v === undefined) return chalk.dim('—');
  if (typeof v === 'number' && isMoney(key)) return displayPounds(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  // A list inside a row of a list (a record shows its lists as tables of their own): its values, the records by what names them, else how many.
  if (Array.isArray(v)) {
    if (v.every(isPrimitive)) return v.map(String).join(', ');
    const labels = v.map(labelOf);
    return labels.every((l) => l !== undefined) ? labels.join(', ') : String(v.length);
  }
  if (isRecord(v)) return labelOf(v) ?? JSON.stringify(v);
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
}

/**
 * Cells laid out in borderless columns, two spaces after each, money
 * columns aligned right: the table package's layout (test/cli/table-layout
 * holds the two to the same text), made in one pass by padLayout. The
 * package itself took 150 µs a row (18 s for a year's bank ledger) and
 * 11 ms of a fresh report's 100 to load; a line break inside a cell, which
 * the package would wrap onto a row of its own, becomes a space.
 */
export function plainTable(data: readonly (readonly string[])[], columns?: Record<number, ColumnUserConfig>): string {
  return padLayout(data, columns);
}

/**
 * The layout of plainTable, in one pass over the cells: each padded to its
 * column's width as the terminal shows it (string-width, which the table
 * package measures with too: colour codes take none, wide characters two)
 * and two spaces between; a line break inside a cell becomes a space.
 * Nothing trails a line's last cell: piped output carries no trailing
 * blanks, and a table as wide as the terminal does not wrap on them.
 */
export function padLayout(data: readonly (readonly string[])[], columns?: Record<number, ColumnUserConfig>): string {
  const rows = data.map((row) => row.map((c) => c.replace(/\r?\n/g, ' ')));
  const measured = rows.map((row) => row.map(textWidth));
  const widths: number[] = [];
  for (const row of measured) row.forEach((w, i) => (widths[i] = Math.max(widths[i] ?? 0, w)));
  const right = new Set(Object.entries(columns ?? {}).flatMap(([i, c]) => (c.alignment === 'right' ? [Number(i)] : [])));
  let out = '';
  rows.forEach((row, r) => {
    let line = '';
    row.forEach((c, i) => {
      const pad = ' '.repeat((widths[i] ?? 0) - (measured[r]?.[i] ?? 0));
      line += right.has(i) ? `${pad}${c}  ` : `${c}${pad}  `;
    });
    out += `${line.trimEnd()}\n`;
  });
  return out;
}

/**
 * One line of a table whose column widths are known before its rows (a
 * table printed as it is read): each cell padded to its width, or left as
 * it is when wider, two spaces between; `right` columns aligned right.
 * Nothing trails the last cell, so a line as wide as the terminal does not
 * wrap on its padding.
 */
export function padRow(cells: readonly string[], widths: readonly number[], right: ReadonlySet<number>): string {
  let out = '';
  cells.forEach((cell, i) => {
    const c = cell.replace(/\r?\n/g, ' ');
    const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - textWidth(c)));
    out += right.has(i) ? `${pad}${c}  ` : `${c}${pad}  `;
  });
  return `${out.trimEnd()}\n`;
}

/**
 * Cells (a header row, when `header`, then the rows) as a plainTable within
 * `width`: columns left out and text cut as fitColumns says, and a dim line
 * under the table naming what was left out. `right` columns align right.
 */
export function fittedTable(
  data: readonly (readonly string[])[],
  plans: readonly ColumnPlan[],
  width: number | undefined,
  { right = [], header = true }: { right?: readonly number[]; header?: boolean } = {},
): string {
  const columns = plans.map((_, i) => i);
  const natural = columns.map((i) => Math.max(0, ...data.map((row) => textWidth(row[i] ?? ''))));
  const fit = fitColumns(natural, plans, width);
  const rows = data.map((row, r) =>
    fit.shown.map((i) => {
      const text = truncate(row[i] ?? '', fit.cut.get(i) ?? Number.POSITIVE_INFINITY);
      return header && r === 0 ? chalk.bold(text) : text;
    }),
  );
  const align = Object.fromEntries(fit.shown.flatMap((i, at) => (right.includes(i) ? [[at, { alignment: 'right' as const }]] : [])));
  const names = header ? fit.hidden.map((i) => data[0]?.[i] ?? '') : [];
  const note = hiddenNote(names, width);
  return plainTable(rows, align) + (note === '' ? '' : `${chalk.dim(note)}\n`);
}

const related = /.Ids?$/;
const audit = /^(createdAt|updatedAt|createdBy|createdByName|updatedBy)$|.At$/;
const key = /^(id|code|name|date|[a-z]*Number)$/;

/**
 * How a field's column gives way in a narrow table: empty columns first,
 * then audit times, then ids of other records (and a sub-table's own ids),
 * then the rest, the rightmost first; ids, codes, names, numbers, dates and
 * amounts stay, and free text is cut short before it goes.
 */
function planOf(field: string, cells: readonly string[], isMoney: MoneyTest, nested: boolean): ColumnPlan {
  const shrink = !isMoney(field) && shrinkable(cells);
  if (cells.every((c) => c === '' || c === chalk.dim('—'))) return { keep: 0, shrink };
  if (audit.test(field)) return { keep: 1, shrink };
  if (related.test(field) || (nested && field === 'id')) return { keep: 2, shrink };
  if (isMoney(field) || key.test(field)) return { keep: essential, shrink };
  return { keep: /^(description|notes|reference|contactName)$/.test(field) ? 4 : 3, shrink };
}

/** A table of records: one column per field that holds a plain value, narrowed to `width`; `nested` for a record's own list (its lines). */
export function renderRows(rows: readonly Row[], isMoney: MoneyTest = noMoney, width?: number, nested = false): string {
  if (rows.length === 0) return chalk.dim('(none)\n');
  // A record inside a row shows by what names it (matchedTo: INV-0001); one with no such name is left out.
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => !isRecord(r[k]) || labelOf(r[k]) !== undefined)))];
  const body = rows.map((r) => columns.map((c) => cell(r[c], c, isMoney)));
  const plans = columns.map((c, i) =>
    planOf(
      c,
      body.map((row) => row[i] ?? ''),
      isMoney,
      nested,
    ),
  );
  const right = columns.flatMap((c, i) => (isMoney(c) ? [i] : []));
  const headings = columns.map((c) => withoutPence(c, isMoney(c)));
  return fittedTable([headings, ...body], plans, width, { right });
}

/** A record's fields as name and value (nested records as a.b), and the lists of records in it, by name, to show as tables. */
function flatten(record: Row, prefix = ''): { fields: [string, unknown][]; lists: [string, Row[]][] } {
  const fields: [string, unknown][] = [];
  const lists: [string, Row[]][] = [];
  for (const [k, v] of Object.entries(record)) {
    if (isRecordList(v)) lists.push([`${prefix}${k}`, v.filter(isRecord)]);
    else if (isRecord(v)) {
      const inner = flatten(v, `${prefix}${k}.`);
      fields.push(...inner.fields);
      lists.push(...inner.lists);
    } else fields.push([`${prefix}${k}`, v]);
  }
  return { fields, lists };
}

/** Fields as a two-column table of name and value, the values cut short to `width`. */
function fieldTable(fields: readonly [string, unknown][], isMoney: MoneyTest, width: number | undefined): string {
  const data = fields.map(([k, v]) => [withoutPence(k, isMoney(k)), Array.isArray(v) && v.length === 0 ? chalk.dim('none') : cell(v, k, isMoney)]);
  const plans: ColumnPlan[] = [
    { keep: essential, shrink: false },
    { keep: essential, shrink: true },
  ];
  return fittedTable(
    data.map(([k, v]) => [chalk.bold(k ?? ''), v ?? '']),
    plans,
    width,
    { header: false },
  );
}

/**
 * A record as people read a document: its fields as a two-column table
 * (nested records flattened as a.b), then each list of records it holds
 * (an invoice's items, payments and credits) as a titled table of its own.
 */
export function renderRecord(record: Row, isMoney: MoneyTest = noMoney, width?: number): string {
  const { fields, lists } = flatten(record);
  if (fields.length === 0 && lists.length === 0) return chalk.dim('(empty)\n');
  const parts = fields.length === 0 ? [] : [fieldTable(fields, isMoney, width)];
  for (const [name, rows] of lists) parts.push(`${chalk.bold(name)}\n${renderRows(rows, isMoney, width, true)}`);
  return parts.join('\n');
}

/** An operation's data for people; `isMoney` says which fields are pence (from the operation's output schema); tables fit `width`. */
export function renderData(given: unknown, meta?: unknown, isMoney: MoneyTest = noMoney, width?: number): string {
  const data = printableData(given);
  let out: string;
  if (Array.isArray(data)) out = renderRows(data.filter(isRecord), isMoney, width);
  else if (isRecord(data)) {
    // A record that is only a list of records ({periods: […]}, beside its meta): the list, as a table.
    const lists = Object.entries(data).filter(([, v]) => isRecordList(v));
    const rest = Object.keys(data).filter((k) => k !== 'meta' && !lists.some(([name]) => name === k));
    const [only] = lists;
    if (lists.length === 1 && only && rest.length === 0) out = renderRows((only[1] as unknown[]).filter(isRecord), isMoney, width);
    else out = renderRecord(lists.length > 0 ? Object.fromEntries(Object.entries(data).filter(([k]) => k !== 'meta')) : data, isMoney, width);
  } else out = `${cell(data, '', isMoney)}\n`;
  return out + pageFooter(meta);
}

/** "12 in all, page 1 of 3" under a page of a list, the next page's --cursor under a page asked for by cursor; nothing for other results. */
export function pageFooter(meta: unknown): string {
  if (isRecord(meta) && typeof meta['nextCursor'] === 'string') return chalk.dim(`more: --cursor ${printable(meta['nextCursor'])}\n`);
  if (!isRecord(meta) || typeof meta['total'] !== 'number') return '';
  const { total, page, limit, perPage } = meta as { total: number; page?: number; limit?: number; perPage?: number };
  const size = limit ?? perPage;
  const pages = size ? Math.max(1, Math.ceil(total / size)) : 1;
  return chalk.dim(`${total} in all${page ? `, page ${page} of ${pages}` : ''}\n`);
}

export function renderError(error: AppError, json: boolean): string {
  if (json) return JSON.stringify({ error: error.toJSON() });
  // A message may quote what it refuses (a name, a line of a file): printable, as the books' text is.
  const field = error.field ? ` (field ${printable(error.field)})` : '';
  return `${chalk.red('error')} ${error.code}: ${printableLines(error.message)}${field}`;
}
