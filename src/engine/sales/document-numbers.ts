/**
 * The one number allocator of invoices, quotes and credit notes: the
 * organisation's prefix and next number for the series, read and bumped
 * inside the caller's write transaction, so that two writers never take
 * the same number. A number already used (the counter set back by hand)
 * is refused rather than given twice.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { OrgDb } from '../../store/tables.js';

export interface NumberSeries {
  readonly noun: string;
  readonly prefix: 'invoice_prefix' | 'quote_prefix' | 'credit_note_prefix';
  readonly counter: 'invoice_next_number' | 'quote_next_number' | 'credit_note_next_number';
  /** The organisation setting that moves the counter, named in the refusal of a number already used. */
  readonly setting: string;
  /** What already carries `number` in this series, if anything. */
  takenBy(trx: Kysely<OrgDb>, number: string): Promise<{ readonly id: string } | undefined>;
}

export const invoiceNumbers: NumberSeries = {
  noun: 'invoice',
  prefix: 'invoice_prefix',
  counter: 'invoice_next_number',
  setting: 'invoiceNextNumber',
  takenBy: (trx, number) => trx.selectFrom('invoices').select('id').where('kind', '=', 'sales').where('number', '=', number).executeTakeFirst(),
};

export const quoteNumbers: NumberSeries = {
  noun: 'quote',
  prefix: 'quote_prefix',
  counter: 'quote_next_number',
  setting: 'quoteNextNumber',
  takenBy: (trx, number) => trx.selectFrom('quotes').select('id').where('number', '=', number).executeTakeFirst(),
};

/** Customers' credit notes only: a supplier's credit note keeps the supplier's number. */
export const creditNoteNumbers: NumberSeries = {
  noun: 'credit note',
  prefix: 'credit_note_prefix',
  counter: 'credit_note_next_number',
  setting: 'creditNoteNextNumber',
  takenBy: (trx, number) => trx.selectFrom('credit_notes').select('id').where('kind', '=', 'sales').where('number', '=', number).executeTakeFirst(),
};

/** The next number of the series (prefix and the counter padded to four digits, INV-0042), taken: the counter moves on. */
export async function allocateNumber(trx: Kysely<OrgDb>, series: NumberSeries): Promise<string> {
  const org = await loadOrganisation(trx);
  const next = org[series.counter];
  const number = `${org[series.prefix]}${String(next).padStart(4, '0')}`;
  const taken = await series.takenBy(trx, number);
  if (taken) {
    throw new AppError(
      'duplicate_entry',
      `${series.noun} number ${number} is already used by ${taken.id}: set ${series.setting} in the organisation settings past it`,
    );
  }
  await trx
    .updateTable('organisation')
    .set(series.counter, next + 1)
    .execute();
  return number;
}
