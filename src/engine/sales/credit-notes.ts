/**
 * Credit notes: the way an issued invoice (or bill) is corrected once it
 * may have been paid, as FreeAgent and Xero do. A credit note credits the
 * whole document, chosen lines or an amount (credit-lines.ts); its ledger
 * entry is the reversal of those lines, VAT included, so the VAT return
 * picks it up in the period of its date. It first settles what is still
 * due on the document it credits; any credit beyond that is the
 * contact's, to be allocated to another of their documents or refunded
 * (credits.ts). Sales credit notes are numbered from their own prefix
 * (CN-0001); a supplier's carries the supplier's number, if given. How
 * they look from outside: credit-note-views.ts; the operations:
 * credit-note-ops.ts.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp, today } from '../clock.js';
import { createTransaction, removeTransaction, type Posting } from '../ledger/posting.js';
import { accountByCode, amountDue, findDocument, type Kind } from './documents.js';
import { nameOf, type CreditKind } from './credit-kinds.js';
import { itemEntries } from './document-entries.js';
import { allocateNumber, creditNoteNumbers } from './document-numbers.js';
import { loadItems, saveItems, type PricedItem } from './items.js';
import { creditLines, type Creditable, type CreditChoice } from './credit-lines.js';
import { settle, type Settled } from './settle.js';
import { documentShares } from './cash-vat.js';
import { removeAllocationJournal } from './allocation-journal.js';
import { particularsToKeep } from './issued-particulars.js';
import type { CreditNotesTable, InvoicesTable, OrgDb } from '../../store/tables.js';

export async function findCreditNote(db: Kysely<OrgDb>, ck: CreditKind, id: string): Promise<CreditNotesTable> {
  return found(db.selectFrom('credit_notes').selectAll().where('id', '=', id).where('kind', '=', ck.doc.kind).executeTakeFirst(), ck.noun, id);
}

/** Credit not yet allocated or refunded. */
export const remainingCredit = (row: CreditNotesTable): number => (row.status === 'void' ? 0 : row.total - row.allocated - row.refunded);

/** A document's lines with what issued credit notes have taken of each. */
async function creditable(db: Kysely<OrgDb>, documentId: string): Promise<Creditable[]> {
  const items = (await loadItems(db, [documentId])).get(documentId) ?? [];
  if (items.length === 0) return [];
  const credited = await db
    .selectFrom('document_items')
    .innerJoin('credit_notes', 'credit_notes.id', 'document_items.document_id')
    .select((eb) => [
      'document_items.source_item_id',
      eb.fn.sum<number>('document_items.net').as('net'),
      eb.fn.sum<number>('document_items.vat_amount').as('vat'),
    ])
    .where('credit_notes.status', '=', 'issued')
    .where(
      'document_items.source_item_id',
      'in',
      items.map((i) => i.id),
    )
    .groupBy('document_items.source_item_id')
    .execute();
  const byItem = new Map(credited.map((c) => [c.source_item_id, c]));
  return items.map((item) => ({ item, creditedNet: Number(byItem.get(item.id)?.net ?? 0), creditedVat: Number(byItem.get(item.id)?.vat ?? 0) }));
}

/** The document a body's invoiceId (or billId) names: 400 on that field when there is none. */
export async function documentFor(db: Kysely<OrgDb>, k: Kind, id: string, field: string): Promise<InvoicesTable> {
  return findDocument(db, k, id).catch(() => {
    throw new AppError('validation_error', `${field}: no ${k.noun} ${id} in this organisation`, field);
  });
}

/** Refuse a document that cannot take credit: drafts (422) and void ones (409). */
export function refuseUncreditable(k: Kind, row: InvoicesTable): void {
  const name = nameOf(row);
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is void`);
  if (row.status === 'draft') {
    throw new AppError('unprocessable_entity', `${k.noun} ${name} is a draft: change or delete it instead of crediting it`);
  }
}

/** The reversal of the credited lines: the control account against each line's account and VAT, with the VAT facts reversed. */
async function ledgerEntries(db: Kysely<OrgDb>, ck: CreditKind, doc: InvoicesTable, noteId: string, name: string, lines: readonly PricedItem[], total: number) {
  const k = ck.doc;
  const control = await accountByCode(db, k.controlCode);
  const items = await itemEntries(db, k, lines, { direction: -1, documentId: noteId, contactId: doc.contact_id, name, schemeDate: doc.issue_date });
  // A document posts its lines at lineSign and its control account against them; a credit note the reverse.
  return {
    lines: [{ accountId: control.id, amount: k.lineSign * total, contactId: doc.contact_id }, ...items.lines],
    vatEntries: items.vatEntries.map((e) => (e.lineIndex === undefined ? e : { ...e, lineIndex: e.lineIndex + 1 })),
  };
}

export interface CreditNoteInput {
  readonly documentId: string;
  readonly date?: string | undefined;
  readonly lineIds?: readonly string[] | undefined;
  readonly amount?: number | undefined;
  readonly reason?: string | null | undefined;
  readonly reference?: string | null | undefined;
  /** A supplier credit note's own number. */
  readonly number?: string | null | undefined;
}

export interface Created {
  readonly note: CreditNotesTable;
  readonly document: Settled;
}

/** Issue a credit note against a document, post it, and apply it to what the document still owes. */
export async function createCreditNote(trx: Kysely<OrgDb>, ck: CreditKind, posting: Posting, field: string, input: CreditNoteInput): Promise<Created> {
  const k = ck.doc;
  const doc = await documentFor(trx, k, input.documentId, field);
  refuseUncreditable(k, doc);
  const date = input.date ?? today(posting.clock);
  if (date < doc.issue_date) throw new AppError('validation_error', `date ${date} is before the ${k.noun}'s issue date ${doc.issue_date}`, 'date');
  if (input.lineIds !== undefined && input.amount !== undefined) throw new AppError('validation_error', 'send lineIds or amount, not both', 'amount');
  const choice: CreditChoice =
    input.amount !== undefined
      ? { mode: 'amount', amount: input.amount }
      : input.lineIds !== undefined
        ? { mode: 'lines', lineIds: input.lineIds }
        : { mode: 'whole' };
  const lines = creditLines(await creditable(trx, doc.id), choice, k.noun);
  const subtotal = lines.reduce((s, l) => s + l.net, 0);
  const vat = lines.reduce((s, l) => s + l.vatAmount, 0);
  const total = subtotal + vat;
  const id = newId(ck.idPrefix, posting.clock.now());
  const number = k.kind === 'sales' ? await allocateNumber(trx, creditNoteNumbers) : (input.number ?? null);
  const contact = await trx.selectFrom('contacts').select('name').where('id', '=', doc.contact_id).executeTakeFirstOrThrow();
  const applied = Math.min(total, amountDue(doc));
  const entries = await ledgerEntries(trx, ck, doc, id, number ?? id, lines, total);
  // Credit settling a document already part paid changes what those payments paid for (cash-vat.ts).
  const shares = applied === 0 ? [] : await documentShares(trx, doc, { credit: { noteId: id, total, amount: applied, entries: entries.vatEntries } });
  const txn = await createTransaction(trx, posting, {
    date,
    description: `${k.kind === 'sales' ? 'Credit note' : 'Supplier credit note'} ${number ?? id} for ${k.noun} ${nameOf(doc)} (${contact.name})`,
    reference: (number ?? '').slice(0, 100) || null,
    status: 'posted',
    sourceType: ck.sourceType,
    sourceId: id,
    lines: entries.lines,
    vatEntries: [...entries.vatEntries, ...shares],
  });
  const now = timestamp(posting.clock);
  const note: CreditNotesTable = {
    id,
    kind: k.kind,
    number,
    status: 'issued',
    invoice_id: doc.id,
    contact_id: doc.contact_id,
    currency: doc.currency,
    date,
    reason: input.reason ?? null,
    reference: input.reference ?? null,
    subtotal,
    vat_amount: vat,
    total,
    allocated: 0,
    refunded: 0,
    transaction_id: txn.id,
    voided_at: null,
    issued_particulars: k.kind === 'sales' ? await particularsToKeep(trx, doc.contact_id) : null,
    created_by: posting.actor.id,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('credit_notes').values(note).execute();
  await saveItems(trx, posting.clock, id, lines);
  if (applied === 0) return { note, document: { row: doc, change: null } };
  await trx
    .insertInto('credit_allocations')
    .values({
      id: newId('alloc', posting.clock.now()),
      credit_note_id: id,
      invoice_id: doc.id,
      amount: applied,
      date,
      created_by: posting.actor.id,
      created_at: now,
    })
    .execute();
  await trx.updateTable('credit_notes').set({ allocated: applied }).where('id', '=', id).execute();
  return { note: { ...note, allocated: applied }, document: await settle(trx, k, posting.clock, doc.id) };
}

export interface Voided {
  readonly note: CreditNotesTable;
  /** The documents its allocations settled, worked out again. */
  readonly documents: readonly Settled[];
}

/** Void a credit note without refunds: its entry leaves the ledger and its allocations are undone. */
export async function voidCreditNote(trx: Kysely<OrgDb>, ck: CreditKind, posting: Posting, id: string): Promise<Voided> {
  const note = await findCreditNote(trx, ck, id);
  const name = nameOf(note);
  if (note.status === 'void') throw new AppError('already_voided', `${ck.noun} ${name} is already void`);
  if (note.refunded > 0) throw new AppError('unprocessable_entity', `${ck.noun} ${name} has refunds recorded: remove them before voiding it`);
  if (note.transaction_id) await removeTransaction(trx, note.transaction_id, `${ck.noun} ${name}`);
  const allocations = await trx.selectFrom('credit_allocations').select(['id', 'invoice_id']).where('credit_note_id', '=', id).execute();
  for (const a of allocations) await removeAllocationJournal(trx, a.id, `${ck.noun} ${name} cannot be voided`);
  await trx.deleteFrom('credit_allocations').where('credit_note_id', '=', id).execute();
  const now = timestamp(posting.clock);
  const changes = { status: 'void' as const, allocated: 0, transaction_id: null, voided_at: now, updated_at: now };
  await trx.updateTable('credit_notes').set(changes).where('id', '=', id).execute();
  const documents: Settled[] = [];
  for (const invoiceId of new Set(allocations.map((a) => a.invoice_id))) documents.push(await settle(trx, ck.doc, posting.clock, invoiceId));
  return { note: { ...note, ...changes }, documents };
}
