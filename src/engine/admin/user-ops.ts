/**
 * The administrator endpoints on users (/admin/users…): list and read every
 * user of the platform, suspend and unsuspend, unlock, disable TOTP, send a
 * password-reset link, change the role, impersonate, delete. Each change
 * appends one audit row in its own transaction. On the CLI: `acct users …`.
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { defineOperation, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { idOut, instant } from '../output.js';
import { userIdOut } from '../ids.js';
import { userIdParam } from '../schema.js';
import { containsText } from '../search.js';
import { listPerPage, perPageMetaSchema } from '../pagination.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { loginSchema, openSession, revokeSessions } from '../users/sessions.js';
import { mailerOf, newMailedToken, sendTokenMail, storeMailedToken } from '../users/mailed-tokens.js';
import { normaliseEmail, type UserRow } from '../users/users.js';
import { adminOf, auditedWrite, auditEntrySchema, auditReason, auditEntryView, type AuditEntry } from './audit.js';
import { adminPage } from './audit-ops.js';
import type { PlatformDb, UsersTable } from '../../store/tables.js';
import type { Store } from '../../store/store.js';

export const userStatuses = ['active', 'suspended', 'locked'] as const;
export const roles = ['admin', 'user'] as const;

const userId = () => userIdParam();

export const adminUserSchema = z.strictObject({
  id: idOut('usr'),
  email: z.string(),
  fullName: z.string(),
  role: z.enum(roles).describe('admin: an administrator of the platform'),
  isAdmin: z.boolean(),
  isActive: z.boolean().describe('false while suspended'),
  status: z.enum(userStatuses).describe('suspended, else locked (too many failed logins), else active'),
  emailVerified: z.boolean(),
  totpEnabled: z.boolean(),
  organisation: z.strictObject({ id: z.string(), name: z.string() }),
  lockedUntil: instant().nullable(),
  suspendedAt: instant().nullable(),
  lastLogin: instant().nullable(),
  createdAt: instant(),
});
type AdminUser = z.output<typeof adminUserSchema>;

const isLocked = (u: Selectable<UsersTable>, ctx: Ctx): boolean => u.locked_until !== null && Date.parse(u.locked_until) > ctx.clock.now().getTime();

/** The names of the organisations of some users, read once each from their books. */
async function organisationNames(store: Store, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(ids)) names.set(id, (await loadOrganisation(store.org(id, 'live').db)).name);
  return names;
}

function adminUserView(u: Selectable<UsersTable>, names: Map<string, string>, ctx: Ctx): AdminUser {
  return {
    id: userIdOut(u.id),
    email: u.email,
    fullName: u.full_name,
    role: u.is_admin === 1 ? 'admin' : 'user',
    isAdmin: u.is_admin === 1,
    isActive: u.suspended_at === null,
    status: u.suspended_at !== null ? 'suspended' : isLocked(u, ctx) ? 'locked' : 'active',
    emailVerified: u.email_verified === 1,
    totpEnabled: u.totp_enabled === 1,
    organisation: { id: u.organisation_id, name: names.get(u.organisation_id) ?? '' },
    lockedUntil: isLocked(u, ctx) ? u.locked_until : null,
    suspendedAt: u.suspended_at,
    lastLogin: u.last_login,
    createdAt: u.created_at,
  };
}

/** The user of the id; 404 when there is none. */
async function userOf(db: Kysely<PlatformDb>, id: number): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `user ${userIdOut(id)} not found`);
  return row;
}

/** The user as an administrator reads it, fresh from the database. */
async function viewOf(ctx: Ctx, id: number): Promise<AdminUser> {
  const user = await userOf(ctx.platform.db, id);
  return adminUserView(user, await organisationNames(ctx.store, [user.organisation_id]), ctx);
}

/** Refuse an administrator's change to their own account that would lock them out (suspend, delete, demote). */
function refuseSelf(ctx: Ctx, id: number, what: string): void {
  if (adminOf(ctx).userId === id) throw new AppError('conflict', `an administrator cannot ${what} their own account: ask another administrator`);
}

/**
 * Refuse (409) a change that would leave the platform without an active
 * administrator: demoting, suspending or deleting the last one. Read in
 * the write transaction, which platform writes never share.
 */
async function keepAnAdministrator(trx: Kysely<PlatformDb>, user: UserRow, what: string): Promise<void> {
  if (user.is_admin !== 1 || user.suspended_at !== null) return;
  const others = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_admin', '=', 1)
    .where('suspended_at', 'is', null)
    .where('id', '!=', user.id)
    .executeTakeFirstOrThrow();
  if (Number(others.n) === 0)
    throw new AppError(
      'conflict',
      `user ${userIdOut(user.id)} is the only active administrator: ${what} them would leave no active administrator; make another user an administrator first`,
    );
}

/** A change to one user, audited: `change` sees the user as it is, in the transaction. */
async function changeUser(ctx: Ctx, id: number, change: (trx: Kysely<PlatformDb>, user: UserRow) => Promise<AuditEntry>): Promise<AdminUser> {
  await auditedWrite(ctx, async (trx) => ({ result: null, audit: await change(trx, await userOf(trx, id)) }));
  return viewOf(ctx, id);
}

const userAudit = (action: string, id: number, details?: Record<string, unknown>): AuditEntry => ({
  action,
  entityType: 'user',
  entityId: id,
  ...(details ? { details } : {}),
});

export const listUsers = defineOperation({
  name: 'users.list',
  summary: 'Every user of the platform, newest first',
  access: 'admin',
  method: 'GET',
  path: '/admin/users',
  query: {
    search: z
      .string()
      .trim()
      .min(1)
      .max(320)
      .optional()
      .describe('part of the e-mail address or full name')
      .meta({ examples: ['bloggs'] }),
    organisationId: z
      .uuid()
      .optional()
      .meta({ examples: ['0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10'] }),
    status: z.enum(userStatuses).optional(),
    role: z.enum(roles).optional(),
    ...adminPage(),
  },
  output: z.array(adminUserSchema),
  meta: perPageMetaSchema,
  async run(ctx, input) {
    let q = ctx.platform.db.selectFrom('users');
    const search = input.search;
    if (search) q = q.where((eb) => containsText(eb, ['email', 'full_name'], search));
    if (input.organisationId) q = q.where('organisation_id', '=', input.organisationId);
    if (input.role) q = q.where('is_admin', '=', input.role === 'admin' ? 1 : 0);
    const now = timestamp(ctx.clock);
    if (input.status === 'suspended') q = q.where('suspended_at', 'is not', null);
    else if (input.status === 'locked') q = q.where('suspended_at', 'is', null).where('locked_until', '>', now);
    else if (input.status === 'active')
      q = q.where('suspended_at', 'is', null).where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
    const { rows, meta } = await listPerPage(q, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), input);
    const names = await organisationNames(
      ctx.store,
      rows.map((r) => r.organisation_id),
    );
    return { data: rows.map((r) => adminUserView(r, names, ctx)), meta };
  },
});

export const getUser = defineOperation({
  name: 'users.get',
  summary: 'One user: account, live sessions and the latest administrator changes to it',
  access: 'admin',
  method: 'GET',
  path: '/admin/users/{id}',
  params: { id: userId() },
  output: adminUserSchema.extend({
    activeSessions: z.number().int().describe('sessions whose access or refresh token is still alive'),
    recentActivity: z.array(auditEntrySchema).describe('the latest 20 audit entries about this user, newest first'),
  }),
  async run(ctx, input) {
    const user = await viewOf(ctx, input.id);
    const now = timestamp(ctx.clock);
    const sessions = await ctx.platform.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', input.id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('access_expires_at', '>', now), eb('refresh_expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    const activity = await ctx.platform.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'user')
      .where('entity_id', '=', String(input.id))
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    return { data: { ...user, activeSessions: Number(sessions.n), recentActivity: activity.map(auditEntryView) } };
  },
});

export const suspendUser = defineOperation({
  name: 'users.suspend',
  summary: 'Suspend a user: every session ends at once and logins are refused (403) until unsuspended',
  access: 'admin',
  method: 'POST',
  path: '/admin/users/{id}/suspend',
  params: { id: userId() },
  body: {
    reason: auditReason('chargeback under review'),
  },
  output: adminUserSchema.extend({ sessionsEnded: z.number().int() }),
  async run(ctx, input) {
    refuseSelf(ctx, input.id, 'suspend');
    let ended = 0;
    const user = await changeUser(ctx, input.id, async (trx, user) => {
      if (user.suspended_at !== null) throw new AppError('conflict', `user ${userIdOut(user.id)} is already suspended (since ${user.suspended_at})`);
      await keepAnAdministrator(trx, user, 'suspending');
      const now = timestamp(ctx.clock);
      await trx.updateTable('users').set({ suspended_at: now, updated_at: now }).where('id', '=', user.id).execute();
      // Their own sessions, and those they opened as others (an administrator's impersonations).
      ended = (await revokeSessions(trx, ctx.clock, { userId: user.id })) + (await revokeSessions(trx, ctx.clock, { impersonatedBy: user.id }));
      return userAudit('USER_SUSPENDED', user.id, { email: user.email, reason: input.reason ?? null, sessionsEnded: ended });
    });
    return { data: { ...user, sessionsEnded: ended } };
  },
});

export const unsuspendUser = defineOperation({
  name: 'users.unsuspend',
  summary: 'Lift a suspension: the user may log in again',
  access: 'admin',
  method: 'POST',
  path: '/admin/users/{id}/unsuspend',
  params: { id: userId() },
  output: adminUserSchema,
  async run(ctx, input) {
    const user = await changeUser(ctx, input.id, async (trx, user) => {
      if (user.suspended_at === null) throw new AppError('conflict', `user ${userIdOut(user.id)} is not suspended`);
      const org = await trx.selectFrom('organisations').select('closed_at').where('id', '=', user.organisation_id).executeTakeFirst();
      if (org?.closed_at != null)
        throw new AppError(
          'conflict',
          `user ${userIdOut(user.id)}'s organisation ${user.organisation_id} is closed (since ${org.closed_at}): its users stay suspended`,
        );
      await trx
        .updateTable('users')
        .set({ suspended_at: null, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute();
      return userAudit('USER_UNSUSPENDED', user.id, { email: user.email, suspendedAt: user.suspended_at });
    });
    return { data: user };
  },
});

export const unlockUser = defineOperation({
  name: 'users.unlock',
  summary: 'Unlock an account locked by failed logins, and reset its count of failures',
  access: 'admin',
  method: 'POST',
  path: '/admin/users/{id}/unlock',
  params: { id: userId() },
  output: adminUserSchema,
  async run(ctx, input) {
    const user = await changeUser(ctx, input.id, async (trx, user) => {
      await trx
        .updateTable('users')
        .set({ failed_logins: 0, locked_until: null, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute();
      return userAudit('USER_UNLOCKED', user.id, { email: user.email, lockedUntil: user.locked_until, failedLogins: user.failed_logins });
    });
    return { data: user };
  },
});

export const disableMfa = defineOperation({
  name: 'users.disable-mfa',
  summary: "Turn off a user's TOTP (a lost authenticator): the password alone logs in until they set it up again",
  access: 'admin',
  method: 'POST',
  path: '/admin/users/{id}/disable-mfa',
  params: { id: userId() },
  output: adminUserSchema,
  async run(ctx, input) {
    const user = await changeUser(ctx, input.id, async (trx, user) => {
      if (user.totp_enabled !== 1 && user.totp_secret === null) throw new AppError('conflict', `user ${userIdOut(user.id)} has no TOTP to disable`);
      await trx
        .updateTable('users')
        .set({ totp_enabled: 0, totp_secret: null, totp_last_step: null, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute();
      return userAudit('MFA_DISABLED', user.id, { email: user.email });
    });
    return { data: user };
  },
});

export const changeRole = defineOperation({
  name: 'users.role',
  summary: 'Make a user an administrator of the platform, or a user again',
  description: 'An administrator cannot change their own role, so the platform always keeps at least one.',
  access: 'admin',
  method: 'PATCH',
  path: '/admin/users/{id}/role',
  params: { id: userId() },
  body: { role: z.enum(roles) },
  output: adminUserSchema,
  async run(ctx, input) {
    refuseSelf(ctx, input.id, 'change the role of');
    const user = await changeUser(ctx, input.id, async (trx, user) => {
      const before = user.is_admin === 1 ? 'admin' : 'user';
      if (input.role === 'user') {
        await keepAnAdministrator(trx, user, 'demoting');
        // No longer an administrator: the sessions they opened as others end.
        await revokeSessions(trx, ctx.clock, { impersonatedBy: user.id });
      }
      await trx
        .updateTable('users')
        .set({ is_admin: input.role === 'admin' ? 1 : 0, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute();
      return userAudit('USER_ROLE_CHANGED', user.id, { email: user.email, before, after: input.role });
    });
    return { data: user };
  },
});

export const sendResetLink = defineOperation({
  name: 'users.send-reset-link',
  summary: 'E-mail the user a password-reset token (1 hour); their unused reset tokens stop working',
  description: 'Needs an SMTP server (acct serve --smtp): else 422. A suspended user gets 400 USER_INACTIVE.',
  access: 'admin',
  method: 'POST',
  path: '/admin/users/{id}/send-reset-link',
  params: { id: userId() },
  output: z.strictObject({ sent: z.literal(true), email: z.string(), expiresAt: instant() }),
  async run(ctx, input) {
    const user = await userOf(ctx.platform.db, input.id);
    if (user.suspended_at !== null) throw new AppError('USER_INACTIVE', `user ${userIdOut(user.id)} is suspended: unsuspend them first`);
    const mailer = mailerOf(ctx);
    const token = newMailedToken();
    // The e-mail goes first, outside any transaction; the token is kept (and the older ones spent) only once it has gone.
    await sendTokenMail(mailer, user, 'reset_password', token);
    const expiresAt = new Date(ctx.clock.now().getTime() + 60 * 60_000).toISOString();
    await auditedWrite(ctx, async (trx) => {
      const spent = await trx
        .updateTable('user_tokens')
        .set({ used_at: timestamp(ctx.clock) })
        .where('user_id', '=', user.id)
        .where('purpose', '=', 'reset_password')
        .where('used_at', 'is', null)
        .executeTakeFirst();
      await storeMailedToken(trx, ctx, user.id, 'reset_password', token);
      return { result: null, audit: userAudit('PASSWORD_RESET_SENT', user.id, { email: user.email, earlierTokensSpent: Number(spent.numUpdatedRows) }) };
    });
    return { data: { sent: true as const, email: user.email, expiresAt } };
  },
});

export const impersonateUser = defineOperation({
  name: 'users.impersonate',
  summary: 'Act as a user (support): a 15-minute session of theirs that cannot be refreshed and carries no administrator status',
  description: "The session is the user's in every way but one: it is marked as the administrator's, and the audit log says who opened it.",
  access: 'admin',
  method: 'POST',
  path: '/admin/users/{id}/impersonate',
  params: { id: userId() },
  status: 201,
  secrets: ['accessToken', 'refreshToken'],
  output: loginSchema.extend({
    accessToken: z.string().nullable().describe('the bearer, 15 minutes; null when the response is replayed for a repeated Idempotency-Key'),
    refreshToken: z
      .string()
      .nullable()
      .describe('refused by POST /auth/refresh: impersonation is not extended; null when the response is replayed for a repeated Idempotency-Key'),
    impersonatedBy: z.string().describe("the administrator's e-mail address"),
  }),
  async run(ctx, input) {
    const admin = adminOf(ctx);
    refuseSelf(ctx, input.id, 'impersonate');
    const session = await auditedWrite(ctx, async (trx) => {
      const user = await userOf(trx, input.id);
      if (user.is_admin === 1) throw new AppError('conflict', `user ${userIdOut(user.id)} is an administrator: administrators cannot be impersonated`);
      if (user.suspended_at !== null) throw new AppError('USER_INACTIVE', `user ${userIdOut(user.id)} is suspended`);
      const opened = await openSession(trx, ctx.clock, user, { impersonatedBy: admin.userId ?? 0 });
      return { result: opened, audit: userAudit('USER_IMPERSONATED', user.id, { email: user.email }) };
    });
    return { data: { ...session, impersonatedBy: admin.email } };
  },
});

export const deleteUser = defineOperation({
  name: 'users.delete',
  summary: 'Delete a user and their sessions and tokens; their organisation and its books stay',
  access: 'admin',
  method: 'DELETE',
  path: '/admin/users/{id}',
  params: { id: userId() },
  output: z.strictObject({ id: idOut('usr'), deleted: z.literal(true) }),
  async run(ctx, input) {
    refuseSelf(ctx, input.id, 'delete');
    await auditedWrite(ctx, async (trx) => {
      const user = await userOf(trx, input.id);
      await keepAnAdministrator(trx, user, 'deleting');
      for (const table of ['sessions', 'login_challenges', 'user_tokens'] as const) await trx.deleteFrom(table).where('user_id', '=', user.id).execute();
      // The sessions they opened as others end, and stay (impersonated_by names them, as the audit log does).
      await revokeSessions(trx, ctx.clock, { impersonatedBy: user.id });
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
      return {
        result: null,
        audit: userAudit('USER_DELETED', user.id, {
          email: normaliseEmail(user.email),
          fullName: user.full_name,
          organisationId: user.organisation_id,
          role: user.is_admin === 1 ? 'admin' : 'user',
        }),
      };
    });
    return { data: { id: userIdOut(input.id), deleted: true as const } };
  },
});

export const userOperations = [
  listUsers,
  getUser,
  suspendUser,
  unsuspendUser,
  unlockUser,
  disableMfa,
  changeRole,
  sendResetLink,
  impersonateUser,
  deleteUser,
] as const;
