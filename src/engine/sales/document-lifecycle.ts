/**
 * The life of an invoice or a bill: created as a draft with draft entries,
 * changed or deleted while a draft, issued (sent, approved: its entries
 * are posted), voided (its entries leave the ledger). A draft posts
 * nothing, so one dated in a period closed since it was made can still be
 * moved to an open date, deleted or voided; it cannot be sent or approved
 * there, nor changed while it stays there.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { createTransaction, removeTransaction, replaceDraft, setTransactionStatus, type DraftRelease, type Posting } from '../ledger/posting.js';
import { itemInputsOf, loadItems, saveItems } from './items.js';
import { addDays } from '../dates.js';
import { deregisteredFrom, loadOrganisation, schemeOn } from '../organisation/organisation.js';
import { findDocument, refuseUnlessDraft, type Kind } from './documents.js';
import { computeDocument, type DocumentInput } from './document-pricing.js';
import { ledgerInput } from './document-entries.js';
import { allocateNumber, invoiceNumbers } from './document-numbers.js';
import { refuseVoidIfMigrated } from './migrated-documents.js';
import { particularsToKeep } from './issued-particulars.js';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

/** Create a draft invoice or bill with its draft ledger entries; its row. */
export async function createDocument(
  trx: Kysely<OrgDb>,
  k: Kind,
  posting: Posting,
  input: DocumentInput,
  extra: { quoteId?: string } = {},
): Promise<InvoicesTable> {
  const c = await computeDocument(trx, k, posting.clock, input);
  const id = newId(k.idPrefix, posting.clock.now());
  const number = k.kind === 'sales' ? await allocateNumber(trx, invoiceNumbers) : (input.number ?? null);
  const txn = await createTransaction(trx, posting, await ledgerInput(trx, k, id, number, c, 'draft'));
  const now = timestamp(posting.clock);
  const row: InvoicesTable = {
    id,
    kind: k.kind,
    number,
    status: 'draft',
    contact_id: c.contact.id,
    currency: c.currency,
    issue_date: c.issueDate,
    due_date: c.dueDate,
    paid_date: null,
    notes: input.notes ?? null,
    reference: input.reference ?? null,
    subtotal: c.priced.subtotal,
    vat_amount: c.priced.vatAmount,
    total: c.priced.total,
    amount_paid: 0,
    amount_credited: 0,
    transaction_id: txn.id,
    quote_id: extra.quoteId ?? null,
    sent_at: null,
    voided_at: null,
    issued_particulars: null,
    created_by: posting.actor.id,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('invoices').values(row).execute();
  await saveItems(trx, posting.clock, id, c.priced.items);
  return row;
}

export type DocumentChange = Partial<DocumentInput>;

/** A draft document's entries may leave a closed period (posting.ts): they are the draft's shadow, not figures. */
const draftRelease: DraftRelease = { leaveClosedPeriod: true };

/** Change a draft: fields left out stay; items, when sent, replace all lines; the draft entries follow. */
export async function updateDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string, change: DocumentChange): Promise<InvoicesTable> {
  const row = await findDocument(trx, k, id);
  refuseUnlessDraft(k, row, 'changed');
  const items = change.items ?? itemInputsOf((await loadItems(trx, [id])).get(id) ?? []);
  const keepsDueDate = change.dueDate === undefined && change.dueDays === undefined;
  const input: DocumentInput = {
    contactId: change.contactId ?? row.contact_id,
    currency: change.currency ?? row.currency,
    items,
    issueDate: change.issueDate ?? row.issue_date,
    dueDate: keepsDueDate ? row.due_date : change.dueDate,
    dueDays: change.dueDays,
    notes: change.notes === undefined ? row.notes : change.notes,
    reference: change.reference === undefined ? row.reference : change.reference,
    number: change.number === undefined ? row.number : change.number,
  };
  const c = await computeDocument(trx, k, posting.clock, input);
  const number = k.kind === 'sales' ? row.number : (input.number ?? null);
  const entries = await ledgerInput(trx, k, id, number, c, 'draft');
  await replaceDraft(trx, posting, row.transaction_id as string, entries, draftRelease);
  const changes: Partial<InvoicesTable> = {
    number,
    contact_id: c.contact.id,
    currency: c.currency,
    issue_date: c.issueDate,
    due_date: c.dueDate,
    notes: input.notes ?? null,
    reference: input.reference ?? null,
    subtotal: c.priced.subtotal,
    vat_amount: c.priced.vatAmount,
    total: c.priced.total,
    updated_at: timestamp(posting.clock),
  };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  // Lines not sent stay as they are, ids and all (a client may hold them for a credit note by line).
  if (change.items !== undefined) await saveItems(trx, posting.clock, id, c.priced.items);
  return { ...row, ...changes };
}

/**
 * A sale dated on or after the VAT registration date charges VAT, so a
 * draft made while the business was not registered (lines with no rate,
 * and entries with no VAT) is refused until each line states its rate. One
 * dated before the registration date is a sale made unregistered and goes
 * as it is, but charges no VAT: a line at a rate that charges some is
 * refused (its VAT would reach no return). With no registration date,
 * every date counts as registered.
 */
export async function refuseSaleAgainstRegistration(trx: Kysely<OrgDb>, k: Kind, row: InvoicesTable): Promise<void> {
  if (k.kind !== 'sales') return;
  const org = await schemeOn(trx, await loadOrganisation(trx), row.issue_date);
  const items = (await loadItems(trx, [row.id])).get(row.id) ?? [];
  const name = `${k.noun} ${row.number ?? row.id}`;
  if (org.vat_scheme === 'not_registered') {
    // Dated after registration ended (a draft made while registered): it may charge none.
    const ended = await deregisteredFrom(trx, await loadOrganisation(trx));
    const charged = items.findIndex((item) => item.vat_amount !== 0);
    if (ended === null || row.issue_date < ended || charged < 0) return;
    const field = `items[${charged}].vatRate`;
    throw new AppError(
      'unprocessable_entity',
      `${name} is dated ${row.issue_date}, but the organisation's VAT registration ended on ${addDays(ended, -1)} and ${field} charges ` +
        `${items[charged]!.vat_rate}% VAT: a business cannot charge VAT once it is not registered; date it by ${addDays(ended, -1)}, or sell without VAT (no rate)`,
      field,
    );
  }
  if (org.vat_registration_date !== null && row.issue_date < org.vat_registration_date) {
    const charged = items.findIndex((item) => item.vat_amount !== 0);
    if (charged < 0) return;
    const field = `items[${charged}].vatRate`;
    throw new AppError(
      'unprocessable_entity',
      `${name} is dated ${row.issue_date}, before the organisation registered for VAT on ${org.vat_registration_date}, but ${field} charges ` +
        `${items[charged]!.vat_rate}% VAT: a business cannot charge VAT before it is registered; date it from ${org.vat_registration_date}, or sell without VAT (zero, exempt or no rate)`,
      field,
    );
  }
  const i = items.findIndex((item) => item.vat_rate_name === null);
  if (i < 0) return;
  const field = `items[${i}].vatRate`;
  const since = org.vat_registration_date === null ? '' : ` on ${org.vat_registration_date}`;
  // Without a registration date every sale counts as registered: say how to send one made before it.
  const before = org.vat_registration_date === null ? '; if the sale came before registering, set vatRegistrationDate in the settings' : '';
  throw new AppError(
    'unprocessable_entity',
    `${name} is dated ${row.issue_date} and the organisation registered for VAT${since}, but ${field} states no VAT rate ` +
      `(the draft was made before registering): give each line its rate (update the draft), then send it${before}`,
    field,
  );
}

/** Issue a draft (send an invoice, approve a bill): its entries are posted; an invoice keeps the seller and customer it is issued with. */
export async function issueDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string): Promise<InvoicesTable & { sent_at: string }> {
  const row = await findDocument(trx, k, id);
  refuseUnlessDraft(k, row, k.issued);
  await refuseSaleAgainstRegistration(trx, k, row);
  await setTransactionStatus(trx, posting, row.transaction_id as string, 'posted');
  const now = timestamp(posting.clock);
  const particulars = k.kind === 'sales' ? await particularsToKeep(trx, row.contact_id) : null;
  const changes = { status: k.issued, sent_at: now, issued_particulars: particulars, updated_at: now };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  return { ...row, ...changes };
}

/** Void a document without payments: its entries leave the ledger. */
export async function voidDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string): Promise<InvoicesTable> {
  const row = await findDocument(trx, k, id);
  const name = row.number ?? row.id;
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is already void`);
  await refuseVoidIfMigrated(trx, k, row);
  const payments = await trx.selectFrom('payments').select('id').where('invoice_id', '=', id).limit(1).executeTakeFirst();
  if (payments) {
    throw new AppError(
      'unprocessable_entity',
      `${k.noun} ${name} has payments recorded and cannot be voided: correct it with a credit note, or remove the payments first`,
    );
  }
  const credit = await trx
    .selectFrom('credit_notes')
    .select('id')
    .where('status', '=', 'issued')
    .where((eb) =>
      eb.or([eb('invoice_id', '=', id), eb('id', 'in', eb.selectFrom('credit_allocations').select('credit_note_id').where('invoice_id', '=', id))]),
    )
    .limit(1)
    .executeTakeFirst();
  if (credit)
    throw new AppError('unprocessable_entity', `${k.noun} ${name} has credit notes against it or credit allocated to it (${credit.id}) and cannot be voided`);
  if (row.transaction_id) await removeTransaction(trx, row.transaction_id, undefined, draftRelease);
  // A draft voided is discarded as a deleted one is: the quote it was converted from can be converted again.
  if (row.status === 'draft') await releaseQuote(trx, id);
  const now = timestamp(posting.clock);
  const changes = { status: 'void' as const, voided_at: now, transaction_id: null, updated_at: now };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  return { ...row, ...changes };
}

/** Delete a draft with its lines and draft entries. */
export async function deleteDocument(trx: Kysely<OrgDb>, k: Kind, id: string): Promise<void> {
  const row = await findDocument(trx, k, id);
  refuseUnlessDraft(k, row, 'deleted');
  if (row.transaction_id) await removeTransaction(trx, row.transaction_id, undefined, draftRelease);
  await trx.deleteFrom('document_items').where('document_id', '=', id).execute();
  await releaseQuote(trx, id);
  await trx.deleteFrom('invoices').where('id', '=', id).execute();
}

/** A quote converted into this draft, now discarded, is accepted again and can be converted again. */
async function releaseQuote(trx: Kysely<OrgDb>, invoiceId: string): Promise<void> {
  await trx.updateTable('quotes').set({ converted_invoice_id: null, status: 'accepted' }).where('converted_invoice_id', '=', invoiceId).execute();
}
