/**
 * A CSV of outstanding sales invoices (receivables) or supplier bills
 * (payables), exported from Xero, FreeAgent, QuickBooks or written by hand,
 * read into documents. Every data row below the header (blank lines are not
 * rows) comes out exactly once: as a document, as an error with its field, or
 * ignored with a reason (totals, headings, the further line-item rows of a
 * Xero document, documents not owed).
 */
import { AppError } from '../../errors.js';
import { isBlank, readCsvRecords, sniffDelimiter, type CsvRecord } from '../../tabular/csv-records.js';
import { detectDateFormat, monthFirstOf, parseColumnAs } from '../../tabular/date-formats.js';
import { cellOf } from '../../tabular/header-row.js';
import { documentColumns, type Direction, type DocumentField } from './document-columns.js';
import { continuesHead, headOf, judgeLine, judgeRow, type Head, type Judged, type RowContext } from './judge-row.js';
import { createKey } from './match-contacts.js';

export type { Direction } from './document-columns.js';

import type { DocumentFile, DocumentRow } from './document-types.js';

export type { DocumentFile, DocumentIssue, DocumentIssueField, DocumentRow } from './document-types.js';

export function readDocuments(text: string, direction: Direction): DocumentFile {
  if (text.replace(/^\uFEFF/, '').trim() === '') throw new AppError('validation_error', 'the file is empty', 'file');
  const records = readCsvRecords(text, sniffDelimiter(text.replace(/^\uFEFF/, '')));
  const { header, columnMapping, warnings } = documentColumns(records, direction);
  const data = records.slice(header.index + 1).filter((r) => !isBlank(r));
  // One format for the whole file, judged on every date it holds, so that 01/02/2025 reads the same on every row.
  const cells = (field: DocumentField): string[] => data.map((r) => cellOf(r, header.columns, field)).filter((c) => c !== '');
  const dates = fileDateFormat(cells('date'), cells('dueDate'));
  const context: RowContext = {
    columns: header.columns,
    width: (records[header.index] as CsvRecord).cells.length,
    direction,
    dateFormat: dates.format,
  };
  const file: Omit<DocumentFile, 'stats'> = {
    direction,
    columnMapping,
    rows: [],
    errors: [],
    ignored: [],
    warnings: [...warnings, ...(dates.warning === null ? [] : [dates.warning])],
  };
  const seen = new Map<string, number>();
  const lineItems = header.columns.line !== undefined;
  let head: Head | null = null;
  data.forEach((record, rowIndex) => {
    let outcome: Judged;
    if (head !== null && continuesHead(record, head, header.columns)) {
      outcome = judgeLine(record, head, header.columns, lineItems);
    } else {
      head = headOf(record, header.columns);
      outcome = judgeRow(record, context);
      if (outcome.kind !== 'ignored') outcome = duplicateOf(outcome, record, direction, seen, header.columns);
    }
    const at = { rowIndex, line: record.line };
    if (outcome.kind === 'valid') file.rows.push({ ...at, ...outcome.document });
    else if (outcome.kind === 'error') file.errors.push({ ...at, field: outcome.field, reason: outcome.reason });
    else file.ignored.push({ ...at, field: outcome.field, reason: outcome.reason });
  });
  const sum = (f: (r: DocumentRow) => number): number => file.rows.reduce((s, r) => s + f(r), 0);
  return {
    ...file,
    stats: {
      totalRows: data.length,
      validRows: file.rows.length,
      errorRows: file.errors.length,
      ignoredRows: file.ignored.length,
      totalGross: sum((r) => r.gross),
      totalPaid: sum((r) => r.paid),
      totalOutstanding: sum((r) => r.outstanding),
    },
  };
}

/**
 * The format that reads the most of both date columns. A file that does not
 * decide (every date reads day first and month first alike) is read day
 * first, as UK exports (Xero UK, FreeAgent, Sage) write dates, and says so in
 * a warning: the order of its rows is no evidence, because an export is
 * sorted by contact or number as often as by date. Only a date whose second
 * field is above 12 makes the file month first.
 */
function fileDateFormat(dates: readonly string[], dueDates: readonly string[]): { format: string | null; warning: string | null } {
  const all = [...dates, ...dueDates];
  const format = detectDateFormat(all, undefined, false);
  const twin = format === null ? undefined : monthFirstOf[format];
  if (format === null || twin === undefined) return { format, warning: null };
  const dayFirst = parseColumnAs(all, format);
  const monthFirst = parseColumnAs(all, twin);
  // An example that the reading changes (01/02/2026), when every date reads both ways.
  const at = monthFirst.every((d, i) => (d === null) === (dayFirst[i] === null)) ? monthFirst.findIndex((d, i) => d !== dayFirst[i]) : -1;
  if (at < 0) return { format, warning: null };
  return {
    format,
    warning: `every date in the file reads day first or month first alike: read day first (${format}), as UK exports write them, so ${all[at] ?? ''} is ${dayFirst[at] ?? ''}; a file written month first needs its dates as YYYY-MM-DD`,
  };
}

/**
 * A second document under a number already used becomes an error naming the
 * first row (its own error, if it has one, is kept in the reason). Sales
 * invoice numbers are unique in the books; bill numbers are the suppliers'
 * own references, so two suppliers may share one and only the same supplier
 * twice is a duplicate.
 */
function duplicateOf(
  judged: Judged,
  record: CsvRecord,
  direction: Direction,
  seen: Map<string, number>,
  columns: Partial<Record<DocumentField, number>>,
): Judged {
  const number = cellOf(record, columns, 'number');
  const contact = cellOf(record, columns, 'contact');
  if (number === '' || (direction === 'payables' && contact === '')) return judged;
  const key = direction === 'receivables' ? number.toUpperCase() : `${createKey(contact)}\u0000${number.toUpperCase()}`;
  const first = seen.get(key);
  if (first === undefined) {
    seen.set(key, record.line);
    return judged;
  }
  const whose = direction === 'payables' ? ` from ${contact}` : '';
  const also = judged.kind === 'error' ? `; and ${judged.reason}` : '';
  return { kind: 'error', field: 'number', reason: `duplicate document number ${number}${whose} (row ${first})${also}` };
}
