/**
 * A credit note's credit beyond what its own document owed: allocated to
 * another open document of the same contact (nothing is posted: both sit
 * on the same control account for the same contact; but for the journal
 * carrying the cash-basis VAT when that document has payments,
 * allocation-journal.ts), or refunded through a bank account (money out to
 * a customer: debit 1100, credit the bank; money back from a supplier:
 * debit the bank, credit 2100), which carries the note's share of VAT for
 * the cash basis. Either can be removed again, outside closed periods and,
 * for a refund, unless its bank line is reconciled.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp, today } from '../clock.js';
import { sterling } from '../money.js';
import { checkDateOpen, closedRanges } from '../ledger/periods.js';
import { refuseAfterToday, removeTransaction, type Posting } from '../ledger/posting.js';
import { amountDue, openStatuses } from './documents.js';
import { bankAccount, postBankMovement, type PaymentInput } from './payments.js';
import { documentFor, findCreditNote, remainingCredit } from './credit-notes.js';
import { nameOf, type CreditKind } from './credit-kinds.js';
import { settle, type Settled } from './settle.js';
import { refundShares, refundSource } from './cash-vat.js';
import { postAllocationJournal, removeAllocationJournal, removeRefundJournals, trueUpNoteParts } from './allocation-journal.js';
import type { CreditAllocationsTable, CreditNotesTable, OrgDb, RefundsTable } from '../../store/tables.js';

/** Refuse a void credit note (409) or one with no credit left (422). */
function creditLeft(ck: CreditKind, note: CreditNotesTable): number {
  if (note.status === 'void') throw new AppError('already_voided', `${ck.noun} ${nameOf(note)} is void`);
  const left = remainingCredit(note);
  if (left === 0) throw new AppError('unprocessable_entity', `${ck.noun} ${nameOf(note)} has no credit left: it is allocated or refunded in full`);
  return left;
}

export interface AllocationInput {
  readonly documentId: string;
  readonly amount?: number | undefined;
  readonly date?: string | undefined;
}

export interface Allocated {
  readonly allocation: CreditAllocationsTable;
  readonly note: CreditNotesTable;
  readonly document: Settled;
}

/**
 * Apply credit to another open document of the same contact: by default
 * as much as both allow, dated today (or the later of the two documents'
 * dates, when that is later).
 */
export async function allocateCredit(
  trx: Kysely<OrgDb>,
  ck: CreditKind,
  posting: Posting,
  id: string,
  field: string,
  input: AllocationInput,
): Promise<Allocated> {
  const k = ck.doc;
  const note = await findCreditNote(trx, ck, id);
  const left = creditLeft(ck, note);
  const doc = await documentFor(trx, k, input.documentId, field);
  if (doc.contact_id !== note.contact_id) {
    throw new AppError(
      'validation_error',
      `${field}: ${k.noun} ${nameOf(doc)} is for another contact; credit is allocated to the same contact's ${k.noun}s`,
      field,
    );
  }
  if (doc.status === 'paid') throw new AppError('already_paid', `${k.noun} ${nameOf(doc)} is paid: nothing is left to allocate credit to`);
  if (doc.status === 'void') throw new AppError('already_voided', `${k.noun} ${nameOf(doc)} is void`);
  if (!openStatuses(k).includes(doc.status))
    throw new AppError('unprocessable_entity', `${k.noun} ${nameOf(doc)} is a draft: credit is allocated to issued ${k.noun}s`);
  const due = amountDue(doc);
  const amount = input.amount ?? Math.min(left, due);
  if (amount > left)
    throw new AppError('unprocessable_entity', `${sterling(amount)} is more than the ${sterling(left)} of credit left on ${ck.noun} ${nameOf(note)}`);
  if (amount > due) throw new AppError('unprocessable_entity', `${sterling(amount)} is more than the ${sterling(due)} due on ${k.noun} ${nameOf(doc)}`);
  const earliest = note.date > doc.issue_date ? note.date : doc.issue_date;
  const date = input.date ?? (today(posting.clock) > earliest ? today(posting.clock) : earliest);
  if (date < earliest) throw new AppError('validation_error', `date ${date} is before ${earliest}, when both the credit note and the ${k.noun} exist`, 'date');
  checkDateOpen(await closedRanges(trx), date);
  const allocationId = newId('alloc', posting.clock.now());
  await postAllocationJournal(trx, ck, posting, { id: allocationId, amount, date }, note, doc);
  const allocation: CreditAllocationsTable = {
    id: allocationId,
    credit_note_id: note.id,
    invoice_id: doc.id,
    amount,
    date,
    created_by: posting.actor.id,
    created_at: timestamp(posting.clock),
  };
  await trx.insertInto('credit_allocations').values(allocation).execute();
  const changes = { allocated: note.allocated + amount, updated_at: allocation.created_at };
  await trx.updateTable('credit_notes').set(changes).where('id', '=', note.id).execute();
  return { allocation, note: { ...note, ...changes }, document: await settle(trx, k, posting.clock, doc.id) };
}

export interface Unallocated {
  readonly allocation: CreditAllocationsTable;
  readonly note: CreditNotesTable;
  readonly document: Settled;
}

/** Take an allocation back: the credit is the contact's again and the document owes it again. */
export async function removeAllocation(trx: Kysely<OrgDb>, ck: CreditKind, posting: Posting, id: string, allocationId: string): Promise<Unallocated> {
  const note = await findCreditNote(trx, ck, id);
  const allocation = await trx.selectFrom('credit_allocations').selectAll().where('id', '=', allocationId).where('credit_note_id', '=', id).executeTakeFirst();
  if (!allocation) throw new AppError('not_found', `allocation ${allocationId} not found on ${ck.noun} ${nameOf(note)}`);
  try {
    checkDateOpen(await closedRanges(trx), allocation.date);
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.code, `allocation ${allocationId} cannot be removed: ${e.message}`);
    throw e;
  }
  await removeAllocationJournal(trx, allocationId, `allocation ${allocationId} cannot be removed`);
  await trx.deleteFrom('credit_allocations').where('id', '=', allocationId).execute();
  const changes = { allocated: note.allocated - allocation.amount, updated_at: timestamp(posting.clock) };
  await trx.updateTable('credit_notes').set(changes).where('id', '=', id).execute();
  const document = await settle(trx, ck.doc, posting.clock, allocation.invoice_id);
  await trueUpNoteParts(trx, ck, posting, { ...note, ...changes }, today(posting.clock));
  return { allocation, note: { ...note, ...changes }, document };
}

export type RefundInput = Omit<PaymentInput, 'amount' | 'date'> & { readonly amount?: number | undefined; readonly date?: string | undefined };

export interface Refunded {
  readonly refund: RefundsTable;
  readonly note: CreditNotesTable;
}

/** Pay credit back through a bank account (all that is left unless an amount is given) and post it. */
export async function refundCredit(trx: Kysely<OrgDb>, ck: CreditKind, posting: Posting, id: string, input: RefundInput): Promise<Refunded> {
  const k = ck.doc;
  const note = await findCreditNote(trx, ck, id);
  const left = creditLeft(ck, note);
  const amount = input.amount ?? left;
  if (amount > left)
    throw new AppError(
      'unprocessable_entity',
      `a refund of ${sterling(amount)} is more than the ${sterling(left)} of credit left on ${ck.noun} ${nameOf(note)}`,
    );
  const date = input.date ?? today(posting.clock);
  if (date < note.date) throw new AppError('validation_error', `date ${date} is before the ${ck.noun}'s date ${note.date}`, 'date');
  refuseAfterToday(posting, date, 'refund');
  const bank = await bankAccount(trx, input.accountId);
  const contact = await trx.selectFrom('contacts').select('name').where('id', '=', note.contact_id).executeTakeFirstOrThrow();
  const refundId = newId('rfd', posting.clock.now());
  const txn = await postBankMovement(trx, k, posting, {
    bankId: bank.id,
    // The opposite of a payment: money out to a customer, back in from a supplier.
    toBank: k.lineSign * amount,
    contactId: note.contact_id,
    date,
    description:
      k.kind === 'sales' ? `Refund of credit note ${nameOf(note)} to ${contact.name}` : `Refund of supplier credit note ${nameOf(note)} from ${contact.name}`,
    reference: input.reference ?? note.number,
    sourceType: refundSource,
    sourceId: refundId,
    vatEntries: await refundShares(trx, note, amount),
  });
  const refund: RefundsTable = {
    id: refundId,
    credit_note_id: note.id,
    amount,
    date,
    method: input.method,
    reference: input.reference ?? null,
    account_id: bank.id,
    transaction_id: txn.id,
    created_by: posting.actor.id,
    created_at: timestamp(posting.clock),
  };
  await trx.insertInto('refunds').values(refund).execute();
  const changes = { refunded: note.refunded + amount, updated_at: refund.created_at };
  await trx.updateTable('credit_notes').set(changes).where('id', '=', note.id).execute();
  return { refund, note: { ...note, ...changes } };
}

/** Remove a refund: its entry is deleted (not when reconciled or in a closed period) and the credit is the contact's again. */
export async function removeRefund(trx: Kysely<OrgDb>, ck: CreditKind, posting: Posting, id: string, refundId: string): Promise<Refunded> {
  const note = await findCreditNote(trx, ck, id);
  const refund = await trx.selectFrom('refunds').selectAll().where('id', '=', refundId).where('credit_note_id', '=', id).executeTakeFirst();
  if (!refund) throw new AppError('not_found', `refund ${refundId} not found on ${ck.noun} ${nameOf(note)}`);
  await removeTransaction(trx, refund.transaction_id, `refund ${refundId}`);
  await removeRefundJournals(trx, refundId, `refund ${refundId} cannot be removed`);
  await trx.deleteFrom('refunds').where('id', '=', refundId).execute();
  const changes = { refunded: note.refunded - refund.amount, updated_at: timestamp(posting.clock) };
  await trx.updateTable('credit_notes').set(changes).where('id', '=', id).execute();
  await trueUpNoteParts(trx, ck, posting, { ...note, ...changes }, today(posting.clock));
  return { refund, note: { ...note, ...changes } };
}
