/**
 * What the VAT settings may become, given the returns: once a return is
 * filed its period is fixed, so the settings that make the periods
 * (vatStagger, vatPeriodMonth, vatRegistrationDate) keep them, or new
 * periods would overlap filed ones and the same days could be filed twice
 * (409 conflict). Leaving VAT (not_registered) is from a day after the
 * last filed period, the final period ending the day before (schemes.ts
 * records it). The registration date cannot move
 * past a sale that charged VAT, nor back over one recorded without VAT
 * (422, untaxed-sales.ts). A change of scheme is recorded from
 * the period it takes effect (schemes.ts). The organisation's settings
 * call it before they change.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { today, type Clock } from '../clock.js';
import { addDays } from '../dates.js';
import type { OrganisationRow } from '../organisation/organisation.js';
import type { SettingsChange } from '../organisation/settings.js';
import { periodEndOn } from './periods.js';
import { firstStart } from './returns.js';
import { recordDeregistration, recordSchemeChange } from './schemes.js';
import { refuseRegistrationBeforeUntaxedSales } from './untaxed-sales.js';
import type { OrgDb } from '../../store/tables.js';

type Stagger = Pick<OrganisationRow, 'vat_stagger' | 'vat_period_month'>;

/** Whether two staggers end their periods in the same months (quarters ending in March or in June are the same quarters). */
function sameEnds(a: Stagger, b: Stagger): boolean {
  for (let month = 1; month <= 12; month += 1) {
    const day = `2001-${String(month).padStart(2, '0')}-01`;
    if (periodEndOn(a, day) !== periodEndOn(b, day)) return false;
  }
  return true;
}

/** The field of `change` that would move the periods, or null when they stay. */
function periodField(org: OrganisationRow, change: SettingsChange): 'vatStagger' | 'vatPeriodMonth' | 'vatRegistrationDate' | null {
  if (change.vatRegistrationDate !== undefined && change.vatRegistrationDate !== org.vat_registration_date) return 'vatRegistrationDate';
  const next = { vat_stagger: change.vatStagger ?? org.vat_stagger, vat_period_month: change.vatPeriodMonth ?? org.vat_period_month };
  if (sameEnds(org, next)) return null;
  return next.vat_stagger !== org.vat_stagger ? 'vatStagger' : 'vatPeriodMonth';
}

/** Refuse (409 conflict) a change of the periods once a return is filed. */
async function refusePeriodChange(trx: Kysely<OrgDb>, org: OrganisationRow, change: SettingsChange): Promise<void> {
  const field = periodField(org, change);
  if (field === null) return;
  const filed = await trx.selectFrom('vat_returns').select(['period_start', 'period_end']).orderBy('period_end', 'desc').limit(1).executeTakeFirst();
  if (!filed) return;
  throw new AppError(
    'conflict',
    `${field} cannot change: the VAT return for ${filed.period_start} to ${filed.period_end} is filed, and periods made by the new settings ` +
      'would overlap the filed ones, so that the same days could be filed twice; filed returns fix the VAT periods',
    field,
  );
}

/**
 * Leaving VAT (not_registered) from a day, vatSchemeFrom (default today):
 * the first day not registered, so the final period ends the day before.
 * Refused from a day inside a filed period (409: that return counted VAT up
 * to its end), on or before the first period's start (400: nothing would
 * be left registered), or with VAT entries dated from it (409: a document
 * charging or reclaiming VAT while not registered). Entries dated before it
 * reach the returns up to the final one as they did while registered.
 */
async function refuseDeregistration(trx: Kysely<OrgDb>, clock: Clock, org: OrganisationRow, change: SettingsChange): Promise<string | null> {
  if (change.vatScheme !== 'not_registered' || org.vat_scheme === 'not_registered') return null;
  const from = change.vatSchemeFrom ?? today(clock);
  const filed = await trx
    .selectFrom('vat_returns')
    .select(['period_start', 'period_end'])
    .where('period_end', '>=', from)
    .orderBy('period_end', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (filed) {
    throw new AppError(
      'conflict',
      `vatSchemeFrom: registration cannot end on ${addDays(from, -1)}: the VAT return for ${filed.period_start} to ${filed.period_end} is filed; ` +
        `leave from ${addDays(filed.period_end, 1)} or later (vatSchemeFrom is the first day not registered)`,
      'vatSchemeFrom',
    );
  }
  const first = await firstStart(trx, org, clock);
  if (from <= first) {
    throw new AppError(
      'validation_error',
      `vatSchemeFrom: ${from} is not after the first VAT period's start, ${first}: leaving is from the first day not registered, after the registration began`,
      'vatSchemeFrom',
    );
  }
  const after = await trx
    .selectFrom('vat_entries as e')
    .innerJoin('transactions as t', 't.id', 'e.transaction_id')
    .select((eb) => [eb.fn.count<number>('e.id').as('n'), eb.fn.min<string>('e.date').as('d')])
    .where('t.status', '=', 'posted')
    .where('e.basis', '!=', 'cash')
    .where('e.date', '>=', from)
    .executeTakeFirstOrThrow();
  if (Number(after.n) > 0) {
    throw new AppError(
      'conflict',
      `vatSchemeFrom: ${after.n} VAT ${Number(after.n) === 1 ? 'entry is' : 'entries are'} dated from ${from} (the first on ${after.d}), ` +
        'when the organisation would not be registered; leave from a later day, or void or redate those documents first',
      'vatSchemeFrom',
    );
  }
  return from;
}

/** Refuse (422) a registration date after a sale that charged VAT: a business charges none before it registers (its VAT would reach no return). */
async function refuseRegistrationAfterSales(trx: Kysely<OrgDb>, org: OrganisationRow, change: SettingsChange): Promise<void> {
  const since = change.vatRegistrationDate;
  if (since === undefined || since === null || (org.vat_registration_date !== null && since <= org.vat_registration_date)) return;
  const sale = await trx
    .selectFrom('vat_entries as e')
    .innerJoin('transactions as t', 't.id', 'e.transaction_id')
    .select('e.date')
    .where('t.status', '=', 'posted')
    .where('e.direction', '=', 'sale')
    .where('e.basis', '!=', 'cash')
    .where('e.vat', '!=', 0)
    .where('e.date', '<', since)
    .orderBy('e.date')
    .limit(1)
    .executeTakeFirst();
  if (!sale) return;
  throw new AppError(
    'unprocessable_entity',
    `vatRegistrationDate cannot be ${since}: a sale dated ${sale.date} charged VAT, and a business charges none before it is registered ` +
      `(its VAT would reach no return); the registration date is on or before ${sale.date}`,
    'vatRegistrationDate',
  );
}

/** Refuse a change of the VAT settings that the books cannot take. */
export async function refuseVatSettingsChange(trx: Kysely<OrgDb>, clock: Clock, org: OrganisationRow, change: SettingsChange): Promise<void> {
  await refusePeriodChange(trx, org, change);
  const leaving = await refuseDeregistration(trx, clock, org, change);
  await refuseRegistrationAfterSales(trx, org, change);
  await refuseRegistrationBeforeUntaxedSales(trx, org, change);
  if (leaving !== null) await recordDeregistration(trx, org, leaving);
  else await recordSchemeChange(trx, clock, org, change, await firstStart(trx, org, clock));
}
