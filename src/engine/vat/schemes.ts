/**
 * Which VAT scheme a period's return is made under. A change between the
 * standard and flat rate schemes (or of the flat rate) takes effect from
 * the start of a VAT period, as HMRC starts and ends the Flat Rate Scheme
 * (VAT Notice 733): by default the period holding today, or the period
 * start named (vatSchemeFrom: an earlier one not yet filed, to backdate; a
 * later one, to schedule). The periods before keep the scheme they were
 * made under. The organisation's row holds the latest scheme; the
 * vat_schemes table (empty until a change follows VAT entries dated before
 * it: until then the scheme is in force throughout) the scheme in force
 * from each day.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { addDays } from '../dates.js';
import { today, type Clock } from '../clock.js';
import { flatRateBasisPoints, type SettingsChange } from '../organisation/settings.js';
import type { OrganisationRow } from '../organisation/organisation.js';
import { periodEnding, periodEndOn } from './periods.js';
import type { OrgDb } from '../../store/tables.js';

const registeredScheme = (s: OrganisationRow['vat_scheme']): s is 'standard' | 'flat_rate' => s === 'standard' || s === 'flat_rate';

/**
 * Record a change of the VAT scheme between standard and flat rate (or of
 * the flat rate) from the start of a VAT period: the period holding today,
 * or `vatSchemeFrom`, which must start a period (400) after the last one
 * filed (409). A vatSchemeFrom with no such change is 400. Registering
 * again after leaving VAT is recorded the same way once schemes have been.
 * Called before the settings change, in the same transaction.
 */
export async function recordSchemeChange(trx: Kysely<OrgDb>, clock: Clock, org: OrganisationRow, change: SettingsChange, firstStart: string): Promise<void> {
  const scheme = change.vatScheme ?? org.vat_scheme;
  const bp =
    scheme !== 'flat_rate'
      ? null
      : change.vatFlatRatePercent === undefined
        ? org.vat_flat_rate_bp
        : change.vatFlatRatePercent === null
          ? null
          : flatRateBasisPoints(change.vatFlatRatePercent);
  const history = await trx.selectFrom('vat_schemes').select('from_date').limit(1).executeTakeFirst();
  // Registering again after leaving VAT is a change too once there is a history: the schemes it records would otherwise
  // hold for the new registration's periods (leaving waits for every entry's return to be filed, so none before is moved).
  const changes =
    registeredScheme(scheme) && (registeredScheme(org.vat_scheme) ? scheme !== org.vat_scheme || bp !== org.vat_flat_rate_bp : history !== undefined);
  const named = change.vatSchemeFrom;
  if (!changes) {
    if (named !== undefined)
      throw new AppError(
        'validation_error',
        'vatSchemeFrom: only with a change between the standard and flat_rate schemes, or of vatFlatRatePercent',
        'vatSchemeFrom',
      );
    return;
  }
  // A flat rate scheme with no rate is refused by the settings themselves.
  if (bp === null && scheme === 'flat_rate') return;
  const now = today(clock);
  const current = periodEnding(org, periodEndOn(org, now < firstStart ? firstStart : now), firstStart).start;
  const from = named ?? current;
  const dayBefore = addDays(from, -1);
  if (from !== firstStart && (from < firstStart || periodEndOn(org, dayBefore) !== dayBefore)) {
    throw new AppError(
      'validation_error',
      `vatSchemeFrom: ${from} does not start a VAT period: a scheme changes from the first day of one (${current} starts the period holding today)`,
      'vatSchemeFrom',
    );
  }
  const filed = await trx
    .selectFrom('vat_returns')
    .select(['period_start', 'period_end'])
    .where('period_end', '>=', from)
    .orderBy('period_end')
    .limit(1)
    .executeTakeFirst();
  if (filed) {
    throw new AppError(
      'conflict',
      `vatSchemeFrom: the VAT return for ${filed.period_start} to ${filed.period_end} is filed under the scheme in force then; a change takes effect after the last filed period`,
      'vatSchemeFrom',
    );
  }
  if (!history) {
    // Nothing dated before it was made under the old scheme (a scheme set just after setting up): the new one is in force throughout.
    const before = await trx.selectFrom('vat_entries').select('id').where('date', '<', from).limit(1).executeTakeFirst();
    if (!before) return;
    await trx
      .insertInto('vat_schemes')
      .values({ from_date: '1900-01-01', scheme: org.vat_scheme as 'standard' | 'flat_rate', flat_rate_bp: org.vat_flat_rate_bp })
      .execute();
  }
  // A change from a day replaces any made from that day or later.
  await trx.deleteFrom('vat_schemes').where('from_date', '>=', from).where('from_date', '!=', '1900-01-01').execute();
  await trx.insertInto('vat_schemes').values({ from_date: from, scheme, flat_rate_bp: bp }).execute();
}

/**
 * Record leaving VAT from `from`, the first day not registered: the
 * history gains not_registered from that day (replacing any change from it
 * or later), and the scheme before it from 1900-01-01 when it had none, so
 * the days before keep the scheme they were registered under. Called once
 * settings-guard.ts has checked the day, before the settings change.
 */
export async function recordDeregistration(trx: Kysely<OrgDb>, org: OrganisationRow, from: string): Promise<void> {
  const history = await trx.selectFrom('vat_schemes').select('from_date').limit(1).executeTakeFirst();
  if (!history) {
    await trx.insertInto('vat_schemes').values({ from_date: '1900-01-01', scheme: org.vat_scheme, flat_rate_bp: org.vat_flat_rate_bp }).execute();
  }
  await trx.deleteFrom('vat_schemes').where('from_date', '>=', from).where('from_date', '!=', '1900-01-01').execute();
  await trx.insertInto('vat_schemes').values({ from_date: from, scheme: 'not_registered', flat_rate_bp: null }).execute();
}
