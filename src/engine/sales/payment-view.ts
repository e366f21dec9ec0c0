/** The API's view of a payment of an invoice or a bill. */
import { z } from 'zod';
import { pence } from '../schema.js';
import { day, idOut, instant } from '../output.js';
import { paymentMethods } from './payments.js';
import type { PaymentsTable } from '../../store/tables.js';

const paymentFields = {
  amount: pence(),
  date: day(),
  method: z.enum(paymentMethods),
  reference: z.string().nullable(),
  accountId: idOut('acc').describe('the bank account the money went through'),
  transactionId: idOut('txn').describe('the ledger entry of the payment'),
  createdAt: instant(),
};

/** A payment as an invoice (or, under the same name, a bill) lists it. */
export const paymentSchema = z.strictObject({ id: idOut('pay'), invoiceId: z.string().describe('the invoice (or bill) paid'), ...paymentFields });
export const billPaymentSchema = z.strictObject({ id: idOut('pay'), billId: idOut('bill'), ...paymentFields });

export type Payment = z.output<typeof paymentSchema>;
export type BillPayment = z.output<typeof billPaymentSchema>;

const fields = (p: PaymentsTable) => ({
  amount: p.amount,
  date: p.date,
  method: p.method,
  reference: p.reference,
  accountId: p.account_id,
  transactionId: p.transaction_id,
  createdAt: p.created_at,
});

export const paymentView = (p: PaymentsTable): Payment => ({ id: p.id, invoiceId: p.invoice_id, ...fields(p) });

export const billPaymentView = (p: PaymentsTable): BillPayment => ({ id: p.id, billId: p.invoice_id, ...fields(p) });
