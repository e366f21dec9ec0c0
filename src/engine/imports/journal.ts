/**
 * Bulk load of a journal (JSON Lines: one transaction a line, accounts by
 * code, amounts in pence) through posting, all or nothing: every line is
 * checked, every refusal is reported with its line number, and the file is
 * written in one database transaction, with its batch record, only if none
 * was refused and the same content is not in the books already.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { isoDate, parseWith, pence } from '../schema.js';
import { vatTreatments } from '../ledger/line-vat.js';
import { insertPrepared, loadBooks, maxLines, prepare, type Posting, type Prepared } from '../ledger/posting.js';
import { refuseControlLinesIn } from '../ledger/transactions.js';
import { contentHash, importSource, recordBatch, refuseDuplicate } from './batches.js';
import type { DbHandle } from '../../store/store.js';
import type { OrgDb } from '../../store/tables.js';

const entrySchema = z.strictObject({
  date: isoDate(),
  description: z.string().trim().min(1).max(500),
  reference: z.string().max(100).nullable().optional(),
  status: z.enum(['draft', 'posted']).default('posted'),
  lines: z
    .array(
      z.strictObject({
        accountCode: z.string().min(1).max(20),
        amount: pence(),
        description: z.string().max(500).nullable().optional(),
        vatRate: z.number().int().min(0).max(100).nullable().optional(),
        vatTreatment: z.enum(vatTreatments).nullable().optional(),
      }),
    )
    .min(2)
    .max(maxLines),
});

export interface JournalImport {
  readonly importId: string;
  readonly transactions: number;
  readonly lines: number;
}

export interface JournalOptions {
  /** The file name, or - for standard input, as the batch records it. */
  readonly source: string;
  /** Import content already in the books (not undone) once more, instead of refusing it. */
  readonly allowDuplicate?: boolean;
  readonly onProgress?: (entries: number) => void;
}

/** How many refusals are listed before the rest are only counted. */
const listed = 20;
/** Transactions held in memory before they are written (inside the one database transaction). */
const chunk = 2000;

export async function importJournal(
  org: DbHandle<OrgDb>,
  posting: Posting,
  journal: AsyncIterable<string>,
  { source, allowDuplicate = false, onProgress }: JournalOptions,
): Promise<JournalImport> {
  const importId = newId('dimp', posting.clock.now());
  return org.write(async (trx) => {
    const books = await loadBooks(trx);
    const byCode = new Map([...books.accounts.values()].map((a) => [a.code, a.id]));
    const refusals: string[] = [];
    let refused = 0;
    let pending: Prepared[] = [];
    let transactions = 0;
    let lines = 0;
    let totalDebit = 0;
    let firstDate: string | null = null;
    let lastDate: string | null = null;
    const hash = contentHash();
    let lineNo = 0;
    for await (const text of journal) {
      lineNo++;
      if (text.trim() === '') continue;
      hash.add(text);
      try {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch (e) {
          throw new AppError('validation_error', `not JSON: ${(e as Error).message}`);
        }
        const entry = parseWith(entrySchema, raw);
        const resolved = entry.lines.map((l, i) => {
          const accountId = byCode.get(l.accountCode);
          if (!accountId) throw new AppError('validation_error', `lines[${i}].accountCode: no account with code ${l.accountCode}`);
          return { ...l, accountId };
        });
        // A journal import is a journal: it keeps off 1100 and 2100 as one entered by hand does.
        refuseControlLinesIn(books.accounts, resolved, (i) => `lines[${i}].accountCode`);
        const prepared = prepare(books, posting, { ...entry, lines: resolved, sourceType: importSource, sourceId: importId });
        if (refused > 0) continue; // nothing will be written: only keep checking
        pending.push(prepared);
        transactions++;
        lines += prepared.lines.length;
        totalDebit += prepared.row.total_debit;
        if (firstDate === null || prepared.row.date < firstDate) firstDate = prepared.row.date;
        if (lastDate === null || prepared.row.date > lastDate) lastDate = prepared.row.date;
        if (pending.length >= chunk) {
          await insertPrepared(trx, posting, pending, { events: false });
          pending = [];
        }
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        refused++;
        if (refusals.length < listed) refusals.push(`line ${lineNo}: ${e.message}`);
      }
      if (lineNo % 5000 === 0) onProgress?.(lineNo);
    }
    // A file of no entries (empty, or only blank lines) would be recorded as a batch of nothing.
    if (transactions === 0 && refused === 0) {
      throw new AppError('validation_error', `${source === '-' ? 'standard input' : source} holds no transactions: nothing was imported`, 'file');
    }
    const hex = hash.hex();
    // Before the refusals: a journal already imported is best told so, whatever else is wrong with it now.
    if (!allowDuplicate) await refuseDuplicate(trx, hex);
    if (refused > 0) {
      const more = refused > refusals.length ? `\n… and ${refused - refusals.length} more` : '';
      throw new AppError('validation_error', `${refused} of the journal's entries were refused, so nothing was imported:\n${refusals.join('\n')}${more}`);
    }
    await insertPrepared(trx, posting, pending, { events: false });
    await recordBatch(trx, posting, { id: importId, source, contentHash: hex, transactions, lines, totalDebit, firstDate, lastDate });
    onProgress?.(lineNo);
    return { importId, transactions, lines };
  });
}
