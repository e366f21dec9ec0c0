/**
 * POST /registration/register: a user and their organisation in one unit.
 * The organisation is provisioned exactly as `acct init` provisions one
 * (createOrganisation), and the user is inserted inside the transaction
 * that commits it.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AppError } from '../errors.js';
import { instant } from '../output.js';
import { createOrganisation } from '../organisation/provision.js';
import type { BusinessType } from '../organisation/organisation.js';
import { hashPassword } from './password.js';
import { openSession } from './sessions.js';
import { insertUser, normaliseEmail, userByEmail, userSchema, userView } from './users.js';
import { password } from './login-ops.js';
import { siteSetting } from '../site-settings.js';

/** The organisation name as a URL slug. */
export const slugOf = (name: string): string =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'organisation';

/** The plan ids of registration, hyphenated as published; the business types' own spelling is accepted too. */
export const registrationPlans = ['limited-company', 'sole-trader', 'limited_company', 'sole_trader'] as const;

/** The business type a registration plan picks. */
export const businessTypeOf = (plan: (typeof registrationPlans)[number] | undefined): BusinessType =>
  plan === 'sole-trader' || plan === 'sole_trader' ? 'sole_trader' : 'limited_company';

export const register = defineOperation({
  name: 'registration.register',
  summary: 'Register a user with a new organisation (provisioned as acct init does) and log them in',
  description:
    'plan picks the business type and its chart of accounts: limited-company (the default) or sole-trader (sole_trader and limited_company are ' +
    'accepted too); the organisation starts on the free trial, not registered for VAT. An e-mail address already registered gets 409. While an administrator has switched registration off (registration_enabled), 403 registration_disabled.',
  access: 'public',
  method: 'POST',
  path: '/registration/register',
  status: 201,
  body: {
    email: z.email().max(320),
    password: password(),
    fullName: z.string().trim().min(1).max(255),
    organisationName: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .meta({ examples: ['"Bloggs Joinery Ltd"'] }),
    plan: z.enum(registrationPlans).optional().describe('limited-company (the default) or sole-trader'),
  },
  output: z.strictObject({
    token: z.string().describe('an access token for this new session (15 minutes)'),
    checkoutUrl: z.string().nullable().describe('null: no payment is taken at registration'),
    organisation: z.strictObject({ id: z.string(), name: z.string(), slug: z.string() }),
    user: userSchema.extend({ emailVerified: z.boolean(), createdAt: instant() }),
  }),
  async run(ctx, input) {
    if (!(await siteSetting(ctx.platform.db, 'registration_enabled'))) {
      throw new AppError('registration_disabled', 'registration is closed for now: an administrator has switched it off');
    }
    const email = normaliseEmail(input.email);
    // Checked before provisioning too (insertUser checks again in the committing transaction): a refusal writes nothing.
    if (await userByEmail(ctx.platform.db, email)) throw new AppError('conflict', 'registration failed: an account already exists with these details');
    const hash = await hashPassword(input.password);
    const created = await createOrganisation(
      ctx.store,
      ctx.clock,
      { name: input.organisationName, businessType: businessTypeOf(input.plan), vatScheme: 'not_registered' },
      async (trx, organisationId) => {
        const user = await insertUser(trx, ctx.clock, { organisationId, email, fullName: input.fullName, passwordHash: hash, isAdmin: false });
        const session = await openSession(trx, ctx.clock, user);
        return { user, token: session.accessToken };
      },
    );
    const { user, token } = created.also!;
    return {
      data: {
        token,
        checkoutUrl: null,
        organisation: { id: created.organisationId, name: input.organisationName, slug: slugOf(input.organisationName) },
        user: { ...userView(user), emailVerified: false, createdAt: user.created_at },
      },
    };
  },
});
