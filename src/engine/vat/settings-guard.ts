/**
 * What the VAT settings may become, given the returns: once a return is
 * filed its period is fixed, so the settings that make the periods
 * (vatStagger, vatPeriodMonth, vatRegistrationDate) keep them, or new
 * periods would overlap filed ones and the same days could be filed twice
 * (409 conflict). The organisation's settings call it before they change.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { OrganisationRow } from '../organisation/organisation.js';
import type { SettingsChange } from '../organisation/settings.js';
import { periodEndOn } from './periods.js';
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

/** Refuse a change of the VAT settings that the books cannot take. */
export async function refuseVatSettingsChange(trx: Kysely<OrgDb>, org: OrganisationRow, change: SettingsChange): Promise<void> {
  await refusePeriodChange(trx, org, change);
}
