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
import { createTransaction, maxReferenceLength, refuseAfterToday, removeTransaction, type Posting } from '../ledger/posting.js';
import { settle, type Settled } from './settle.js';
import { refuseRemoveIfSynthetic } from './migrated-documents.js';
import { documentShares } from './cash-vat.js';
import { accountByCode, amountDue, findDocument, openStatuses, purchaseBill, salesInvoice, type Kind } from './documents.js';
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

/**
 * The account a payment of an invoice or bill goes through: a bank account
 * (bankAccount), or, for a sole trader, an active equity account of the
 * owner's other than 3100 Retained Earnings: a bill paid with the owner's
 * own money is capital introduced (3000), a customer paying the owner
 * personally is drawings (3200), as FreeAgent records "paid by the owner".
 * A company's director paying is a loan-account movement, so a company's
 * payments stay bank-only.
 */
export async function paymentAccount(db: Kysely<OrgDb>, id: string | undefined): Promise<AccountsTable> {
  if (id === undefined) return bankAccount(db, id);
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (account?.account_type !== 'equity' || account.code === '3100') return bankAccount(db, id);
  const { business_type } = await db.selectFrom('organisation').select('business_type').executeTakeFirstOrThrow();
  if (business_type !== 'sole_trader') return bankAccount(db, id);
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
  return postBankMovements(trx, k, posting, move, [{ contactId: move.contactId, toBank: move.toBank }]);
}

/** One bank line for the sum of `parts`, and a control-account line for each: a single bank movement settling several documents. */
async function postBankMovements(
  trx: Kysely<OrgDb>,
  k: Kind,
  posting: Posting,
  move: BankMovement,
  parts: readonly { readonly contactId: string; readonly toBank: number }[],
): Promise<TransactionView> {
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
      ...parts.map((p) => ({ accountId: control.id, amount: -p.toBank, contactId: p.contactId })),
    ],
  });
}

/** A payment entry's reference when the payer gave none: the document's number, or the numbers of several when they fit. */
function referenceOf(rows: readonly InvoicesTable[]): string | null {
  const numbers = rows.flatMap((r) => (r.number === null ? [] : [r.number])).join(' ');
  return rows.length > 1 && numbers.length <= maxReferenceLength ? numbers : rows[0]!.number;
}

export interface Recorded {
  readonly payment: PaymentsTable;
  readonly document: InvoicesTable;
}

/** A document that can be paid: issued (sent or approved) or overdue; paid (already_paid), void (already_voided) and drafts (422) are refused. */
export async function payableDocument(db: Kysely<OrgDb>, k: Kind, id: string): Promise<InvoicesTable> {
  const row = await findDocument(db, k, id);
  const name = row.number ?? row.id;
  if (row.status === 'paid') throw new AppError('already_paid', `${k.noun} ${name} is already paid`);
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is void`);
  if (!openStatuses(k).includes(row.status)) {
    throw new AppError('unprocessable_entity', `${k.noun} ${name} is a draft: ${k.noun === 'invoice' ? 'send' : 'approve'} it before recording payments`);
  }
  return row;
}

/** Record a payment and post it; the document becomes paid when nothing is left due. */
export async function recordPayment(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string, input: PaymentInput): Promise<Recorded> {
  return (await recordPayments(trx, k, posting, [{ id, amount: input.amount }], input))[0]!;
}

/** What one document of a payment is paid; `document` when the caller has read it by payableDocument in this transaction. */
export interface PaymentPart {
  readonly id: string;
  readonly amount: number;
  readonly document?: InvoicesTable;
}

/**
 * Record payments of several documents of one kind made by one movement of
 * money (a customer settling two invoices in one transfer): one entry, the
 * bank's line for the sum and a control-account line for each, and a
 * payment of each document that the entry holds. Each is refused as one
 * payment would be (paid, void, a draft, more than is due, before its issue
 * date). A payment is money that has moved: one dated after today is
 * refused (it would mark the document paid today, and take it off what is
 * overdue, before the money comes).
 */
export async function recordPayments(
  trx: Kysely<OrgDb>,
  k: Kind,
  posting: Posting,
  parts: readonly PaymentPart[],
  input: Omit<PaymentInput, 'amount'>,
): Promise<Recorded[]> {
  refuseAfterToday(posting, input.date, 'payment');
  const rows: InvoicesTable[] = [];
  for (const part of parts) {
    const row = part.document ?? (await payableDocument(trx, k, part.id));
    const due = amountDue(row);
    if (part.amount > due) {
      throw new AppError(
        'unprocessable_entity',
        `payment of ${sterling(part.amount)} is more than the ${sterling(due)} due on ${k.noun} ${row.number ?? row.id}`,
      );
    }
    if (input.date < row.issue_date)
      throw new AppError('validation_error', `date ${input.date} is before the ${k.noun}'s issue date ${row.issue_date}`, 'date');
    rows.push(row);
  }
  const bank = await paymentAccount(trx, input.accountId);
  const paymentIds = parts.map(() => newId('pay', posting.clock.now()));
  const contactIds = [...new Set(rows.map((r) => r.contact_id))];
  const contacts = await trx.selectFrom('contacts').select(['id', 'name']).where('id', 'in', contactIds).execute();
  const from = contactIds.map((c) => contacts.find((r) => r.id === c)?.name ?? '').join(', ');
  const names = rows.map((r) => r.number ?? r.id).join(', ');
  const several = rows.length > 1 ? `${k.noun}s` : k.noun;
  // In an entry of several, each document's VAT shares name its own control-account line (the bank's is line 0), so that its later shares count only its own.
  const vatEntries = [];
  for (const [i, row] of rows.entries())
    for (const e of await documentShares(trx, row, { payment: parts[i]!.amount })) vatEntries.push(rows.length > 1 ? { ...e, lineIndex: i + 1 } : e);
  // Money in for an invoice (bank debit), out for a bill (bank credit).
  const toBank = (amount: number) => -k.lineSign * amount;
  const txn = await postBankMovements(
    trx,
    k,
    posting,
    {
      bankId: bank.id,
      toBank: toBank(parts.reduce((sum, p) => sum + p.amount, 0)),
      contactId: rows[0]!.contact_id,
      date: input.date,
      description: k.kind === 'sales' ? `Payment for ${several} ${names} from ${from}` : `Payment of ${several} ${names} to ${from}`,
      reference: input.reference ?? referenceOf(rows),
      sourceType: 'payment',
      sourceId: paymentIds[0]!,
      vatEntries,
    },
    rows.map((r, i) => ({ contactId: r.contact_id, toBank: toBank(parts[i]!.amount) })),
  );
  const recorded: Recorded[] = [];
  for (const [i, row] of rows.entries()) {
    const payment: PaymentsTable = {
      id: paymentIds[i]!,
      invoice_id: row.id,
      amount: parts[i]!.amount,
      date: input.date,
      method: input.method,
      reference: input.reference ?? null,
      account_id: bank.id,
      transaction_id: txn.id,
      line_id: rows.length > 1 ? txn.lines[i + 1]!.id : null,
      created_by: posting.actor.id,
      created_at: timestamp(posting.clock),
    };
    await trx.insertInto('payments').values(payment).execute();
    const { row: document } = await settle(trx, k, posting.clock, row.id);
    recorded.push({ payment, document });
  }
  return recorded;
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
 * document's amounts and status are worked out again. A payment whose entry
 * holds other documents' payments too (one bank line paying several) is
 * refused (409): the entry goes with all of them, as its bank import is undone.
 */
export async function removePayment(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string, paymentId: string): Promise<Removed> {
  const row = await findDocument(trx, k, id);
  const payment = await trx.selectFrom('payments').selectAll().where('id', '=', paymentId).where('invoice_id', '=', id).executeTakeFirst();
  if (!payment) throw new AppError('not_found', `payment ${paymentId} not found on ${k.noun} ${row.number ?? row.id}`);
  await refuseRemoveIfSynthetic(trx, k, row, payment);
  const others = await trx.selectFrom('payments').select('id').where('transaction_id', '=', payment.transaction_id).where('id', '<>', paymentId).execute();
  if (others.length > 0) {
    throw new AppError(
      'conflict',
      `payment ${paymentId} is one of ${others.length + 1} that entry ${payment.transaction_id} holds (one bank line paying several documents): it goes with the others, as its bank import is undone`,
    );
  }
  await removeTransaction(trx, payment.transaction_id, `payment ${paymentId}`);
  await trx.deleteFrom('payments').where('id', '=', paymentId).execute();
  const { row: document, change } = await settle(trx, k, posting.clock, id);
  return { payment, document, change };
}

/** Remove entry `transactionId` and every payment it holds (one, or several of one bank line); the documents are owed again. */
export async function removePaymentsOfEntry(trx: Kysely<OrgDb>, posting: Posting, transactionId: string): Promise<(Removed & { readonly kind: Kind })[]> {
  const payments = await trx
    .selectFrom('payments')
    .innerJoin('invoices', 'invoices.id', 'payments.invoice_id')
    .selectAll('payments')
    .select('invoices.kind')
    .where('payments.transaction_id', '=', transactionId)
    .orderBy('payments.id')
    .execute();
  if (payments.length === 0) return [];
  await removeTransaction(trx, transactionId, `payment ${payments.map((p) => p.id).join(', ')}`);
  await trx.deleteFrom('payments').where('transaction_id', '=', transactionId).execute();
  const removed: (Removed & { readonly kind: Kind })[] = [];
  for (const { kind, ...payment } of payments) {
    const k = kind === salesInvoice.kind ? salesInvoice : purchaseBill;
    const { row: document, change } = await settle(trx, k, posting.clock, payment.invoice_id);
    removed.push({ kind: k, payment, document, change });
  }
  return removed;
}
