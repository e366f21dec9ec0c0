/**
 * Moving the VAT registration back over sales recorded without VAT: sales
 * made while not registered (no VAT entries) or before the registration
 * date with a line stating no rate. Inside the registration they would be
 * in no return, their turnover silently dropped, so the settings refuse it
 * (422) and say how to put it right. Sales already counted as registered
 * (on or after the current date of a registration) are not looked at.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { addDays } from '../dates.js';
import type { OrganisationRow } from '../organisation/organisation.js';
import type { SettingsChange } from '../organisation/settings.js';
import type { OrgDb } from '../../store/tables.js';

/** Journals that can record a sale: manual ones, bank lines categorised, imported journals. */
const journalSources = ['manual', 'bank_import', 'import'];

interface Untaxed {
  readonly name: string;
  readonly date: string;
}

/** The sales dated from `since` (to the day before `until`, if given) recorded without VAT, oldest first. */
async function untaxedSales(db: Kysely<OrgDb>, since: string, until: string | null): Promise<Untaxed[]> {
  const documents = await db
    .selectFrom('invoices as d')
    .select(['d.id', 'd.number', 'd.issue_date as date'])
    .where('d.kind', '=', 'sales')
    .where('d.status', 'not in', ['draft', 'void'])
    .where('d.total', '!=', 0)
    .where('d.issue_date', '>=', since)
    .$if(until !== null, (q) => q.where('d.issue_date', '<', until!))
    .where((eb) =>
      eb.or([
        eb.not(eb.exists(eb.selectFrom('vat_entries as v').select('v.id').whereRef('v.document_id', '=', 'd.id').where('v.basis', '=', 'accrual'))),
        eb.exists(eb.selectFrom('document_items as i').select('i.id').whereRef('i.document_id', '=', 'd.id').where('i.vat_rate_name', 'is', null)),
      ]),
    )
    .execute();
  // A credit to a revenue account with no VAT facts is a sale recorded without VAT.
  const journals = await db
    .selectFrom('lines as l')
    .innerJoin('transactions as t', 't.id', 'l.transaction_id')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .select(['t.id', 't.description', 'l.date'])
    .distinct()
    .where('l.posted', '=', 1)
    .where('t.source_type', 'in', journalSources)
    .where('a.account_type', '=', 'revenue')
    .where('l.amount', '<', 0)
    .where('l.date', '>=', since)
    .$if(until !== null, (q) => q.where('l.date', '<', until!))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('vat_entries as v').select('v.id').whereRef('v.line_id', '=', 'l.id'))))
    .execute();
  return [
    ...documents.map((d) => ({ name: `invoice ${d.number ?? d.id}`, date: d.date })),
    ...journals.map((j) => ({ name: `journal ${j.description} (${j.id})`, date: j.date })),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/**
 * Refuse (422) a registration date, or a first registration, from a day
 * before sales recorded without VAT: from the new date up to the current
 * date of a registration already made, or onwards for a business
 * registering for the first time (whose sales were all made unregistered).
 */
export async function refuseRegistrationBeforeUntaxedSales(db: Kysely<OrgDb>, org: OrganisationRow, change: SettingsChange): Promise<void> {
  if ((change.vatScheme ?? org.vat_scheme) === 'not_registered') return;
  const neverRegistered =
    org.vat_scheme === 'not_registered' && (await db.selectFrom('vat_schemes').select('from_date').limit(1).executeTakeFirst()) === undefined;
  const since = change.vatRegistrationDate === undefined ? (neverRegistered ? org.vat_registration_date : null) : change.vatRegistrationDate;
  if (since === null) return;
  const until = neverRegistered ? null : org.vat_registration_date;
  // Already registered from an earlier day (or from the start, with no date): no day newly joins the registration.
  if (!neverRegistered && (until === null || since >= until)) return;
  const sales = await untaxedSales(db, since, until);
  const [first, last] = [sales[0], sales.at(-1)];
  if (first === undefined || last === undefined) return;
  const one = sales.length === 1;
  throw new AppError(
    'unprocessable_entity',
    `vatRegistrationDate cannot be ${since}: ${sales.length} ${one ? 'sale' : 'sales'} dated from it to ${last.date} ${one ? 'was' : 'were'} recorded without VAT ` +
      `(the first, ${first.name} of ${first.date}), and would be in no VAT return; void or credit ${one ? 'it' : 'them'} and issue ` +
      `${one ? 'it' : 'them'} again with VAT, or register from ${addDays(last.date, 1)} or later`,
    'vatRegistrationDate',
  );
}
