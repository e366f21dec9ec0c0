/**
 * The operations of the organisation's settings (GET and PUT
 * /organisation/settings). An area of their own, above organisation and
 * vat: a change is checked against the VAT returns filed (vat), and vat
 * reads the organisation, so the check cannot live in organisation.
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { currencyCode, isoDate, monthDay } from '../schema.js';
import { loadOrganisation, vatSchemes } from '../organisation/organisation.js';
import { refuseVatSettingsChange } from '../vat/settings-guard.js';
import { changeSettings, flatRatePercent, schemeChangedFrom, settingsSchema, settingsView, vatBases, vatStaggers } from '../organisation/settings.js';

export const getSettings = defineOperation({
  name: 'settings.get',
  summary: 'Show the organisation settings',
  access: 'any-key',
  method: 'GET',
  path: '/organisation/settings',
  output: settingsSchema,
  async run(ctx) {
    const db = orgOf(ctx).db;
    return { data: settingsView(await loadOrganisation(db), await schemeChangedFrom(db)) };
  },
});

/**
 * A document-number prefix. Numbers become file names (a PDF's suggested
 * name, an e-mail attachment), so a prefix can name no other directory:
 * no dots, and no slash first. A slash may end it: the number follows, so
 * it still sits inside the document number (INV/2026/0001).
 */
const prefix = () =>
  z
    .string()
    .max(20)
    .regex(/^(?:[A-Za-z0-9_-][A-Za-z0-9_/-]*)?$/, 'may contain only letters, digits, - _ and /, and may not start with /')
    .describe('up to 20 letters, digits, - _ and / (not first), put before the number');

const nextNumber = () => z.number().int().min(1).max(999_999_999).optional();

export const updateSettings = defineOperation({
  name: 'settings.update',
  summary: 'Change organisation settings (partial: fields left out stay as they are)',
  description:
    'Changing vatScheme to flat_rate needs vatFlatRatePercent; leaving flat_rate clears it. ' +
    'fiscalYearStart cannot change once a period has been closed. ' +
    'Once a VAT return is filed, vatStagger, vatPeriodMonth and vatRegistrationDate keep the periods they make (409 conflict); ' +
    'vatScheme not_registered ends the registration the day before vatSchemeFrom (default today): documents dated before it keep VAT, ' +
    'and the final VAT period ends that day; vatSchemeFrom on or before the end of a filed period, or with VAT entries dated from it, is 409 conflict. ' +
    'A change between standard and flat_rate, or of vatFlatRatePercent, takes effect from the start of the VAT period holding today, or of the period vatSchemeFrom names ' +
    '(after the last filed one: 409); the returns before it keep the scheme in force then.',
  access: 'all-scopes',
  method: 'PUT',
  path: '/organisation/settings',
  body: {
    currency: currencyCode().optional(),
    vatScheme: z.enum(vatSchemes).optional(),
    vatFlatRatePercent: flatRatePercent().nullable().optional(),
    vatSchemeFrom: isoDate()
      .optional()
      .describe(
        'with a change between standard and flat_rate (or of the flat rate): the first day of the VAT period it takes effect from; default the period holding today. ' +
          'With vatScheme not_registered: the first day not registered (any day after the last filed period); default today',
      ),
    vatRegistrationDate: isoDate().nullable().optional(),
    vatStagger: z.enum(vatStaggers).optional(),
    vatPeriodMonth: z.number().int().min(1).max(12).optional(),
    vatAccountingBasis: z.enum(vatBases).optional(),
    fiscalYearStart: monthDay().optional(),
    invoicePrefix: prefix().optional(),
    invoiceNextNumber: nextNumber(),
    quotePrefix: prefix().optional(),
    quoteNextNumber: nextNumber(),
    creditNotePrefix: prefix().optional(),
    creditNoteNextNumber: nextNumber(),
    defaultPaymentTerms: z.number().int().min(0).max(365).optional(),
    quoteValidityDays: z.number().int().min(1).max(365).optional(),
  },
  output: settingsSchema,
  async run(ctx, input) {
    const data = await orgOf(ctx).write(async (trx) => {
      await refuseVatSettingsChange(trx, ctx.clock, await loadOrganisation(trx), input);
      return settingsView(await changeSettings(trx, ctx.clock, input), await schemeChangedFrom(trx));
    });
    return { data };
  },
});
