/** What an invoice PDF shows, gathered by the engine (src/engine/sales/invoices.ts, invoicePdfData). */
import type { ContactsTable, OrganisationTable } from '../store/tables.js';

export interface InvoicePdfLine {
  readonly description: string;
  readonly quantity: number;
  /** pence */
  readonly unitPrice: number;
  /** numeric percentage charged (0 for zero-rated, exempt, or not registered) */
  readonly vatRate: number;
  readonly vatRateName: 'standard' | 'reduced' | 'zero' | 'exempt';
  /** pence: quantity × unitPrice rounded */
  readonly netAmount: number;
  readonly vatAmount: number;
  readonly lineTotal: number;
}

export interface InvoicePdfPayment {
  readonly date: string;
  readonly amount: number;
  readonly method: string;
}

export interface InvoicePdfData {
  /** The seller: name, address, VAT number, company number, email, phone, vat_scheme. */
  readonly organisation: OrganisationTable;
  /** The customer. */
  readonly contact: ContactsTable;
  readonly invoice: {
    readonly invoiceNumber: string;
    readonly status: string;
    readonly currency: string;
    readonly issueDate: string;
    readonly dueDate: string;
    readonly paidDate: string | null;
    readonly reference: string | null;
    readonly notes: string | null;
    /** all amounts in pence */
    readonly subtotal: number;
    readonly vatAmount: number;
    readonly total: number;
    readonly amountPaid: number;
    readonly amountDue: number;
    readonly items: readonly InvoicePdfLine[];
    readonly payments: readonly InvoicePdfPayment[];
  };
}
