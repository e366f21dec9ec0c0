/**
 * Invoices and bills brought over from other software, outstanding at the
 * cutover. The opening trial balance already holds what they are owed, on
 * a migration clearing account (1198 for receivables, 2198 for payables),
 * so a migrated document's entries move its gross from the clearing account
 * to the control account (debit 1100, credit 1198; a bill: debit 2198,
 * credit 2100) with no VAT: its VAT was accounted for in the software it
 * came from. The VAT the file gives is kept on the document and its one
 * line (net and VAT, at the rate it implies: standard or reduced when it is
 * 20% or 5% of the net to the penny, else no rate), so that a credit note
 * against it takes its share of the VAT back off the return, as one on an
 * invoice raised here does. What was paid before the cutover is a synthetic payment that
 * moves back to the clearing account, because that money is already in the
 * trial balance's bank. Both are dated at the cutover. The document keeps
 * its number, dates and contact, and is open (sent or approved, overdue
 * once due) for payments to settle from then on.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { sterling } from '../money.js';
import { newId } from '../ids.js';
import { timestamp, today } from '../clock.js';
import { postHistory, removeTransaction, type Posting } from '../ledger/posting.js';
import { saveItems, vatPercent } from './items.js';
import { divideRound } from './credit-lines.js';
import { settle } from './settle.js';
import { accountByCode, type Kind } from './documents.js';
import { particularsToKeep } from './issued-particulars.js';
import type { InvoicesTable, OrgDb, PaymentsTable, VatRateName } from '../../store/tables.js';

/** The migration clearing account of each kind: receivables 1198, payables 2198. */
export const clearingCode = (k: Kind): string => (k.kind === 'sales' ? '1198' : '2198');

export interface MigratedDocument {
  readonly contactId: string;
  readonly contactName: string;
  readonly number: string;
  readonly reference: string | null;
  readonly issueDate: string;
  readonly dueDate: string;
  /** Pence, VAT included. */
  readonly gross: number;
  /** Pence of VAT inside the gross (0 ≤ vat < gross): 0 when the file gives none. */
  readonly vat: number;
  /** Pence paid before the cutover. */
  readonly paid: number;
  /** The date its entries carry: the cutover. */
  readonly cutoverDate: string;
  /** Where it came from, for the line's description: "Xero", "trial-balance.csv"… */
  readonly source: string;
}

export interface Migrated {
  readonly row: InvoicesTable;
  readonly payment: PaymentsTable | null;
}

/**
 * The rate a migrated line's VAT implies: standard or reduced when the VAT
 * is that rate of the net to the penny (rounded as a line here is); else
 * no rate (also for no VAT), and a credit note shares the VAT in proportion.
 */
function impliedRate(net: number, vat: number): { vatRateName: VatRateName | null; vatRate: number } {
  for (const name of ['standard', 'reduced'] as const) {
    if (vat > 0 && Number(divideRound(BigInt(net) * BigInt(vatPercent[name]), 100n)) === vat) return { vatRateName: name, vatRate: vatPercent[name] };
  }
  return { vatRateName: null, vatRate: 0 };
}

/** Create one migrated invoice or bill with its clearing entries and, when part-paid, its synthetic payment. */
export async function createMigratedDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, doc: MigratedDocument): Promise<Migrated> {
  const [control, clearing] = await Promise.all([accountByCode(trx, k.controlCode), accountByCode(trx, clearingCode(k))]);
  const id = newId(k.idPrefix, posting.clock.now());
  const toControl = -k.lineSign * doc.gross; // invoice: debit 1100; bill: credit 2100
  const transactionId = await postHistory(trx, posting, {
    date: doc.cutoverDate,
    description: `${k.kind === 'sales' ? 'Invoice' : 'Bill'} ${doc.number} ${k.kind === 'sales' ? 'to' : 'from'} ${doc.contactName}, brought forward`.slice(
      0,
      500,
    ),
    reference: doc.number.slice(0, 100),
    status: 'posted',
    sourceType: k.sourceType,
    sourceId: id,
    lines: [
      { accountId: control.id, amount: toControl, contactId: doc.contactId, description: doc.contactName.slice(0, 500) },
      { accountId: clearing.id, amount: -toControl, contactId: doc.contactId, description: `${doc.number} migrated from ${doc.source}`.slice(0, 500) },
    ],
  });
  const now = timestamp(posting.clock);
  const row: InvoicesTable = {
    id,
    kind: k.kind,
    number: doc.number,
    status: doc.dueDate < today(posting.clock) ? 'overdue' : k.issued,
    contact_id: doc.contactId,
    currency: 'GBP',
    issue_date: doc.issueDate,
    due_date: doc.dueDate,
    paid_date: null,
    notes: `Brought forward from ${doc.source} at ${doc.cutoverDate}`.slice(0, 2000),
    reference: doc.reference,
    subtotal: doc.gross - doc.vat,
    vat_amount: doc.vat,
    total: doc.gross,
    amount_paid: 0,
    amount_credited: 0,
    transaction_id: transactionId,
    quote_id: null,
    sent_at: now,
    voided_at: null,
    // Issued by the old system: the particulars it was issued with are not known, those at the migration are the nearest.
    issued_particulars: k.kind === 'sales' ? await particularsToKeep(trx, doc.contactId) : null,
    created_by: posting.actor.id,
    created_at: now,
    updated_at: now,
  };
  try {
    await trx.insertInto('invoices').values(row).execute();
  } catch (e) {
    if (k.kind === 'sales' && /UNIQUE/i.test((e as Error).message)) {
      throw new AppError('conflict', `invoice number ${doc.number} is already used in these books`, 'number', { cause: e });
    }
    throw e;
  }
  await saveItems(trx, posting.clock, id, [
    {
      description: `Balance brought forward from ${doc.source}: ${k.noun} ${doc.number} of ${doc.issueDate}`.slice(0, 500),
      quantity: 1,
      unitPrice: doc.gross - doc.vat,
      ...impliedRate(doc.gross - doc.vat, doc.vat),
      net: doc.gross - doc.vat,
      vatAmount: doc.vat,
      lineTotal: doc.gross,
      accountId: null,
    },
  ]);
  if (doc.paid === 0) return { row, payment: null };
  const paymentId = newId('pay', posting.clock.now());
  const paidTransactionId = await postHistory(trx, posting, {
    date: doc.cutoverDate,
    description: `Paid before the migration: ${k.noun} ${doc.number}`.slice(0, 500),
    reference: doc.number.slice(0, 100),
    status: 'posted',
    sourceType: 'payment',
    sourceId: paymentId,
    lines: [
      // Invoice: credit 1100, debit 1198; bill: debit 2100, credit 2198.
      { accountId: control.id, amount: k.lineSign * doc.paid, contactId: doc.contactId },
      { accountId: clearing.id, amount: -k.lineSign * doc.paid, contactId: doc.contactId },
    ],
  });
  const payment: PaymentsTable = {
    id: paymentId,
    invoice_id: id,
    amount: doc.paid,
    date: doc.cutoverDate,
    method: 'other',
    reference: 'Paid before the migration',
    account_id: clearing.id,
    transaction_id: paidTransactionId,
    line_id: null,
    created_by: posting.actor.id,
    created_at: now,
  };
  await trx.insertInto('payments').values(payment).execute();
  const settled = await settle(trx, k, posting.clock, id);
  return { row: settled.row, payment };
}

/** The completed invoice or bill import that brought document `id` forward, or null for a document raised here. */
async function broughtForwardBy(db: Kysely<OrgDb>, id: string): Promise<string | null> {
  const found = await db
    .selectFrom('data_import_rows')
    .innerJoin('data_imports', 'data_imports.id', 'data_import_rows.import_id')
    .select('data_imports.id')
    .where('data_import_rows.record_id', '=', id)
    .where('data_import_rows.outcome', '=', 'created')
    .where('data_imports.kind', 'in', ['invoices', 'bills'])
    .where('data_imports.status', '=', 'completed')
    .executeTakeFirst();
  return found?.id ?? null;
}

const importPath = (k: Kind): string => (k.kind === 'sales' ? 'invoice-imports' : 'bill-imports');
const clearingName = (k: Kind): string => `${clearingCode(k)} ${k.kind === 'sales' ? 'Receivables' : 'Payables'} Migration Clearing`;

/**
 * 422 for a migrated document voided on its own: its sale or purchase is in
 * the books it came from (the opening balance holds it on the clearing
 * account), so voiding it would take away its clearing entry and leave its
 * gross on 1198 or 2198 for good. A credit note cancels it; voiding the
 * import takes every document of it back to the opening balance.
 */
export async function refuseVoidIfMigrated(db: Kysely<OrgDb>, k: Kind, row: InvoicesTable): Promise<void> {
  const importId = await broughtForwardBy(db, row.id);
  if (importId === null) return;
  throw new AppError(
    'unprocessable_entity',
    `${k.noun} ${row.number ?? row.id} was brought forward by ${k.kind === 'sales' ? 'invoice' : 'bill'} import ${importId}: voiding it alone would leave its ${sterling(row.total)} on ${clearingName(k)}; raise a credit note to cancel it, or void the whole import (POST /${importPath(k)}/${importId}/void)`,
  );
}

/**
 * 422 for the synthetic "Paid before the migration" payment of a migrated
 * document removed on its own: that money is in the opening balance's bank,
 * so removing it would leave its amount on 1198 or 2198 and the document
 * owed in full. Voiding the import takes it away with its document.
 */
export async function refuseRemoveIfSynthetic(db: Kysely<OrgDb>, k: Kind, row: InvoicesTable, payment: PaymentsTable): Promise<void> {
  const clearing = await accountByCode(db, clearingCode(k));
  if (payment.account_id !== clearing.id) return;
  const importId = await broughtForwardBy(db, row.id);
  if (importId === null) return;
  throw new AppError(
    'unprocessable_entity',
    `payment ${payment.id} is what ${k.noun} ${row.number ?? row.id} had been paid before the migration (${k.kind === 'sales' ? 'invoice' : 'bill'} import ${importId}): removing it alone would leave its ${sterling(payment.amount)} on ${clearingName(k)}; void the import instead (POST /${importPath(k)}/${importId}/void)`,
  );
}

/**
 * Undo a migrated document: refused (422) once anything but its synthetic
 * payment settles it; otherwise it leaves the books with its entries and
 * synthetic payment, so that its number is free for the import made again.
 * A void credit note settles nothing (its entry and allocations went when it
 * was voided): it leaves with the document it was raised against, and its
 * number stays used (the counter is past it).
 */
export async function removeMigratedDocument(trx: Kysely<OrgDb>, k: Kind, id: string): Promise<void> {
  const row = await trx.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return;
  const clearing = await accountByCode(trx, clearingCode(k));
  const payments = await trx.selectFrom('payments').selectAll().where('invoice_id', '=', id).execute();
  const later = payments.find((p) => p.account_id !== clearing.id);
  const credited = await trx.selectFrom('credit_allocations').select('id').where('invoice_id', '=', id).executeTakeFirst();
  const credit = await trx.selectFrom('credit_notes').select('id').where('invoice_id', '=', id).where('status', '!=', 'void').executeTakeFirst();
  if (later || credited || credit || row.amount_credited !== 0) {
    throw new AppError(
      'unprocessable_entity',
      `${k.noun} ${row.number ?? id} has ${later ? `payment ${later.id}` : 'credit'} recorded since the migration: remove it before voiding the import`,
    );
  }
  for (const p of payments) {
    await removeTransaction(trx, p.transaction_id, `payment ${p.id}`);
    await trx.deleteFrom('payments').where('id', '=', p.id).execute();
  }
  if (row.transaction_id) await removeTransaction(trx, row.transaction_id, `${k.noun} ${row.number ?? id}`);
  const voidNotes = trx.selectFrom('credit_notes').select('id').where('invoice_id', '=', id).where('status', '=', 'void');
  await trx.deleteFrom('document_items').where('document_id', 'in', voidNotes).execute();
  await trx.deleteFrom('credit_notes').where('invoice_id', '=', id).where('status', '=', 'void').execute();
  await trx.deleteFrom('document_items').where('document_id', '=', id).execute();
  await trx.deleteFrom('invoices').where('id', '=', id).execute();
}
