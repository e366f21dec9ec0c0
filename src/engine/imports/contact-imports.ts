/**
 * Contact imports: a CSV of customers and suppliers read
 * (contacts/read-contacts.ts), each row matched against the contacts in
 * the books and the other rows (contacts/identity.ts), shown as a merge
 * preview before anything is written. Upload → resolve (only while
 * identity conflicts exist: status processing) → confirm (pending) →
 * completed. Rows are conserved: created + merged + skipped + rejected =
 * rows. The operations are in contact-import-ops.ts.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { idOut } from '../output.js';
import type { Posting } from '../ledger/posting.js';
import { insertContact, newContactInput } from '../sales/contacts.js';
import { readContactFile, type ContactFile, type ContactRow } from './contacts/read-contacts.js';
import { resolveIdentities, validateResolutions, type IdentityPreview, type LedgerContact, type Remembered, type Resolution } from './contacts/identity.js';
import { ledgerNodeId, rowNodeId } from './contacts/identity-nodes.js';
import { mergedFields } from './contacts/merge.js';
import { completeImport, findImport, importRecordSchema, importRecordView, insertImport, optionsOf, refuseUnlessOpen, setOptions } from './import-records.js';
import type { ContactsTable, DataImportsTable, OrgDb } from '../../store/tables.js';

export interface ContactImportOptions {
  readonly resolutions: readonly Resolution[];
}

const resolutionSchema = z.union([
  z.strictObject({ link: z.tuple([z.string(), z.string()]) }),
  z.strictObject({ split: z.tuple([z.string(), z.string()]) }),
  z.strictObject({ skip: z.string() }),
]);
export const resolutionsField = z
  .array(resolutionSchema)
  .min(1)
  .max(10_000)
  .describe('each {link: [a, b]} (merge), {split: [a, b]} (keep apart) or {skip: id}, by node id');

export const contactImportSchema = z.strictObject({
  importId: idOut('dimp'),
  filename: z.string().nullable(),
  status: importRecordSchema.shape.status,
  canConfirm: z.boolean(),
  preview: z.strictObject({
    outcomes: z.array(z.strictObject({ type: z.enum(['CREATE', 'MERGE', 'CONFLICT']), nodeIds: z.array(z.string()), contactId: idOut('cont').nullable() })),
    evidence: z.array(z.strictObject({ type: z.string(), nodeIds: z.array(z.string()), confidence: z.number().int(), reason: z.string() })),
    stats: z.strictObject({
      creates: z.number().int(),
      merges: z.number().int(),
      conflicts: z.number().int(),
      skips: z.number().int(),
      totalRows: z.number().int(),
      validContacts: z.number().int(),
    }),
    nodes: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        email: z.string().nullable(),
        vatNumber: z.string().nullable(),
        contactId: idOut('cont').nullable(),
        isLedger: z.boolean(),
        hardKeys: z.array(z.string()),
        types: z.array(z.string()),
      }),
    ),
  }),
  schema: z.strictObject({
    columnMapping: z.record(z.string(), z.string()),
    parsedRows: z.array(z.strictObject({ rowIndex: z.number().int(), name: z.string(), email: z.string().nullable(), hardKeys: z.array(z.string()) })),
  }),
  decisions: z.array(
    z.strictObject({
      rowIndex: z.number().int(),
      action: z.enum(['create', 'merge', 'skip', 'conflict']),
      contactId: idOut('cont').nullable(),
      groupLeader: z.number().int().nullable(),
      useEmail: z.boolean().describe('false: another contact has the e-mail address, so it is left off'),
      reason: z.string(),
    }),
  ),
  rejected: z.array(z.strictObject({ rowIndex: z.number().int(), line: z.number().int(), reason: z.string(), field: z.string() })),
  import: importRecordSchema,
});
export type ContactImportView = z.output<typeof contactImportSchema>;

async function ledgerContacts(db: Kysely<OrgDb>): Promise<LedgerContact[]> {
  const rows = await db
    .selectFrom('contacts')
    .select(['id', 'name', 'email', 'phone', 'postal_code', 'vat_number', 'company_number', 'contact_type', 'created_at'])
    .where('is_active', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    postalCode: c.postal_code,
    vatNumber: c.vat_number,
    companyNumber: c.company_number,
    contactType: c.contact_type,
    createdAt: c.created_at,
  }));
}

interface Worked {
  readonly file: ContactFile;
  readonly identity: IdentityPreview;
}

/** A row's identity fields, hashed: the same row in a later file has the same fingerprint. */
function fingerprintOf(r: ContactRow): string {
  const fields = [r.name, r.company, r.email, r.phone, r.postalCode, r.vatNumber, r.companyNumber].map((v) => (v ?? '').trim().toLowerCase());
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 32);
}

/** The rows of a file that earlier completed contact imports took, each with the contact (still active) it went to, the latest import winning. */
async function rememberedRows(db: Kysely<OrgDb>, importId: string, rows: readonly ContactRow[], active: ReadonlySet<string>): Promise<Remembered[]> {
  const byPrint = new Map<string, number[]>();
  for (const r of rows) {
    const print = fingerprintOf(r);
    byPrint.set(print, [...(byPrint.get(print) ?? []), r.rowIndex]);
  }
  const went = new Map<string, string>();
  const prints = [...byPrint.keys()];
  for (let i = 0; i < prints.length; i += 500) {
    const found = await db
      .selectFrom('data_import_rows as r')
      .innerJoin('data_imports as i', 'i.id', 'r.import_id')
      .select(['r.fingerprint', 'r.record_id'])
      .where('i.kind', '=', 'contacts')
      .where('i.status', '=', 'completed')
      .where('i.id', '!=', importId)
      .where('r.fingerprint', 'in', prints.slice(i, i + 500))
      .where('r.record_id', 'is not', null)
      .orderBy('i.completed_at')
      .orderBy('i.id')
      .execute();
    for (const f of found) if (f.fingerprint !== null && f.record_id !== null && active.has(f.record_id)) went.set(f.fingerprint, f.record_id);
  }
  return [...went].flatMap(([print, contactId]) => (byPrint.get(print) ?? []).map((rowIndex): Remembered => [rowNodeId(rowIndex), ledgerNodeId(contactId)]));
}

async function work(db: Kysely<OrgDb>, row: Pick<DataImportsTable, 'id' | 'file_text' | 'options_json'>): Promise<Worked> {
  const file = readContactFile(row.file_text);
  const ledger = await ledgerContacts(db);
  const remembered = await rememberedRows(db, row.id, file.rows, new Set(ledger.map((c) => c.id)));
  const identity = resolveIdentities(file.rows, ledger, optionsOf<ContactImportOptions>(row).resolutions, file.totalRows, remembered);
  return { file, identity };
}

export async function contactImportView(db: Kysely<OrgDb>, row: DataImportsTable): Promise<ContactImportView> {
  const { file, identity } = await work(db, row);
  const byRow = new Map(identity.nodes.filter((n) => !n.isLedger).map((n) => [n.id, n]));
  return {
    importId: row.id,
    filename: row.filename,
    status: row.status,
    canConfirm: row.status === 'pending' && identity.stats.conflicts === 0,
    preview: {
      outcomes: identity.outcomes.map((o) => ({ type: o.type, nodeIds: [...o.nodeIds], contactId: o.contactId })),
      evidence: identity.evidence.map((e) => ({ type: e.type, nodeIds: [...e.nodeIds], confidence: e.confidence, reason: e.reason })),
      stats: identity.stats,
      nodes: identity.nodes.map((n) => ({ ...n, hardKeys: [...n.hardKeys], types: [...n.types] })),
    },
    schema: {
      columnMapping: Object.fromEntries(Object.entries(file.columnMapping).filter((e): e is [string, string] => typeof e[1] === 'string')),
      parsedRows: file.rows.map((r) => ({
        rowIndex: r.rowIndex,
        name: r.name,
        email: r.email,
        hardKeys: [...(byRow.get(`row_${r.rowIndex}`)?.hardKeys ?? [])],
      })),
    },
    decisions: identity.decisions.map((d) => ({ ...d })),
    rejected: file.rejected.map((r) => ({ ...r })),
    import: importRecordView(row),
  };
}

const statusOf = (identity: IdentityPreview) => (identity.stats.conflicts > 0 ? ('processing' as const) : ('pending' as const));

/** Read a contact CSV into an import: processing while identity conflicts wait to be resolved, else pending. */
export async function uploadContacts(
  trx: Kysely<OrgDb>,
  posting: Posting,
  input: { readonly file: string; readonly filename?: string | undefined },
): Promise<DataImportsTable> {
  const file = readContactFile(input.file);
  const options: ContactImportOptions = { resolutions: [] };
  const { identity } = await work(trx, { id: '', file_text: input.file, options_json: JSON.stringify(options) });
  return insertImport(trx, posting, {
    kind: 'contacts',
    filename: input.filename,
    status: statusOf(identity),
    fileText: input.file,
    options,
    totalRows: file.totalRows,
    errorCount: file.rejected.length,
  });
}

/** Add decisions to an import in processing and work its graph out again; 409 unless processing. */
export async function resolveContacts(trx: Kysely<OrgDb>, id: string, resolutions: readonly Resolution[]): Promise<DataImportsTable> {
  const row = await findImport(trx, 'contacts', id);
  if (row.status !== 'processing')
    throw new AppError('conflict', `contact import ${id} is ${row.status}: only an import with conflicts (processing) takes resolutions`);
  const before = await work(trx, row);
  validateResolutions(resolutions, new Set(before.identity.nodes.map((n) => n.id)));
  const options: ContactImportOptions = { resolutions: [...optionsOf<ContactImportOptions>(row).resolutions, ...resolutions] };
  await setOptions(trx, id, options);
  const next = { ...row, options_json: JSON.stringify(options) };
  const status = statusOf((await work(trx, next)).identity);
  await trx.updateTable('data_imports').set({ status }).where('id', '=', id).execute();
  return { ...next, status };
}

export interface ConfirmedContacts {
  readonly importId: string;
  readonly created: number;
  readonly merged: number;
  readonly skipped: number;
  readonly rejected: number;
  readonly total: number;
}

type Outcome = {
  row_index: number;
  outcome: 'created' | 'merged' | 'skipped' | 'rejected';
  record_id: string | null;
  reason: string | null;
  fingerprint: string | null;
};

/** Write the preview: new contacts, blank fields of existing ones filled; 409 unless pending, 422 while a conflict remains. */
export async function confirmContacts(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<ConfirmedContacts> {
  const row = await findImport(trx, 'contacts', id);
  if (row.status !== 'pending') {
    refuseUnlessOpen(row, 'confirmed');
    throw new AppError('conflict', `contact import ${id} has identity conflicts to resolve first (POST /contact-imports/${id}/resolve)`);
  }
  const { file, identity } = await work(trx, row);
  if (identity.stats.conflicts > 0) {
    throw new AppError('unresolved_conflicts', `contact import ${id} has ${identity.stats.conflicts} row(s) in identity conflicts: resolve them first`);
  }
  const rows = new Map(file.rows.map((r) => [r.rowIndex, r]));
  const printOf = (rowIndex: number): string => fingerprintOf(rows.get(rowIndex) as ContactRow);
  const made = new Map<number, string>();
  const outcomes: Outcome[] = [];
  let created = 0;
  let merged = 0;
  let skipped = 0;
  // Creates first, so that the rows merging into a contact this file creates find it.
  for (const d of identity.decisions) {
    if (d.action !== 'create') continue;
    const contact = await createFrom(trx, posting, withEmail(rows.get(d.rowIndex) as ContactRow, d.useEmail));
    made.set(d.rowIndex, contact.row.id);
    outcomes.push({ row_index: d.rowIndex, outcome: 'created', record_id: contact.row.id, reason: contact.note ?? d.reason, fingerprint: printOf(d.rowIndex) });
    created++;
  }
  for (const d of identity.decisions) {
    if (d.action === 'skip') {
      outcomes.push({ row_index: d.rowIndex, outcome: 'skipped', record_id: null, reason: d.reason, fingerprint: null });
      skipped++;
    } else if (d.action === 'merge') {
      const into = d.contactId ?? (d.groupLeader === null ? undefined : made.get(d.groupLeader));
      if (!into) throw new Error(`contact import ${id}: row ${d.rowIndex} merges into nothing`);
      await mergeInto(trx, posting, into, withEmail(rows.get(d.rowIndex) as ContactRow, d.useEmail));
      outcomes.push({ row_index: d.rowIndex, outcome: 'merged', record_id: into, reason: d.reason, fingerprint: printOf(d.rowIndex) });
      merged++;
    }
  }
  for (const r of file.rejected) outcomes.push({ row_index: r.rowIndex, outcome: 'rejected', record_id: null, reason: r.reason, fingerprint: null });
  const result: ConfirmedContacts = { importId: id, created, merged, skipped, rejected: file.rejected.length, total: file.totalRows };
  if (created + merged + skipped + file.rejected.length !== file.totalRows) {
    throw new Error(`contact import ${id}: ${created} + ${merged} + ${skipped} + ${file.rejected.length} rows accounted for, of ${file.totalRows}`);
  }
  await completeImport(trx, posting, id, { created, merged, skipped, errors: file.rejected.length, result, rows: outcomes });
  return result;
}

/** The contact a row creates; an e-mail address another contact already has is left off (one contact per address), and said so. */
async function createFrom(trx: Kysely<OrgDb>, posting: Posting, r: ContactRow): Promise<{ row: ContactsTable; note?: string }> {
  const taken = r.email ? await trx.selectFrom('contacts').select(['id', 'name']).where('email_key', '=', r.email.toLowerCase()).executeTakeFirst() : undefined;
  const row = await insertContact(
    trx,
    posting.clock,
    newContactInput({
      contactType: r.contactType ?? 'customer',
      name: r.name.slice(0, 200),
      company: r.company,
      email: taken ? null : r.email,
      phone: r.phone,
      addressLine1: r.addressLine1,
      addressLine2: r.addressLine2,
      city: r.city,
      region: r.region,
      postalCode: r.postalCode,
      country: r.country ?? 'United Kingdom',
      vatNumber: r.vatNumber,
      companyNumber: r.companyNumber,
      paymentTerms: r.paymentTerms,
    }),
  );
  return taken ? { row, note: `created without e-mail ${r.email}, which contact ${taken.id} (${taken.name}) has` } : { row };
}

const withEmail = (r: ContactRow, useEmail: boolean): ContactRow => (useEmail ? r : { ...r, email: null });

/** Fill the blank fields of a contact from a row (never overwriting), widening its type. */
async function mergeInto(trx: Kysely<OrgDb>, posting: Posting, contactId: string, r: ContactRow): Promise<void> {
  const c = await trx.selectFrom('contacts').selectAll().where('id', '=', contactId).executeTakeFirstOrThrow();
  const set = mergedFields(
    {
      company: c.company,
      email: c.email,
      phone: c.phone,
      addressLine1: c.address_line1,
      addressLine2: c.address_line2,
      city: c.city,
      region: c.region,
      postalCode: c.postal_code,
      country: c.country,
      vatNumber: c.vat_number,
      companyNumber: c.company_number,
      paymentTerms: c.payment_terms,
      contactType: c.contact_type,
    },
    r,
  );
  const changes: Partial<ContactsTable> = {
    company: set.company,
    phone: set.phone,
    address_line1: set.addressLine1,
    address_line2: set.addressLine2,
    city: set.city,
    region: set.region,
    postal_code: set.postalCode,
    country: set.country,
    vat_number: set.vatNumber,
    company_number: set.companyNumber,
    payment_terms: set.paymentTerms,
    contact_type: set.contactType,
  };
  if (set.email !== undefined) {
    const taken = await trx
      .selectFrom('contacts')
      .select('id')
      .where('email_key', '=', set.email.toLowerCase())
      .where('id', '!=', contactId)
      .executeTakeFirst();
    if (!taken) Object.assign(changes, { email: set.email, email_key: set.email.toLowerCase() });
  }
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(defined).length === 0) return;
  await trx
    .updateTable('contacts')
    .set({ ...defined, updated_at: timestamp(posting.clock) })
    .where('id', '=', contactId)
    .execute();
}
