/**
 * Finding the header row of an export and the column each field is in.
 * Exports from accounting software often open with title lines (the report
 * name, the company, "As at 31 March 2025") before the header; the header
 * is the first of the opening records that names every required field.
 * Headers are compared without case, spaces or punctuation, so
 * "InvoiceAmountPaid", "Amount Paid" and "amount_paid" are one name when
 * the aliases list "amount paid".
 */
import type { CsvRecord } from './csv-records.js';

/** For each field, the header names that mean it, most specific first. */
export type Aliases<F extends string> = Readonly<Record<F, readonly string[]>>;

export interface HeaderRow<F extends string> {
  /** Index of the header record in the records. */
  readonly index: number;
  /** The column of each field found; a field with no column is absent. */
  readonly columns: Partial<Record<F, number>>;
}

/** How far into a file the header may be. */
export const headerSearchDepth = 30;

/** A header cell as compared: lower case letters and digits only ("Amount Paid (GBP)" → "amountpaidgbp"). */
export const headerKey = (cell: string): string => cell.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The columns of one record read as a header: each field takes the first
 * cell equal to one of its aliases (the earlier alias wins when two cells
 * match), and no cell serves two fields.
 */
export function columnsOf<F extends string>(cells: readonly string[], aliases: Aliases<F>): Partial<Record<F, number>> {
  const keys = cells.map(headerKey);
  const taken = new Set<number>();
  const columns: Partial<Record<F, number>> = {};
  for (const field of Object.keys(aliases) as F[]) {
    for (const alias of aliases[field]) {
      const at = keys.findIndex((k, i) => k === headerKey(alias) && !taken.has(i));
      if (at >= 0) {
        columns[field] = at;
        taken.add(at);
        break;
      }
    }
  }
  return columns;
}

/** The first record among the opening ones that names every required field, or null. */
export function findHeaderRow<F extends string>(records: readonly CsvRecord[], aliases: Aliases<F>, required: readonly F[]): HeaderRow<F> | null {
  const depth = Math.min(records.length, headerSearchDepth);
  for (let index = 0; index < depth; index++) {
    const columns = columnsOf((records[index] as CsvRecord).cells, aliases);
    if (required.every((f) => columns[f] !== undefined)) return { index, columns };
  }
  return null;
}

/** The trimmed cell of a field in a record, '' when the field has no column or the record is short. */
export function cellOf<F extends string>(record: CsvRecord, columns: Partial<Record<F, number>>, field: F): string {
  const at = columns[field];
  return at === undefined ? '' : (record.cells[at] ?? '');
}
