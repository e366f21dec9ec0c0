/**
 * Bank statement imports: a statement read (statements/) into a pending
 * import whose rows are valid, duplicates of rows an earlier completed
 * import into the same ledger account created (same date, description and
 * amount, matched as many times as they occurred there: identical rows
 * inside one file are kept), or rejected with their reason. It can be
 * remapped or deleted while pending; confirming posts one transaction a
 * row chosen, sourceType bank_import: the bank line, and the other side on
 * the account a rule (or the caller) gives it, else suspense (9999); or,
 * for a row matched (bank-matches.ts), the payment of the invoice or bill
 * it pays, or nothing new when an entry already holds its money.
 * Confirm refuses a statement whose balances do not reconcile (422
 * balance_mismatch) and duplicates nobody decided about (422
 * unresolved_conflicts). Rows in the file = created + matched + skipped +
 * rejected.
 * A completed import may be undone (bank-import-undo.ts).
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { newId } from '../ids.js';
import { found } from '../lookup.js';
import { maxLineAmount, sterling } from '../money.js';
import { day, idOut, instant } from '../output.js';
import { pence } from '../schema.js';
import {
  insertPrepared,
  loadBooks,
  maxDescriptionLength,
  maxReferenceLength,
  prepare,
  suspenseAccountId,
  type Posting,
  type TransactionInput,
} from '../ledger/posting.js';
import { addDays } from '../dates.js';
import { accountBalance } from '../ledger/accounts.js';
import { bankLineRefusal } from '../ledger/bank-line-account.js';
import { findBankAccount, primaryBankAccount } from './bank-accounts.js';
import { categoriser, type Categoriser } from './rules-store.js';
import {
  readStatement,
  type RejectedRow,
  type SchemaCorrection,
  type StatementReading,
  type StatementRow,
  type StatementSchema,
} from './statements/read-statement.js';
import { amountModels, columnRoles } from './statements/types.js';
import { noBalanceProof } from './statements/balance-proof.js';
import { matchedTo, matchedToSchema, matchSchema, paidSchema, paymentsOfEntries, settleLine, suggestMatches, targetOf, type BankLine } from './bank-matches.js';
import type { BankImportRowsTable, BankImportsTable, OrgDb } from '../../store/tables.js';
import { fold } from '../../store/fold.js';

type ImportRow = Selectable<BankImportsTable>;
type RowRow = Selectable<BankImportRowsTable>;

/** How many rows an upload or remap previews. */
export const previewRows = 20;

export const schemaSchema = z.strictObject({
  format: z.enum(['CSV', 'OFX']),
  detectedPreset: z.string().nullable(),
  fingerprint: z.string(),
  provenance: z.enum(['LOCAL', 'VERIFIED', 'USER_CORRECTED']),
  amountModel: z.enum(amountModels),
  dateFormat: z.string(),
  columnMapping: z.record(z.string(), z.enum(columnRoles)),
  hasHeader: z.boolean(),
  delimiter: z.string(),
});

export const balanceProofSchema = z.strictObject({
  basis: z.enum(['RUNNING_BALANCE', 'LEDGER_BALANCE', 'NONE']),
  openingBalance: pence().nullable(),
  closingBalance: pence().nullable(),
  delta: pence(),
  status: z.enum(['PASS', 'FAIL', 'NONE']),
  stepwisePass: z.boolean().nullable(),
  firstBreak: z.strictObject({ rowIndex: z.number().int(), expected: pence(), found: pence() }).nullable(),
});

export const openingCheckSchema = z
  .strictObject({
    date: day().describe('the day before the statement’s first day'),
    statementBalance: pence().describe('the balance the statement opens at: its first stated balance less the amounts up to it'),
    booksBalance: pence().describe('the bank account’s posted balance in the books at the end of that day'),
    difference: pence().describe(
      'statementBalance − booksBalance: money before this statement that the books do not hold (an opening balance or an earlier statement), when not 0',
    ),
  })
  .nullable()
  .describe('the statement’s opening balance against the books; null without a balance on the statement');

/** matched: confirmed onto an entry already in the books (kept as created with matched_kind transaction: the column's check predates it). */
const rowStatuses = ['valid', 'duplicate', 'error', 'created', 'matched', 'skipped'] as const;

const suggestedSchema = z
  .strictObject({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    provenance: z.enum(['local', 'verified', 'global']),
    ruleName: z.string(),
    confidence: z.number(),
  })
  .nullable();

export const importRowSchema = z.strictObject({
  id: z.number().int(),
  rowIndex: z.number().int().describe('the data row of the file, from 1'),
  date: day().nullable().describe('null on a rejected row whose date could not be read'),
  description: z.string().nullable().describe('null on a rejected row whose description could not be read'),
  reference: z.string().nullable(),
  bankTransactionId: z
    .string()
    .nullable()
    .describe(
      'the bank’s own id of the transaction (an OFX file’s FITID), or null: a row with one duplicates only an earlier row with the same id, day and amount',
    ),
  amount: pence().nullable().describe('money in positive, out negative; null on a rejected row whose amount could not be read'),
  balance: pence().nullable(),
  status: z.enum(rowStatuses),
  error: z.string().nullable().describe('why the row is rejected (status error); its date, description and amount are still shown where they were read'),
  duplicateMatch: z.strictObject({ importId: z.string(), rowIndex: z.number().int(), transactionId: z.string().nullable() }).nullable(),
  transactionId: z.string().nullable(),
  suggestedAccount: suggestedSchema,
  suggestedMatch: matchSchema.nullable().describe('while pending: the open invoice or bill the row seems to pay, or the entry already holding its money'),
  matchedTo: matchedToSchema
    .nullable()
    .describe('once confirmed: the invoice or bill the row paid (the first, when it paid several), or the entry it was matched to'),
  payments: z.array(paidSchema).describe('once confirmed: each invoice or bill the row paid, with its payment; empty otherwise'),
});
export type ImportRowView = z.output<typeof importRowSchema>;

export const importStatuses = ['pending', 'completed', 'undone'] as const;

/** An import's status as the API shows it: an undone import stays completed in its status column, marked by undone_at. */
export const importStatus = (row: Pick<ImportRow, 'status' | 'undone_at'>): (typeof importStatuses)[number] => (row.undone_at === null ? row.status : 'undone');

export const importSummarySchema = z.strictObject({
  id: idOut('bimp'),
  bankAccountId: z.number().int(),
  accountId: z.string().describe('the bank account’s ledger account'),
  bankName: z.string().nullable(),
  filename: z.string().nullable(),
  status: z.enum(importStatuses).describe('undone: completed, then its transactions removed (POST /bank-imports/{id}/undo); its rows stay'),
  totalRows: z.number().int().describe('data rows in the file: valid + duplicates + rejected'),
  validRows: z.number().int().describe('readable rows duplicating no earlier import’s row, as read from the file (confirming does not change it)'),
  duplicates: z.number().int().describe('readable rows duplicating a row an earlier import created, as read from the file'),
  errorRows: z.number().int().describe('rows that could not be read'),
  ignoredRows: z.number().int().describe('blank lines and lines above the header'),
  createdRows: z.number().int().describe('rows that made an entry: on an account, on suspense, or an invoice’s or bill’s payment'),
  matchedRows: z.number().int().describe('rows matched to an entry already in the books: nothing new posted'),
  skippedRows: z.number().int(),
  dateRange: z.strictObject({ from: day(), to: day() }).nullable(),
  createdAt: instant(),
  completedAt: instant().nullable(),
  undoneAt: instant().nullable(),
});

export const importDetailSchema = z.strictObject({
  ...importSummarySchema.shape,
  schema: schemaSchema,
  balanceProof: balanceProofSchema,
  openingCheck: openingCheckSchema,
  rows: z.array(importRowSchema),
});

export const previewSchema = z.strictObject({
  importId: idOut('bimp'),
  ...importSummarySchema.omit({ id: true }).shape,
  schema: schemaSchema,
  balanceProof: balanceProofSchema,
  openingCheck: openingCheckSchema,
  preview: z.array(importRowSchema).describe(`the first ${previewRows} rows`),
});

export async function findImport(db: Kysely<OrgDb>, id: string): Promise<ImportRow> {
  return found(db.selectFrom('bank_imports').selectAll().where('id', '=', id).executeTakeFirst(), 'bank import', id);
}

/** Rows match by day, description ignoring case (fold(), as both stores compare text) and amount; the reading has already made runs of spaces one. */
const key = (date: string | null, description: string | null, amount: number | null) =>
  `${date}\u0000${description === null ? null : fold(description)}\u0000${amount}`;
const idKey = (date: string | null, bankId: string, amount: number | null) => `${date}\u0000${bankId}\u0000${amount}`;

type Keyed = Pick<RowRow, 'date' | 'description' | 'amount' | 'bank_id'>;
type DateRange = { readonly from: string; readonly to: string } | null;

/** Earlier rows by day, description and amount, and by day, the bank's id and amount, each oldest first. */
type EarlierRows = { readonly byText: Map<string, RowRow[]>; readonly byBankId: Map<string, RowRow[]> };

const push = (map: Map<string, RowRow[]>, k: string, r: RowRow) => map.set(k, [...(map.get(k) ?? []), r]);

/**
 * Earlier rows of completed imports into this ledger account that became
 * transactions, oldest first: through any of its bank accounts, since an
 * archived bank account's lines stay on it.
 */
async function earlierRows(db: Kysely<OrgDb>, ledgerAccountId: string, range: DateRange): Promise<EarlierRows> {
  const out = { byText: new Map<string, RowRow[]>(), byBankId: new Map<string, RowRow[]>() };
  if (range === null) return out;
  const rows = await db
    .selectFrom('bank_import_rows')
    .innerJoin('bank_imports', 'bank_imports.id', 'bank_import_rows.import_id')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'bank_imports.bank_account_id')
    .selectAll('bank_import_rows')
    .where('bank_accounts.account_id', '=', ledgerAccountId)
    .where('bank_imports.status', '=', 'completed')
    .where('bank_imports.undone_at', 'is', null)
    .where('bank_import_rows.status', '=', 'created')
    .where('bank_import_rows.date', '>=', range.from)
    .where('bank_import_rows.date', '<=', range.to)
    .orderBy('bank_import_rows.id')
    .execute();
  for (const r of rows) {
    push(out.byText, key(r.date, r.description, r.amount), r);
    if (r.bank_id !== null) push(out.byBankId, idKey(r.date, r.bank_id, r.amount), r);
  }
  return out;
}

/**
 * For each row, in file order, the earlier row it duplicates, or undefined;
 * each earlier row is matched once. A row with the bank's id (FITID) is the
 * earlier row with the same id, day and amount, whatever either's
 * description (banks reword a line once it posts), and never a row with
 * another id: the bank says they are two transactions. Otherwise rows match
 * by day, description and amount.
 */
async function duplicateMatches(db: Kysely<OrgDb>, ledgerAccountId: string, range: DateRange, rows: readonly Keyed[]): Promise<(RowRow | undefined)[]> {
  const earlier =
    rows.length === 0 ? { byText: new Map<string, RowRow[]>(), byBankId: new Map<string, RowRow[]>() } : await earlierRows(db, ledgerAccountId, range);
  const used = new Set<number>();
  const take = (candidates: readonly RowRow[] | undefined, fits: (r: RowRow) => boolean) => {
    const match = candidates?.find((c) => !used.has(c.id) && fits(c));
    if (match) used.add(match.id);
    return match;
  };
  return rows.map((r) => {
    const bankId = r.bank_id;
    if (bankId !== null) {
      const same = take(earlier.byBankId.get(idKey(r.date, bankId, r.amount)), () => true);
      if (same) return same;
    }
    return take(earlier.byText.get(key(r.date, r.description, r.amount)), (c) => bankId === null || c.bank_id === null);
  });
}

type NewRow = Omit<RowRow, 'id'>;

const count = (n: number) => n.toLocaleString('en-GB');

/** Why a row read from the statement cannot become a transaction, or null: it is read, but posting would refuse it and the whole import with it. */
function unpostable(row: StatementRow): string | null {
  if (row.amount === 0) return 'a zero amount posts nothing';
  if (Math.abs(row.amount) > maxLineAmount) return `the amount is larger than ${sterling(maxLineAmount)}`;
  if (row.description.length > maxDescriptionLength)
    return `the description is ${count(row.description.length)} characters long; a transaction’s is at most ${maxDescriptionLength}`;
  if (row.reference !== null && row.reference.length > maxReferenceLength)
    return `the reference is ${count(row.reference.length)} characters long; a transaction’s is at most ${maxReferenceLength}`;
  return null;
}

/**
 * The rows of a reading, each valid, a duplicate of an earlier row (each
 * earlier row matched once) or an error: unreadable, or read but more than
 * a transaction can hold (the balance proof still counts it: the bank did).
 * A rejected row keeps what of it was read, so that people can find it.
 */
async function rowsOf(db: Kysely<OrgDb>, importId: string, ledgerAccountId: string, reading: StatementReading): Promise<NewRow[]> {
  const rejected: RejectedRow[] = [...reading.rejected];
  const postable = reading.rows.filter((r) => {
    const reason = unpostable(r);
    if (reason !== null)
      rejected.push({
        rowIndex: r.rowIndex,
        line: r.line,
        reason,
        read: { date: r.date, description: r.description, reference: r.reference, amount: r.amount, balance: r.balance },
      });
    return reason === null;
  });
  const matches = await duplicateMatches(
    db,
    ledgerAccountId,
    reading.dateRange,
    postable.map((r) => ({ date: r.date, description: r.description, amount: r.amount, bank_id: r.bankId })),
  );
  const rows: NewRow[] = postable.map((r, i) => {
    const match = matches[i];
    return {
      import_id: importId,
      row_index: r.rowIndex,
      date: r.date,
      description: r.description,
      reference: r.reference,
      bank_id: r.bankId,
      amount: r.amount,
      balance: r.balance,
      status: match ? 'duplicate' : 'valid',
      error: null,
      duplicate_of: match?.id ?? null,
      transaction_id: null,
      matched_kind: null,
      matched_id: null,
    };
  });
  for (const r of rejected) {
    rows.push({
      import_id: importId,
      row_index: r.rowIndex,
      date: r.read?.date ?? null,
      description: r.read?.description ?? null,
      reference: r.read?.reference ?? null,
      bank_id: null,
      amount: r.read?.amount ?? null,
      balance: r.read?.balance ?? null,
      status: 'error',
      error: `line ${r.line}: ${r.reason}`,
      duplicate_of: null,
      transaction_id: null,
      matched_kind: null,
      matched_id: null,
    });
  }
  return rows.sort((a, b) => a.row_index - b.row_index);
}

/**
 * Mark a pending import's readable rows again against the imports completed
 * since it was read, as an upload would mark them now: a statement
 * uploaded twice before either was confirmed is otherwise posted twice.
 */
async function markDuplicates(trx: Kysely<OrgDb>, row: ImportRow): Promise<void> {
  const rows = await trx
    .selectFrom('bank_import_rows')
    .selectAll()
    .where('import_id', '=', row.id)
    .where('status', 'in', ['valid', 'duplicate'])
    .orderBy('row_index')
    .execute();
  const range = row.date_from && row.date_to ? { from: row.date_from, to: row.date_to } : null;
  const matches = await duplicateMatches(trx, (await findBankAccount(trx, row.bank_account_id)).account_id, range, rows);
  for (const [i, r] of rows.entries()) {
    const of = matches[i]?.id ?? null;
    if (of === r.duplicate_of) continue;
    await trx
      .updateTable('bank_import_rows')
      .set({ status: of === null ? 'valid' : 'duplicate', duplicate_of: of })
      .where('id', '=', r.id)
      .execute();
  }
}

async function insertRows(trx: Kysely<OrgDb>, rows: readonly NewRow[]): Promise<void> {
  // SQLite allows 32,766 parameters a statement; a row has 14.
  for (let i = 0; i < rows.length; i += 2000)
    await trx
      .insertInto('bank_import_rows')
      .values(rows.slice(i, i + 2000))
      .execute();
}

export interface Upload extends SchemaCorrection {
  readonly file: string;
  readonly filename?: string | undefined;
  /** The primary bank account when left out. */
  readonly bankAccountId?: number | undefined;
}

/** Read a statement into a new pending import. */
export async function uploadStatement(trx: Kysely<OrgDb>, posting: Posting, upload: Upload): Promise<string> {
  const bank = upload.bankAccountId === undefined ? await primaryBankAccount(trx) : await findBankAccount(trx, upload.bankAccountId);
  if (!bank) throw new AppError('validation_error', 'bankAccountId: there is no primary bank account; name one', 'bankAccountId');
  if (bank.is_active !== 1) throw new AppError('validation_error', `bankAccountId: bank account ${bank.id} is archived`, 'bankAccountId');
  const { file, filename } = upload;
  const correction = { columnMapping: upload.columnMapping, amountModel: upload.amountModel, dateFormat: upload.dateFormat, hasHeader: upload.hasHeader };
  const reading = readStatement(file, { filename, schema: Object.fromEntries(Object.entries(correction).filter(([, v]) => v !== undefined)) });
  // A file with a header and nothing under it (an export of an empty range) would make an import of nothing, kept for ever.
  if (reading.totalRows === 0)
    throw new AppError('validation_error', `${filename ?? 'the file'} holds no transactions: only a header, or nothing to read`, 'file');
  const now = timestamp(posting.clock);
  const id = newId('bimp', posting.clock.now());
  await trx
    .insertInto('bank_imports')
    .values({
      id,
      bank_account_id: bank.id,
      filename: filename ?? null,
      status: 'pending',
      file_text: file,
      file_kind: reading.schema.format === 'OFX' ? 'ofx' : 'csv',
      schema_json: JSON.stringify(reading.schema),
      balance_proof_json: JSON.stringify(reading.balanceProof),
      total_rows: reading.totalRows,
      ignored_rows: reading.ignored,
      created_rows: 0,
      skipped_rows: 0,
      date_from: reading.dateRange?.from ?? null,
      date_to: reading.dateRange?.to ?? null,
      created_by: posting.actor.id,
      created_at: now,
      updated_at: now,
      undone_at: null,
      undone_by: null,
    })
    .execute();
  await insertRows(trx, await rowsOf(trx, id, bank.account_id, reading));
  return id;
}

function pending(row: ImportRow, what: string): void {
  if (row.status !== 'pending') throw new AppError('conflict', `bank import ${row.id} is ${importStatus(row)} and cannot be ${what}`);
}

/** Read a pending import's statement again with the user's corrections (columnMapping, amountModel, dateFormat, hasHeader). */
export async function remapImport(trx: Kysely<OrgDb>, posting: Posting, id: string, correction: SchemaCorrection): Promise<void> {
  const row = await findImport(trx, id);
  pending(row, 'remapped');
  const reading = readStatement(row.file_text ?? '', { filename: row.filename ?? undefined, schema: correction });
  await trx.deleteFrom('bank_import_rows').where('import_id', '=', id).execute();
  await trx
    .updateTable('bank_imports')
    .set({
      schema_json: JSON.stringify(reading.schema),
      balance_proof_json: JSON.stringify(reading.balanceProof),
      total_rows: reading.totalRows,
      ignored_rows: reading.ignored,
      date_from: reading.dateRange?.from ?? null,
      date_to: reading.dateRange?.to ?? null,
      updated_at: timestamp(posting.clock),
    })
    .where('id', '=', id)
    .execute();
  await insertRows(trx, await rowsOf(trx, id, (await findBankAccount(trx, row.bank_account_id)).account_id, reading));
}

/** Mark again the rows of the pending imports into ledger account `bank` whose dates overlap `row`'s, after `row` created or removed transactions. */
export async function markOverlapping(trx: Kysely<OrgDb>, row: ImportRow, bank: string): Promise<void> {
  if (!row.date_from || !row.date_to) return;
  const others = await trx
    .selectFrom('bank_imports')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'bank_imports.bank_account_id')
    .selectAll('bank_imports')
    .where('bank_imports.status', '=', 'pending')
    .where('bank_accounts.account_id', '=', bank)
    .where('bank_imports.date_from', '<=', row.date_to)
    .where('bank_imports.date_to', '>=', row.date_from)
    .execute();
  for (const other of others) await markDuplicates(trx, other);
}

/** Delete a pending import and its rows; a completed one stays (409). */
export async function deleteImport(trx: Kysely<OrgDb>, id: string): Promise<void> {
  pending(await findImport(trx, id), 'deleted');
  await trx.deleteFrom('bank_imports').where('id', '=', id).execute();
}

export interface Confirmation {
  /** Row ids to create; every valid row (and duplicates when duplicates is import) when left out. */
  readonly rows?: readonly number[] | undefined;
  /** What to do with rows that duplicate an earlier import's, when rows is left out: needed while there are any. */
  readonly duplicates?: 'skip' | 'import' | undefined;
  /** The account of rows no rule decides (suspense when left out). */
  readonly defaultAccountId?: string | undefined;
  /** Row id → account, over the rules. */
  readonly rowAccountMap?: Readonly<Record<string, string>> | undefined;
  /** Row id → the invoice or bill it pays, or the entry already holding its money (bank-matches.ts). */
  readonly matches?: Readonly<Record<string, string | readonly string[]>> | undefined;
  /** Take the suggested match of every chosen row neither map names. */
  readonly acceptMatches?: boolean | undefined;
}

export const confirmedSchema = z.strictObject({
  importId: idOut('bimp'),
  created: z.number().int().describe('rows that made an entry, payments included'),
  paid: z.number().int().describe('of those created: payments of the invoices and bills the rows were matched to'),
  matched: z.number().int().describe('rows matched to an entry already in the books'),
  skipped: z.number().int().describe('duplicates and rows not chosen'),
  rejected: z.number().int().describe('rows that could not be read'),
  total: z.number().int().describe('rows in the file: created + matched + skipped + rejected'),
  categorised: z.number().int().describe('rows posted to an account rather than to suspense'),
});
export type Confirmed = z.output<typeof confirmedSchema>;

/** The rows to create, checked against the import: all or none. */
function chosenRows(rows: readonly RowRow[], input: Confirmation): RowRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (input.rows !== undefined) {
    return [...new Set(input.rows)].map((id) => {
      const row = byId.get(id);
      if (!row) throw new AppError('validation_error', `rows: ${id} is not a row of this import`, 'rows');
      if (row.status === 'error')
        throw new AppError('validation_error', `rows: row ${row.row_index} could not be read (${row.error}) and cannot be created`, 'rows');
      return row;
    });
  }
  const duplicates = rows.filter((r) => r.status === 'duplicate');
  if (duplicates.length > 0 && input.duplicates === undefined) {
    throw new AppError(
      'unresolved_conflicts',
      `${duplicates.length} row(s) duplicate rows an earlier import created (first: row ${duplicates[0]!.row_index}); confirm with duplicates skip or import, or name the rows`,
      'duplicates',
    );
  }
  return rows.filter((r) => r.status === 'valid' || (r.status === 'duplicate' && input.duplicates === 'import'));
}

/** A statement row as the bank line it is. */
const bankLineOf = (r: RowRow): BankLine => ({ date: r.date ?? '', amount: r.amount ?? 0, description: r.description ?? '', reference: r.reference });

/**
 * Refuses a map (rowAccountMap, matches) naming a row the confirm does not
 * create: a duplicate being skipped, a rejected row, a row left out of rows.
 * Its account or match would otherwise be dropped without a word.
 */
function checkNamesChosen(byId: ReadonlyMap<string, RowRow>, chosen: readonly RowRow[], field: 'rowAccountMap' | 'matches', named: readonly string[]): void {
  const chosenIds = new Set(chosen.map((r) => r.id));
  for (const rowId of named) {
    const r = byId.get(rowId)!;
    if (chosenIds.has(r.id)) continue;
    const why =
      r.status === 'error'
        ? `it is rejected (${r.error})`
        : r.status === 'duplicate'
          ? 'it duplicates an earlier import’s row and is skipped'
          : 'it is not among rows';
    throw new AppError('validation_error', `${field}: row ${r.row_index} is not created by this confirm: ${why}`, field);
  }
}

/**
 * What each chosen row is matched to, by row id: the caller's matches (each
 * a chosen row, checkNamesChosen), then, with acceptMatches, the suggestion of every other
 * chosen row no map names.
 */
async function matchTargets(
  trx: Kysely<OrgDb>,
  bank: string,
  byId: ReadonlyMap<string, RowRow>,
  chosen: readonly RowRow[],
  input: Confirmation,
): Promise<Map<number, string | readonly string[]>> {
  const targets = new Map<number, string | readonly string[]>();
  for (const [rowId, target] of Object.entries(input.matches ?? {})) targets.set(byId.get(rowId)!.id, target);
  if (input.acceptMatches !== true) return targets;
  const open = chosen.filter((r) => !targets.has(r.id) && input.rowAccountMap?.[String(r.id)] === undefined);
  const suggested = await suggestMatches(trx, bank, open.map(bankLineOf), new Set([...targets.values()].flat()));
  open.forEach((r, i) => {
    const match = suggested[i];
    if (match) targets.set(r.id, targetOf(match));
  });
  return targets;
}

/** The account of a row of bank account `bank`: the caller's map, else the rules' decision, else the default, else suspense. */
function accountOf(row: RowRow, bank: string, input: Confirmation, rules: Categoriser, suspense: string): string {
  const mapped = input.rowAccountMap?.[String(row.id)];
  if (mapped !== undefined) return mapped;
  const decision = rules.decide({ description: row.description ?? undefined, reference: row.reference ?? undefined, amount: row.amount ?? undefined }, [bank]);
  if (decision.kind === 'Known') return decision.accountId;
  return input.defaultAccountId ?? suspense;
}

/** Post the chosen rows of a pending import, one transaction each, and complete it. */
export async function confirmImport(
  trx: Kysely<OrgDb>,
  posting: Posting,
  id: string,
  input: Confirmation,
  progress?: (done: number, total: number) => void,
): Promise<Confirmed> {
  const row = await findImport(trx, id);
  if (row.status !== 'pending') throw new AppError('conflict', `bank import ${id} is ${importStatus(row)} already`);
  await markDuplicates(trx, row);
  const proof = JSON.parse(row.balance_proof_json ?? 'null') as z.output<typeof balanceProofSchema> | null;
  if (proof?.status === 'FAIL') {
    const at = proof.firstBreak
      ? ` (first at row ${proof.firstBreak.rowIndex}: ${sterling(proof.firstBreak.found)} where the rows give ${sterling(proof.firstBreak.expected)})`
      : '';
    throw new AppError(
      'balance_mismatch',
      `the statement's balances do not reconcile with its rows${at}; delta ${sterling(proof.delta)}: correct the file or remap its columns`,
    );
  }
  const rows = await trx.selectFrom('bank_import_rows').selectAll().where('import_id', '=', id).orderBy('row_index').execute();
  // Completing would drop the file, and with it any remap: an import of nothing readable is a wrong reading.
  if (rows.every((r) => r.status === 'error')) {
    throw new AppError(
      'unresolved_conflicts',
      `rows: none of the ${count(rows.length)} rows could be read (row ${rows[0]!.row_index}: ${rows[0]!.error}); remap the columns or the date format (POST /bank-imports/${id}/remap), or delete the import`,
      'rows',
    );
  }
  // By id: a statement of 100,000 rows may come with a map naming thousands of them.
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  for (const rowId of Object.keys(input.rowAccountMap ?? {})) {
    if (!byId.has(rowId)) throw new AppError('validation_error', `rowAccountMap: ${rowId} is not a row of this import`, 'rowAccountMap');
  }
  for (const [rowId, target] of Object.entries(input.matches ?? {})) {
    const matched = byId.get(rowId);
    if (!matched) throw new AppError('validation_error', `matches: ${rowId} is not a row of this import`, 'matches');
    if (input.rowAccountMap?.[rowId] !== undefined)
      throw new AppError(
        'validation_error',
        `matches: row ${matched.row_index} is in rowAccountMap too: a row goes to an account or is matched to ${[target].flat().join(', ')}, not both`,
        'matches',
      );
  }
  const bank = await findBankAccount(trx, row.bank_account_id);
  const rules = await categoriser(trx);
  const named: [string | undefined, string][] = [
    ...Object.values(input.rowAccountMap ?? {}).map((a): [string, string] => [a, 'rowAccountMap']),
    [input.defaultAccountId, 'defaultAccountId'],
  ];
  for (const [accountId, field] of named) {
    const account = accountId === undefined ? undefined : rules.accounts.get(accountId);
    const refusal = account && bankLineRefusal(account, [bank.account_id]);
    if (refusal) throw new AppError('validation_error', `${field}: ${refusal}`, field);
  }
  const chosen = chosenRows(rows, input);
  checkNamesChosen(byId, chosen, 'rowAccountMap', Object.keys(input.rowAccountMap ?? {}));
  checkNamesChosen(byId, chosen, 'matches', Object.keys(input.matches ?? {}));
  const targets = await matchTargets(trx, bank.account_id, byId, chosen, input);
  const suspense = await suspenseAccountId(trx);
  if (suspense === undefined) throw new Error('the chart has no suspense account 9999');
  const books = await loadBooks(trx);
  const prepared = chosen
    .filter((r) => !targets.has(r.id))
    .map((r) => {
      const other = accountOf(r, bank.account_id, input, rules, suspense);
      const amount = r.amount ?? 0;
      const txn: TransactionInput = {
        date: r.date ?? '',
        description: r.description || `Bank line ${r.row_index}`,
        reference: r.reference,
        status: 'posted',
        sourceType: 'bank_import',
        sourceId: id,
        lines: [
          { accountId: bank.account_id, amount },
          { accountId: other, amount: -amount },
        ],
      };
      try {
        return { row: r, prepared: prepare(books, posting, txn), categorised: other !== suspense };
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        const field = input.rowAccountMap?.[String(r.id)] !== undefined ? 'rowAccountMap' : other === input.defaultAccountId ? 'defaultAccountId' : 'rows';
        throw new AppError(e.code, `row ${r.row_index}: ${e.message}`, field);
      }
    });
  // In slices, so that a long statement can say how far it is: of the statement's rows, those with nothing to post (duplicates
  // skipped, rows rejected) done first, then the posted ones, then those that pay an invoice or bill.
  let done = rows.length - prepared.length - chosen.filter((r) => targets.has(r.id)).length;
  for (let i = 0; i < prepared.length; i += 1000) {
    const slice = prepared.slice(i, i + 1000);
    await insertPrepared(
      trx,
      posting,
      slice.map((p) => p.prepared),
      { events: false },
    );
    done += slice.length;
    progress?.(done, rows.length);
  }
  const created = new Map(prepared.map((p) => [p.row.id, p.prepared.row.id]));
  for (const [rowId, txn] of created) {
    await trx.updateTable('bank_import_rows').set({ status: 'created', transaction_id: txn }).where('id', '=', rowId).execute();
  }
  // Matched rows in the file's order, each row's link written before the next is settled: no entry is matched twice.
  let paid = 0;
  let matched = 0;
  for (const r of chosen) {
    const target = targets.get(r.id);
    if (target === undefined) continue;
    const settled = await settleLine(trx, posting, bank.account_id, bankLineOf(r), target, 'matches').catch((e: unknown) => {
      if (!(e instanceof AppError)) throw e;
      throw new AppError(e.code, `matches: row ${r.row_index}: ${e.message.replace(/^matches: /, '')}`, 'matches');
    });
    await trx
      .updateTable('bank_import_rows')
      .set({ status: 'created', transaction_id: settled.transactionId, matched_kind: settled.kind, matched_id: settled.id })
      .where('id', '=', r.id)
      .execute();
    if (settled.kind === 'transaction') matched += 1;
    else paid += 1;
    done += 1;
    if (done % 100 === 0 || done === rows.length) progress?.(done, rows.length);
  }
  // Every other readable row is skipped, in one statement; rejected rows stay rejected.
  await trx.updateTable('bank_import_rows').set({ status: 'skipped' }).where('import_id', '=', id).where('status', 'in', ['valid', 'duplicate']).execute();
  const rejected = rows.filter((r) => r.status === 'error').length;
  const skipped = rows.length - created.size - paid - matched - rejected;
  const now = timestamp(posting.clock);
  await trx
    .updateTable('bank_imports')
    .set({ status: 'completed', file_text: null, created_rows: created.size + paid, skipped_rows: skipped, completed_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
  // The other pending imports of these dates now show the rows this one created as duplicates.
  await markOverlapping(trx, row, bank.account_id);
  return {
    importId: id,
    created: created.size + paid,
    paid,
    matched,
    skipped,
    rejected,
    total: rows.length,
    categorised: prepared.filter((p) => p.categorised).length,
  };
}

/** A row's status as the API shows it: one matched to an entry is kept as created (matched_kind transaction). */
const rowStatus = (r: RowRow): ImportRowView['status'] => (r.status === 'created' && r.matched_kind === 'transaction' ? 'matched' : r.status);

/**
 * The rows of an import into ledger account `bank` as the API shows them:
 * for those not yet created (given `rules`, the import pending) the rules'
 * suggested account and the suggested match; for the others what they were
 * matched to.
 */
async function rowViews(db: Kysely<OrgDb>, bank: string, rows: readonly RowRow[], rules: Categoriser | null): Promise<ImportRowView[]> {
  const dupIds = rows.flatMap((r) => (r.duplicate_of === null ? [] : [r.duplicate_of]));
  const matches = new Map(
    (dupIds.length === 0
      ? []
      : await db.selectFrom('bank_import_rows').select(['id', 'import_id', 'row_index', 'transaction_id']).where('id', 'in', dupIds).execute()
    ).map((m) => [m.id, m]),
  );
  const open = rules === null ? [] : rows.filter((r) => r.status === 'valid' || r.status === 'duplicate');
  const suggestions = await suggestMatches(db, bank, open.map(bankLineOf));
  const suggestedMatches = new Map(open.map((r, i) => [r.id, suggestions[i] ?? null]));
  const matchedTos = await matchedTo(db, rows);
  const paying = rows.flatMap((r) => ((r.matched_kind === 'invoice' || r.matched_kind === 'bill') && r.transaction_id !== null ? [r.transaction_id] : []));
  const payments = await paymentsOfEntries(db, paying);
  return rows.map((r, i) => {
    const match = r.duplicate_of === null ? undefined : matches.get(r.duplicate_of);
    let suggested: ImportRowView['suggestedAccount'] = null;
    if (rules && (r.status === 'valid' || r.status === 'duplicate')) {
      const decision = rules.decide({ description: r.description ?? undefined, reference: r.reference ?? undefined, amount: r.amount ?? undefined }, [bank]);
      const account = decision.kind === 'Known' ? rules.accounts.get(decision.accountId) : undefined;
      if (decision.kind === 'Known' && account) {
        const e = decision.evidence;
        suggested = { id: account.id, code: account.code, name: account.name, provenance: e.provenance, ruleName: e.rule.name, confidence: e.confidence };
      }
    }
    return {
      id: r.id,
      rowIndex: r.row_index,
      date: r.date,
      description: r.description,
      reference: r.reference,
      bankTransactionId: r.bank_id,
      amount: r.amount,
      balance: r.balance,
      status: rowStatus(r),
      error: r.error,
      duplicateMatch: match ? { importId: match.import_id, rowIndex: match.row_index, transactionId: match.transaction_id } : null,
      transactionId: r.transaction_id,
      suggestedAccount: suggested,
      suggestedMatch: suggestedMatches.get(r.id) ?? null,
      matchedTo: matchedTos[i] ?? null,
      payments: r.transaction_id === null ? [] : (payments.get(r.transaction_id) ?? []),
    };
  });
}

/**
 * An import's rows by what the file held (valid, duplicate of an earlier
 * import's row, unreadable: the same before and after confirming) and by
 * what confirming made of them (matched).
 */
async function counts(db: Kysely<OrgDb>, id: string): Promise<{ valid: number; duplicate: number; error: number; matched: number }> {
  const rows = await db
    .selectFrom('bank_import_rows')
    .select((eb) => ['status', 'matched_kind', eb('duplicate_of', 'is not', null).as('duplicating'), eb.fn.countAll<number>().as('n')])
    .where('import_id', '=', id)
    .groupBy(['status', 'matched_kind', 'duplicating'])
    .execute();
  const out = { valid: 0, duplicate: 0, error: 0, matched: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    if (r.status === 'error') out.error += n;
    else if (Number(r.duplicating) !== 0) out.duplicate += n;
    else out.valid += n;
    if (r.status === 'created' && r.matched_kind === 'transaction') out.matched += n;
  }
  return out;
}

export async function summaryOf(db: Kysely<OrgDb>, row: ImportRow): Promise<z.output<typeof importSummarySchema>> {
  const bank = await findBankAccount(db, row.bank_account_id);
  const n = await counts(db, row.id);
  return {
    id: row.id,
    bankAccountId: row.bank_account_id,
    accountId: bank.account_id,
    bankName: bank.bank_name,
    filename: row.filename,
    status: importStatus(row),
    totalRows: row.total_rows,
    validRows: n.valid,
    duplicates: n.duplicate,
    errorRows: n.error,
    ignoredRows: row.ignored_rows,
    createdRows: row.created_rows,
    matchedRows: n.matched,
    skippedRows: row.skipped_rows,
    dateRange: row.date_from && row.date_to ? { from: row.date_from, to: row.date_to } : null,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    undoneAt: row.undone_at,
  };
}

const parsedSchema = (row: ImportRow) => JSON.parse(row.schema_json) as StatementSchema;
const parsedProof = (row: ImportRow) => (JSON.parse(row.balance_proof_json ?? 'null') as z.output<typeof balanceProofSchema> | null) ?? noBalanceProof;

/**
 * The statement's opening balance against the books the day before its first
 * day. A bank's export starts at a balance the books hold only when the
 * earlier statements (or an opening balance) are in: a difference is shown,
 * not refused, as a statement may begin in the middle of a day.
 */
async function openingCheckOf(db: Kysely<OrgDb>, accountId: string, row: ImportRow): Promise<z.output<typeof openingCheckSchema>> {
  const statementBalance = parsedProof(row).openingBalance;
  if (statementBalance === null || row.date_from === null) return null;
  const date = addDays(row.date_from, -1);
  const booksBalance = (await accountBalance(db, accountId, { to: date })).balance.net;
  return { date, statementBalance, booksBalance, difference: statementBalance - booksBalance };
}

/** What an upload or a remap answers: the counts, the layout, the balance proof and the first rows. */
export async function previewOf(db: Kysely<OrgDb>, id: string): Promise<z.output<typeof previewSchema>> {
  const row = await findImport(db, id);
  const { id: _, ...summary } = await summaryOf(db, row);
  const first = await db.selectFrom('bank_import_rows').selectAll().where('import_id', '=', id).orderBy('row_index').limit(previewRows).execute();
  return {
    importId: id,
    ...summary,
    schema: parsedSchema(row),
    balanceProof: parsedProof(row),
    openingCheck: await openingCheckOf(db, summary.accountId, row),
    preview: await rowViews(db, summary.accountId, first, await categoriser(db)),
  };
}

export async function importDetail(db: Kysely<OrgDb>, id: string): Promise<z.output<typeof importDetailSchema>> {
  const row = await findImport(db, id);
  const rows = await db.selectFrom('bank_import_rows').selectAll().where('import_id', '=', id).orderBy('row_index').execute();
  const summary = await summaryOf(db, row);
  return {
    ...summary,
    schema: parsedSchema(row),
    balanceProof: parsedProof(row),
    openingCheck: await openingCheckOf(db, summary.accountId, row),
    rows: await rowViews(db, summary.accountId, rows, row.status === 'pending' ? await categoriser(db) : null),
  };
}

export async function listImports(db: Kysely<OrgDb>): Promise<z.output<typeof importSummarySchema>[]> {
  const rows = await db.selectFrom('bank_imports').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
  return Promise.all(rows.map((r) => summaryOf(db, r)));
}
