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
 * posting (refused once a filed return counted it). Taking back any use of
 * a note's credit (an allocation, a refund) trues up the uses after it, whose
 * parts of the note's VAT move (trueUpNoteParts).
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { createTransaction, removeTransactionsOf, type Posting } from '../ledger/posting.js';
import { accountByCode } from './documents.js';
import { allocationSource, documentShares, refundShares, refundSource } from './cash-vat.js';
import { nameOf, type CreditKind } from './credit-kinds.js';
import type { VatEntryInput } from '../ledger/vat-entries.js';
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

/**
 * A note's VAT is shared over its uses cumulatively, in the order they were
 * made (cash-vat.ts), so taking one back gives each use after it another
 * part. Each document holding an allocation of the note is brought to its
 * share again in a journal of its latest allocation from the note, and the
 * note's refunds in one of its latest refund (sourceType refund), both of
 * zero net on the control account, dated `date`; nothing is written where
 * nothing moves.
 */
export async function trueUpNoteParts(trx: Kysely<OrgDb>, ck: CreditKind, posting: Posting, note: CreditNotesTable, date: string): Promise<void> {
  const control = await accountByCode(trx, ck.doc.controlCode);
  const journal = async (sourceType: string, sourceId: string, amount: number, contactId: string, of: string, vatEntries: VatEntryInput[]) => {
    if (vatEntries.length === 0) return;
    await createTransaction(trx, posting, {
      date,
      description: `${ck.noun} ${nameOf(note)}: the VAT of its ${of} shared again on the cash basis, a use of its credit having been taken back`,
      reference: note.number,
      status: 'posted',
      sourceType,
      sourceId,
      lines: [
        { accountId: control.id, amount, contactId },
        { accountId: control.id, amount: -amount, contactId },
      ],
      vatEntries,
    });
  };
  const allocations = await trx
    .selectFrom('credit_allocations')
    .select(['id', 'invoice_id', 'amount'])
    .where('credit_note_id', '=', note.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const latest = new Map(allocations.map((a) => [a.invoice_id, a]));
  for (const [docId, a] of latest) {
    const doc = await trx.selectFrom('invoices').selectAll().where('id', '=', docId).executeTakeFirstOrThrow();
    await journal(allocationSource, a.id, a.amount, doc.contact_id, `allocation to ${ck.doc.noun} ${nameOf(doc)}`, await documentShares(trx, doc, {}));
  }
  const refund = await trx
    .selectFrom('refunds')
    .select(['id', 'amount'])
    .where('credit_note_id', '=', note.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (refund) await journal(refundSource, refund.id, refund.amount, note.contact_id, 'refunds', await refundShares(trx, note, 0));
}

/** Remove every transaction of a source, refusals prefixed with `refused` (what cannot be done). */
async function removeJournalsOf(trx: Kysely<OrgDb>, sourceType: string, sourceId: string, refused: string): Promise<void> {
  try {
    await removeTransactionsOf(trx, sourceType, sourceId);
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.code, `${refused}: ${e.message}`);
    throw e;
  }
}

/** Remove an allocation's journals, if it has any; a refusal starts with `refused` (what cannot be done). */
export const removeAllocationJournal = (trx: Kysely<OrgDb>, allocationId: string, refused: string): Promise<void> =>
  removeJournalsOf(trx, allocationSource, allocationId, refused);

/** Remove the journals that shared a note's VAT again over a refund (its own transaction is removed apart). */
export const removeRefundJournals = (trx: Kysely<OrgDb>, refundId: string, refused: string): Promise<void> =>
  removeJournalsOf(trx, refundSource, refundId, refused);
