/**
 * The events a payment received on an invoice raises, wherever it is
 * recorded (the invoice's payments, a bank line matched to it):
 * payment.received, and invoice.paid when it clears the invoice; and
 * payment.removed when it goes (removed by hand, or its bank import undone).
 */
import type { Kysely } from 'kysely';
import { emit } from '../events.js';
import type { Clock } from '../clock.js';
import { invoiceView, type Invoice } from './document-view.js';
import { paymentView } from './payment-view.js';
import type { InvoicesTable, OrgDb, PaymentsTable } from '../../store/tables.js';

/** Raise payment.received (and invoice.paid) for `payment` of `document`; the invoice as it now stands. */
export async function announceReceipt(trx: Kysely<OrgDb>, clock: Clock, payment: PaymentsTable, document: InvoicesTable): Promise<Invoice> {
  const view = await invoiceView(trx, document);
  const received = {
    id: payment.id,
    invoiceId: payment.invoice_id,
    amount: payment.amount,
    date: payment.date,
    method: payment.method,
    createdAt: payment.created_at,
  };
  await emit(trx, clock, 'payment.received', { ...received, invoiceNumber: document.number, amountDue: view.amountDue });
  if (document.status === 'paid') await emit(trx, clock, 'invoice.paid', view);
  return view;
}

/** Raise payment.removed for `payment`, gone from `document` (as it now stands); the event's payload. */
export async function announceRemoval(trx: Kysely<OrgDb>, clock: Clock, payment: PaymentsTable, document: InvoicesTable) {
  const view = await invoiceView(trx, document);
  const removed = { ...paymentView(payment), invoiceNumber: view.invoiceNumber, invoiceStatus: view.status, amountDue: view.amountDue };
  await emit(trx, clock, 'payment.removed', removed);
  return removed;
}
