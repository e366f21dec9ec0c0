/**
 * Payments against issued invoices (money received: debit the bank, credit
 * receivables) and bills (money paid: debit payables, credit the bank).
 * A payment never exceeds what is due; the one that clears the balance
 * marks the document paid on its date. Each carries its share of the
 * document's VAT for the cash basis (cash-vat.ts).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { idOf, isoDate, pence } from '../schema.js';
import { sterling } from '../money.js';
import { createTransaction, removeTransaction, type Posting } from '../ledger/posting.js';
import { settle, type Settled } from './settle.js';
import { documentShares } from './cash-vat.js';
import { accountByCode, amountDue, findDocument, openStatuses, type Kind } from './documents.js';
import type { TransactionView } from '../ledger/transaction-view.js';
import type { VatEntryInput } from '../ledger/vat-entries.js';
import type { AccountsTable, InvoicesTable, OrgDb, PaymentsTable } from '../../store/tables.js';

export const paymentMethods = ['bank_transfer', 'card', 'cash', 'other'] as const;

export const paymentBody = {
  amount: pence().positive(),
  date: isoDate(),
  method: z.enum(paymentMethods).default('bank_transfer'),
  reference: z.string().max(100).nullable().optional(),
  accountId: idOf('acc').optional(),
};

export interface PaymentInput {
  readonly amount: number;
  readonly date: string;
  readonly method: PaymentsTable['method'];
  readonly reference?: string | null | undefined;
  readonly accountId?: string | undefined;
}

/** The bank account money goes through: the one named (a bank account, active) or 1200. */
export async function bankAccount(db: Kysely<OrgDb>, id: string | undefined): Promise<AccountsTable> {
  if (id === undefined) return accountByCode(db, '1200');
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!account) throw new AppError('validation_error', `accountId: no account ${id} in this organisation`, 'accountId');
  if (account.control_type !== 'bank') throw new AppError('validation_error', `accountId: ${account.code} ${account.name} is not a bank account`, 'accountId');
  if (account.is_active !== 1) throw new AppError('validation_error', `accountId: ${account.code} ${account.name} is inactive`, 'accountId');
  return account;
}

export interface BankMovement {
  readonly bankId: string;
  /** Pence into the bank account; negative: out of it. */
  readonly toBank: number;
  readonly contactId: string;
  readonly date: string;
  readonly description: string;
  readonly reference: string | null;
  readonly sourceType: 'payment' | 'refund';
  readonly sourceId: string;
  /** The cash-basis VAT shares the money carries. */
  readonly vatEntries: readonly VatEntryInput[];
}

/** Post money between a bank account and the contact's side of the control account (1100 or 2100). */
export async function postBankMovement(trx: Kysely<OrgDb>, k: Kind, posting: Posting, move: BankMovement): Promise<TransactionView> {
  const control = await accountByCode(trx, k.controlCode);
  return createTransaction(trx, posting, {
    date: move.date,
    description: move.description,
    reference: move.reference,
    status: 'posted',
    sourceType: move.sourceType,
    sourceId: move.sourceId,
    vatEntries: move.vatEntries,
    lines: [
      { accountId: move.bankId, amount: move.toBank, contactId: move.contactId },
      { accountId: control.id, amount: -move.toBank, contactId: move.contactId },
    ],
  });
}

export interface Recorded {
  readonly payment: PaymentsTable;
  readonly document: InvoicesTable;
}

/** Record a payment and post it; the document becomes paid when nothing is left due. */
export async function recordPayment(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string, input: PaymentInput): Promise<Recorded> {
  const row = await findDocument(trx, k, id);
  const name = row.number ?? row.id;
  if (row.status === 'paid') throw new AppError('already_paid', `${k.noun} ${name} is already paid`);
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is void`);
  if (!openStatuses(k).includes(row.status)) {
    throw new AppError('unprocessable_entity', `${k.noun} ${name} is a draft: ${k.noun === 'invoice' ? 'send' : 'approve'} it before recording payments`);
  }
  const due = amountDue(row);
  if (input.amount > due) {
    throw new AppError('unprocessable_entity', `payment of ${sterling(input.amount)} is more than the ${sterling(due)} due on ${k.noun} ${name}`);
  }
  if (input.date < row.issue_date) throw new AppError('validation_error', `date ${input.date} is before the ${k.noun}'s issue date ${row.issue_date}`, 'date');
  const bank = await bankAccount(trx, input.accountId);
  const paymentId = newId('pay', posting.clock.now());
  const contact = await trx.selectFrom('contacts').select('name').where('id', '=', row.contact_id).executeTakeFirst();
  const txn = await postBankMovement(trx, k, posting, {
    bankId: bank.id,
    // Money in for an invoice (bank debit), out for a bill (bank credit).
    toBank: -k.lineSign * input.amount,
    contactId: row.contact_id,
    date: input.date,
    description: k.kind === 'sales' ? `Payment for invoice ${name} from ${contact?.name ?? ''}` : `Payment of bill ${name} to ${contact?.name ?? ''}`,
    reference: input.reference ?? row.number,
    sourceType: 'payment',
    sourceId: paymentId,
    vatEntries: await documentShares(trx, row, { payment: input.amount }),
  });
  const payment: PaymentsTable = {
    id: paymentId,
    invoice_id: id,
    amount: input.amount,
    date: input.date,
    method: input.method,
    reference: input.reference ?? null,
    account_id: bank.id,
    transaction_id: txn.id,
    created_by: posting.actor.id,
    created_at: timestamp(posting.clock),
  };
  await trx.insertInto('payments').values(payment).execute();
  const { row: document } = await settle(trx, k, posting.clock, id);
  return { payment, document };
}

export interface Removed {
  readonly payment: PaymentsTable;
  readonly document: InvoicesTable;
  /** reopened: the document was paid and is owed again. */
  readonly change: Settled['change'];
}

/**
 * Remove one payment of a document: its ledger entry is deleted (refused
 * when reconciled, 409, or dated in a closed period, 422) and the
 * document's amounts and status are worked out again.
 */
export async function removePayment(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string, paymentId: string): Promise<Removed> {
  const row = await findDocument(trx, k, id);
  const payment = await trx.selectFrom('payments').selectAll().where('id', '=', paymentId).where('invoice_id', '=', id).executeTakeFirst();
  if (!payment) throw new AppError('not_found', `payment ${paymentId} not found on ${k.noun} ${row.number ?? row.id}`);
  await removeTransaction(trx, payment.transaction_id, `payment ${paymentId}`);
  await trx.deleteFrom('payments').where('id', '=', paymentId).execute();
  const { row: document, change } = await settle(trx, k, posting.clock, id);
  return { payment, document, change };
}
