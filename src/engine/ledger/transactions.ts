/**
 * The transactions API over posting: listing them, and changing journals.
 * Journals (manual and imported) change here; what invoices and payments
 * made is changed only by those features. The operations are in
 * transaction-ops.ts.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { containsText } from '../search.js';
import { listPage, pageMeta, pageOffset, type Page, type Sort } from '../pagination.js';
import { createTransaction, deleteTransaction, replaceDraft, setTransactionStatus, type LineInput, type Posting, type TransactionInput } from './posting.js';
import {
  findTransactionRow,
  loadTransaction,
  transactionSummary,
  type TransactionRow,
  type TransactionSummary,
  type TransactionView,
} from './transaction-view.js';
import { precompiled } from '../../store/precompiled.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

export interface TransactionFilter {
  readonly from?: string;
  readonly to?: string;
  readonly accountId?: string;
  readonly contactId?: string;
  readonly status?: TransactionRow['status'];
  readonly reconciled?: boolean;
  readonly search?: string;
}

export interface TransactionQuery extends TransactionFilter {
  readonly page: number;
  readonly limit: number;
  readonly sort: Sort<'createdAt' | 'date'>;
}

/** The unfiltered total, kept by triggers (migration 0009): counting a million rows per page is most of the request. */
const transactionCount = precompiled((db: Kysely<OrgDb>, table: 'transactions') =>
  db.selectFrom('row_counts').select('n as total').where('table_name', '=', table),
);

/** An unfiltered page in each order: the list's hot path. */
const unfilteredPage = (column: 'date' | 'created_at', direction: 'asc' | 'desc') =>
  precompiled((db: Kysely<OrgDb>, limit: number, offset: number) =>
    db.selectFrom('transactions').selectAll().orderBy(column, direction).orderBy('id', direction).limit(limit).offset(offset),
  );
const unfilteredPages = {
  date: { asc: unfilteredPage('date', 'asc'), desc: unfilteredPage('date', 'desc') },
  created_at: { asc: unfilteredPage('created_at', 'asc'), desc: unfilteredPage('created_at', 'desc') },
};

/** One page of transactions, without their lines. */
export async function listTransactionPage(db: Kysely<OrgDb>, query: TransactionQuery): Promise<Page<TransactionSummary>> {
  const { page, limit, sort, ...filters } = query;
  let q = db.selectFrom('transactions');
  if (filters.from) q = q.where('date', '>=', filters.from);
  if (filters.to) q = q.where('date', '<=', filters.to);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.reconciled !== undefined) q = q.where('is_reconciled', '=', filters.reconciled ? 1 : 0);
  const { search } = filters;
  if (search) q = q.where((eb) => containsText(eb, ['description', 'reference'], search));
  for (const [column, value] of [
    ['account_id', filters.accountId],
    ['contact_id', filters.contactId],
  ] as const) {
    if (value) q = q.where('id', 'in', db.selectFrom('lines').select('transaction_id').where(column, '=', value));
  }
  const column = sort.field === 'date' ? 'date' : 'created_at';
  const ordered = (all: typeof q) => all.selectAll().orderBy(column, sort.direction).orderBy('id', sort.direction);
  if (Object.values(filters).some((v) => v !== undefined)) {
    const found = await listPage(q, ordered, query);
    return { rows: found.rows.map(transactionSummary), meta: found.meta };
  }
  const counted = await transactionCount.first(db, 'transactions');
  if (!counted) throw new Error('row_counts has no row for transactions');
  const rows = await unfilteredPages[column][sort.direction].all(db, limit, pageOffset(page, limit));
  return { rows: rows.map(transactionSummary), meta: pageMeta(Number(counted.total), page, limit) };
}

/** The sources of journals, entered by hand or imported, as against a document's or a bank line's entries. */
export const journalSources: ReadonlySet<string> = new Set(['manual', 'import']);

/**
 * Journals only: manual ones, and imported ones, which keep their import's
 * sourceId so that undoing the import still takes them. What invoices and
 * payments made is theirs to change. The journal's row.
 */
async function journalOnly(trx: Kysely<OrgDb>, id: string, what: string): Promise<TransactionRow> {
  const row = await findTransactionRow(trx, id);
  if (!journalSources.has(row.source_type)) {
    const source = row.source_id === null ? row.source_type : `${row.source_type} ${row.source_id}`;
    throw new AppError('unprocessable_entity', `transaction ${id} was made by ${source} and cannot be ${what} here`);
  }
  return row;
}

/** What keeps each control account a journal may not post to, and what to record instead. */
const keptByDocuments = {
  receivables: { documents: 'invoices', report: 'aged debtors', instead: 'record an invoice, a payment on it or a credit note instead' },
  payables: { documents: 'bills', report: 'aged creditors', instead: 'record a bill, a payment on it or a credit note instead' },
} as const;

/**
 * Refuse (400 on lines[i].accountId, or the field `fieldOf` names) a
 * journal's line on a receivables or payables control account (1100, 2100):
 * invoices, bills, their payments and credit notes keep those, and the aged
 * reports list their documents, so a journal there, belonging to no
 * document, would part 1100 from aged debtors (2100 from aged creditors).
 * Journals entered by hand and those of a journal import alike; entries the
 * engine makes (documents, payments, opening balances, the clearing
 * journals of invoice and bill imports) do not come through here. As
 * bank-line-account.ts refuses a bank line's other side there. `accounts`
 * holds at least the lines' accounts.
 */
export function refuseControlLinesIn(
  accounts: ReadonlyMap<string, Pick<AccountsTable, 'code' | 'name' | 'control_type'>>,
  lines: readonly Pick<LineInput, 'accountId'>[],
  fieldOf: (i: number) => string = (i) => `lines[${i}].accountId`,
): void {
  const at = lines.findIndex((l) => {
    const type = accounts.get(l.accountId)?.control_type;
    return type === 'receivables' || type === 'payables';
  });
  if (at < 0) return;
  const account = accounts.get(lines[at]!.accountId)!;
  const kept = keptByDocuments[account.control_type as keyof typeof keptByDocuments];
  const field = fieldOf(at);
  throw new AppError(
    'validation_error',
    `${field}: ${account.code} ${account.name} is the ${account.control_type} control account, kept by ${kept.documents}: a journal there would belong to no document, so ${kept.report} would no longer agree with it; ${kept.instead}`,
    field,
  );
}

/** refuseControlLinesIn, reading the control accounts among the lines'. */
async function refuseControlLines(trx: Kysely<OrgDb>, lines: readonly Pick<LineInput, 'accountId'>[]): Promise<void> {
  const ids = [...new Set(lines.map((l) => l.accountId))];
  if (ids.length === 0) return;
  const controls = await trx
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'control_type'])
    .where('id', 'in', ids)
    .where('control_type', 'in', ['receivables', 'payables'])
    .execute();
  if (controls.length > 0) refuseControlLinesIn(new Map(controls.map((a) => [a.id, a])), lines);
}

/** Record a manual journal (transactions.create, acct post). */
export async function createJournal(trx: Kysely<OrgDb>, posting: Posting, input: Omit<TransactionInput, 'sourceType' | 'sourceId'>): Promise<TransactionView> {
  await refuseControlLines(trx, input.lines);
  return createTransaction(trx, posting, { ...input, sourceType: 'manual' });
}

/** Change a draft journal; lines, when given, replace all of its lines. */
export async function changeJournal(
  trx: Kysely<OrgDb>,
  posting: Posting,
  id: string,
  change: Partial<Omit<TransactionInput, 'sourceType' | 'sourceId'>>,
): Promise<TransactionView> {
  const row = await journalOnly(trx, id, 'changed');
  // New lines, or the draft's own when it is posted by the change (a posted journal is refused by replaceDraft).
  if (row.status === 'draft' && (change.lines !== undefined || change.status === 'posted')) {
    await refuseControlLines(trx, change.lines ?? (await loadTransaction(trx, id)).lines);
  }
  return replaceDraft(trx, posting, id, change);
}

/** Post a draft journal, or return a posted one to draft. */
export async function setJournalStatus(trx: Kysely<OrgDb>, posting: Posting, id: string, status: TransactionRow['status']): Promise<TransactionRow> {
  const row = await journalOnly(trx, id, 'changed');
  // A draft made before journals were kept off the control accounts may be corrected or deleted, not posted.
  if (row.status === 'draft' && status === 'posted') await refuseControlLines(trx, (await loadTransaction(trx, id)).lines);
  return setTransactionStatus(trx, posting, id, status);
}

/** Delete a draft journal; a reconciled transaction of any source gets the refusal of reconciled ones (409). */
export async function deleteJournal(trx: Kysely<OrgDb>, id: string): Promise<void> {
  const row = await findTransactionRow(trx, id);
  if (row.is_reconciled !== 1) await journalOnly(trx, id, 'deleted');
  await deleteTransaction(trx, id);
}
