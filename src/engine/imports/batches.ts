/**
 * Import batches: the record every journal import leaves (what was read,
 * what it made, by whom and when), the refusal of the same content twice,
 * and undoing a whole import through posting. An undone batch stays on
 * record, marked undone; its content may then be imported again. The
 * operations are in import-ops.ts.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { timestamp } from '../clock.js';
import { pence } from '../schema.js';
import { day, idOut, instant } from '../output.js';
import { actorIdOut } from '../ids.js';
import { listPage, type Page, type Sort } from '../pagination.js';
import { removeTransactionsOf, type Posting } from '../ledger/posting.js';
import type { ImportBatchesTable, OrgDb } from '../../store/tables.js';

/** The sourceType of the transactions an import makes; their sourceId is the batch id. */
export const importSource = 'import';

/**
 * sha256 of a journal's content as its entries: each non-blank line without
 * a trailing \r, followed by \n. CRLF or LF endings, blank lines and a
 * missing final newline do not change it. Fed a line at a time, as the
 * journal streams.
 */
export function contentHash(): { add(line: string): void; hex(): string } {
  const hash = createHash('sha256');
  return {
    add(line) {
      hash.update(line.endsWith('\r') ? line.slice(0, -1) : line);
      hash.update('\n');
    },
    hex: () => hash.digest('hex'),
  };
}

export interface NewBatch {
  readonly id: string;
  readonly source: string;
  readonly contentHash: string;
  readonly transactions: number;
  readonly lines: number;
  readonly totalDebit: number;
  readonly firstDate: string | null;
  readonly lastDate: string | null;
}

/**
 * The batch still in the books that holds the same content, if any. A batch
 * that made no transaction cannot double anything, so it never counts.
 */
export async function findDuplicate(trx: Kysely<OrgDb>, hash: string): Promise<ImportBatchesTable | undefined> {
  return trx
    .selectFrom('import_batches')
    .selectAll()
    .where('content_hash', '=', hash)
    .where('undone_at', 'is', null)
    .where('transaction_count', '>', 0)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Refuse content already imported and not undone (409 duplicate_import), naming the earlier batch. */
export async function refuseDuplicate(trx: Kysely<OrgDb>, hash: string): Promise<void> {
  const earlier = await findDuplicate(trx, hash);
  if (!earlier) return;
  throw new AppError(
    'duplicate_import',
    `the same content was imported as ${earlier.id} at ${earlier.created_at} (${earlier.transaction_count} transactions from ${earlier.source}), ` +
      'so nothing was imported: undo that import first, or pass --allow-duplicate to import it again',
  );
}

/** Record a batch, in the database transaction that wrote its transactions. */
export async function recordBatch(trx: Kysely<OrgDb>, posting: Posting, batch: NewBatch): Promise<void> {
  await trx
    .insertInto('import_batches')
    .values({
      id: batch.id,
      source: batch.source,
      content_hash: batch.contentHash,
      transaction_count: batch.transactions,
      line_count: batch.lines,
      total_debit: batch.totalDebit,
      first_date: batch.firstDate,
      last_date: batch.lastDate,
      created_by: posting.actor.id,
      created_by_name: posting.actor.name,
      created_at: timestamp(posting.clock),
      undone_at: null,
      undone_by: null,
      undone_by_name: null,
    })
    .execute();
}

export const batchStatuses = ['imported', 'undone'] as const;

export const batchSchema = z.strictObject({
  id: idOut('dimp'),
  source: z.string().describe('the file name, or - for standard input'),
  contentHash: z.string().describe("sha256 of the journal's non-blank lines, hex"),
  status: z.enum(batchStatuses),
  transactionCount: z.number().int(),
  lineCount: z.number().int(),
  totalDebit: pence(),
  firstDate: day().nullable(),
  lastDate: day().nullable(),
  createdAt: instant(),
  createdBy: z.string(),
  createdByName: z.string(),
  undoneAt: instant().nullable(),
  undoneBy: z.string().nullable(),
  undoneByName: z.string().nullable(),
});
export type Batch = z.output<typeof batchSchema>;

export function batchView(row: ImportBatchesTable): Batch {
  return {
    id: row.id,
    source: row.source,
    contentHash: row.content_hash,
    status: row.undone_at === null ? 'imported' : 'undone',
    transactionCount: row.transaction_count,
    lineCount: row.line_count,
    totalDebit: row.total_debit,
    firstDate: row.first_date,
    lastDate: row.last_date,
    createdAt: row.created_at,
    createdBy: actorIdOut(row.created_by),
    createdByName: row.created_by_name,
    undoneAt: row.undone_at,
    undoneBy: row.undone_by === null ? null : actorIdOut(row.undone_by),
    undoneByName: row.undone_by_name,
  };
}

export async function findBatch(db: Kysely<OrgDb>, id: string): Promise<ImportBatchesTable> {
  return found(db.selectFrom('import_batches').selectAll().where('id', '=', id).executeTakeFirst(), 'import', id);
}

export interface BatchQuery {
  readonly status?: (typeof batchStatuses)[number];
  readonly page: number;
  readonly limit: number;
  readonly sort: Sort<'createdAt'>;
}

/** One page of batches, undone ones included unless the status says otherwise. */
export async function listBatches(db: Kysely<OrgDb>, query: BatchQuery): Promise<Page<Batch>> {
  let q = db.selectFrom('import_batches');
  if (query.status) q = q.where('undone_at', query.status === 'undone' ? 'is not' : 'is', null);
  const { direction } = query.sort;
  const { rows, meta } = await listPage(q, (all) => all.selectAll().orderBy('created_at', direction).orderBy('id', direction), query);
  return { rows: rows.map(batchView), meta };
}

export const undoneBatchSchema = z.strictObject({ ...batchSchema.shape, transactionsRemoved: z.number().int() });
export type UndoneBatch = z.output<typeof undoneBatchSchema>;

/** Remove every transaction of a batch through posting and mark it undone; undoing it twice is 409. */
export async function undoBatch(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<UndoneBatch> {
  const batch = await findBatch(trx, id);
  if (batch.undone_at !== null) throw new AppError('already_voided', `import ${batch.id} was already undone at ${batch.undone_at}`);
  const removed = await removeTransactionsOf(trx, importSource, batch.id);
  const change = { undone_at: timestamp(posting.clock), undone_by: posting.actor.id, undone_by_name: posting.actor.name };
  await trx.updateTable('import_batches').set(change).where('id', '=', batch.id).execute();
  return { ...batchView({ ...batch, ...change }), transactionsRemoved: removed };
}
