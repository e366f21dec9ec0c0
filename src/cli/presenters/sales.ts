/** The presenters of sales and purchases: contacts, invoices, bills, quotes and credit notes, one a row. */
import { legacy, listPresenter, type Presented, type Presenter } from './index.js';
import { listContacts } from '../../engine/sales/contact-ops.js';
import { listQuotes } from '../../engine/sales/quote-ops.js';
import { listCreditNotesOp, listSupplierCreditNotesOp } from '../../engine/sales/credit-note-ops.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- untyped until the operations declare their outputs */
export const salesPresenters: readonly Presenter[] = [
  listPresenter(listContacts, 'Contacts', [
    ['id', 'id'],
    ['type', 'contactType'],
    ['name', 'name'],
    ['company', 'company'],
    ['email', 'email'],
    ['terms', 'paymentTerms'],
  ]),
  legacy('invoices.list', (d) => documents('Invoices', 'invoiceNumber', d)),
  legacy('bills.list', (d) => documents('Bills', 'billNumber', d)),
  // What each credit note credited and the credit it has left.
  listPresenter(listCreditNotesOp, 'Credit notes', [
    ['number', 'creditNoteNumber'],
    ['status', 'status'],
    ['credits', 'invoiceNumber'],
    ['contact', 'contactName'],
    ['date', 'date'],
    ['total', 'total'],
    ['credit left', 'remainingCredit'],
    ['id', 'id'],
  ]),
  listPresenter(listSupplierCreditNotesOp, 'Supplier credit notes', [
    ['number', 'creditNoteNumber'],
    ['status', 'status'],
    ['credits', 'billNumber'],
    ['contact', 'contactName'],
    ['date', 'date'],
    ['total', 'total'],
    ['credit left', 'remainingCredit'],
    ['id', 'id'],
  ]),
  listPresenter(listQuotes, 'Quotes', [
    ['number', 'quoteNumber'],
    ['status', 'status'],
    ['contact', 'contactName'],
    ['issued', 'issueDate'],
    ['valid until', 'validUntil'],
    ['total', 'total'],
    ['id', 'id'],
  ]),
];

/** Invoices or bills, one a row, amounts in pounds. */
function documents(title: string, numberField: string, d: any[]): Presented {
  return {
    title,
    columns: ['number', 'status', 'contact', 'issued', 'due', 'total', 'amount due', 'id'],
    money: [5, 6],
    rows: d.map((x) => [x[numberField], x.status, x.contactName, x.issueDate, x.dueDate, x.total, x.amountDue, x.id]),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
