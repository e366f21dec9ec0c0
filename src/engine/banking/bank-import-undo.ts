/**
 * Undoing a completed bank import, as a journal import is undone
 * (imports/batches.ts): every transaction it created leaves the ledger
 * through posting, categorised ones and drafts included, all or none. The
 * import and its rows stay on record, marked undone, the rows' transaction
 * ids cleared, so that they no longer make the same statement's rows
 * duplicates: it may be imported again. Payments of invoices and bills its
 * rows were matched to go too (the documents are owed again); entries its
 * rows were matched to stay, since the import did not make them. An import
 * whose entry another statement holds (a transfer) waits for that one (409,
 * as posting refuses to remove an entry a statement's row holds).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { removeTransactionsOf, type Posting } from '../ledger/posting.js';
import { findBankAccount } from './bank-accounts.js';
import { salesInvoice } from '../sales/documents.js';
import { removePaymentsOfEntry } from '../sales/payments.js';
import { announceRemoval } from '../sales/receipt-events.js';
import { findImport, importStatus, importSummarySchema, markOverlapping, summaryOf } from './bank-imports.js';
import type { OrgDb } from '../../store/tables.js';

export const undoneImportSchema = z.strictObject({ ...importSummarySchema.shape, transactionsRemoved: z.number().int() });
export type UndoneImport = z.output<typeof undoneImportSchema>;

/** Remove every transaction a completed import created and mark it undone; a pending one is deleted instead (409), an undone one is 409 already_voided. */
export async function undoBankImport(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<UndoneImport> {
  const row = await findImport(trx, id);
  if (row.undone_at !== null) throw new AppError('already_voided', `bank import ${id} was already undone at ${row.undone_at}`);
  if (row.status === 'pending') throw new AppError('conflict', `bank import ${id} is ${importStatus(row)}: it created nothing to undo; delete it instead`);
  const paying = await trx
    .selectFrom('bank_import_rows')
    .select('transaction_id')
    .where('import_id', '=', id)
    .where('matched_kind', 'in', ['invoice', 'bill'])
    .where('transaction_id', 'is not', null)
    .orderBy('row_index')
    .execute();
  // The rows let go of their transactions first: they refer to them. A refusal below rolls this back with the rest.
  await trx.updateTable('bank_import_rows').set({ transaction_id: null }).where('import_id', '=', id).where('transaction_id', 'is not', null).execute();
  // Payments the rows recorded go as payments do, the documents owed again; entries the rows were matched to stay.
  let removed = 0;
  for (const r of paying) {
    const gone = await removePaymentsOfEntry(trx, posting, r.transaction_id!);
    for (const g of gone) if (g.kind === salesInvoice) await announceRemoval(trx, posting.clock, g.payment, g.document);
    if (gone.length > 0) removed += 1;
  }
  removed += await removeTransactionsOf(trx, 'bank_import', id);
  const now = timestamp(posting.clock);
  const change = { undone_at: now, undone_by: posting.actor.id, updated_at: now };
  await trx.updateTable('bank_imports').set(change).where('id', '=', id).execute();
  const undone = { ...row, ...change };
  await markOverlapping(trx, undone, (await findBankAccount(trx, row.bank_account_id)).account_id);
  return { ...(await summaryOf(trx, undone)), transactionsRemoved: removed };
}
