/**
 * Imports of the invoices (receivables) and bills (payables) outstanding
 * at the cutover: a CSV read by documents/read-documents.ts, each row's
 * contact matched by documents/match-contacts.ts, then confirmed as
 * migrated documents (sales/migrated-documents.ts) that clear the opening
 * balance's clearing account: 1198 or 2198 must net to zero, or nothing is
 * kept. They need an active opening balance in clearing mode and refuse
 * the cash VAT basis (their VAT would be due on receipt, which the software
 * they came from has not said). The operations are in document-import-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { day, idOut } from '../output.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { Posting } from '../ledger/posting.js';
import { purchaseBill, salesInvoice, accountByCode, type Kind } from '../sales/documents.js';
import { insertContact, newContactInput } from '../sales/contacts.js';
import { clearingCode, createMigratedDocument, removeMigratedDocument } from '../sales/migrated-documents.js';
import { readDocuments, type Direction, type DocumentFile, type DocumentRow } from './documents/read-documents.js';
import { createKey, matchContacts, type ContactMatch } from './documents/match-contacts.js';
import { activeOpeningBalance, type BalanceOptions } from './opening-balances.js';
import {
  completeImport,
  engineVersion,
  findImport,
  importRecordSchema,
  importRecordView,
  insertImport,
  nouns,
  optionsOf,
  pounds,
  poundsText,
  refuseUnlessOpen,
  refuseVoidUnlessCompleted,
} from './import-records.js';
import type { DataImportKind, DataImportsTable, OrgDb } from '../../store/tables.js';

export const directions = ['receivables', 'payables'] as const;

export interface DocumentImportOptions {
  readonly direction: Direction;
  /** Where the documents came from, for their notes: "Xero", or the file's name. */
  readonly source: string;
}

const kindOf = (direction: Direction): DataImportKind => (direction === 'receivables' ? 'invoices' : 'bills');
const documentKind = (direction: Direction): Kind => (direction === 'receivables' ? salesInvoice : purchaseBill);
const pathOf = (direction: Direction) => (direction === 'receivables' ? 'invoice-imports' : 'bill-imports');

const issueSchema = z.strictObject({ rowIndex: z.number().int(), line: z.number().int(), reason: z.string(), field: z.string() });

export const documentPreviewSchema = z.strictObject({
  importId: idOut('dimp'),
  filename: z.string().nullable(),
  status: importRecordSchema.shape.status,
  direction: z.enum(directions),
  cutoverDate: day().nullable(),
  canConfirm: z.boolean(),
  blockers: z.array(z.string()),
  clearingProof: z.strictObject({
    account: z.string().describe('1198 or 2198'),
    openingBalance: poundsText().describe('the clearing account, debit − credit: now while pending; as it stood at confirm once confirmed'),
    importDelta: poundsText().describe('what confirming moves off it'),
    netBalance: poundsText(),
    cleared: z.boolean(),
  }),
  stats: z.strictObject({
    totalRows: z.number().int(),
    validRows: z.number().int(),
    errorRows: z.number().int(),
    ignoredRows: z.number().int(),
    totalGross: poundsText(),
    totalPaid: poundsText(),
    totalOutstanding: poundsText(),
  }),
  rows: z.array(
    z.strictObject({
      rowIndex: z.number().int(),
      line: z.number().int(),
      contactName: z.string(),
      docNumber: z.string(),
      reference: z.string().nullable(),
      docDate: day(),
      dueDate: day(),
      gross: poundsText(),
      paid: poundsText(),
      outstanding: poundsText(),
      vat: poundsText().nullable().describe('the VAT inside the gross, from the file; null when it gives none'),
      status: z
        .enum(['ready', 'duplicate', 'after_cutover', 'created', 'voided'])
        .describe('ready, duplicate or after_cutover while pending; created once confirmed, voided once the import is voided'),
      error: z.string().nullable(),
      contact: z.strictObject({
        contactId: idOut('cont').nullable(),
        contactName: z.string(),
        outcome: z.enum(['match', 'fuzzy', 'create']),
        confidence: z.number().int(),
        reason: z.string(),
      }),
    }),
  ),
  warnings: z.array(z.string()),
  errors: z.array(issueSchema),
  ignored: z.array(issueSchema),
  import: importRecordSchema,
});
export type DocumentPreview = z.output<typeof documentPreviewSchema>;

interface WorkedRow {
  readonly row: DocumentRow;
  readonly match: ContactMatch;
  readonly status: 'ready' | 'duplicate' | 'after_cutover';
  readonly error: string | null;
}

interface Worked {
  readonly file: DocumentFile;
  readonly rows: readonly WorkedRow[];
  readonly cutoverDate: string | null;
  readonly clearing: { readonly openingBalance: number; readonly importDelta: number };
  readonly blockers: readonly string[];
  readonly warnings: readonly string[];
}

/** 422 unless the books can take migrated documents: an active opening balance in clearing mode, and not the cash VAT basis. */
async function preconditions(db: Kysely<OrgDb>, direction: Direction): Promise<BalanceOptions> {
  const organisation = await loadOrganisation(db);
  if (organisation.vat_accounting_basis === 'cash' && organisation.vat_scheme !== 'not_registered') {
    throw new AppError(
      'CASH_VAT_UNSUPPORTED',
      `the organisation accounts for VAT on the cash basis: outstanding ${direction === 'receivables' ? 'invoices' : 'bills'} cannot be migrated, because their VAT falls due when they are paid and the software they came from has not said how much of it is accounted for`,
    );
  }
  const active = await activeOpeningBalance(db);
  if (!active) {
    throw new AppError(
      'unprocessable_entity',
      'import the opening balances in clearing mode first (POST /opening-balances/upload with clearingMode clearing, then confirm)',
    );
  }
  const options = optionsOf<BalanceOptions>(active);
  if (options.mode !== 'clearing') {
    throw new AppError(
      'unprocessable_entity',
      `opening balance ${active.id} is in direct mode: outstanding documents clear against 1198 and 2198, so void it and import it again with clearingMode clearing`,
    );
  }
  return options;
}

async function clearingBalance(db: Kysely<OrgDb>, k: Kind): Promise<number> {
  const account = await accountByCode(db, clearingCode(k));
  const sum = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.sum<number>('amount').as('net'))
    .where('account_id', '=', account.id)
    .where('posted', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(sum.net ?? 0);
}

async function work(db: Kysely<OrgDb>, row: DataImportsTable): Promise<Worked> {
  const { direction } = optionsOf<DocumentImportOptions>(row);
  const k = documentKind(direction);
  const file = readDocuments(row.file_text, direction);
  const active = await activeOpeningBalance(db);
  const cutoverDate = active ? optionsOf<BalanceOptions>(active).cutoverDate : null;
  const candidates = await db.selectFrom('contacts').select(['id', 'name']).where('is_active', '=', 1).orderBy('created_at').orderBy('id').execute();
  const matches = matchContacts(
    file.rows.map((r) => r.contactName),
    candidates,
  );
  const numbers = [...new Set(file.rows.map((r) => r.docNumber))];
  const existing = new Set<string>();
  for (let i = 0; i < numbers.length; i += 500) {
    let q = db
      .selectFrom('invoices')
      .select(['number', 'contact_id'])
      .where('kind', '=', k.kind)
      .where('number', 'in', numbers.slice(i, i + 500));
    // A void invoice keeps its number (the books' numbering is unique); a void bill's reference is free again.
    if (k.kind === 'purchase') q = q.where('status', '!=', 'void');
    const taken = await q.execute();
    // An invoice number is unique in the books; a bill's only with its supplier.
    for (const t of taken) existing.add(k.kind === 'sales' ? (t.number ?? '') : `${t.number ?? ''}\u0000${t.contact_id}`);
  }
  const rows: WorkedRow[] = file.rows.map((r) => {
    const match = matches.get(r.contactName) ?? {
      contactId: null,
      contactName: r.contactName,
      outcome: 'create' as const,
      confidence: 0,
      reason: 'no contact',
    };
    const key = k.kind === 'sales' ? r.docNumber : `${r.docNumber}\u0000${match.contactId ?? ''}`;
    if (existing.has(key)) return { row: r, match, status: 'duplicate', error: `${k.noun} ${r.docNumber} is already in these books` };
    if (cutoverDate && r.docDate > cutoverDate) {
      return { row: r, match, status: 'after_cutover', error: `dated ${r.docDate}, after the cutover ${cutoverDate}: enter it as a new ${k.noun}` };
    }
    return { row: r, match, status: 'ready', error: null };
  });
  const openingBalance = await clearingBalance(db, k);
  // Receivables take the outstanding off 1198's debit; payables off 2198's credit.
  const importDelta = k.lineSign * file.stats.totalOutstanding;
  const blockers: string[] = [];
  try {
    await preconditions(db, direction);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    blockers.push(e.message);
  }
  if (file.errors.length > 0) blockers.push(`${file.errors.length} row(s) cannot be read (see errors): correct the file and upload it again`);
  const duplicates = rows.filter((r) => r.status === 'duplicate').length;
  if (duplicates > 0) blockers.push(`${duplicates} document(s) are already in these books`);
  const late = rows.filter((r) => r.status === 'after_cutover').length;
  if (late > 0) blockers.push(`${late} document(s) are dated after the cutover`);
  if (file.rows.length === 0) blockers.push('the file has no outstanding documents');
  if (openingBalance + importDelta !== 0) {
    blockers.push(
      `${clearingCode(k)} would not clear: it stands at ${pounds(openingBalance)} and the documents move ${pounds(importDelta)}, leaving ${pounds(openingBalance + importDelta)} (the trial balance's ${direction === 'receivables' ? 'Trade Debtors' : 'Trade Creditors'} must equal the documents' outstanding total)`,
    );
  }
  const fuzzy = rows.filter((r) => r.match.outcome === 'fuzzy').length;
  // The file's own warnings (how its dates and amounts were read) first, then the matches to check.
  const warnings = [...file.warnings, ...(fuzzy > 0 ? [`${fuzzy} row(s) matched a contact by a similar name: check them before confirming`] : [])];
  return { file, rows, cutoverDate, clearing: { openingBalance, importDelta }, blockers, warnings };
}

export async function documentPreview(db: Kysely<OrgDb>, row: DataImportsTable): Promise<DocumentPreview> {
  const { direction } = optionsOf<DocumentImportOptions>(row);
  const worked = await work(db, row);
  const blockers = row.status === 'pending' ? [...worked.blockers] : [`the import is ${row.status}`];
  const { file } = worked;
  // A confirmed import is shown as it was confirmed, not previewed against books that hold its documents (every row a
  // duplicate): confirm is refused unless the clearing account nets to zero, so it then stood at what the documents moved, the other way.
  const confirmed = row.status === 'completed' || row.status === 'voided';
  const clearing = confirmed ? { openingBalance: -worked.clearing.importDelta || 0, importDelta: worked.clearing.importDelta } : worked.clearing;
  return {
    importId: row.id,
    filename: row.filename,
    status: row.status,
    direction,
    cutoverDate: worked.cutoverDate,
    canConfirm: blockers.length === 0,
    blockers,
    clearingProof: {
      account: clearingCode(documentKind(direction)),
      openingBalance: pounds(clearing.openingBalance),
      importDelta: pounds(clearing.importDelta),
      netBalance: pounds(clearing.openingBalance + clearing.importDelta),
      cleared: clearing.openingBalance + clearing.importDelta === 0,
    },
    stats: {
      totalRows: file.stats.totalRows,
      validRows: file.stats.validRows,
      errorRows: file.stats.errorRows,
      ignoredRows: file.stats.ignoredRows,
      totalGross: pounds(file.stats.totalGross),
      totalPaid: pounds(file.stats.totalPaid),
      totalOutstanding: pounds(file.stats.totalOutstanding),
    },
    rows: worked.rows.map(({ row: r, match, status, error }) => ({
      rowIndex: r.rowIndex,
      line: r.line,
      contactName: r.contactName,
      docNumber: r.docNumber,
      reference: r.reference,
      docDate: r.docDate,
      dueDate: r.dueDate,
      gross: pounds(r.gross),
      paid: pounds(r.paid),
      outstanding: pounds(r.outstanding),
      vat: r.vat === null ? null : pounds(r.vat),
      status: confirmed ? (row.status === 'completed' ? 'created' : 'voided') : status,
      error: confirmed ? null : error,
      contact: { contactId: match.contactId, contactName: match.contactName, outcome: match.outcome, confidence: match.confidence, reason: match.reason },
    })),
    warnings: [...worked.warnings],
    errors: [...file.errors],
    ignored: [...file.ignored],
    import: importRecordView(row),
  };
}

export interface DocumentUpload {
  readonly file: string;
  readonly filename?: string | undefined;
  readonly source?: string | undefined;
}

/** Read a CSV of outstanding documents into a pending import; 422 without an opening balance in clearing mode or on the cash basis, 409 while another is active. */
export async function uploadDocuments(trx: Kysely<OrgDb>, posting: Posting, direction: Direction, input: DocumentUpload): Promise<DataImportsTable> {
  await preconditions(trx, direction);
  await refuseSecond(trx, direction);
  const file = readDocuments(input.file, direction);
  const options: DocumentImportOptions = { direction, source: input.source ?? input.filename ?? 'the import' };
  return insertImport(trx, posting, {
    kind: kindOf(direction),
    filename: input.filename,
    status: 'pending',
    fileText: input.file,
    options,
    totalRows: file.stats.totalRows,
    errorCount: file.stats.errorRows,
  });
}

async function refuseSecond(db: Kysely<OrgDb>, direction: Direction): Promise<void> {
  const kind = kindOf(direction);
  const active = await db.selectFrom('data_imports').select('id').where('kind', '=', kind).where('status', '=', 'completed').executeTakeFirst();
  if (active) {
    throw new AppError(
      'SINGLETON_VIOLATION',
      `${nouns[kind]} ${active.id} is already active: void it (POST /${pathOf(direction)}/${active.id}/void) before importing again`,
    );
  }
}

export interface ConfirmedDocuments {
  readonly importId: string;
  readonly direction: Direction;
  readonly documentsCreated: number;
  readonly syntheticPaymentsCreated: number;
  readonly contactsCreated: number;
  readonly clearingBalance: string;
  readonly engineVersion: string;
}

/**
 * Create the migrated documents, the contacts they need and their
 * synthetic payments; the clearing account must then stand at zero, or
 * the whole confirm is refused (422) and nothing is kept.
 */
export async function confirmDocuments(
  trx: Kysely<OrgDb>,
  posting: Posting,
  direction: Direction,
  id: string,
  progress?: (done: number, total: number) => void,
): Promise<ConfirmedDocuments> {
  const row = await findImport(trx, kindOf(direction), id);
  refuseUnlessOpen(row, 'confirmed');
  const balance = await preconditions(trx, direction);
  await refuseSecond(trx, direction);
  const worked = await work(trx, row);
  if (worked.blockers.length > 0) throw new AppError('unprocessable_entity', `${nouns[row.kind]} ${id} cannot be confirmed: ${worked.blockers.join('; ')}`);
  const k = documentKind(direction);
  const { source } = optionsOf<DocumentImportOptions>(row);
  const created = new Map<string, string>();
  let contactsCreated = 0;
  let payments = 0;
  const outcomes: { row_index: number; outcome: 'created' | 'skipped'; record_id: string | null; reason: string | null }[] = [];
  for (const [i, { row: r, match }] of worked.rows.entries()) {
    const contactId = match.contactId ?? (await contactFor(trx, posting, k, r.contactName, created, () => contactsCreated++));
    if (match.contactId) await widenType(trx, k, match.contactId);
    const migrated = await createMigratedDocument(trx, k, posting, {
      contactId,
      contactName: match.contactId ? match.contactName : r.contactName,
      number: r.docNumber,
      reference: r.reference,
      issueDate: r.docDate,
      dueDate: r.dueDate,
      gross: r.gross,
      vat: r.vat ?? 0,
      paid: r.paid,
      cutoverDate: balance.cutoverDate,
      source,
    });
    if (migrated.payment) payments++;
    outcomes.push({ row_index: r.rowIndex, outcome: 'created', record_id: migrated.row.id, reason: null });
    progress?.(i + 1, worked.rows.length);
  }
  for (const skipped of worked.file.ignored) outcomes.push({ row_index: skipped.rowIndex, outcome: 'skipped', record_id: null, reason: skipped.reason });
  const left = await clearingBalance(trx, k);
  if (left !== 0) {
    throw new AppError('unprocessable_entity', `${clearingCode(k)} would stand at ${pounds(left)} after the import, not 0.00: nothing was imported`);
  }
  const result: ConfirmedDocuments = {
    importId: id,
    direction,
    documentsCreated: worked.rows.length,
    syntheticPaymentsCreated: payments,
    contactsCreated,
    clearingBalance: pounds(left),
    engineVersion,
  };
  await completeImport(trx, posting, id, {
    created: worked.rows.length,
    merged: 0,
    skipped: worked.file.ignored.length,
    errors: 0,
    result,
    rows: outcomes,
  });
  return result;
}

/** One new contact per name the file spells alike (normalised), of the kind's type. */
async function contactFor(trx: Kysely<OrgDb>, posting: Posting, k: Kind, name: string, created: Map<string, string>, count: () => void): Promise<string> {
  const key = createKey(name);
  const known = created.get(key);
  if (known) return known;
  const contact = await insertContact(
    trx,
    posting.clock,
    newContactInput({ contactType: k.kind === 'sales' ? 'customer' : 'supplier', name: name.slice(0, 200) }),
  );
  created.set(key, contact.id);
  count();
  return contact.id;
}

/** A customer who sent bills too (or a supplier invoiced) becomes both. */
async function widenType(trx: Kysely<OrgDb>, k: Kind, contactId: string): Promise<void> {
  await trx
    .updateTable('contacts')
    .set({ contact_type: 'both' })
    .where('id', '=', contactId)
    .where('contact_type', '=', k.kind === 'sales' ? 'supplier' : 'customer')
    .execute();
}

export interface VoidedDocuments {
  readonly voided: true;
  readonly importId: string;
  readonly documentsVoided: number;
  readonly message: string;
}

/** Void every document a completed import made (refused while any has been paid or credited since); contacts it made stay. */
export async function voidDocuments(trx: Kysely<OrgDb>, posting: Posting, direction: Direction, id: string): Promise<VoidedDocuments> {
  const row = await findImport(trx, kindOf(direction), id);
  refuseVoidUnlessCompleted(row);
  const k = documentKind(direction);
  const made = await trx
    .selectFrom('data_import_rows')
    .select('record_id')
    .where('import_id', '=', id)
    .where('outcome', '=', 'created')
    .orderBy('row_index')
    .execute();
  for (const m of made) if (m.record_id) await removeMigratedDocument(trx, k, m.record_id);
  await trx
    .updateTable('data_imports')
    .set({ status: 'voided', voided_at: timestamp(posting.clock) })
    .where('id', '=', id)
    .execute();
  return {
    voided: true,
    importId: id,
    documentsVoided: made.length,
    message: `the ${made.length} migrated ${k.noun}(s) left the books and ${clearingCode(k)} holds the opening balance again; the file may be imported again`,
  };
}
