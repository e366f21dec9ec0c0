/**
 * What stands in the way of closing a financial year: work that the closed
 * year would make impossible for ever, since nothing dated in it or before
 * it may be written again.
 *
 * - A VAT return not filed for a period that ends in the year or before it.
 *   Filing posts its settlement journal on the period's last day, which the
 *   close would shut, and every later return waits for it (returns are filed
 *   in order). A period that ends after the year end is filed as usual: its
 *   settlement falls in the next year.
 * - Transactions with a line on the suspense account 9999 (bank lines not yet
 *   categorised): categorising one rewrites its entry.
 *
 * - Draft journals (entered by hand or imported): one dated in a closed year
 *   could never be posted, changed or deleted.
 *
 * Draft documents are no bar: an invoice's or bill's draft may still leave
 * the closed year (re-dated or deleted).
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { Clock } from '../clock.js';
import { addDays } from '../dates.js';
import { journalSources } from '../ledger/transactions.js';
import { deregisteredFrom, loadOrganisation } from '../organisation/organisation.js';
import { periodEndOn, periodEnding } from '../vat/periods.js';
import { firstStart, postedEntries, registration } from '../vat/returns.js';
import type { OrgDb } from '../../store/tables.js';

/** 422 naming each thing left to do before the year (`name`, ending `endDate`) may be closed; nothing when none is. */
export async function refuseUnfinished(db: Kysely<OrgDb>, clock: Clock, year: { readonly name: string; readonly endDate: string }): Promise<void> {
  const reasons = [...(await unfiledVat(db, clock, year.endDate)), ...(await onSuspense(db, year.endDate)), ...(await draftJournals(db, year.endDate))];
  if (reasons.length > 0) throw new AppError('unprocessable_entity', `${year.name} cannot be closed yet: ${reasons.join('; ')}`);
}

async function unfiledVat(db: Kysely<OrgDb>, clock: Clock, yearEnd: string): Promise<string[]> {
  const row = await loadOrganisation(db);
  // Left VAT from a day: the returns up to it are still to file; left before acct dated it (or never registered): none.
  if (row.vat_scheme === 'not_registered' && (await deregisteredFrom(db, row)) === null) return [];
  const { org, lastDay } = await registration(db, row);
  const start = await firstStart(db, org, clock);
  // The last VAT period that ends on or before the year end: the one holding it when it ends there, else the one before.
  const holding = periodEnding(org, periodEndOn(org, yearEnd), start, lastDay).end;
  const lastEnd = holding <= yearEnd ? holding : addDays(periodEnding(org, holding, start).start, -1);
  const earliest = await postedEntries(db, org.vat_accounting_basis, start, lastEnd, true)
    .select('e.date')
    .where('e.return_id', 'is', null)
    .orderBy('e.date')
    .limit(1)
    .executeTakeFirst();
  if (earliest === undefined) return [];
  const period = periodEnding(org, periodEndOn(org, earliest.date < start ? start : earliest.date), start, lastDay);
  return [
    `the VAT return for ${period.start} to ${period.end} (${period.key}) is not filed: file it and the returns after it up to ${lastEnd} first, as filing posts each one's settlement on its last day`,
  ];
}

async function onSuspense(db: Kysely<OrgDb>, yearEnd: string): Promise<string[]> {
  const row = await db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .where('lines.posted', '=', 1)
    .where('lines.date', '<=', yearEnd)
    .where('accounts.code', '=', '9999')
    .select((eb) => eb.fn.count<number>('lines.transaction_id').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return n === 0 ? [] : [`${n} transaction${n === 1 ? ' is' : 's are'} still on the suspense account 9999: categorise them first`];
}

async function draftJournals(db: Kysely<OrgDb>, yearEnd: string): Promise<string[]> {
  const row = await db
    .selectFrom('transactions')
    .where('status', '=', 'draft')
    .where('source_type', 'in', [...journalSources])
    .where('date', '<=', yearEnd)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return n === 0 ? [] : [`${n} draft journal${n === 1 ? ' is' : 's are'} dated in it or before: post or delete ${n === 1 ? 'it' : 'them'} first`];
}
