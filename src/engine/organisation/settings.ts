/**
 * Organisation settings: currency, VAT scheme, fiscal year start, and the
 * numbering of invoices, quotes and credit notes; as shown, and changing
 * them. The operations are in settings/settings-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, type Clock } from '../clock.js';
import { loadOrganisation, vatSchemes, type OrganisationRow, type VatScheme } from './organisation.js';
import type { OrgDb, OrganisationTable, VatBasis, VatStagger } from '../../store/tables.js';

export const vatStaggers = ['quarterly', 'monthly', 'annual'] as const satisfies readonly VatStagger[];
export const vatBases = ['accrual', 'cash'] as const satisfies readonly VatBasis[];

const nextNumber = () => z.number().int().describe('the number the next one gets');

export const settingsSchema = z.strictObject({
  currency: z.string().describe('ISO 4217'),
  vatScheme: z.enum(vatSchemes),
  vatRegistered: z.boolean().describe('vatScheme is not not_registered'),
  vatFlatRatePercent: z.number().nullable().describe('the flat rate of the flat_rate scheme, else null'),
  vatSchemeFrom: z
    .string()
    .nullable()
    .describe(
      'YYYY-MM-DD: the first day of the VAT period vatScheme (and its flat rate) took or takes effect from; not_registered: the first day not registered ' +
        '(the final VAT period ends the day before); null when it has held throughout',
    ),
  vatRegistrationDate: z.string().nullable().describe('YYYY-MM-DD: the effective date of VAT registration; the first VAT period starts there'),
  vatStagger: z.enum(vatStaggers).describe('how VAT periods run: quarterly, monthly or annual'),
  vatPeriodMonth: z.number().int().describe('1-12: a month in which a VAT period ends (quarterly: that month and every third after; annual: that month)'),
  vatAccountingBasis: z.enum(vatBases).describe('accrual (invoice dates) or cash (payment dates, VAT Notice 731); every return not yet filed takes it'),
  fiscalYearStart: z.string().describe('MM-DD: the day each fiscal year (financial period) starts'),
  invoicePrefix: z.string(),
  invoiceNextNumber: nextNumber(),
  quotePrefix: z.string(),
  quoteNextNumber: nextNumber(),
  creditNotePrefix: z.string(),
  creditNoteNextNumber: nextNumber(),
  defaultPaymentTerms: z.number().int().describe('days'),
  quoteValidityDays: z.number().int(),
});
export type Settings = z.output<typeof settingsSchema>;

/**
 * The day the latest change of VAT scheme takes effect (the scheme the
 * settings show; leaving VAT, the first day not registered), or null when
 * there has been none after VAT entries were made. The vat_schemes table is vat/schemes.ts's; read here, as the
 * settings are shown in this layer.
 */
export async function schemeChangedFrom(db: Kysely<OrgDb>): Promise<string | null> {
  const row = await db
    .selectFrom('vat_schemes')
    .select(['from_date', 'scheme'])
    .where('from_date', '!=', '1900-01-01')
    .orderBy('from_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (row === undefined) return null;
  // Not registered: the day it left VAT when that is dated, else null (it left before acct dated leaving).
  const leftDated = row.scheme === 'not_registered';
  return leftDated === ((await loadOrganisation(db)).vat_scheme === 'not_registered') ? row.from_date : null;
}

/** The settings of `row`; `schemeFrom` is schemeChangedFrom's answer. */
export function settingsView(row: OrganisationRow, schemeFrom: string | null): Settings {
  return {
    currency: row.currency,
    vatScheme: row.vat_scheme,
    vatRegistered: row.vat_scheme !== 'not_registered',
    vatFlatRatePercent: row.vat_flat_rate_bp === null ? null : row.vat_flat_rate_bp / 100,
    vatSchemeFrom: schemeFrom,
    vatRegistrationDate: row.vat_registration_date,
    vatStagger: row.vat_stagger,
    vatPeriodMonth: row.vat_period_month,
    vatAccountingBasis: row.vat_accounting_basis,
    fiscalYearStart: row.fiscal_year_start,
    invoicePrefix: row.invoice_prefix,
    invoiceNextNumber: row.invoice_next_number,
    quotePrefix: row.quote_prefix,
    quoteNextNumber: row.quote_next_number,
    creditNotePrefix: row.credit_note_prefix,
    creditNoteNextNumber: row.credit_note_next_number,
    defaultPaymentTerms: row.default_payment_terms,
    quoteValidityDays: row.quote_validity_days,
  };
}

/** A flat rate percentage (up to two decimal places) as basis points. */
export function flatRateBasisPoints(percent: number): number | null {
  const bp = Math.round(percent * 100);
  return Math.abs(bp - percent * 100) < 1e-6 ? bp : null;
}

/** HMRC's flat rates (VAT Notice 733) run from 4% (retailing food) to 16.5% (a limited cost trader); the first-year discount is applied to the rate stored, not entered. */
const flatRateRange = "must be from 4 to 16.5: HMRC's flat rates run from 4% (retailing food) to 16.5% (a limited cost trader)";

export const flatRatePercent = () =>
  z
    .number()
    .min(4, { message: flatRateRange })
    .max(16.5, { message: flatRateRange })
    .refine((v) => flatRateBasisPoints(v) !== null, { message: 'must have at most two decimal places' });

/**
 * Whether any period has been closed. Read here rather than asked of
 * ledger/periods, which builds its periods from these settings: the
 * organisation stays the layer below the ledger.
 */
async function hasClosedPeriods(db: Kysely<OrgDb>): Promise<boolean> {
  const row = await db.selectFrom('closed_periods').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Whether anything in the books is in their currency: a transaction (draft or posted), an invoice or bill, a quote or a credit note. */
async function holdsEntries(db: Kysely<OrgDb>): Promise<boolean> {
  for (const table of ['transactions', 'invoices', 'quotes', 'credit_notes'] as const) {
    if ((await db.selectFrom(table).select('id').limit(1).executeTakeFirst()) !== undefined) return true;
  }
  return false;
}

export interface SettingsChange {
  readonly currency?: string;
  readonly vatScheme?: VatScheme;
  readonly vatFlatRatePercent?: number | null;
  /** The first day of the VAT period from which a change of scheme takes effect (vat/schemes.ts); not a column. */
  readonly vatSchemeFrom?: string;
  readonly vatRegistrationDate?: string | null;
  readonly vatStagger?: VatStagger;
  readonly vatPeriodMonth?: number;
  readonly vatAccountingBasis?: VatBasis;
  readonly fiscalYearStart?: string;
  readonly invoicePrefix?: string;
  readonly invoiceNextNumber?: number;
  readonly quotePrefix?: string;
  readonly quoteNextNumber?: number;
  readonly creditNotePrefix?: string;
  readonly creditNoteNextNumber?: number;
  readonly defaultPaymentTerms?: number;
  readonly quoteValidityDays?: number;
}

/**
 * Change the settings given. The flat_rate scheme needs its rate, leaving
 * it clears the rate; the fiscal year start is fixed once a period has
 * been closed, the currency once the books hold anything in it. The row as
 * it is now.
 */
export async function changeSettings(trx: Kysely<OrgDb>, clock: Clock, change: SettingsChange): Promise<OrganisationRow> {
  const current = await loadOrganisation(trx);
  const scheme = change.vatScheme ?? current.vat_scheme;
  let flatRate = current.vat_flat_rate_bp;
  if (scheme === 'flat_rate') {
    if (change.vatFlatRatePercent !== undefined) flatRate = change.vatFlatRatePercent === null ? null : flatRateBasisPoints(change.vatFlatRatePercent);
    if (flatRate === null) {
      throw new AppError('validation_error', 'vatFlatRatePercent is required for the flat_rate scheme', 'vatFlatRatePercent');
    }
  } else {
    if (change.vatFlatRatePercent !== undefined && change.vatFlatRatePercent !== null) {
      throw new AppError('validation_error', 'vatFlatRatePercent applies only to the flat_rate scheme', 'vatFlatRatePercent');
    }
    flatRate = null;
  }
  if (change.currency !== undefined && change.currency !== current.currency && (await holdsEntries(trx))) {
    throw new AppError(
      'unprocessable_entity',
      `currency cannot change from ${current.currency} once the books hold a transaction or a document: acct keeps single-currency books`,
      'currency',
    );
  }
  if (change.fiscalYearStart !== undefined && change.fiscalYearStart !== current.fiscal_year_start && (await hasClosedPeriods(trx))) {
    throw new AppError('unprocessable_entity', 'fiscalYearStart cannot change after a period has been closed');
  }
  const changes: Partial<OrganisationTable> = {
    currency: change.currency,
    vat_scheme: change.vatScheme,
    vat_flat_rate_bp: flatRate,
    vat_registration_date: change.vatRegistrationDate,
    vat_stagger: change.vatStagger,
    vat_period_month: change.vatPeriodMonth,
    vat_accounting_basis: change.vatAccountingBasis,
    fiscal_year_start: change.fiscalYearStart,
    invoice_prefix: change.invoicePrefix,
    invoice_next_number: change.invoiceNextNumber,
    quote_prefix: change.quotePrefix,
    quote_next_number: change.quoteNextNumber,
    credit_note_prefix: change.creditNotePrefix,
    credit_note_next_number: change.creditNoteNextNumber,
    default_payment_terms: change.defaultPaymentTerms,
    quote_validity_days: change.quoteValidityDays,
    updated_at: timestamp(clock),
  };
  await trx.updateTable('organisation').set(changes).execute();
  return loadOrganisation(trx);
}
