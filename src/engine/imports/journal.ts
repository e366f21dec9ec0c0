/**
 * Bulk load of a journal (JSON Lines: one transaction a line, accounts by
 * code, amounts in pence) through posting, all or nothing: every line is
 * checked, every refusal is reported with its line number, and the file is
 * written in one database transaction only if none was refused.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { isoDate, parseWith, pence } from '../schema.js';
import { vatTreatments } from '../vat.js';
import { insertPrepared, loadBooks, maxLines, prepare, type Posting, type Prepared } from '../ledger/posting.js';
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

/** How many refusals are listed before the rest are only counted. */
const listed = 20;
/** Transactions held in memory before they are written (inside the one database transaction). */
const chunk = 2000;

export async function importJournal(
  org: DbHandle<OrgDb>,
  posting: Posting,
  source: AsyncIterable<string>,
  onProgress?: (entries: number) => void,
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
    let lineNo = 0;
    for await (const text of source) {
      lineNo++;
      if (text.trim() === '') continue;
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
        const prepared = prepare(books, posting, { ...entry, lines: resolved, sourceType: 'import', sourceId: importId });
        if (refused > 0) continue; // nothing will be written: only keep checking
        pending.push(prepared);
        transactions++;
        lines += prepared.lines.length;
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
    if (refused > 0) {
      const more = refused > refusals.length ? `\n… and ${refused - refusals.length} more` : '';
      throw new AppError('validation_error', `${refused} of the journal's entries were refused, so nothing was imported:\n${refusals.join('\n')}${more}`);
    }
    await insertPrepared(trx, posting, pending, { events: false });
    onProgress?.(lineNo);
    return { importId, transactions, lines };
  });
}
