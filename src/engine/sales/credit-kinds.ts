/** The two kinds of credit note: against sales invoices (cn_) and against bills (scn_), and a credit note's name. */
import { purchaseBill, salesInvoice, type Kind } from './documents.js';

/** What a credit note credits, as its fields name it (invoiceId, billNumber…). */
export type Credited = 'invoice' | 'bill';

export interface CreditKind<D extends Credited = Credited> {
  /** The documents it credits. */
  readonly doc: Kind;
  readonly credits: D;
  readonly noun: 'credit note' | 'supplier credit note';
  readonly idPrefix: 'cn' | 'scn';
  readonly sourceType: 'credit_note' | 'supplier_credit_note';
}

export const salesCredit: CreditKind<'invoice'> = { doc: salesInvoice, credits: 'invoice', noun: 'credit note', idPrefix: 'cn', sourceType: 'credit_note' };
export const supplierCredit: CreditKind<'bill'> = {
  doc: purchaseBill,
  credits: 'bill',
  noun: 'supplier credit note',
  idPrefix: 'scn',
  sourceType: 'supplier_credit_note',
};

/** A document's or credit note's number, or its id while it has none. */
export const nameOf = (row: { number: string | null; id: string }): string => row.number ?? row.id;
