/**
 * CSV data rows read through a schema: each becomes a statement row or a
 * rejected row with its number, the reason and what of it still reads,
 * never an exception, so that rows in the file = rows + rejected.
 */
import { parseAmountText } from '../../tabular/amount-text.js';
import { parseDateAs } from '../../tabular/date-formats.js';
import type { CsvRecord } from '../../tabular/csv-records.js';
import { dualAmount, indicatorSign } from './column-roles.js';
import type { ColumnRole, RejectedRead, RejectedRow, StatementRow, StatementSchema } from './types.js';

export interface DataRecord extends CsvRecord {
  readonly rowIndex: number;
}

/**
 * Columns a layout skips that still say something of each row's money, by
 * their header: a currency (a row in any but GBP is rejected, as an OFX
 * statement in another currency is refused whole: acct keeps its books in
 * pounds), and Revolut's Fee, which its Amount leaves out (the balance
 * moves by the amount less the fee), and State (only a COMPLETED row is
 * money that moved; a pending, reverted or declined one is rejected).
 */
export interface MoneyColumns {
  readonly currency: number | null;
  readonly fee: number | null;
  /** The state's column and the value that says the money moved. */
  readonly state: { readonly column: number; readonly completed: string } | null;
}

export const noMoneyColumns: MoneyColumns = { currency: null, fee: null, state: null };

export interface ParsedRows {
  readonly rows: readonly StatementRow[];
  readonly rejected: readonly RejectedRow[];
}

/** Column indexes per role, in column order. */
export function columnsByRole(schema: Pick<StatementSchema, 'columnMapping'>): Readonly<Record<ColumnRole, readonly number[]>> {
  const byRole: Record<ColumnRole, number[]> = {
    date: [],
    description: [],
    amount: [],
    debit: [],
    credit: [],
    balance: [],
    reference: [],
    type: [],
    indicator: [],
    skip: [],
  };
  for (const [column, role] of Object.entries(schema.columnMapping)) byRole[role].push(Number(column));
  for (const list of Object.values(byRole)) list.sort((a, b) => a - b);
  return byRole;
}

/** Cells' text as people read it: spreadsheet-guarding apostrophes (NatWest's 'CARD PAYMENT, Lloyds' '30-91-74) dropped, runs of spaces made one. */
function text(cells: readonly string[], columns: readonly number[]): string {
  return columns
    .map((c) => (cells[c] ?? '').replace(/^'/, '').replace(/\s+/g, ' ').trim())
    .filter((v) => v !== '')
    .join(' ');
}

const quote = (v: string): string => JSON.stringify(v);

class Rejection extends Error {}

function amountIn(cells: readonly string[], column: number | undefined, what: string): number | null {
  const cell = column === undefined ? '' : (cells[column] ?? '');
  if (cell === '') return null;
  const pence = parseAmountText(cell);
  if (pence === null) throw new Rejection(`${quote(cell)} is not ${what}`);
  return pence;
}

function rowAmount(cells: readonly string[], schema: StatementSchema, byRole: Record<ColumnRole, readonly number[]>): number {
  if (schema.amountModel === 'DUAL_COL_DR_CR') {
    const amount = dualAmount(amountIn(cells, byRole.debit[0], 'a debit amount'), amountIn(cells, byRole.credit[0], 'a credit amount'));
    if (amount === null) throw new Rejection('the row has neither a debit nor a credit amount');
    return amount;
  }
  const amount = amountIn(cells, byRole.amount[0], 'an amount');
  if (amount === null) throw new Rejection('the row has no amount');
  const indicator = byRole.indicator[0];
  if (indicator !== undefined) {
    // The indicator signs the amount (column-mapping.ts keeps it to SIGNED_SINGLE); a minus it contradicts is not guessed at.
    const cell = (cells[indicator] ?? '').trim();
    const sign = indicatorSign(cell);
    if (sign === null) throw new Rejection(cell === '' ? 'the row says neither Debit nor Credit' : `${quote(cell)} is neither Debit nor Credit`);
    if (amount < 0 && sign > 0) throw new Rejection(`the amount ${quote((cells[byRole.amount[0]!] ?? '').trim())} has a minus sign, but the row says Credit`);
    return sign * Math.abs(amount);
  }
  return schema.amountModel === 'SIGN_FLIPPER' && amount !== 0 ? -amount : amount;
}

/** Why a row's cells are not the file's columns, or null. A trailing empty cell more or less is how some banks end a line (Lloyds' header ends with a comma); anything else shifts the columns. */
function shifted(cells: readonly string[], width: number): string | null {
  const filled = cells.findLastIndex((c) => c !== '') + 1;
  return cells.length < width || filled > width ? `the row has ${cells.length} columns where the file's rows have ${width}` : null;
}

/** The value `read` gives, or null where it refuses the row. */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
    return null;
  }
}

/** What a rejected row's cells say where they read, each value on its own: which line it was, for people. */
function partly(cells: readonly string[], schema: StatementSchema, byRole: Record<ColumnRole, readonly number[]>, money: MoneyColumns): RejectedRead {
  const dateCell = byRole.date.map((c) => cells[c] ?? '').find((v) => v !== '');
  const description = text(cells, byRole.description);
  const reference = text(cells, byRole.reference);
  return {
    date: dateCell === undefined ? null : parseDateAs(dateCell, schema.dateFormat),
    description: description === '' ? null : description,
    reference: reference === '' ? null : reference,
    amount: orNull(() => rowAmount(cells, schema, byRole) - Math.abs(amountIn(cells, money.fee ?? undefined, 'a fee') ?? 0)),
    balance: orNull(() => amountIn(cells, byRole.balance[0], 'a balance')),
  };
}

function readRow(record: DataRecord, schema: StatementSchema, byRole: Record<ColumnRole, readonly number[]>, money: MoneyColumns): StatementRow {
  const { cells } = record;
  const state = money.state === null ? '' : (cells[money.state.column] ?? '').trim().toUpperCase();
  if (money.state !== null && state !== '' && state !== money.state.completed)
    throw new Rejection(`the row is ${state}, not ${money.state.completed}: no money has moved${state === 'PENDING' ? ' yet' : ''}`);
  const dateCell = byRole.date.map((c) => cells[c] ?? '').find((v) => v !== '');
  if (dateCell === undefined) throw new Rejection('the row has no date');
  const date = parseDateAs(dateCell, schema.dateFormat);
  if (date === null) throw new Rejection(`${quote(dateCell)} is not a date in the format ${schema.dateFormat}`);
  const currency = money.currency === null ? '' : (cells[money.currency] ?? '').trim().toUpperCase();
  if (currency !== '' && currency !== 'GBP') throw new Rejection(`the row is in ${currency}; acct keeps books in GBP`);
  const fee = amountIn(cells, money.fee ?? undefined, 'a fee') ?? 0;
  const amount = rowAmount(cells, schema, byRole) - Math.abs(fee);
  const balance = amountIn(cells, byRole.balance[0], 'a balance');
  const reference = text(cells, byRole.reference);
  return {
    rowIndex: record.rowIndex,
    line: record.line,
    date,
    description: text(cells, byRole.description),
    reference: reference === '' ? null : reference,
    bankId: null,
    amount,
    balance,
  };
}

export function parseRows(records: readonly DataRecord[], schema: StatementSchema, width: number, money: MoneyColumns = noMoneyColumns): ParsedRows {
  const byRole = columnsByRole(schema);
  const rows: StatementRow[] = [];
  const rejected: RejectedRow[] = [];
  for (const record of records) {
    if (record.error !== null) {
      rejected.push({ rowIndex: record.rowIndex, line: record.line, reason: `the row is not CSV that can be read: ${record.error}` });
      continue;
    }
    const columns = shifted(record.cells, width);
    if (columns !== null) {
      rejected.push({ rowIndex: record.rowIndex, line: record.line, reason: columns });
      continue;
    }
    try {
      rows.push(readRow(record, schema, byRole, money));
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      rejected.push({ rowIndex: record.rowIndex, line: record.line, reason: err.message, read: partly(record.cells, schema, byRole, money) });
    }
  }
  return { rows, rejected };
}
