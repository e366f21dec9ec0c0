/**
 * Single-use tokens sent by e-mail: 32 random bytes in hex (64 characters),
 * an hour long, stored by SHA-256 hash. Issuing one and mailing it happen in
 * an operation's external step: the token is committed in its own short
 * write, then sent outside any transaction.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { sendMail } from '../mail.js';
import type { Ctx } from '../operation.js';
import type { PlatformDb, UserTokensTable } from '../../store/tables.js';
import { hashToken } from './tokens.js';
import type { UserRow } from './users.js';

export type Purpose = UserTokensTable['purpose'];

export const mailedTokenLifetime = 60 * 60_000;

export const mailedToken = () =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be the 64-character token of the e-mail')
    .meta({ examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'] });

/** The mailer, or 422 when acct serve has no SMTP server. */
export function mailerOf(ctx: Ctx): NonNullable<Ctx['mailer']> {
  if (!ctx.mailer) throw new AppError('unprocessable_entity', 'e-mail is not configured on this server: acct serve --smtp URL, or ACCT_SMTP_URL');
  return ctx.mailer;
}

/** Milliseconds since the user's latest token of the purpose was issued (Infinity when none). */
export async function sinceLastIssued(db: Kysely<PlatformDb>, ctx: Ctx, userId: number, purpose: Purpose): Promise<number> {
  const last = await db
    .selectFrom('user_tokens')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return last ? ctx.clock.now().getTime() - Date.parse(last.created_at) : Infinity;
}

/** A new token of 32 random bytes, as 64 hexadecimal characters (what the e-mail carries; only its hash is kept). */
export const newMailedToken = (): string => randomBytes(32).toString('hex');

/** Keep a token's hash, valid for an hour from now. */
export async function storeMailedToken(trx: Kysely<PlatformDb>, ctx: Ctx, userId: number, purpose: Purpose, token: string): Promise<void> {
  await trx
    .insertInto('user_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      created_at: timestamp(ctx.clock),
      expires_at: new Date(ctx.clock.now().getTime() + mailedTokenLifetime).toISOString(),
      used_at: null,
    })
    .execute();
}

/** Send the e-mail that carries a token; a mail server that fails it is 503 (the token is of no use then). */
export async function sendTokenMail(mailer: NonNullable<Ctx['mailer']>, user: UserRow, purpose: Purpose, token: string): Promise<void> {
  const verify = purpose === 'verify_email';
  try {
    await sendMail(mailer, {
      to: user.email,
      fromName: 'acct',
      subject: verify ? 'Verify your e-mail address' : 'Reset your password',
      text: verify
        ? `Hello ${user.full_name},\n\nTo verify this address, send this token to POST /v1/email-verification/verify-email within an hour:\n\n${token}\n`
        : `Hello ${user.full_name},\n\nTo choose a new password, send this token with it to POST /v1/password-reset/reset-password within an hour:\n\n${token}\n\nIf you did not ask for this, ignore this message: your password is unchanged.\n`,
      attachments: [],
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    const what = verify ? 'verification' : 'password reset';
    throw new AppError('service_unavailable', `the ${what} e-mail could not be sent: ${(e as Error).message}`, undefined, { cause: e });
  }
}

/**
 * Issue a token (committed at once) and e-mail it to the user. Given a
 * cooldown, nothing is issued or sent (false) when the user's latest token of
 * the purpose is younger: checked in the write that issues, so two requests
 * at once send one e-mail. When the e-mail fails (503), the token is deleted
 * again: it reached nobody, and a token kept would hold the next request back
 * as though it had been sent.
 */
export async function mailToken(ctx: Ctx, user: UserRow, purpose: Purpose, cooldown = 0): Promise<boolean> {
  const mailer = mailerOf(ctx);
  const token = newMailedToken();
  const issued = await ctx.platform.write(async (trx) => {
    if (cooldown > 0 && (await sinceLastIssued(trx, ctx, user.id, purpose)) < cooldown) return false;
    await storeMailedToken(trx, ctx, user.id, purpose, token);
    return true;
  });
  if (!issued) return false;
  try {
    await sendTokenMail(mailer, user, purpose, token);
  } catch (e) {
    await ctx.platform.write((trx) => trx.deleteFrom('user_tokens').where('token_hash', '=', hashToken(token)).execute());
    throw e;
  }
  return true;
}

/** The live token of the purpose (unused, unexpired), or undefined. */
export async function liveToken(db: Kysely<PlatformDb>, ctx: Ctx, token: string, purpose: Purpose): Promise<UserTokensTable | undefined> {
  const row = await db.selectFrom('user_tokens').selectAll().where('token_hash', '=', hashToken(token)).where('purpose', '=', purpose).executeTakeFirst();
  if (!row || row.used_at !== null || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) return undefined;
  return row;
}

/** Spend a token, only if still unspent: of two requests racing with one token, one wins. */
export async function spendToken(trx: Kysely<PlatformDb>, ctx: Ctx, tokenHash: string): Promise<boolean> {
  const r = await trx
    .updateTable('user_tokens')
    .set({ used_at: timestamp(ctx.clock) })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

/** jo@example.com → jo*****@example.com (the spec's example): the first two characters, then always five stars, whatever the length. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  return `${email.slice(0, Math.min(2, at))}*****${email.slice(at)}`;
}
