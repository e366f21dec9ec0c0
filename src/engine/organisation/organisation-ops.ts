/** The operations of the organisation's profile (GET and PUT /organisation); its settings' are in settings/settings-ops.ts. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { clearablePostcode, clearableText } from '../schema.js';
import { businessTypes, loadOrganisation } from './organisation.js';
import { changeProfile, organisationSchema, organisationView, platformRowOf } from './profile.js';
import { schemeChangedFrom } from './settings.js';
import { companyNumberField } from './company-number.js';
import { vatNumberField } from './vat-number.js';

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
    return { data: organisationView(row, await schemeChangedFrom(org.db), await platformRowOf(ctx.platform.db, org.id), org.mode, ctx.clock) };
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
    postalCode: clearablePostcode(),
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
    return { data: organisationView(row, await schemeChangedFrom(org.db), await platformRowOf(ctx.platform.db, org.id), org.mode, ctx.clock) };
  },
});
