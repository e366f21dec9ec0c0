/** The presenters of sales and purchases: contacts, invoices, bills, quotes and credit notes, one a row. */
import { listPresenter, type Presenter } from './index.js';
import { listContacts } from '../../engine/sales/contact-ops.js';
import { listQuotes } from '../../engine/sales/quote-ops.js';
import { listCreditNotesOp, listSupplierCreditNotesOp } from '../../engine/sales/credit-note-ops.js';
import { listInvoices } from '../../engine/sales/invoice-ops.js';
import { listBills } from '../../engine/sales/bill-ops.js';
import type { BillSummary, InvoiceSummary } from '../../engine/sales/document-view.js';
import type { Operation } from '../../engine/operation.js';

export const salesPresenters: readonly Presenter[] = [
  listPresenter(listContacts, 'Contacts', [
    ['id', 'id'],
    ['type', 'contactType'],
    ['name', 'name'],
    ['company', 'company'],
    ['email', 'email'],
    ['terms', 'paymentTerms'],
  ]),
  documents(listInvoices, 'Invoices', 'invoiceNumber'),
  documents(listBills, 'Bills', 'billNumber'),
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
function documents<R extends InvoiceSummary | BillSummary>(op: Operation<readonly R[]>, title: string, numberField: keyof R & string): Presenter {
  return listPresenter(op, title, [
    ['number', numberField],
    ['status', 'status'],
    ['contact', 'contactName'],
    ['issued', 'issueDate'],
    ['due', 'dueDate'],
    ['total', 'total'],
    ['amount due', 'amountDue'],
    ['id', 'id'],
  ]);
}
