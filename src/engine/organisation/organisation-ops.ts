/** The operations of the organisation: its profile (GET and PUT /organisation) and settings (GET and PUT /organisation/settings). */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { clearableText, isoDate, monthDay } from '../schema.js';
import { businessTypes, loadOrganisation, vatSchemes } from './organisation.js';
import { changeProfile, organisationSchema, organisationView, platformRowOf } from './profile.js';
import { companyNumberField } from './company-number.js';
import { vatNumberField } from './vat-number.js';
import { refuseVatSettingsChange } from '../vat/settings-guard.js';
import { changeSettings, flatRatePercent, settingsSchema, settingsView, vatBases, vatStaggers } from './settings.js';

export const getOrganisation = defineOperation({
  name: 'organisation.get',
  summary: 'Show the organisation (any valid key may call it: it verifies a key)',
  access: 'any-key',
  method: 'GET',
  path: '/organisation',
  output: organisationSchema,
  async run(ctx) {
    const org = orgOf(ctx);
    const row = await loadOrganisation(org.db);
    return { data: organisationView(row, await platformRowOf(ctx.platform.db, org.id), org.mode, ctx.clock) };
  },
});

const email = () =>
  z
    .string()
    .max(255)
    .refine((v) => v === '' || z.email().safeParse(v).success, { message: 'must be a valid email address' })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

export const updateOrganisation = defineOperation({
  name: 'organisation.update',
  summary: 'Change the organisation profile (partial; address fields are flat)',
  description:
    'Address fields are sent flat (addressLine1, addressLine2, city, region, postalCode, country); ' +
    'the nested address object that GET returns is refused. Empty strings clear optional fields. ' +
    "vatNumber must pass HMRC's check digits and is stored without spaces (GB980780684); companyNumber is padded to eight characters (01234567).",
  access: 'all-scopes',
  method: 'PUT',
  path: '/organisation',
  body: {
    name: z.string().trim().min(1).max(255).optional(),
    businessType: z.enum(businessTypes).optional(),
    email: email(),
    phone: clearableText(30),
    website: clearableText(255),
    vatNumber: vatNumberField(),
    companyNumber: companyNumberField(),
    addressLine1: clearableText(255),
    addressLine2: clearableText(255),
    city: clearableText(100),
    region: clearableText(100),
    postalCode: clearableText(20),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as GB')
      .transform((v) => v.toUpperCase())
      .optional(),
    address: z
      .unknown()
      .refine(() => false, { message: 'is not accepted here: send addressLine1, addressLine2, city, region, postalCode and country as flat fields' })
      .optional()
      .describe('not accepted: send the address as flat fields'),
  },
  output: organisationSchema,
  async run(ctx, input) {
    const org = orgOf(ctx);
    const row = await org.write((trx) => changeProfile(trx, ctx.clock, input));
    return { data: organisationView(row, await platformRowOf(ctx.platform.db, org.id), org.mode, ctx.clock) };
  },
});

export const getSettings = defineOperation({
  name: 'settings.get',
  summary: 'Show the organisation settings',
  access: 'any-key',
  method: 'GET',
  path: '/organisation/settings',
  output: settingsSchema,
  async run(ctx) {
    return { data: settingsView(await loadOrganisation(orgOf(ctx).db)) };
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
    'vatScheme not_registered waits until every VAT entry is on a filed return (409 conflict).',
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
    const row = await orgOf(ctx).write(async (trx) => {
      await refuseVatSettingsChange(trx, ctx.clock, await loadOrganisation(trx), input);
      return changeSettings(trx, ctx.clock, input);
    });
    return { data: settingsView(row) };
  },
});
