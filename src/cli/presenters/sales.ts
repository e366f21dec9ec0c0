/** The presenters of sales and purchases: contacts, invoices, bills, quotes and credit notes, one a row. */
import { legacy, listPresenter, type Presented, type Presenter } from './index.js';
import { listInvoices } from '../../engine/sales/invoice-ops.js';
import { listBills } from '../../engine/sales/bill-ops.js';
import type { BillSummary, InvoiceSummary } from '../../engine/sales/document-view.js';
import type { Operation } from '../../engine/operation.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- untyped until the operations declare their outputs */
export const salesPresenters: readonly Presenter[] = [
  legacy('contacts.list', (d) => ({
    title: 'Contacts',
    columns: ['id', 'type', 'name', 'company', 'email', 'terms'],
    money: [],
    rows: d.map((c: any) => [c.id, c.contactType, c.name, c.company, c.email, c.paymentTerms]),
  })),
  documents(listInvoices, 'Invoices', 'invoiceNumber'),
  documents(listBills, 'Bills', 'billNumber'),
  legacy('credit-notes.list', (d) => creditNotes('Credit notes', 'invoiceNumber', d)),
  legacy('supplier-credit-notes.list', (d) => creditNotes('Supplier credit notes', 'billNumber', d)),
  legacy('quotes.list', (d) => ({
    title: 'Quotes',
    columns: ['number', 'status', 'contact', 'issued', 'valid until', 'total', 'id'],
    money: [5],
    rows: d.map((q: any) => [q.quoteNumber, q.status, q.contactName, q.issueDate, q.validUntil, q.total, q.id]),
  })),
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

/** Credit notes, one a row: what each credited and the credit it has left, in pounds. */
function creditNotes(title: string, documentField: string, d: any[]): Presented {
  return {
    title,
    columns: ['number', 'status', 'credits', 'contact', 'date', 'total', 'credit left', 'id'],
    money: [5, 6],
    rows: d.map((x) => [x.creditNoteNumber, x.status, x[documentField], x.contactName, x.date, x.total, x.remainingCredit, x.id]),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
