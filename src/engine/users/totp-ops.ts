/** TOTP as a second factor: set up, enable with a first code, the second step of a login, disable. */
import { z } from 'zod';
import { defineOperation, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { acceptedStep, newTotpSecret, otpauthUri } from './totp.js';
import { hashToken, isToken } from './tokens.js';
import { loginSchema, openSession } from './sessions.js';
import { checkOwnPassword, sessionOf } from './login-ops.js';
import { recordFailure, refuseIfLocked, userById, type UserRow } from './users.js';

const code = () =>
  z
    .string()
    .regex(/^\d{6}$/, 'must be the 6 digits the authenticator app shows')
    .meta({ examples: ['287082'] })
    .describe('the 6-digit code of the authenticator app');

/** The step the code belongs to, if it is good and new for the user. */
function stepOf(ctx: Ctx, user: UserRow, given: string): number | null {
  if (user.totp_secret === null) return null;
  return acceptedStep(ctx.store.secrets.open(user.totp_secret), given, ctx.clock.now().getTime(), user.totp_last_step);
}

export const totpSetup = defineOperation({
  name: 'auth.totp-setup',
  summary: 'Start TOTP: a new secret for an authenticator app (not in force until enabled with a code)',
  access: 'session',
  method: 'POST',
  path: '/auth/totp/setup',
  secrets: ['secret', 'otpauth'],
  output: z.strictObject({
    secret: z.string().nullable().describe('base32, for typing into the app; null when the response is replayed for a repeated Idempotency-Key'),
    otpauth: z.string().nullable().describe('the otpauth:// URI, for a QR code; null when the response is replayed for a repeated Idempotency-Key'),
  }),
  async run(ctx) {
    const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
    if (user.totp_enabled === 1) throw new AppError('conflict', 'TOTP is already enabled: disable it first to set up a new secret');
    const secret = newTotpSecret();
    await ctx.platform.write((trx) =>
      trx
        .updateTable('users')
        .set({ totp_secret: ctx.store.secrets.seal(secret), totp_last_step: null, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute(),
    );
    return { data: { secret, otpauth: otpauthUri(secret, user.email) } };
  },
});

export const totpEnable = defineOperation({
  name: 'auth.totp-enable',
  summary: 'Turn TOTP on with a code from the app set up; logins then need a code',
  access: 'session',
  method: 'POST',
  path: '/auth/totp/enable',
  body: { token: code() },
  output: z.strictObject({ totpEnabled: z.literal(true) }),
  async run(ctx, input) {
    const user = await userById(ctx.platform.db, sessionOf(ctx).userId);
    if (user.totp_enabled === 1) throw new AppError('conflict', 'TOTP is already enabled');
    if (user.totp_secret === null) throw new AppError('validation_error', 'set TOTP up first (POST /auth/totp/setup)');
    const step = stepOf(ctx, user, input.token);
    if (step === null) throw new AppError('validation_error', 'the code is wrong or has been used', 'token');
    await ctx.platform.write((trx) =>
      trx
        .updateTable('users')
        .set({ totp_enabled: 1, totp_last_step: step, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute(),
    );
    return { data: { totpEnabled: true as const } };
  },
});

export const totpVerify = defineOperation({
  name: 'auth.totp-verify',
  summary: 'The second step of a login with TOTP on: the temporary token and a code, for the login response',
  description: 'A wrong code counts as a failed login toward the lockout. The temporary token is single-use and lasts 5 minutes.',
  access: 'public',
  method: 'POST',
  path: '/auth/totp/verify',
  body: {
    tempToken: z
      .string()
      .min(1)
      .max(200)
      .meta({ examples: ['tt_…'] })
      .describe('from POST /auth/login'),
    token: code(),
  },
  output: loginSchema,
  async run(ctx, input) {
    const refused = new AppError('unauthorized', 'invalid or expired temporary token');
    if (!isToken(input.tempToken, 'tt')) throw refused;
    const hash = hashToken(input.tempToken);
    const challenge = await ctx.platform.db.selectFrom('login_challenges').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    if (!challenge || challenge.used_at !== null || Date.parse(challenge.expires_at) <= ctx.clock.now().getTime()) throw refused;
    const user = await userById(ctx.platform.db, challenge.user_id);
    refuseIfLocked(user, ctx.clock);
    const step = stepOf(ctx, user, input.token);
    if (step === null) {
      await recordFailure(ctx, user.id);
      throw new AppError('unauthorized', 'the code is wrong or has been used');
    }
    const data = await ctx.platform.write(async (trx) => {
      // Spent and stepped in the same write, only if still unspent: two requests racing with one code cannot both win.
      const spent = await trx
        .updateTable('login_challenges')
        .set({ used_at: timestamp(ctx.clock) })
        .where('token_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      const stepped = await trx
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', user.id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      if (spent.numUpdatedRows !== 1n || stepped.numUpdatedRows !== 1n) throw new AppError('unauthorized', 'the code is wrong or has been used');
      return openSession(trx, ctx.clock, user);
    });
    return { data };
  },
});

export const totpDisable = defineOperation({
  name: 'auth.totp-disable',
  summary: 'Turn TOTP off, confirmed with the password',
  access: 'session',
  method: 'DELETE',
  path: '/auth/totp',
  body: {
    password: z
      .string()
      .min(1)
      .max(1024)
      .meta({ examples: ['"correct horse battery"'] }),
  },
  output: z.strictObject({ totpEnabled: z.literal(false) }),
  async run(ctx, input) {
    const user = await checkOwnPassword(ctx, input.password);
    await ctx.platform.write((trx) =>
      trx
        .updateTable('users')
        .set({ totp_enabled: 0, totp_secret: null, totp_last_step: null, updated_at: timestamp(ctx.clock) })
        .where('id', '=', user.id)
        .execute(),
    );
    return { data: { totpEnabled: false as const } };
  },
});
