/**
 * Creating an organisation (`acct init`): both datasets (live and test)
 * are provisioned alike (profile, settings, UK chart of accounts), then the
 * platform records the organisation, its trial and a live and a test key
 * with all scopes in one transaction. That transaction is the commit point:
 * when it (or the provisioning) fails, the new books are removed again; a
 * crash before it leaves only an unlisted folder.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, type Clock } from '../clock.js';
import { clearablePostcode, clearableText, isoDate, monthDay } from '../schema.js';
import { companyNumberField } from './company-number.js';
import { vatNumberField } from './vat-number.js';
import { provisionChart } from './chart.js';
import { provisionBankAccount } from './bank-setup.js';
import { provisionSeedRules } from '../categorisation/seed-rules.js';
import { insertKey } from '../integration/api-keys.js';
import { scopes } from '../scopes.js';
import { businessTypes, vatSchemes, type BusinessType } from './organisation.js';
import { flatRateBasisPoints, flatRatePercent, vatBases, vatStaggers } from './settings.js';
import { earlyAccessTrial, claimedSpots } from './early-access.js';
import { siteSetting } from '../site-settings.js';
import type { Kysely } from 'kysely';
import type { Store } from '../../store/store.js';
import type { PlatformDb } from '../../store/tables.js';

/** The UK tax year for sole traders; 1 April, the common company year end + 1, for companies. */
export const defaultFiscalYearStart: Readonly<Record<BusinessType, string>> = {
  sole_trader: '04-06',
  limited_company: '04-01',
};

export const newOrganisationSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    businessType: z.enum(businessTypes),
    vatScheme: z.enum(vatSchemes),
    vatFlatRatePercent: flatRatePercent().optional(),
    vatRegistrationDate: isoDate().optional(),
    vatStagger: z.enum(vatStaggers).optional(),
    vatPeriodMonth: z.number().int().min(1).max(12).optional(),
    vatAccountingBasis: z.enum(vatBases).optional(),
    fiscalYearStart: monthDay().optional(),
    vatNumber: vatNumberField().optional(),
    companyNumber: companyNumberField().optional(),
    addressLine1: clearableText(255).optional(),
    addressLine2: clearableText(255).optional(),
    city: clearableText(100).optional(),
    region: clearableText(100).optional(),
    postalCode: clearablePostcode().optional(),
  })
  .strict();

export type NewOrganisation = z.output<typeof newOrganisationSchema>;

export interface CreatedOrganisation {
  readonly organisationId: string;
  readonly apiKey: string;
  readonly testApiKey: string;
}

/** What the schema cannot say field by field: the flat rate with its scheme, a VAT number only when registered, a company number only for a company. */
export function checkNewOrganisation(input: NewOrganisation): void {
  if (input.vatScheme === 'flat_rate' && input.vatFlatRatePercent === undefined) {
    throw new AppError('validation_error', 'the flat_rate scheme needs a flat rate percentage', 'vatFlatRatePercent');
  }
  if (input.vatScheme !== 'flat_rate' && input.vatFlatRatePercent !== undefined) {
    throw new AppError('validation_error', 'a flat rate percentage applies only to the flat_rate scheme', 'vatFlatRatePercent');
  }
  if (input.vatScheme === 'not_registered' && input.vatNumber) {
    throw new AppError('validation_error', 'a business not registered for VAT has no VAT number', 'vatNumber');
  }
  if (input.businessType === 'sole_trader' && input.companyNumber) {
    throw new AppError('validation_error', 'a sole trader has no company number: only a limited company is registered at Companies House', 'companyNumber');
  }
}

/**
 * `also` runs inside the platform transaction that commits the organisation
 * (registration inserts its user there): both stand or neither does.
 */
export async function createOrganisation<T = undefined>(
  store: Store,
  clock: Clock,
  input: NewOrganisation,
  also?: (trx: Kysely<PlatformDb>, organisationId: string) => Promise<T>,
): Promise<CreatedOrganisation & { readonly also: T | undefined }> {
  checkNewOrganisation(input);
  const id = randomUUID();
  try {
    return await provision(store, clock, input, id, also);
  } catch (e) {
    // Not committed (registration's user refused, a failure on the way): its books go too, so a refusal leaves nothing behind.
    await store.removeOrg(id).catch((removal: unknown) => console.error(`warning: the books of organisation ${id} were not removed: ${String(removal)}`));
    throw e;
  }
}

/** The books of organisation `id`, provisioned, then the platform's records of it: createOrganisation's work. */
async function provision<T>(
  store: Store,
  clock: Clock,
  input: NewOrganisation,
  id: string,
  also: ((trx: Kysely<PlatformDb>, organisationId: string) => Promise<T>) | undefined,
): Promise<CreatedOrganisation & { readonly also: T | undefined }> {
  const now = timestamp(clock);
  const datasets = await store.createOrg(id);
  for (const handle of Object.values(datasets)) {
    await handle.write(async (trx) => {
      await trx
        .insertInto('organisation')
        .values({
          id,
          name: input.name,
          business_type: input.businessType,
          email: null,
          phone: null,
          website: null,
          vat_number: input.vatNumber ?? null,
          company_number: input.companyNumber ?? null,
          address_line1: input.addressLine1 ?? null,
          address_line2: input.addressLine2 ?? null,
          city: input.city ?? null,
          region: input.region ?? null,
          postal_code: input.postalCode ?? null,
          country: 'GB',
          currency: 'GBP',
          vat_scheme: input.vatScheme,
          vat_flat_rate_bp: input.vatFlatRatePercent === undefined ? null : flatRateBasisPoints(input.vatFlatRatePercent),
          fiscal_year_start: input.fiscalYearStart ?? defaultFiscalYearStart[input.businessType],
          invoice_prefix: 'INV-',
          invoice_next_number: 1,
          quote_prefix: 'QT-',
          quote_next_number: 1,
          credit_note_prefix: 'CN-',
          credit_note_next_number: 1,
          dividend_next_number: 1,
          default_payment_terms: 30,
          quote_validity_days: 30,
          vat_registration_date: input.vatRegistrationDate ?? null,
          vat_stagger: input.vatStagger ?? 'quarterly',
          vat_period_month: input.vatPeriodMonth ?? 3,
          vat_accounting_basis: input.vatAccountingBasis ?? 'accrual',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await provisionChart(trx, clock, input.businessType);
      await provisionBankAccount(trx, clock);
      await provisionSeedRules(trx, clock);
    });
  }
  return store.platform.write(async (trx) => {
    const { earlyAccess, trialDays: days } = earlyAccessTrial(await claimedSpots(trx), await siteSetting(trx, 'early_access_enabled'));
    const ends = new Date(clock.now().getTime() + days * 86_400_000).toISOString();
    await trx
      .insertInto('organisations')
      .values({ id, created_at: now, trial_days: days, trial_ends_at: ends, early_access: earlyAccess ? 1 : 0 })
      .execute();
    const live = await insertKey(trx, clock, { organisationId: id, mode: 'live', name: 'Default live key', scopes });
    const test = await insertKey(trx, clock, { organisationId: id, mode: 'test', name: 'Default test key', scopes });
    return { organisationId: id, apiKey: live.key, testApiKey: test.key, also: also ? await also(trx, id) : undefined };
  });
}
