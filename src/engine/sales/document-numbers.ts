/**
 * The one number allocator of invoices, quotes and credit notes: the
 * organisation's prefix and next number for the series, read and bumped
 * inside the caller's write transaction, so that two writers never take
 * the same number. A number already used (the counter set back by hand,
 * or a document migrated with a number of the series) is skipped, as Xero
 * does: the counter goes on from the first free number after it.
 */
import type { Kysely } from 'kysely';
import { loadOrganisation } from '../organisation/organisation.js';
import type { OrgDb } from '../../store/tables.js';

export interface NumberSeries {
  readonly prefix: 'invoice_prefix' | 'quote_prefix' | 'credit_note_prefix';
  readonly counter: 'invoice_next_number' | 'quote_next_number' | 'credit_note_next_number';
  /** What already carries `number` in this series, if anything. */
  takenBy(trx: Kysely<OrgDb>, number: string): Promise<{ readonly id: string } | undefined>;
}

export const invoiceNumbers: NumberSeries = {
  prefix: 'invoice_prefix',
  counter: 'invoice_next_number',
  takenBy: (trx, number) => trx.selectFrom('invoices').select('id').where('kind', '=', 'sales').where('number', '=', number).executeTakeFirst(),
};

export const quoteNumbers: NumberSeries = {
  prefix: 'quote_prefix',
  counter: 'quote_next_number',
  takenBy: (trx, number) => trx.selectFrom('quotes').select('id').where('number', '=', number).executeTakeFirst(),
};

/** Customers' credit notes only: a supplier's credit note keeps the supplier's number. */
export const creditNoteNumbers: NumberSeries = {
  prefix: 'credit_note_prefix',
  counter: 'credit_note_next_number',
  takenBy: (trx, number) => trx.selectFrom('credit_notes').select('id').where('kind', '=', 'sales').where('number', '=', number).executeTakeFirst(),
};

/**
 * The next free number of the series (prefix and the counter padded to four
 * digits, INV-0042), taken: the counter moves past it. One look-up by the
 * number's index per number tried, so numbers already taken cost a look-up
 * each, once: the counter then stands past them.
 */
export async function allocateNumber(trx: Kysely<OrgDb>, series: NumberSeries): Promise<string> {
  const org = await loadOrganisation(trx);
  const format = (n: number) => `${org[series.prefix]}${String(n).padStart(4, '0')}`;
  let next = org[series.counter];
  while (await series.takenBy(trx, format(next))) next++;
  await trx
    .updateTable('organisation')
    .set(series.counter, next + 1)
    .execute();
  return format(next);
}
