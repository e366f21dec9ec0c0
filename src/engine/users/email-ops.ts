/** E-mail verification and password reset, by single-use tokens of an hour sent by e-mail. */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { hashPassword } from './password.js';
import { revokeSessions } from './sessions.js';
import { password, sessionOf } from './login-ops.js';
import { loginEmail, userByEmail, userById } from './users.js';
import { liveToken, mailedToken, mailerOf, mailToken, maskEmail, sinceLastIssued, spendToken } from './mailed-tokens.js';
import { hashToken } from './tokens.js';
import { afterAnswer } from '../external.js';

const verificationCooldown = 2 * 60_000;
const resetCooldown = 60_000;

const badToken = (): AppError => new AppError('validation_error', 'the token is invalid, used or expired', 'token');

const verificationSchema = z.strictObject({ email: z.string(), emailVerified: z.boolean() });

export const sendVerification = defineOperation({
  name: 'email-verification.send',
  summary: 'E-mail the user a token that verifies their address (at most one every 2 minutes)',
  description: 'Nothing is sent once the address is verified. Needs an SMTP server (acct serve --smtp URL); without one, 422.',
  access: 'session',
  method: 'POST',
  path: '/email-verification/verify-email/send',
  output: verificationSchema.extend({ sent: z.boolean() }),
  async external(ctx) {
    const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
    if (user.email_verified === 1) return;
    mailerOf(ctx);
    const since = await sinceLastIssued(ctx.platform.db, ctx, user.id, 'verify_email');
    if (since < verificationCooldown) {
      const retryAfter = Math.ceil((verificationCooldown - since) / 1000);
      throw new AppError('rate_limited', `a verification e-mail was sent less than 2 minutes ago: try again in ${retryAfter} s`, undefined, { retryAfter });
    }
    await mailToken(ctx, user, 'verify_email');
  },
  async run(ctx) {
    const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
    const verified = user.email_verified === 1;
    return { data: { email: user.email, emailVerified: verified, sent: !verified } };
  },
});

export const verifyEmail = defineOperation({
  name: 'email-verification.verify',
  summary: 'Verify an address with the token e-mailed to it; the same token again answers the same',
  access: 'public',
  method: 'POST',
  path: '/email-verification/verify-email',
  body: { token: mailedToken() },
  output: verificationSchema,
  async run(ctx, input) {
    const hash = hashToken(input.token);
    const row = await ctx.platform.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .where('purpose', '=', 'verify_email')
      .executeTakeFirst();
    if (!row) throw badToken();
    const user = await userById(ctx.platform.db, row.user_id);
    // Idempotent: the token that verified the address still answers that it is verified.
    if (row.used_at !== null && user.email_verified === 1) return { data: { email: user.email, emailVerified: true } };
    if (!(await liveToken(ctx.platform.db, ctx, input.token, 'verify_email'))) throw badToken();
    await ctx.platform.write(async (trx) => {
      if (!(await spendToken(trx, ctx, hash))) throw badToken();
      await trx
        .updateTable('users')
        .set({ email_verified: 1, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute();
    });
    return { data: { email: user.email, emailVerified: true } };
  },
});

export const verificationStatus = defineOperation({
  name: 'email-verification.status',
  summary: "Whether the session user's address is verified",
  access: 'session',
  method: 'GET',
  path: '/email-verification/verify-email/status',
  output: verificationSchema,
  async run(ctx) {
    const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
    return { data: { email: user.email, emailVerified: user.email_verified === 1 } };
  },
});

const sameAnswer = 'if an account exists for this address, a password reset e-mail has been sent' as const;

export const forgotPassword = defineOperation({
  name: 'password-reset.forgot',
  summary: 'E-mail a password reset token to an address, if it has an account (the same answer either way)',
  description: 'At most one e-mail per address per minute. Needs an SMTP server (acct serve --smtp URL); without one, 422 whatever the address.',
  access: 'public',
  method: 'POST',
  path: '/password-reset/forgot-password',
  body: {
    email: loginEmail(),
  },
  output: z.strictObject({ message: z.literal(sameAnswer) }),
  async external(ctx, input) {
    mailerOf(ctx);
    // Everything that depends on the address happens after the answer (acct serve), so that neither the answer
    // nor its timing tells whether the address has an account; a failed e-mail is logged, not answered.
    await afterAnswer(ctx, async () => {
      const user = await userByEmail(ctx.platform.db, input.email);
      if (user) await mailToken(ctx, user, 'reset_password', resetCooldown);
    });
  },
  run() {
    return Promise.resolve({ data: { message: sameAnswer } });
  },
});

export const validateReset = defineOperation({
  name: 'password-reset.validate',
  summary: 'Whether a password reset token can still be used, and the address it is for (masked)',
  access: 'public',
  method: 'GET',
  path: '/password-reset/reset-password/validate',
  query: {
    token: z
      .string()
      .min(1)
      .max(200)
      .meta({ examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'] }),
  },
  output: z.strictObject({ valid: z.boolean(), email: z.string().nullable().describe('masked, e.g. jo*****@example.com; null when not valid') }),
  async run(ctx, input) {
    const row = /^[0-9a-f]{64}$/.test(input.token) ? await liveToken(ctx.platform.db, ctx, input.token, 'reset_password') : undefined;
    if (!row) return { data: { valid: false, email: null } };
    const user = await userById(ctx.platform.db, row.user_id);
    return { data: { valid: true, email: maskEmail(user.email) } };
  },
});

export const resetPassword = defineOperation({
  name: 'password-reset.reset',
  summary: 'Set a new password with a reset token; the token is spent, every session ends and a lockout is lifted',
  access: 'public',
  method: 'POST',
  path: '/password-reset/reset-password',
  body: { token: mailedToken(), password: password() },
  output: z.strictObject({ passwordReset: z.literal(true) }),
  async run(ctx, input) {
    const row = await liveToken(ctx.platform.db, ctx, input.token, 'reset_password');
    if (!row) throw badToken();
    const hash = await hashPassword(input.password);
    await ctx.platform.write(async (trx) => {
      if (!(await spendToken(trx, ctx, row.token_hash))) throw badToken();
      await trx
        .updateTable('users')
        .set({ password_hash: hash, failed_logins: 0, locked_until: null, updated_at: timestamp(ctx.clock) })
        .where('id', '=', row.user_id)
        .execute();
      await revokeSessions(trx, ctx.clock, { userId: row.user_id });
    });
    return { data: { passwordReset: true as const } };
  },
});
