/**
 * Sessions: a login makes one row holding the hashes of an access token
 * (15 minutes) and a refresh token (7 days). Refreshing replaces both
 * hashes, so the old refresh token is refused afterwards; logging out, or
 * changing the password, revokes. An access token is a bearer wherever an
 * API key is, for the live books of the user's organisation with every scope.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId, userIdOut } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import { scopes } from '../scopes.js';
import type { Principal } from '../operation.js';
import type { PlatformDb } from '../../store/tables.js';
import { accessLifetime, hashToken, isToken, newToken, refreshLifetime } from './tokens.js';
import { userSchema, userView, type UserRow } from './users.js';

export const loginSchema = z.strictObject({
  accessToken: z.string().describe('the bearer for every request, 15 minutes'),
  refreshToken: z.string().describe('exchanged for new tokens at POST /auth/refresh, 7 days'),
  expiresIn: z.number().int().describe('seconds the access token lasts'),
  user: userSchema,
});
export type LoginResponse = z.output<typeof loginSchema>;

const later = (clock: Clock, ms: number): string => new Date(clock.now().getTime() + ms).toISOString();

/** A suspended user gets no session (403; asked only once the password, and the code, were right). */
export function refuseIfSuspended(user: UserRow): void {
  if (user.suspended_at !== null) throw new AppError('account_suspended', 'this account is suspended: ask an administrator');
}

/** A user of a closed organisation gets no session (403): closing ends its access for good, whatever the user's own state. */
export async function refuseIfClosed(db: Kysely<PlatformDb>, user: UserRow): Promise<void> {
  const org = await db.selectFrom('organisations').select('closed_at').where('id', '=', user.organisation_id).executeTakeFirst();
  if (org?.closed_at != null) throw new AppError('forbidden', `this account's organisation is closed (since ${org.closed_at})`);
}

/**
 * Open a session for the user (a new pair of tokens every time) and note
 * the login. An administrator impersonating the user (`impersonatedBy`: their
 * id, 0 for the local operator) gets a session that cannot be refreshed
 * (15 minutes) and is not the user's login.
 */
export async function openSession(trx: Kysely<PlatformDb>, clock: Clock, user: UserRow, options: { impersonatedBy?: number } = {}): Promise<LoginResponse> {
  refuseIfSuspended(user);
  await refuseIfClosed(trx, user);
  const accessToken = newToken('at');
  const refreshToken = newToken('rt');
  const now = timestamp(clock);
  const impersonated = options.impersonatedBy !== undefined;
  await trx
    .insertInto('sessions')
    .values({
      id: newId('ses', clock.now()),
      user_id: user.id,
      access_hash: hashToken(accessToken),
      access_expires_at: later(clock, accessLifetime),
      refresh_hash: hashToken(refreshToken),
      refresh_expires_at: later(clock, impersonated ? accessLifetime : refreshLifetime),
      created_at: now,
      revoked_at: null,
      impersonated_by: options.impersonatedBy ?? null,
    })
    .execute();
  if (!impersonated) await trx.updateTable('users').set({ last_login: now, failed_logins: 0, locked_until: null }).where('id', '=', user.id).execute();
  return { accessToken, refreshToken, expiresIn: accessLifetime / 1000, user: userView(user) };
}

/** The principal an access token stands for; 401 for an unknown, revoked or expired one. */
export async function sessionPrincipal(db: Kysely<PlatformDb>, clock: Clock, token: string): Promise<Principal> {
  if (!isToken(token, 'at')) throw new AppError('unauthorized', 'malformed session token');
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.user_id',
      'sessions.access_expires_at',
      'sessions.revoked_at',
      'sessions.impersonated_by',
      'users.organisation_id',
      'users.full_name',
      'users.email',
      'users.is_admin',
      'users.suspended_at',
    ])
    // An impersonation session stands only while its administrator is an active one (0: the local operator, always).
    .innerJoin('organisations', 'organisations.id', 'users.organisation_id')
    .select('organisations.closed_at')
    .leftJoin('users as opener', 'opener.id', 'sessions.impersonated_by')
    .select(['opener.is_admin as opener_is_admin', 'opener.suspended_at as opener_suspended_at'])
    .where('sessions.access_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw new AppError('unauthorized', 'invalid session token');
  if (row.revoked_at !== null) throw new AppError('unauthorized', 'this session has ended');
  if (Date.parse(row.access_expires_at) <= clock.now().getTime()) throw new AppError('unauthorized', 'this session has expired: refresh it or log in again');
  if (row.suspended_at !== null) throw new AppError('unauthorized', 'this account is suspended');
  if (row.closed_at !== null) throw new AppError('unauthorized', "this account's organisation is closed");
  if (row.impersonated_by !== null && row.impersonated_by !== 0 && (row.opener_is_admin !== 1 || row.opener_suspended_at !== null))
    throw new AppError('unauthorized', 'this impersonation session has ended: the administrator who opened it is no longer an active one');
  // Administrator status is read on every request, so a role change takes effect at once; an impersonation session never has it.
  const admin = row.is_admin === 1 && row.impersonated_by === null ? { admin: Object.freeze({ userId: row.user_id, email: row.email }) } : {};
  return Object.freeze({
    organisationId: row.organisation_id,
    mode: 'live' as const,
    scopes: Object.freeze([...scopes]),
    keyId: null,
    actor: Object.freeze({ id: userIdOut(row.user_id), name: row.full_name }),
    session: Object.freeze({ userId: row.user_id, sessionId: row.id }),
    ...admin,
  });
}

/** New access and refresh tokens for a live refresh token, which is spent; 401 otherwise. */
export async function refreshSession(trx: Kysely<PlatformDb>, clock: Clock, refreshToken: string): Promise<LoginResponse> {
  const refused = new AppError('unauthorized', 'invalid or expired refresh token');
  if (!isToken(refreshToken, 'rt')) throw refused;
  const session = await trx.selectFrom('sessions').selectAll().where('refresh_hash', '=', hashToken(refreshToken)).executeTakeFirst();
  if (!session || session.revoked_at !== null || Date.parse(session.refresh_expires_at) <= clock.now().getTime()) throw refused;
  // An impersonation session ends with its first access token.
  if (session.impersonated_by !== null) throw refused;
  const user = await trx.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirstOrThrow();
  if (user.suspended_at !== null) throw refused;
  await refuseIfClosed(trx, user);
  const accessToken = newToken('at');
  const next = newToken('rt');
  await trx
    .updateTable('sessions')
    .set({
      access_hash: hashToken(accessToken),
      access_expires_at: later(clock, accessLifetime),
      refresh_hash: hashToken(next),
      refresh_expires_at: later(clock, refreshLifetime),
    })
    .where('id', '=', session.id)
    .execute();
  return { accessToken, refreshToken: next, expiresIn: accessLifetime / 1000, user: userView(user) };
}

/**
 * Revoke sessions: one, every live one of a user, or every live one an
 * administrator opened as others (impersonation). How many.
 */
export async function revokeSessions(
  trx: Kysely<PlatformDb>,
  clock: Clock,
  where: { sessionId: string } | { userId: number } | { impersonatedBy: number },
): Promise<number> {
  let q = trx
    .updateTable('sessions')
    .set({ revoked_at: timestamp(clock) })
    .where('revoked_at', 'is', null);
  q =
    'sessionId' in where
      ? q.where('id', '=', where.sessionId)
      : 'userId' in where
        ? q.where('user_id', '=', where.userId)
        : q.where('impersonated_by', '=', where.impersonatedBy);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
