/**
 * Logging in and out: POST /auth/login (and its TOTP second step in
 * totp-ops.ts), /auth/refresh, /auth/logout, GET /auth/me, POST /auth/password.
 */
import { z } from 'zod';
import { defineOperation, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { decoyHash, hashPassword, verifyPassword } from './password.js';
import { challengeLifetime, hashToken, newToken } from './tokens.js';
import { loginSchema, openSession, refreshSession, refuseIfClosed, refuseIfSuspended, revokeSessions, type LoginResponse } from './sessions.js';
import { badCredentials, loginEmail, meSchema, recordFailure, refuseIfLocked, userByEmail, userById, userView, type UserRow } from './users.js';

export const password = () =>
  z
    .string()
    .min(8)
    .max(1024)
    .meta({ examples: ['"correct horse battery"'] });
const givenPassword = () =>
  z
    .string()
    .min(1)
    .max(1024)
    .meta({ examples: ['"correct horse battery"'] });

const challengeSchema = z.strictObject({
  requiresTotp: z.literal(true),
  tempToken: z.string().describe('sent with the code to POST /auth/totp/verify within 5 minutes'),
});

/** The user of the caller's session. */
export function sessionOf(ctx: Ctx): { readonly userId: number; readonly sessionId: string } {
  const session = ctx.principal?.session;
  if (!session) throw new AppError('unauthorized', 'a user session is required');
  return session;
}

export const login = defineOperation({
  name: 'auth.login',
  summary: 'Log in with e-mail and password: a new access and refresh token, or a TOTP challenge when TOTP is on',
  description:
    'An unknown address and a wrong password get the same 401 in the same time. Five failures in a row lock the account for 15 minutes (423); a success resets the count.',
  access: 'public',
  method: 'POST',
  path: '/auth/login',
  body: {
    email: loginEmail().optional(),
    username: loginEmail().optional().describe('the same as email'),
    password: givenPassword(),
  },
  output: z.union([loginSchema, challengeSchema]),
  async run(ctx, input): Promise<{ data: LoginResponse | z.output<typeof challengeSchema> }> {
    const email = input.email ?? input.username;
    if (email === undefined) throw new AppError('validation_error', 'email (or username) is required', 'email');
    const user = await userByEmail(ctx.platform.db, email);
    if (!user) {
      // The scrypt work is done anyway, so that the time taken does not tell an unknown address from a wrong password.
      await verifyPassword(decoyHash, input.password);
      throw badCredentials();
    }
    refuseIfLocked(user, ctx.clock);
    if (!(await verifyPassword(user.password_hash, input.password))) {
      await recordFailure(ctx, user.id);
      throw badCredentials();
    }
    refuseIfSuspended(user);
    await refuseIfClosed(ctx.platform.db, user);
    if (user.totp_enabled === 1) {
      const tempToken = newToken('tt');
      // The failure count is not reset until the code is right too: else the password alone would reset the count of wrong codes.
      await ctx.platform.write((trx) =>
        trx
          .insertInto('login_challenges')
          .values({
            token_hash: hashToken(tempToken),
            user_id: user.id,
            expires_at: new Date(ctx.clock.now().getTime() + challengeLifetime).toISOString(),
            used_at: null,
          })
          .execute(),
      );
      return { data: { requiresTotp: true as const, tempToken } };
    }
    return { data: await ctx.platform.write((trx) => openSession(trx, ctx.clock, user)) };
  },
});

export const refresh = defineOperation({
  name: 'auth.refresh',
  summary: 'Exchange a refresh token for a new access and refresh token; the one sent is refused afterwards',
  access: 'public',
  method: 'POST',
  path: '/auth/refresh',
  body: {
    refreshToken: z
      .string()
      .min(1)
      .max(200)
      .meta({ examples: ['rt_…'] }),
  },
  output: loginSchema,
  async run(ctx, input) {
    return { data: await ctx.platform.write((trx) => refreshSession(trx, ctx.clock, input.refreshToken)) };
  },
});

export const me = defineOperation({
  name: 'auth.me',
  summary: 'The user of this session and their organisation',
  access: 'session',
  method: 'GET',
  path: '/auth/me',
  output: meSchema,
  async run(ctx) {
    const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
    const org = await loadOrganisation(ctx.store.org(user.organisation_id, 'live').db);
    return {
      data: {
        ...userView(user),
        emailVerified: user.email_verified === 1,
        totpEnabled: user.totp_enabled === 1,
        lastLogin: user.last_login,
        createdAt: user.created_at,
        organisation: { id: user.organisation_id, name: org.name, plan: org.business_type },
      },
    };
  },
});

export const logout = defineOperation({
  name: 'auth.logout',
  summary: 'End this session: its access and refresh tokens are refused from now on',
  access: 'session',
  method: 'POST',
  path: '/auth/logout',
  output: z.strictObject({ loggedOut: z.literal(true) }),
  async run(ctx) {
    const { sessionId } = sessionOf(ctx);
    await ctx.platform.write((trx) => revokeSessions(trx, ctx.clock, { sessionId }));
    return { data: { loggedOut: true as const } };
  },
});

/**
 * The caller's password checked (401 when wrong); the user. A wrong one
 * counts toward the lockout as a failed login does, and a locked account is
 * refused (423): else a stolen access token could guess the password here
 * without limit.
 */
export async function checkOwnPassword(ctx: Ctx, given: string): Promise<UserRow> {
  const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
  refuseIfLocked(user, ctx.clock);
  if (!(await verifyPassword(user.password_hash, given))) {
    await recordFailure(ctx, user.id);
    throw new AppError('unauthorized', 'the password is wrong');
  }
  return user;
}

export const changePassword = defineOperation({
  name: 'auth.password',
  summary: 'Change the password; every session of the user ends, this one included',
  access: 'session',
  method: 'POST',
  path: '/auth/password',
  body: { currentPassword: givenPassword(), newPassword: password() },
  output: z.strictObject({ passwordChanged: z.literal(true), sessionsEnded: z.number().int() }),
  async run(ctx, input) {
    const user = await checkOwnPassword(ctx, input.currentPassword);
    const hash = await hashPassword(input.newPassword);
    const ended = await ctx.platform.write(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: hash, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute();
      return revokeSessions(trx, ctx.clock, { userId: user.id });
    });
    return { data: { passwordChanged: true as const, sessionsEnded: ended } };
  },
});
