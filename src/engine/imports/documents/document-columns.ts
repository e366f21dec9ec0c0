/**
 * The columns of an export of outstanding invoices or bills (Xero, FreeAgent,
 * QuickBooks or a hand-made sheet), found by header aliases below any title
 * lines. Field order matters: `number` is looked for before `reference`, so
 * that Xero's `*InvoiceNumber` is the number and its `Reference` the
 * reference, while FreeAgent's lone `Reference` is the number.
 */
import { AppError } from '../../errors.js';
import type { CsvRecord } from '../../tabular/csv-records.js';
import { findHeaderRow, headerKey, type Aliases, type HeaderRow } from '../../tabular/header-row.js';

export type Direction = 'receivables' | 'payables';

export type DocumentField =
  'contact' | 'number' | 'reference' | 'date' | 'dueDate' | 'total' | 'paid' | 'due' | 'currency' | 'status' | 'type' | 'vat' | 'line';

export const documentAliases: Aliases<DocumentField> = {
  contact: ['contactname', 'contact', 'customer', 'supplier', 'contact name', 'name', 'customer name', 'supplier name'],
  number: ['invoicenumber', 'invoice number', 'bill number', 'no.', 'number', 'num', 'invoice no', 'bill no', 'reference'],
  reference: ['reference', 'ref'],
  date: ['invoicedate', 'dated on', 'date', 'issue date', 'invoice date', 'bill date'],
  dueDate: ['duedate', 'due on', 'due date'],
  total: ['total', 'total value', 'amount', 'gross', 'invoice total', 'total amount'],
  paid: ['invoiceamountpaid', 'paid value', 'amount paid', 'paid'],
  due: ['invoiceamountdue', 'due value', 'open balance', 'amount due', 'outstanding', 'balance'],
  currency: ['currency', 'currency code'],
  status: ['status', 'invoice status'],
  type: ['type', 'transaction type'],
  // The document's VAT: Xero's TaxTotal (its TaxAmount is each line's, see documentColumns), FreeAgent's Sales Tax Value, QuickBooks' VAT Amount.
  vat: ['taxtotal', 'tax total', 'total tax', 'sales tax value', 'vat total', 'total vat', 'vat amount', 'vat', 'tax amount', 'sales tax', 'tax'],
  // Only tells a Xero export (one row per line item) from a file with one row per document, for the reasons given.
  line: ['lineamount', 'line amount', 'description', 'quantity', 'unitamount'],
};

export interface DocumentColumns {
  readonly header: HeaderRow<DocumentField>;
  /** Field → the header text as the file spells it. */
  readonly columnMapping: Record<string, string>;
  readonly warnings: readonly string[];
}

/** Header words that say which side of the ledger a file is from. */
const sideWords: Readonly<Record<string, Direction>> = { customer: 'receivables', customername: 'receivables', supplier: 'payables', suppliername: 'payables' };

/**
 * The header of the file, with a contact, number, date and total column (an
 * amount-due column stands in for a missing total). A file without them, or
 * one whose contact column names the other side (Supplier in an invoice
 * import), is refused as a whole naming `file`.
 */
export function documentColumns(records: readonly CsvRecord[], direction: Direction): DocumentColumns {
  const header =
    findHeaderRow<DocumentField>(records, documentAliases, ['contact', 'number', 'date', 'total']) ??
    findHeaderRow<DocumentField>(records, documentAliases, ['contact', 'number', 'date', 'due']);
  if (!header) {
    throw new AppError(
      'validation_error',
      'the file has no header row naming a contact, a document number, a date and a total (such as ContactName, InvoiceNumber, InvoiceDate, Total)',
      'file',
    );
  }
  const cells = (records[header.index] as CsvRecord).cells;
  const columnMapping: Record<string, string> = {};
  for (const [field, at] of Object.entries(header.columns)) if (field !== 'line' && at !== undefined) columnMapping[field] = cells[at] ?? '';
  const contactHeader = columnMapping.contact ?? '';
  const side = sideWords[headerKey(contactHeader)];
  if (side !== undefined && side !== direction) {
    const wanted = direction === 'receivables' ? 'invoices (receivables)' : 'bills (payables)';
    const found = side === 'receivables' ? 'customers: it looks like sales invoices' : 'suppliers: it looks like bills';
    throw new AppError('validation_error', `this file's contact column is ${contactHeader}, so it lists ${found}, not ${wanted}`, 'file');
  }
  const warnings: string[] = [];
  // Xero's TaxAmount, in a file of one row per line item, is that line's VAT, not the document's.
  if (header.columns.vat !== undefined && header.columns.line !== undefined && headerKey(columnMapping.vat ?? '') === 'taxamount') {
    warnings.push(`${columnMapping.vat ?? ''} is each line's VAT, not the document's: no VAT is read, and credit notes on these documents carry none`);
    delete header.columns.vat;
    delete columnMapping.vat;
  }
  if (header.columns.total === undefined)
    warnings.push(`no total column: each document's total is taken as its amount due (${columnMapping.due ?? ''}), nothing paid`);
  if (header.columns.dueDate === undefined) warnings.push('no due date column: each document is due on its own date');
  return { header, columnMapping, warnings };
}
