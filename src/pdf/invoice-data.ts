/**
 * What an invoice or credit note PDF shows, gathered by the engine
 * (src/engine/sales/invoices.ts invoicePdfData, credit-note-pdf.ts).
 */
import type { ContactsTable, OrganisationTable } from '../store/tables.js';

export interface InvoicePdfLine {
  readonly description: string;
  readonly quantity: number;
  /** pence */
  readonly unitPrice: number;
  /** numeric percentage charged (0 for zero-rated, exempt, or not registered) */
  readonly vatRate: number;
  /** null: no rate (a sale made while not registered for VAT) */
  readonly vatRateName: 'standard' | 'reduced' | 'zero' | 'exempt' | null;
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

/** Credit from a credit note set against the invoice. */
export interface InvoicePdfCredit {
  readonly creditNoteNumber: string;
  readonly date: string;
  /** pence */
  readonly amount: number;
}

/** What a credit note shows beyond an invoice's fields (which it fills with its own number, date and lines). */
export interface CreditNotePdf {
  /** The number of the invoice it credits. */
  readonly creditsInvoiceNumber: string;
  readonly reason: string | null;
  /** pence: set against invoices, paid back, and still to use */
  readonly allocated: number;
  readonly refunded: number;
  readonly remainingCredit: number;
}

/** Where to pay: the primary bank account's details, when it has a sort code and account number or an IBAN. */
export interface PdfBankDetails {
  /** The name on the account (the holder), else the organisation's name. */
  readonly accountName: string;
  readonly bankName: string | null;
  readonly sortCode: string | null;
  readonly accountNumber: string | null;
  readonly iban: string | null;
}

/** What the document prints of the seller, from the organisation profile. */
export const sellerFields = [
  'name',
  'business_type',
  'email',
  'phone',
  'vat_number',
  'company_number',
  'address_line1',
  'address_line2',
  'city',
  'region',
  'postal_code',
  'country',
] as const satisfies readonly (keyof OrganisationTable)[];

/** What the document prints of the customer, from the contact. */
export const customerFields = [
  'name',
  'company',
  'vat_number',
  'address_line1',
  'address_line2',
  'city',
  'region',
  'postal_code',
  'country',
] as const satisfies readonly (keyof ContactsTable)[];

export type PdfSeller = Pick<OrganisationTable, (typeof sellerFields)[number]>;
export type PdfCustomer = Pick<ContactsTable, (typeof customerFields)[number]>;

/** The seller and the customer as a document prints them: kept as they were when it was issued (src/engine/sales/issued-particulars.ts). */
export interface IssuedParticulars {
  readonly seller: PdfSeller;
  readonly customer: PdfCustomer;
}

export interface InvoicePdfData {
  /** The seller: name, address, VAT number, company number, email, phone. */
  readonly organisation: PdfSeller;
  /** The customer. */
  readonly contact: PdfCustomer;
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
    /** Credit notes' credit set against the invoice (pence). */
    readonly amountCredited?: number;
    readonly amountDue: number;
    readonly items: readonly InvoicePdfLine[];
    readonly payments: readonly InvoicePdfPayment[];
    /** The credit notes' allocations to it, adding up to amountCredited. */
    readonly credits?: readonly InvoicePdfCredit[];
  };
  /**
   * Whether it is a VAT invoice (or credit note): made while the business was registered for VAT, so it shows
   * the VAT number, tax point, rates and VAT. Decided by the engine from how the document was issued, not from
   * whether the business is registered now: a copy printed later is the document as issued.
   */
  readonly vatDocument: boolean;
  /** Present when the document is a credit note. */
  readonly creditNote?: CreditNotePdf;
  /** Present when the primary bank account has payment details. */
  readonly bankDetails?: PdfBankDetails;
  /** Made from the test books (a test key, `acct --test`): the PDF is marked TEST so it cannot pass as a real document. */
  readonly testBooks?: boolean;
}
