/**
 * The journal of an allocation of credit to a document that has payments:
 * the credit changes what those payments paid for, so the cash-basis VAT
 * they carried is shared again at the allocation's date (cash-vat.ts).
 * VAT entries belong to a transaction, and an allocation posts none of its
 * own, so this one moves the allocated amount on the control account from
 * the contact to the contact (zero net: receivables and payables are
 * unchanged) to carry them; sourceType credit_allocation, sourceId the
 * allocation. An allocation to a document with nothing paid yet needs no
 * journal. Removing the allocation removes its journal, under the rules of
 * posting (refused once a filed return counted it).
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { createTransaction, removeTransactionsOf, type Posting } from '../ledger/posting.js';
import { accountByCode } from './documents.js';
import { allocationSource, documentShares } from './cash-vat.js';
import { nameOf, type CreditKind } from './credit-notes.js';
import type { CreditNotesTable, InvoicesTable, OrgDb } from '../../store/tables.js';

/** Post the journal of allocating `amount` of the note's credit to `doc`, when the allocation moves any VAT. */
export async function postAllocationJournal(
  trx: Kysely<OrgDb>,
  ck: CreditKind,
  posting: Posting,
  allocation: { readonly id: string; readonly amount: number; readonly date: string },
  note: CreditNotesTable,
  doc: InvoicesTable,
): Promise<void> {
  const vatEntries = await documentShares(trx, doc, { credit: { noteId: note.id, total: note.total, amount: allocation.amount } });
  if (vatEntries.length === 0) return;
  const control = await accountByCode(trx, ck.doc.controlCode);
  await createTransaction(trx, posting, {
    date: allocation.date,
    description: `${ck.noun} ${nameOf(note)} allocated to ${ck.doc.noun} ${nameOf(doc)}: the VAT of its payments on the cash basis`,
    reference: note.number,
    status: 'posted',
    sourceType: allocationSource,
    sourceId: allocation.id,
    lines: [
      { accountId: control.id, amount: allocation.amount, contactId: doc.contact_id },
      { accountId: control.id, amount: -allocation.amount, contactId: doc.contact_id },
    ],
    vatEntries,
  });
}

/** Remove an allocation's journal, if it has one; a refusal starts with `refused` (what cannot be done). */
export async function removeAllocationJournal(trx: Kysely<OrgDb>, allocationId: string, refused: string): Promise<void> {
  try {
    await removeTransactionsOf(trx, allocationSource, allocationId);
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.code, `${refused}: ${e.message}`);
    throw e;
  }
}
