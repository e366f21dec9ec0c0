/**
 * Organisation settings: currency, VAT scheme, fiscal year start, and the
 * numbering of invoices, quotes and credit notes. GET and PUT /organisation/settings.
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { monthDay } from '../schema.js';
import { loadOrganisation, vatSchemes, type OrganisationRow } from './organisation.js';
import type { Kysely } from 'kysely';
import type { OrgDb, OrganisationTable } from '../../store/tables.js';

export function settingsView(row: OrganisationRow) {
  return {
    currency: row.currency,
    vatScheme: row.vat_scheme,
    vatRegistered: row.vat_scheme !== 'not_registered',
    vatFlatRatePercent: row.vat_flat_rate_bp === null ? null : row.vat_flat_rate_bp / 100,
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

export const flatRatePercent = () =>
  z
    .number()
    .gt(0)
    .max(100)
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

const prefix = () =>
  z
    .string()
    .max(20)
    .regex(/^[A-Za-z0-9\-_/.]*$/, 'may contain only letters, digits and - _ / .');

export const getSettings = defineOperation({
  name: 'settings.get',
  summary: 'Show the organisation settings',
  access: 'any-key',
  method: 'GET',
  path: '/organisation/settings',
  async run(ctx) {
    return { data: settingsView(await loadOrganisation(orgOf(ctx).db)) };
  },
});

export const updateSettings = defineOperation({
  name: 'settings.update',
  summary: 'Change organisation settings (partial: fields left out stay as they are)',
  description:
    'Changing vatScheme to flat_rate needs vatFlatRatePercent; leaving flat_rate clears it. ' +
    'fiscalYearStart cannot change once a period has been closed.',
  access: 'all-scopes',
  method: 'PUT',
  path: '/organisation/settings',
  body: {
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as GBP')
      .optional(),
    vatScheme: z.enum(vatSchemes).optional(),
    vatFlatRatePercent: flatRatePercent().nullable().optional(),
    fiscalYearStart: monthDay().optional(),
    invoicePrefix: prefix().optional(),
    invoiceNextNumber: z.number().int().min(1).max(999_999_999).optional(),
    quotePrefix: prefix().optional(),
    quoteNextNumber: z.number().int().min(1).max(999_999_999).optional(),
    creditNotePrefix: prefix().optional(),
    creditNoteNextNumber: z.number().int().min(1).max(999_999_999).optional(),
    defaultPaymentTerms: z.number().int().min(0).max(365).optional(),
    quoteValidityDays: z.number().int().min(1).max(365).optional(),
  },
  async run(ctx, input) {
    const org = orgOf(ctx);
    const row = await org.write(async (trx) => {
      const current = await loadOrganisation(trx);
      const scheme = input.vatScheme ?? current.vat_scheme;
      let flatRate = current.vat_flat_rate_bp;
      if (scheme === 'flat_rate') {
        if (input.vatFlatRatePercent !== undefined) flatRate = input.vatFlatRatePercent === null ? null : flatRateBasisPoints(input.vatFlatRatePercent);
        if (flatRate === null) {
          throw new AppError('validation_error', 'vatFlatRatePercent is required for the flat_rate scheme', 'vatFlatRatePercent');
        }
      } else {
        if (input.vatFlatRatePercent !== undefined && input.vatFlatRatePercent !== null) {
          throw new AppError('validation_error', 'vatFlatRatePercent applies only to the flat_rate scheme', 'vatFlatRatePercent');
        }
        flatRate = null;
      }
      if (input.fiscalYearStart !== undefined && input.fiscalYearStart !== current.fiscal_year_start && (await hasClosedPeriods(trx))) {
        throw new AppError('unprocessable_entity', 'fiscalYearStart cannot change after a period has been closed');
      }
      const changes: Partial<OrganisationTable> = {
        currency: input.currency,
        vat_scheme: input.vatScheme,
        vat_flat_rate_bp: flatRate,
        fiscal_year_start: input.fiscalYearStart,
        invoice_prefix: input.invoicePrefix,
        invoice_next_number: input.invoiceNextNumber,
        quote_prefix: input.quotePrefix,
        quote_next_number: input.quoteNextNumber,
        credit_note_prefix: input.creditNotePrefix,
        credit_note_next_number: input.creditNoteNextNumber,
        default_payment_terms: input.defaultPaymentTerms,
        quote_validity_days: input.quoteValidityDays,
        updated_at: timestamp(ctx.clock),
      };
      await trx.updateTable('organisation').set(changes).execute();
      return loadOrganisation(trx);
    });
    return { data: settingsView(row) };
  },
});
