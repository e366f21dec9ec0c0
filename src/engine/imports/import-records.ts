/**
 * The record every contact, opening balance, invoice and bill import
 * leaves (data_imports): the file as uploaded, the choices made since, its
 * status and counts, and what confirm did with each row. Its id is a
 * `dimp_…`, as journal imports have. Previews are read from the file again
 * each time, so they show the books as they are now (a confirmed invoice or
 * bill import's proof and rows as they were confirmed: document-imports.ts).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { formatPounds } from '../money.js';
import { idOut, instant } from '../output.js';
import { version } from '../../version.js';
import type { Posting } from '../ledger/posting.js';
import type { DataImportKind, DataImportRowsTable, DataImportsTable, DataImportStatus, OrgDb } from '../../store/tables.js';

/** 5 MB: the file limit the product publishes for contact, opening balance, invoice and bill imports (413 past it). */
export const maxImportFileBytes = 5 * 1024 * 1024;

/** The version of the import engine that read a file, stored with each import. */
export const engineVersion = `acct ${version}`;

/** Money in the responses of opening balance and invoice/bill imports: pounds with two decimals ("1234.56"), as the spec says. */
export const poundsText = () =>
  z
    .string()
    .regex(/^-?\d+\.\d\d$/)
    .meta({ 'x-unit': 'pounds' });

export const pounds = (pence: number): string => formatPounds(pence);

export const nouns: Record<DataImportKind, string> = {
  contacts: 'contact import',
  balances: 'opening balance import',
  invoices: 'invoice import',
  bills: 'bill import',
};

/** The import record as the product publishes it. */
export const importRecordSchema = z.strictObject({
  id: idOut('dimp'),
  filename: z.string().nullable(),
  status: z.enum(['processing', 'pending', 'completed', 'voided']),
  totalRows: z.number().int(),
  createdCount: z.number().int(),
  mergedCount: z.number().int(),
  skippedCount: z.number().int(),
  errorCount: z.number().int(),
  engineVersion: z.string(),
  createdAt: instant(),
  completedAt: instant().nullable(),
  voidedAt: instant().nullable(),
});
export type ImportRecord = z.output<typeof importRecordSchema>;

export function importRecordView(row: DataImportsTable): ImportRecord {
  return {
    id: row.id,
    filename: row.filename,
    status: row.status,
    totalRows: row.total_rows,
    createdCount: row.created_count,
    mergedCount: row.merged_count,
    skippedCount: row.skipped_count,
    errorCount: row.error_count,
    engineVersion: row.engine_version,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    voidedAt: row.voided_at,
  };
}

export interface NewImport<O> {
  readonly kind: DataImportKind;
  readonly filename: string | null | undefined;
  readonly status: DataImportStatus;
  readonly fileText: string;
  readonly options: O;
  readonly totalRows: number;
  readonly errorCount: number;
}

export async function insertImport<O>(trx: Kysely<OrgDb>, posting: Posting, input: NewImport<O>): Promise<DataImportsTable> {
  const row: DataImportsTable = {
    id: newId('dimp', posting.clock.now()),
    kind: input.kind,
    filename: input.filename ?? null,
    status: input.status,
    file_text: input.fileText,
    options_json: JSON.stringify(input.options),
    total_rows: input.totalRows,
    created_count: 0,
    merged_count: 0,
    skipped_count: 0,
    error_count: input.errorCount,
    engine_version: engineVersion,
    transaction_id: null,
    reversal_transaction_id: null,
    result_json: null,
    created_by: posting.actor.id,
    created_at: timestamp(posting.clock),
    completed_at: null,
    voided_at: null,
  };
  await trx.insertInto('data_imports').values(row).execute();
  return row;
}

/** An import of the kind, or 404 naming it (an invoice import's id asked of the bill imports is not found). */
export async function findImport(db: Kysely<OrgDb>, kind: DataImportKind, id: string): Promise<DataImportsTable> {
  const row = await db.selectFrom('data_imports').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
  if (!row) throw new AppError('not_found', `${nouns[kind]} ${id} not found`);
  return row;
}

export const optionsOf = <O>(row: Pick<DataImportsTable, 'options_json'>): O => JSON.parse(row.options_json) as O;

export async function setOptions<O>(trx: Kysely<OrgDb>, id: string, options: O): Promise<void> {
  await trx
    .updateTable('data_imports')
    .set({ options_json: JSON.stringify(options) })
    .where('id', '=', id)
    .execute();
}

/** Refuse a change to an import that is no longer waiting for one: 409 naming its status. */
export function refuseUnlessOpen(row: DataImportsTable, what: string): void {
  if (row.status === 'pending' || row.status === 'processing') return;
  throw new AppError('conflict', `${nouns[row.kind]} ${row.id} is ${row.status} and cannot be ${what}`);
}

/**
 * Refuse to void an import that is not completed: 409 already_voided when it
 * is void already (as undoing a journal import twice is), 404 while it is
 * still pending (there is nothing to void).
 */
export function refuseVoidUnlessCompleted(row: DataImportsTable): void {
  if (row.status === 'completed') return;
  if (row.status === 'voided')
    throw new AppError('already_voided', `${nouns[row.kind]} ${row.id} is already void (voided at ${row.voided_at ?? 'an unknown time'})`);
  throw new AppError('not_found', `no completed ${nouns[row.kind]} ${row.id} to void (it is ${row.status})`);
}

/** Delete an import not yet confirmed (a completed one is voided instead: 409). */
export async function deleteImport(trx: Kysely<OrgDb>, kind: DataImportKind, id: string): Promise<void> {
  const row = await findImport(trx, kind, id);
  refuseUnlessOpen(row, 'deleted');
  await trx
    .updateTable('migrations')
    .set({ [`${kind}_import_id`]: null })
    .where(`${kind}_import_id`, '=', id)
    .execute();
  await trx.deleteFrom('data_imports').where('id', '=', id).execute();
}

export interface Completion {
  readonly created: number;
  readonly merged: number;
  readonly skipped: number;
  readonly errors: number;
  readonly transactionId?: string;
  readonly result: unknown;
  readonly rows: readonly (Omit<DataImportRowsTable, 'import_id' | 'fingerprint'> & { readonly fingerprint?: string | null })[];
}

/** Mark an import completed with its counts, its result and what became of each row. */
export async function completeImport(trx: Kysely<OrgDb>, posting: Posting, id: string, done: Completion): Promise<void> {
  await trx
    .updateTable('data_imports')
    .set({
      status: 'completed',
      created_count: done.created,
      merged_count: done.merged,
      skipped_count: done.skipped,
      error_count: done.errors,
      transaction_id: done.transactionId ?? null,
      result_json: JSON.stringify(done.result),
      completed_at: timestamp(posting.clock),
    })
    .where('id', '=', id)
    .execute();
  // SQLite allows 32,766 bound values a statement: 6 a row, in chunks well inside it.
  for (let i = 0; i < done.rows.length; i += 1000) {
    await trx
      .insertInto('data_import_rows')
      .values(done.rows.slice(i, i + 1000).map((r) => ({ import_id: id, ...r, fingerprint: r.fingerprint ?? null })))
      .execute();
  }
}

/** The imports of a kind, newest first. */
export async function listImportsOf(db: Kysely<OrgDb>, kind: DataImportKind): Promise<ImportRecord[]> {
  const rows = await db.selectFrom('data_imports').selectAll().where('kind', '=', kind).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(importRecordView);
}
