/**
 * The administrator endpoints on organisations (/admin/orgs…): list and read
 * every organisation with its users and counts, change its name or trial
 * end, close it. An organisation's name lives in its own books, so the list
 * reads each organisation's books (a search by name reads all of them).
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { defineOperation, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { idOut, instant } from '../output.js';
import { userIdOut } from '../ids.js';
import { perPageMeta, perPageMetaSchema } from '../pagination.js';
import { isoDate } from '../schema.js';
import { businessTypes, loadOrganisation } from '../organisation/organisation.js';
import { changeProfile, platformRowOf, trialState } from '../organisation/profile.js';
import { slugOf } from '../users/registration-ops.js';
import { revokeSessions } from '../users/sessions.js';
import { auditedWrite, auditEntrySchema, auditEntryView, type AuditEntry } from './audit.js';
import { adminPage } from './audit-ops.js';
import type { OrganisationsTable, PlatformDb } from '../../store/tables.js';
import { cancelSubscription } from '../billing/admin-actions.js';
import { handOver, taken } from './provider-step.js';

/** The plans an organisation is on, as the administrator filters them: a trial, or a paid plan. */
export const adminPlans = ['trial', 'sole_trader', 'limited_company'] as const;
export const organisationStatuses = ['trialing', 'trial_expired', 'active', 'past_due', 'canceled', 'unpaid', 'closed'] as const;

export const organisationId = () =>
  z
    .uuid()
    .describe('the organisation id')
    .meta({ examples: ['0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10'] });

const adminOrganisationSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  businessType: z.enum(businessTypes),
  plan: z.enum(adminPlans),
  subscriptionStatus: z.enum(organisationStatuses).describe('closed once an administrator has closed it'),
  trialEndsAt: instant().nullable().describe('null once subscribed, as GET /billing/status shows it'),
  trialDaysRemaining: z.number().int().describe('0 once the trial has ended or a subscription has started'),
  earlyAccess: z.boolean(),
  stripeCustomerId: z.string().nullable(),
  userCount: z.number().int(),
  invoiceCount: z.number().int().describe('live invoices'),
  closedAt: instant().nullable(),
  createdAt: instant(),
});
type AdminOrganisation = z.output<typeof adminOrganisationSchema>;

/** What an administrator sees of an organisation, from the platform's record and its live books. */
async function organisationOf(ctx: Ctx, row: Selectable<OrganisationsTable>): Promise<AdminOrganisation> {
  const books = ctx.store.org(row.id, 'live').db;
  const profile = await loadOrganisation(books);
  const users = await ctx.platform.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organisation_id', '=', row.id)
    .executeTakeFirstOrThrow();
  const invoices = await books
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const trialing = timestamp(ctx.clock) < row.trial_ends_at;
  const trial = trialState(row, ctx.clock);
  return {
    id: row.id,
    name: profile.name,
    slug: slugOf(profile.name),
    businessType: profile.business_type,
    // Billing's plan once a subscription has started; until then the trial, then the business type's plan.
    plan: row.plan !== 'trial' ? row.plan : trialing ? 'trial' : profile.business_type,
    subscriptionStatus: row.closed_at !== null ? 'closed' : (row.subscription_status ?? (trialing ? 'trialing' : 'trial_expired')),
    trialEndsAt: trial.trialEndsAt,
    trialDaysRemaining: trial.trialDaysRemaining,
    earlyAccess: row.early_access === 1,
    stripeCustomerId: row.stripe_customer_id,
    userCount: Number(users.n),
    invoiceCount: Number(invoices.n),
    closedAt: row.closed_at,
    createdAt: row.created_at,
  };
}

export const adminOrganisations = defineOperation({
  name: 'admin.orgs',
  summary: 'Every organisation of the platform, newest first, with its plan, trial, users and invoices',
  access: 'admin',
  method: 'GET',
  path: '/admin/orgs',
  query: {
    search: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe('part of the name, or the start of the id')
      .meta({ examples: ['joinery'] }),
    plan: z.enum(['all', ...adminPlans]).default('all'),
    status: z.enum(organisationStatuses).optional(),
    ...adminPage(),
  },
  output: z.array(adminOrganisationSchema),
  meta: perPageMetaSchema,
  async run(ctx, input) {
    const rows = await ctx.platform.db.selectFrom('organisations').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    const filtered = input.search !== undefined || input.plan !== 'all' || input.status !== undefined;
    if (!filtered) {
      // Only the page's organisations are read from their books.
      const page = rows.slice((input.page - 1) * input.perPage, input.page * input.perPage);
      return { data: await Promise.all(page.map((r) => organisationOf(ctx, r))), meta: perPageMeta(rows.length, input.page, input.perPage) };
    }
    const needle = input.search?.toLocaleLowerCase('en-GB');
    const matching: AdminOrganisation[] = [];
    for (const row of rows) {
      const org = await organisationOf(ctx, row);
      if (needle !== undefined && !org.name.toLocaleLowerCase('en-GB').includes(needle) && !org.id.startsWith(needle)) continue;
      if (input.plan !== 'all' && org.plan !== input.plan) continue;
      if (input.status !== undefined && org.subscriptionStatus !== input.status) continue;
      matching.push(org);
    }
    return {
      data: matching.slice((input.page - 1) * input.perPage, input.page * input.perPage),
      meta: perPageMeta(matching.length, input.page, input.perPage),
    };
  },
});

const organisationDetailSchema = adminOrganisationSchema.extend({
  users: z.array(
    z.strictObject({
      id: idOut('usr'),
      email: z.string(),
      fullName: z.string(),
      role: z.enum(['admin', 'user']),
      isActive: z.boolean(),
      totpEnabled: z.boolean(),
    }),
  ),
  stats: z.strictObject({ invoices: z.number().int(), contacts: z.number().int(), transactions: z.number().int() }).describe('live books'),
  recentActivity: z.array(auditEntrySchema).describe('the latest 20 audit entries about this organisation, newest first'),
});

async function organisationDetail(ctx: Ctx, id: string): Promise<z.output<typeof organisationDetailSchema>> {
  const org = await organisationOf(ctx, await platformRowOf(ctx.platform.db, id));
  const users = await ctx.platform.db.selectFrom('users').selectAll().where('organisation_id', '=', id).orderBy('id').execute();
  const books = ctx.store.org(id, 'live').db;
  const count = async (table: 'invoices' | 'contacts' | 'transactions') =>
    Number(
      (
        await books
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const activity = await ctx.platform.db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity_type', '=', 'organisation')
    .where('entity_id', '=', id)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return {
    ...org,
    users: users.map((u) => ({
      id: userIdOut(u.id),
      email: u.email,
      fullName: u.full_name,
      role: u.is_admin === 1 ? ('admin' as const) : ('user' as const),
      isActive: u.suspended_at === null,
      totpEnabled: u.totp_enabled === 1,
    })),
    stats: { invoices: await count('invoices'), contacts: await count('contacts'), transactions: await count('transactions') },
    recentActivity: activity.map(auditEntryView),
  };
}

export const getOrganisation = defineOperation({
  name: 'admin.org',
  summary: 'One organisation: plan and trial, its users, counts of its live books, and the latest administrator changes to it',
  access: 'admin',
  method: 'GET',
  path: '/admin/orgs/{id}',
  params: { id: organisationId() },
  output: organisationDetailSchema,
  async run(ctx, input) {
    return { data: await organisationDetail(ctx, input.id) };
  },
});

const organisationAudit = (action: string, id: string, details: Record<string, unknown>): AuditEntry => ({
  action,
  entityType: 'organisation',
  entityId: id,
  details,
});

export const updateOrganisation = defineOperation({
  name: 'admin.update-org',
  summary: "Rename an organisation (its live and test books) or move its trial's end",
  description: 'trialEndsOn may extend a trial or end it (a day in the past). A closed organisation is 409.',
  access: 'admin',
  method: 'PATCH',
  path: '/admin/orgs/{id}',
  params: { id: organisationId() },
  body: {
    name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .meta({ examples: ['Bloggs Joinery Ltd'] }),
    trialEndsOn: isoDate()
      .optional()
      .describe("the trial's last day: it ends at 23:59:59 UTC that day")
      .meta({ examples: ['2027-03-31'] }),
  },
  output: organisationDetailSchema,
  async run(ctx, input) {
    if (input.name === undefined && input.trialEndsOn === undefined) throw new AppError('validation_error', 'give name or trialEndsOn', 'name');
    const trialEndsAt = input.trialEndsOn === undefined ? undefined : `${input.trialEndsOn}T23:59:59.000Z`;
    const row = await platformRowOf(ctx.platform.db, input.id);
    if (row.closed_at !== null) throw new AppError('conflict', `organisation ${input.id} is closed`);
    const before = await loadOrganisation(ctx.store.org(input.id, 'live').db);
    const name = input.name;
    if (name !== undefined) {
      // Its own books first (two files, no transaction spans them); the audit row follows in the platform's.
      for (const mode of ['live', 'test'] as const) await ctx.store.org(input.id, mode).write((trx) => changeProfile(trx, ctx.clock, { name }));
    }
    await auditedWrite(ctx, async (trx) => {
      if (trialEndsAt !== undefined) await trx.updateTable('organisations').set({ trial_ends_at: trialEndsAt }).where('id', '=', input.id).execute();
      const changed: Record<string, unknown> = {};
      if (name !== undefined) changed['name'] = { before: before.name, after: name };
      if (trialEndsAt !== undefined) changed['trialEndsAt'] = { before: row.trial_ends_at, after: trialEndsAt };
      return { result: null, audit: organisationAudit('ORGANISATION_UPDATED', input.id, changed) };
    });
    return { data: await organisationDetail(ctx, input.id) };
  },
});

/** The organisation's row, if an administrator may close it: 404 unknown, 409 closed already or the administrator's own. */
async function closable(ctx: Ctx, db: Kysely<PlatformDb>, id: string): Promise<Selectable<OrganisationsTable>> {
  const row = await db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `organisation ${id} not found`);
  if (row.closed_at !== null) throw new AppError('conflict', `organisation ${id} is already closed (at ${row.closed_at})`);
  if (ctx.principal?.admin?.userId !== undefined && ctx.principal.admin.userId !== null) {
    const own = await db.selectFrom('users').select('organisation_id').where('id', '=', ctx.principal.admin.userId).executeTakeFirst();
    if (own?.organisation_id === id) throw new AppError('conflict', 'an administrator cannot close their own organisation');
  }
  return row;
}

export const closeOrganisation = defineOperation({
  name: 'admin.close-org',
  summary:
    'Close an organisation: its live subscription is cancelled at the payment provider, its API keys revoked, its users suspended and their sessions ended; its books are kept',
  description:
    'Accounting records must be kept for six years (HMRC), so closing deletes nothing: the books stay on disk, readable by the operator with acct. Closing a closed organisation is 409.',
  access: 'admin',
  method: 'DELETE',
  path: '/admin/orgs/{id}',
  params: { id: organisationId() },
  output: z.strictObject({
    id: z.string(),
    closed: z.literal(true),
    closedAt: instant(),
    keysRevoked: z.number().int(),
    usersSuspended: z.number().int(),
    sessionsEnded: z.number().int(),
    subscriptionCancelled: z
      .string()
      .nullable()
      .describe('the subscription cancelled at the payment provider, at once, before closing; null when none was live'),
  }),
  async external(ctx, input) {
    // A closed organisation's users cannot reach the billing portal: its live subscription is cancelled first, at once,
    // outside any transaction. A close that will be refused cancels nothing.
    const row = await closable(ctx, ctx.platform.db, input.id);
    const live = row.stripe_subscription_id !== null && row.subscription_status !== null && row.subscription_status !== 'canceled';
    handOver(input, live ? (await cancelSubscription(ctx, input.id)).subscriptionId : null);
  },
  async run(ctx, input) {
    const now = timestamp(ctx.clock);
    const subscriptionCancelled = taken<string | null>(input);
    const counts = await auditedWrite(ctx, async (trx) => {
      await closable(ctx, trx, input.id);
      await trx.updateTable('organisations').set({ closed_at: now }).where('id', '=', input.id).execute();
      const keys = await trx
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('organisation_id', '=', input.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const users = await trx.selectFrom('users').select('id').where('organisation_id', '=', input.id).execute();
      let suspended = 0;
      let sessions = 0;
      for (const u of users) {
        const r = await trx
          .updateTable('users')
          .set({ suspended_at: now, updated_at: now })
          .where('id', '=', u.id)
          .where('suspended_at', 'is', null)
          .executeTakeFirst();
        suspended += Number(r.numUpdatedRows);
        sessions += await revokeSessions(trx, ctx.clock, { userId: u.id });
      }
      const result = { keysRevoked: Number(keys.numUpdatedRows), usersSuspended: suspended, sessionsEnded: sessions };
      return { result, audit: organisationAudit('ORGANISATION_CLOSED', input.id, { ...result, subscriptionCancelled }) };
    });
    return { data: { id: input.id, closed: true as const, closedAt: now, ...counts, subscriptionCancelled } };
  },
});

export const organisationOperations = [adminOrganisations, getOrganisation, updateOrganisation, closeOrganisation] as const;
