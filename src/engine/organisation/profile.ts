/** The organisation profile: GET /organisation (address nested) and PUT /organisation (address flat). */
import { z } from 'zod';
import { defineOperation, orgOf, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { daysBetween } from '../dates.js';
import { timestamp, today } from '../clock.js';
import { clearableText } from '../schema.js';
import { businessTypes, loadOrganisation, type OrganisationRow } from './organisation.js';
import { settingsView } from './settings.js';
import type { OrganisationsTable } from '../../store/tables.js';
import type { Mode } from '../../store/store.js';

function subscriptionView(platformRow: OrganisationsTable, plan: string, ctx: Ctx) {
  const ends = platformRow.trial_ends_at;
  const remaining = Math.max(0, daysBetween(today(ctx.clock), ends.slice(0, 10)));
  return {
    status: timestamp(ctx.clock) < ends ? 'trialing' : 'trial_expired',
    plan,
    trialDays: platformRow.trial_days,
    trialEndsAt: ends,
    trialDaysRemaining: remaining,
    earlyAccess: platformRow.early_access === 1,
  };
}

export function organisationView(row: OrganisationRow, platformRow: OrganisationsTable, mode: Mode, ctx: Ctx) {
  return {
    id: row.id,
    name: row.name,
    businessType: row.business_type,
    email: row.email,
    phone: row.phone,
    website: row.website,
    vatNumber: row.vat_number,
    companyNumber: row.company_number,
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.city,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
    },
    settings: settingsView(row),
    mode,
    subscription: subscriptionView(platformRow, row.business_type, ctx),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function platformRowOf(ctx: Ctx, id: string): Promise<OrganisationsTable> {
  const row = await ctx.platform.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `organisation ${id} not found`);
  return row;
}

export const getOrganisation = defineOperation({
  name: 'organisation.get',
  summary: 'Show the organisation (any valid key may call it: it verifies a key)',
  access: 'any-key',
  method: 'GET',
  path: '/organisation',
  async run(ctx) {
    const org = orgOf(ctx);
    const row = await loadOrganisation(org.db);
    return { data: organisationView(row, await platformRowOf(ctx, org.id), org.mode, ctx) };
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
    'the nested address object that GET returns is refused. Empty strings clear optional fields.',
  access: 'all-scopes',
  method: 'PUT',
  path: '/organisation',
  body: {
    name: z.string().trim().min(1).max(255).optional(),
    businessType: z.enum(businessTypes).optional(),
    email: email(),
    phone: clearableText(30),
    website: clearableText(255),
    vatNumber: clearableText(20),
    companyNumber: clearableText(20),
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
  async run(ctx, input) {
    const org = orgOf(ctx);
    const row = await org.write(async (trx) => {
      await trx
        .updateTable('organisation')
        .set({
          name: input.name,
          business_type: input.businessType,
          email: input.email,
          phone: input.phone,
          website: input.website,
          vat_number: input.vatNumber,
          company_number: input.companyNumber,
          address_line1: input.addressLine1,
          address_line2: input.addressLine2,
          city: input.city,
          region: input.region,
          postal_code: input.postalCode,
          country: input.country,
          updated_at: timestamp(ctx.clock),
        })
        .execute();
      return loadOrganisation(trx);
    });
    return { data: organisationView(row, await platformRowOf(ctx, org.id), org.mode, ctx) };
  },
});
