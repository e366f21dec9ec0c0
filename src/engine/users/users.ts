/** Users of the platform database: lookups, the views the API shows, failed-login accounting. */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, type Clock } from '../clock.js';
import { idOut, instant } from '../output.js';
import { userIdOut } from '../ids.js';
import type { Ctx } from '../operation.js';
import type { PlatformDb, UsersTable } from '../../store/tables.js';

export type UserRow = Omit<UsersTable, 'id'> & { readonly id: number };

/** Failed logins in a row that lock an account, and for how long. */
export const lockoutThreshold = 5;
export const lockoutMs = 15 * 60_000;

/** An address as stored and looked up: trimmed and lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** An e-mail address as a user types it to log in or reset a password: checked only for length, so a wrong one is told apart from no one. */
export const loginEmail = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(320)
    .meta({ examples: ['jo@example.com'] });

export const userSchema = z.strictObject({
  id: idOut('usr'),
  username: z.string().describe('the e-mail address: users log in with it'),
  email: z.string(),
  fullName: z.string(),
  isAdmin: z.boolean(),
});

export const userView = (u: UserRow): z.output<typeof userSchema> => ({
  id: userIdOut(u.id),
  username: u.email,
  email: u.email,
  fullName: u.full_name,
  isAdmin: u.is_admin === 1,
});

export const userByEmail = (db: Kysely<PlatformDb>, email: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();

export async function userById(db: Kysely<PlatformDb>, id: number): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('unauthorized', 'the user of this session no longer exists');
  return row;
}

/** The one answer to a login whose user is unknown or whose password is wrong. */
export const badCredentials = (): AppError => new AppError('unauthorized', 'invalid email or password');

/** Refuse a login while the account is locked: 423 with the time left. */
export function refuseIfLocked(user: UserRow, clock: Clock): void {
  if (user.locked_until === null) return;
  const left = Date.parse(user.locked_until) - clock.now().getTime();
  if (left <= 0) return;
  // Rounded up to the second before it is split: 899.5 s left reads 15 min 0 s, never 14 min 60 s.
  const minutes = Math.floor(Math.ceil(left / 1000) / 60);
  const seconds = Math.ceil(left / 1000) % 60;
  throw new AppError(
    'account_locked',
    `account locked after ${lockoutThreshold} failed logins; try again in ${minutes} min ${seconds} s (at ${user.locked_until})`,
  );
}

/** Count a failed login (its own committed write, though the request fails); the fifth in a row locks the account. */
export async function recordFailure(ctx: Ctx, userId: number): Promise<void> {
  await ctx.platform.write(async (trx) => {
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', userId)
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    if (row.failed_logins >= lockoutThreshold) {
      const until = new Date(ctx.clock.now().getTime() + lockoutMs).toISOString();
      await trx.updateTable('users').set({ failed_logins: 0, locked_until: until }).where('id', '=', userId).execute();
    }
  });
}

/** The user as GET /auth/me shows it. */
export const meSchema = userSchema.extend({
  emailVerified: z.boolean(),
  totpEnabled: z.boolean(),
  lastLogin: instant().nullable(),
  createdAt: instant(),
  organisation: z.strictObject({ id: z.string(), name: z.string(), plan: z.enum(['sole_trader', 'limited_company']) }),
});

export interface NewUser {
  readonly organisationId: string;
  readonly email: string;
  readonly fullName: string;
  readonly passwordHash: string;
  readonly isAdmin: boolean;
}

/** Insert a user (409 when the address is taken, with a message that does not say which detail clashed). */
export async function insertUser(trx: Kysely<PlatformDb>, clock: Clock, user: NewUser): Promise<UserRow> {
  const email = normaliseEmail(user.email);
  if (await userByEmail(trx, email)) throw new AppError('conflict', 'registration failed: an account already exists with these details');
  const now = timestamp(clock);
  return trx
    .insertInto('users')
    .values({
      email,
      full_name: user.fullName,
      organisation_id: user.organisationId,
      password_hash: user.passwordHash,
      is_admin: user.isAdmin ? 1 : 0,
      email_verified: 0,
      totp_secret: null,
      totp_enabled: 0,
      totp_last_step: null,
      failed_logins: 0,
      locked_until: null,
      last_login: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
