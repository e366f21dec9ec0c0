/**
 * E-mail verification and password reset through a real SMTP server:
 * tokens of 64 hex characters, single use, an hour long; the same answer
 * to forgot-password for any address; the cooldowns.
 */
import t from 'tap';
import type { Test } from 'tap';
import { movingClock, newBooks, serveBooks, type ServedApi } from '../helpers/index.js';
import { startSmtp, type Smtp } from '../sales-cli/support.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import { expectError } from '../http/support.js';
import { logIn, person, registerUser } from './support.js';

const start = '2026-11-21T10:00:00Z';
const minute = 60_000;

/** The token of the latest message to `to`. */
function lastToken(t: Test, smtp: Smtp, to: string): string {
  const message = smtp.messages.filter((m) => m.rcptTo.includes(to)).at(-1);
  const token = /\b[0-9a-f]{64}\b/.exec(message?.raw.toString('utf8') ?? '')?.[0];
  t.ok(token, `a token was mailed to ${to}`);
  return token ?? '';
}

async function setUp(t: Test) {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const smtp = await startSmtp(t);
  const api = await serveBooks(t, books, { mailer: smtpMailer(smtp.url()) });
  return { clock, books, smtp, api };
}

/** Ask for a password reset e-mail, and wait for it to go (it is sent after the answer). */
async function forgot(api: ServedApi, email: string) {
  const answer = await api.request('POST', '/v1/password-reset/forgot-password', { key: null, body: { email } });
  await api.settled();
  return answer;
}

t.test('verification: a token mailed to the address verifies it; again it answers the same; status follows', async (t) => {
  const { api, smtp, clock } = await setUp(t);
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  t.same((await api.request('GET', '/v1/email-verification/verify-email/status', { key: accessToken })).body.data, {
    email: 'jo@example.com',
    emailVerified: false,
  });
  const sent = await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken });
  t.same(sent.body.data, { email: 'jo@example.com', emailVerified: false, sent: true });
  const tooSoon = await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken });
  expectError(t, tooSoon, 429, 'rate_limited', { message: /try again in 120 s/ });
  t.equal(tooSoon.headers.get('retry-after'), '120', 'Retry-After: the seconds the message says');
  t.equal(smtp.messages.length, 1, 'one e-mail within 2 minutes');
  clock.advance(2 * minute);
  t.equal((await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken })).status, 200);
  t.equal(smtp.messages.length, 2, 'another after 2 minutes');
  const token = lastToken(t, smtp, 'jo@example.com');
  const verified = await api.request('POST', '/v1/email-verification/verify-email', { key: null, body: { token } });
  t.same(verified.body.data, { email: 'jo@example.com', emailVerified: true });
  t.same(
    (await api.request('POST', '/v1/email-verification/verify-email', { key: null, body: { token } })).body.data,
    { email: 'jo@example.com', emailVerified: true },
    'idempotent',
  );
  t.equal((await api.request('GET', '/v1/auth/me', { key: accessToken })).body.data.emailVerified, true);
  const again = await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken });
  t.same(again.body.data, { email: 'jo@example.com', emailVerified: true, sent: false }, 'nothing sent once verified');
  t.equal(smtp.messages.length, 2);
  expectError(t, await api.request('POST', '/v1/email-verification/verify-email', { key: null, body: { token: 'f'.repeat(64) } }), 400, 'validation_error', {
    field: 'token',
  });
});

t.test('a verification token expires after an hour', async (t) => {
  const { api, smtp, clock } = await setUp(t);
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken });
  const token = lastToken(t, smtp, 'jo@example.com');
  clock.advance(60 * minute);
  expectError(t, await api.request('POST', '/v1/email-verification/verify-email', { key: null, body: { token } }), 400, 'validation_error', { field: 'token' });
});

t.test('forgot-password answers the same for any address and mails only a known one, once a minute', async (t) => {
  const { api, smtp, clock } = await setUp(t);
  await registerUser(t, api);
  const known = await forgot(api, 'JO@example.com');
  const unknown = await forgot(api, 'nobody@example.com');
  t.equal(known.status, 200);
  t.same(unknown.body, known.body, 'the same answer');
  t.same(
    smtp.messages.map((m) => m.rcptTo),
    [['jo@example.com']],
    'one e-mail, to the known address',
  );
  await forgot(api, 'jo@example.com');
  t.equal(smtp.messages.length, 1, 'not again within a minute');
  clock.advance(minute);
  await forgot(api, 'jo@example.com');
  t.equal(smtp.messages.length, 2, 'again after a minute');
});

t.test('reset: validate shows the masked address; the token sets the password once, ends sessions and lifts a lockout', async (t) => {
  const { api, smtp, books } = await setUp(t);
  await registerUser(t, api);
  const session = await logIn(t, api);
  for (let i = 0; i < 5; i++) await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: 'wrong guess' } });
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } }), 423, 'account_locked');
  await forgot(api, person.email);
  const token = lastToken(t, smtp, 'jo@example.com');
  t.same((await api.request('GET', `/v1/password-reset/reset-password/validate?token=${token}`, { key: null })).body.data, {
    valid: true,
    email: 'jo*****@example.com',
  });
  t.same((await api.request('GET', `/v1/password-reset/reset-password/validate?token=${'0'.repeat(64)}`, { key: null })).body.data, {
    valid: false,
    email: null,
  });
  expectError(t, await api.request('POST', '/v1/password-reset/reset-password', { key: null, body: { token, password: 'short' } }), 400, 'validation_error', {
    field: 'password',
  });
  const hashBefore = (await books.store.platform.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash;
  expectError(
    t,
    await api.request('POST', '/v1/password-reset/reset-password', { key: null, body: { token: 'a'.repeat(64), password: 'a brand new one' } }),
    400,
    'validation_error',
    { field: 'token' },
  );
  t.equal(
    (await books.store.platform.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash,
    hashBefore,
    'a refused reset changes nothing',
  );
  const reset = await api.request('POST', '/v1/password-reset/reset-password', { key: null, body: { token, password: 'a brand new one' } });
  t.same(reset.body.data, { passwordReset: true });
  expectError(t, await api.request('GET', '/v1/auth/me', { key: session.accessToken }), 401, 'unauthorized');
  await logIn(t, api, person.email, 'a brand new one');
  expectError(
    t,
    await api.request('POST', '/v1/password-reset/reset-password', { key: null, body: { token, password: 'yet another one' } }),
    400,
    'validation_error',
    { field: 'token' },
  );
  t.same(
    (await api.request('GET', `/v1/password-reset/reset-password/validate?token=${token}`, { key: null })).body.data,
    { valid: false, email: null },
    'spent',
  );
});

t.test('a reset token expires after an hour', async (t) => {
  const { api, smtp, clock } = await setUp(t);
  await registerUser(t, api);
  await forgot(api, person.email);
  const token = lastToken(t, smtp, 'jo@example.com');
  clock.advance(60 * minute);
  expectError(
    t,
    await api.request('POST', '/v1/password-reset/reset-password', { key: null, body: { token, password: 'a brand new one' } }),
    400,
    'validation_error',
    { field: 'token' },
  );
  await logIn(t, api);
});

t.test('without an SMTP server, sending is 422 whatever the address, and no token is made', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  expectError(t, await forgot(api, person.email), 422, 'unprocessable_entity');
  expectError(t, await forgot(api, 'nobody@example.com'), 422, 'unprocessable_entity');
  const { accessToken } = await logIn(t, api);
  expectError(t, await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken }), 422, 'unprocessable_entity');
  t.equal((await books.store.platform.db.selectFrom('user_tokens').select('token_hash').execute()).length, 0);
});
