/**
 * One data row of an invoice or bill file judged on its own: a document, an
 * error naming its field, or ignored with a reason. Whether it repeats an
 * earlier document is the file reader's question (read-documents.ts).
 */
import { sterling } from '../../money.js';
import { parseAmountText } from '../../tabular/amount-text.js';
import type { CsvRecord } from '../../tabular/csv-records.js';
import { parseDateAs } from '../../tabular/date-formats.js';
import { cellOf } from '../../tabular/header-row.js';
import { readAmounts } from './document-amounts.js';
import type { Direction, DocumentField } from './document-columns.js';
import { creditNotesNotImported, statusIgnored, typeVerdict } from './document-kind.js';
import { createKey } from './match-contacts.js';
import type { DocumentIssueField, DocumentRow } from './document-types.js';

type Columns = Partial<Record<DocumentField, number>>;

export interface RowContext {
  readonly columns: Columns;
  /** Cells in the header row. */
  readonly width: number;
  readonly direction: Direction;
  /** The file's date format, null when no date in it can be read. */
  readonly dateFormat: string | null;
}

export type Judged =
  | { readonly kind: 'valid'; readonly document: Omit<DocumentRow, 'rowIndex' | 'line'> }
  | { readonly kind: 'error' | 'ignored'; readonly field: DocumentIssueField; readonly reason: string };

const error = (field: DocumentIssueField, reason: string): Judged => ({ kind: 'error', field, reason });
const ignored = (field: DocumentIssueField, reason: string): Judged => ({ kind: 'ignored', field, reason });

export function judgeRow(record: CsvRecord, context: RowContext): Judged {
  const { columns, direction } = context;
  const cell = (field: DocumentField): string => cellOf(record, columns, field);
  const noun = direction === 'receivables' ? 'invoice' : 'bill';
  const aNoun = direction === 'receivables' ? 'an invoice' : 'a bill';
  if (record.error !== null) return error('row', `the row is not CSV that can be read: ${record.error}`);
  const extra = record.cells.slice(context.width).filter((c) => c !== '').length;
  if (extra > 0) {
    return error(
      'row',
      `the row has ${record.cells.length} cells but the header ${context.width}: an amount such as 1,200.00 not in quotes splits into two cells`,
    );
  }
  const filled = record.cells.filter((c) => c !== '');
  const number = cell('number');
  if (number === '' && /^total\b/i.test(filled[0] ?? '')) return ignored('row', `a total row (${filled[0] ?? ''}), not ${aNoun}`);
  if (number === '' && filled.length === 1) return ignored('row', `a heading or footer line (${filled[0] ?? ''}), not ${aNoun}`);
  const missing = Object.values(columns).some((at) => at >= record.cells.length);
  if (missing) return error('row', `the row has ${record.cells.length} cells but the header ${context.width}: cells are missing`);
  const status = statusIgnored(cell('status'));
  if (status !== null) return ignored('row', status);
  const type = typeVerdict(cell('type'), direction);
  if (type.kind === 'credit') return error('row', `type ${cell('type')} is a credit note: ${creditNotesNotImported}`);
  if (type.kind === 'wrong') return error('row', type.reason);
  const amounts = readAmounts(
    {
      total: columns.total === undefined ? null : cell('total'),
      paid: columns.paid === undefined ? null : cell('paid'),
      due: columns.due === undefined ? null : cell('due'),
    },
    noun,
  );
  // A document not owed is left out whatever else is wrong with its row: there is nothing of it to import.
  if (amounts.kind === 'settled') return ignored(amounts.field, amounts.reason);
  const contactName = cell('contact');
  if (contactName === '') return error('contact', 'no contact name');
  if (number === '') return error('number', `no ${noun} number`);
  const docDate = dateOf(cell('date'), context.dateFormat);
  if (docDate.error !== null) return error('date', docDate.error);
  const due = cell('dueDate') === '' ? { date: docDate.date, error: null } : dateOf(cell('dueDate'), context.dateFormat);
  if (due.error !== null) return error('dueDate', due.error);
  if (due.date < docDate.date) return error('dueDate', `the due date ${due.date} is before the ${noun} date ${docDate.date}`);
  const currency = currencyOf(cell('currency'));
  if (currency !== 'GBP') return error('currency', `the ${noun} is in ${currency}: only sterling documents are migrated`);
  if (amounts.kind === 'bad') return error(amounts.field, amounts.reason);
  const vat = vatOf(columns.vat === undefined ? '' : cell('vat'), amounts.gross);
  if (typeof vat === 'string') return error('vat', vat);
  const reference = cell('reference');
  return {
    kind: 'valid',
    document: {
      contactName,
      docNumber: number,
      reference: reference === '' ? null : reference,
      docDate: docDate.date,
      dueDate: due.date,
      gross: amounts.gross,
      paid: amounts.paid,
      outstanding: amounts.outstanding,
      vat,
      currency,
    },
  };
}

/** The VAT of a document of `gross` pence from its cell: null when empty, else 0 ≤ VAT < gross, or the reason it is refused. */
function vatOf(text: string, gross: number): number | null | string {
  if (text === '') return null;
  const vat = parseAmountText(text);
  if (vat === null) return `the VAT ${text} is not an amount`;
  if (vat < 0) return `the VAT ${sterling(vat)} is negative`;
  if (vat >= gross) return `the VAT ${sterling(vat)} is not less than the total ${sterling(gross)}: the VAT is part of the total`;
  return vat;
}

function dateOf(text: string, format: string | null): { date: string; error: null } | { date: null; error: string } {
  if (text === '') return { date: null, error: 'no date' };
  const date = format === null ? null : parseDateAs(text, format);
  if (date !== null) return { date, error: null };
  const how = format === null ? '' : ` (the dates in this file read as ${format})`;
  return { date: null, error: `${text} is not a date${how}` };
}

/** The currency code of a cell; an empty cell or a pound sign is sterling. */
function currencyOf(text: string): string {
  const code = text.trim().toUpperCase();
  return code === '' || code === '£' || code === 'GBP' ? 'GBP' : code;
}

/** The cells a further line of a document repeats: its totals and its dates. */
const repeated = ['date', 'dueDate', 'total', 'paid', 'due', 'vat'] as const;
type RepeatedField = (typeof repeated)[number];

/** The document a row with a number starts, which later rows may repeat as its further line items. */
export interface Head {
  readonly number: string;
  readonly contactKey: string;
  readonly line: number;
  readonly cells: Readonly<Record<RepeatedField, string>>;
}

export function headOf(record: CsvRecord, columns: Columns): Head | null {
  const number = cellOf(record, columns, 'number');
  if (number === '' || record.error !== null) return null;
  return {
    number,
    contactKey: createKey(cellOf(record, columns, 'contact')),
    line: record.line,
    cells: Object.fromEntries(repeated.map((field) => [field, cellOf(record, columns, field)])) as Record<RepeatedField, string>,
  };
}

/** Whether a row carries the same number and contact as the document just before it (Xero repeats a document on each of its lines). */
export function continuesHead(record: CsvRecord, head: Head, columns: Columns): boolean {
  return (
    record.error === null &&
    cellOf(record, columns, 'number').toUpperCase() === head.number.toUpperCase() &&
    createKey(cellOf(record, columns, 'contact')) === head.contactKey
  );
}

const amountKey = (text: string): string => {
  const pence = parseAmountText(text);
  return pence === null ? text : String(pence);
};

const shown = (field: RepeatedField, text: string): string => {
  const pence = field === 'date' || field === 'dueDate' ? null : parseAmountText(text);
  return pence === null ? `'${text}'` : sterling(pence);
};

const labels: Readonly<Record<RepeatedField, string>> = {
  date: 'date',
  dueDate: 'due date',
  total: 'total',
  paid: 'amount paid',
  due: 'amount due',
  vat: 'VAT',
};

/** A further line of the head's document: ignored when its dates and totals repeat the head's, an error when they differ. */
export function judgeLine(record: CsvRecord, head: Head, columns: Columns, lineItems: boolean): Judged {
  for (const field of repeated) {
    const mine = cellOf(record, columns, field);
    const key = field === 'date' || field === 'dueDate' ? (text: string): string => text : amountKey;
    if (key(mine) !== key(head.cells[field])) {
      const theirs = head.cells[field];
      return error(
        field,
        `another row of ${head.number} (row ${head.line}) with a different ${labels[field]}: ${shown(field, mine)} here, ${shown(field, theirs)} there`,
      );
    }
  }
  const what = lineItems ? `another line of ${head.number}` : `a repeat of ${head.number}, the same document`;
  return ignored('row', `${what} (row ${head.line})`);
}
