/**
 * The one number allocator of invoices, quotes and credit notes: the
 * organisation's prefix and next number for the series, read and bumped
 * inside the caller's write transaction, so that two writers never take
 * the same number. A number already used (the counter set back by hand,
 * or a document migrated with a number of the series) is skipped, as Xero
 * does: the counter goes on from the first free number after it. The three
 * series may share a prefix (a credit note numbered as the invoices are), so
 * a number is taken when any customer-facing document carries it: two
 * documents sent to customers never share a number. Bills and supplier
 * credit notes keep the supplier's numbers and take none.
 */
import type { Kysely } from 'kysely';
import { loadOrganisation } from '../organisation/organisation.js';
import type { OrgDb } from '../../store/tables.js';

export interface NumberSeries {
  readonly prefix: 'invoice_prefix' | 'quote_prefix' | 'credit_note_prefix';
  readonly counter: 'invoice_next_number' | 'quote_next_number' | 'credit_note_next_number';
}

export const invoiceNumbers: NumberSeries = { prefix: 'invoice_prefix', counter: 'invoice_next_number' };

export const quoteNumbers: NumberSeries = { prefix: 'quote_prefix', counter: 'quote_next_number' };

/** Customers' credit notes only: a supplier's credit note keeps the supplier's number. */
export const creditNoteNumbers: NumberSeries = { prefix: 'credit_note_prefix', counter: 'credit_note_next_number' };

/**
 * Whether a sales invoice, a quote or a customer's credit note carries
 * `number`: one statement, each arm a look-up by that table's index on number
 * (invoices_by_number and credit_notes_by_number are partial, kind = 'sales').
 */
async function numberTaken(trx: Kysely<OrgDb>, number: string): Promise<boolean> {
  const found = await trx
    .selectFrom('invoices')
    .select('id')
    .where('kind', '=', 'sales')
    .where('number', '=', number)
    .unionAll((eb) => eb.selectFrom('credit_notes').select('id').where('kind', '=', 'sales').where('number', '=', number))
    .unionAll((eb) => eb.selectFrom('quotes').select('id').where('number', '=', number))
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * The next free number of the series (prefix and the counter padded to four
 * digits, INV-0042), taken: the counter moves past it. One look-up by the
 * numbers' indexes per number tried, so numbers already taken cost a look-up
 * each, once: the counter then stands past them.
 */
export async function allocateNumber(trx: Kysely<OrgDb>, series: NumberSeries): Promise<string> {
  const org = await loadOrganisation(trx);
  const format = (n: number) => `${org[series.prefix]}${String(n).padStart(4, '0')}`;
  let next = org[series.counter];
  while (await numberTaken(trx, format(next))) next++;
  await trx
    .updateTable('organisation')
    .set(series.counter, next + 1)
    .execute();
  return format(next);
}
