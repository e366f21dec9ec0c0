/**
 * A contacts export (Xero, FreeAgent, QuickBooks or any CSV with a name
 * column) read into contacts and rejected rows. Lines above the header and
 * blank lines are not rows; every other line below the header is either a
 * contact or a rejected row with its reason and field, never both, never
 * neither: totalRows = rows + rejected.
 */
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { createFields, optionalFields } from '../../sales/contacts.js';
import { isBlank, readCsvRecords, sniffDelimiter, type CsvRecord } from '../../tabular/csv-records.js';
import { headerKey } from '../../tabular/header-row.js';
import { findContactHeader, type ContactColumns, type ContactField, type ContactHeader } from './contact-columns.js';
import {
  readCompanyNumber,
  readContactType,
  readEmail,
  readPaymentTerms,
  readPostcode,
  readVatNumber,
  readYesNo,
  typeOfFlags,
  ValueProblem,
  type ContactType,
} from './contact-values.js';

export { contactFields, type ContactField } from './contact-columns.js';

export interface ContactRow {
  /** 0-based among the file's data rows (rejected ones count). */
  readonly rowIndex: number;
  /** 1-based line of the file the row starts on. */
  readonly line: number;
  readonly name: string;
  readonly company: string | null;
  /** Lower case. */
  readonly email: string | null;
  readonly phone: string | null;
  readonly addressLine1: string | null;
  readonly addressLine2: string | null;
  readonly city: string | null;
  readonly region: string | null;
  /** Upper case; a UK postcode with one space before the inward code ("SW1A 1AA"). */
  readonly postalCode: string | null;
  readonly country: string | null;
  /** Upper case without spaces, dots or hyphens; the country prefix as the file gave it (GB123456789 or 123456789). */
  readonly vatNumber: string | null;
  /** 8 characters: zero-padded digits, or 2 letters and 6 digits. */
  readonly companyNumber: string | null;
  readonly contactType: ContactType | null;
  /** Days; null: the file gave none. */
  readonly paymentTerms: number | null;
  /** What was read but could not be kept (Xero terms that are not a number of days). */
  readonly warnings: readonly string[];
}

export interface RejectedRow {
  readonly rowIndex: number;
  readonly line: number;
  readonly reason: string;
  readonly field: ContactField | 'row';
}

export interface ContactFile {
  /** Each field read, and the header text of its column. */
  readonly columnMapping: Partial<Record<ContactField, string>>;
  readonly rows: readonly ContactRow[];
  readonly rejected: readonly RejectedRow[];
  readonly totalRows: number;
}

class Rejection extends Error {
  constructor(
    readonly field: ContactField | 'row',
    message: string,
  ) {
    super(message);
  }
}

/** The limits a contact's fields have when created (POST /contacts), so that no row read here is refused on confirm. */
const lengthLimits = z.object({
  name: createFields.name,
  company: optionalFields.company,
  phone: optionalFields.phone,
  addressLine1: optionalFields.addressLine1,
  addressLine2: optionalFields.addressLine2,
  city: optionalFields.city,
  region: optionalFields.region,
  postalCode: optionalFields.postalCode,
  country: createFields.country.optional().nullable(),
  vatNumber: optionalFields.vatNumber,
});

export function readContactFile(text: string): ContactFile {
  if (text.replace(/^\uFEFF/, '').trim() === '') throw new AppError('validation_error', 'the file is empty', 'file');
  const records = readCsvRecords(text, sniffDelimiter(text.replace(/^\uFEFF/, '')));
  const header = findContactHeader(records);
  if (header === null) {
    throw new AppError(
      'validation_error',
      'no header row with a name column (Name, ContactName, Organisation, or First Name and Last Name) in the first lines of the file',
      'file',
    );
  }
  const headerKeys = (records[header.index] as CsvRecord).cells.map(headerKey).join(',');
  const rows: ContactRow[] = [];
  const rejected: RejectedRow[] = [];
  let rowIndex = 0;
  for (const record of records.slice(header.index + 1)) {
    if (isBlank(record)) continue;
    try {
      if (record.cells.map(headerKey).join(',') === headerKeys) throw new Rejection('row', 'the header line again (files joined together?)');
      rows.push(readRow(record, header, rowIndex));
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      rejected.push({ rowIndex, line: record.line, reason: err.message, field: err.field });
    }
    rowIndex++;
  }
  return { columnMapping: header.columnMapping, rows, rejected, totalRows: rowIndex };
}

function readRow(record: CsvRecord, header: ContactHeader, rowIndex: number): ContactRow {
  if (record.error !== null) throw new Rejection('row', `the line is not CSV that can be read: ${record.error}`);
  const { cells } = record;
  const filled = cells.findLastIndex((c) => c !== '') + 1;
  // A cell more or less at the end is how some programs end lines; anything else shifts the columns under the wrong headers.
  if (filled > header.width || cells.length < header.width) {
    throw new Rejection(
      'row',
      `the row has ${filled > header.width ? filled : cells.length} cells where the header has ${header.width}: a comma outside quotes?`,
    );
  }
  const cell = (source: keyof ContactColumns): string => {
    const at = header.columns[source];
    return at === undefined ? '' : (cells[at] ?? '').replace(/\s+/g, ' ');
  };
  const text = (source: keyof ContactColumns): string | null => (cell(source) === '' ? null : cell(source));
  const value = <T>(field: ContactField, read: () => T): T => {
    try {
      return read();
    } catch (err) {
      if (err instanceof ValueProblem) throw new Rejection(field, err.message);
      throw err;
    }
  };

  const name = text('name') ?? text('organisation') ?? ([cell('firstName'), cell('lastName')].filter((c) => c !== '').join(' ') || null);
  if (name === null) throw new Rejection('name', 'the row has no name');
  const warnings: string[] = [];
  const row: ContactRow = {
    rowIndex,
    line: record.line,
    name,
    company: text('company'),
    email: value('email', () => readEmail(cell('email'))),
    phone: text('phone') ?? text('mobile'),
    addressLine1: text('addressLine1'),
    addressLine2: text('addressLine2'),
    city: text('city'),
    region: text('region'),
    postalCode: readPostcode(cell('postalCode')),
    country: text('country'),
    vatNumber: value('vatNumber', () => readVatNumber(cell('vatNumber'))),
    companyNumber: value('companyNumber', () => readCompanyNumber(cell('companyNumber'))),
    contactType: value('contactType', () => readContactType(cell('contactType')) ?? flagsType(cell)),
    paymentTerms: value('paymentTerms', () => termsOf(cell, warnings)),
    warnings,
  };
  const limits = lengthLimits.safeParse(row);
  if (!limits.success) {
    const issue = limits.error.issues[0] as z.core.$ZodIssue;
    const field = issue.path[0] as ContactField;
    throw new Rejection(field, issue.code === 'too_big' ? `${field} is longer than ${String(issue.maximum)} characters` : `${field} ${issue.message}`);
  }
  return row;
}

function flagsType(cell: (source: keyof ContactColumns) => string): ContactType | null {
  return typeOfFlags(readYesNo(cell('isCustomer'), 'IsCustomer'), readYesNo(cell('isSupplier'), 'IsSupplier'));
}

/** Xero's terms count days only as DAYSAFTERBILLDATE; its other terms (a day of the month) have no number of days to keep. */
function termsOf(cell: (source: keyof ContactColumns) => string, warnings: string[]): number | null {
  const term = cell('salesTerm').toUpperCase();
  if (term !== '' && term !== 'DAYSAFTERBILLDATE' && cell('paymentTerms') !== '') {
    warnings.push(`Xero sales terms "${cell('paymentTerms')} ${term}" are not a number of days after the invoice date: the organisation's default terms apply`);
    return null;
  }
  return readPaymentTerms(cell('paymentTerms'));
}
