/**
 * Per-IP rate limits on the requests that make or probe accounts, over a
 * real server with rateLimits on (as `acct serve` runs) and a clock the test
 * moves: registration, password reset and the verification e-mail 3 an
 * hour, login and TOTP verify 5 in 15 minutes, token refresh 20 in 15
 * minutes, per client IP address (the socket's; X-Forwarded-For only
 * behind a trusted proxy, its last entry). A refused request is 429 rate_limited with Retry-After and
 * writes nothing.
 */
import http from 'node:http';
import fs from 'node:fs';
import t from 'tap';
import type { Test } from 'tap';
import { checkContract, movingClock, newBooks, serveBooks, type Api, type Books, type MovingClock, type Reply, type ServedApi } from '../helpers/index.js';
import { operations } from '../../src/engine/registry.js';
import { defaultLimits } from '../../src/http/rate-limit.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import { startSmtp, type Smtp } from '../sales-cli/support.js';
import { logIn, person, registerUser } from '../platform-auth/support.js';
import { expectError, serveWith } from './support.js';

const start = '2026-11-21T10:00:00Z';
const minute = 60_000;

async function limited(t: Test, options: Parameters<typeof serveWith>[2] = {}): Promise<{ books: Books; api: ServedApi; clock: MovingClock; smtp: Smtp }> {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const smtp = await startSmtp(t);
  const api = await serveWith(t, books, { clock, mailer: smtpMailer(smtp.url()), ...options });
  return { books, api, clock, smtp };
}

/** A 429 rate_limited naming the per-IP limit; its Retry-After in seconds. */
function expectIpLimited(t: Test, r: Reply): number {
  expectError(t, r, 429, 'rate_limited', { field: null, message: /from one IP address/ });
  t.equal(r.headers.get('x-ratelimit-remaining'), '0', 'X-RateLimit-Remaining 0');
  t.match(r.headers.get('retry-after'), /^\d+$/, 'Retry-After in whole seconds');
  return Number(r.headers.get('retry-after'));
}

async function counts(books: Books): Promise<{ organisations: number; users: number; tokens: number; sessions: number; challenges: number; files: number }> {
  const db = books.store.platform.db;
  const n = async (table: 'organisations' | 'users' | 'user_tokens' | 'sessions' | 'login_challenges') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    organisations: await n('organisations'),
    users: await n('users'),
    tokens: await n('user_tokens'),
    sessions: await n('sessions'),
    challenges: await n('login_challenges'),
    files: fs.readdirSync(books.dataDir, { recursive: true }).length,
  };
}

const registration = (i: number) => ({ ...person, email: `person${i}@example.com`, organisationName: `Person ${i} Ltd` });

/** A POST of JSON from the local address `from` (another loopback address: another client IP). */
function postFrom(t: Test, api: Api, from: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${api.url}${path}`,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = new Uint8Array(Buffer.concat(chunks));
          const text = Buffer.from(bytes).toString('utf8');
          const parsed: unknown = JSON.parse(text);
          const headers = new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)] as [string, string]));
          checkContract(t, 'POST', path, new Response(text, { status: res.statusCode ?? 0, headers }), parsed);
          resolve({ status: res.statusCode ?? 0, headers, body: parsed, text, bytes });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

t.test('registration: 3 an hour per IP; the 4th is 429 and writes nothing; another address and, an hour on, this one pass', async (t) => {
  const { books, api, clock } = await limited(t);
  for (let i = 1; i <= 3; i++) {
    const r = await api.request('POST', '/v1/registration/register', { key: null, body: registration(i) });
    t.equal(r.status, 201, `registration ${i}`);
    t.equal(r.headers.get('x-ratelimit-limit'), '3');
    t.equal(r.headers.get('x-ratelimit-remaining'), String(3 - i), `${3 - i} left`);
  }
  const before = await counts(books);
  clock.advance(10 * minute);
  const refused = await api.request('POST', '/v1/registration/register', { key: null, body: registration(4), headers: { 'x-forwarded-for': '203.0.113.9' } });
  // The three at 10:00 leave the window at 11:00; now 10:10: 50 minutes, 3000 s.
  t.equal(expectIpLimited(t, refused), 3000, 'Retry-After 3000 (X-Forwarded-For is not trusted)');
  t.same(await counts(books), before, 'no organisation, user, session or books file');

  const elsewhere = await postFrom(t, api, '127.0.0.2', '/v1/registration/register', registration(5));
  t.equal(elsewhere.status, 201, 'another client address has its own 3');

  clock.advance(50 * minute);
  t.equal((await api.request('POST', '/v1/registration/register', { key: null, body: registration(4) })).status, 201, 'an hour after the first three');
});

t.test('login: 5 in 15 minutes per IP beside the per-account lockout; the 6th is 429 even with the right password', async (t) => {
  const { books, api, clock } = await limited(t);
  await registerUser(t, api);
  for (let i = 1; i <= 5; i++) {
    const r = await api.request('POST', '/v1/auth/login', { key: null, body: { email: `nobody${i}@example.com`, password: 'a wrong guess' } });
    t.equal(r.status, 401, `attempt ${i} at an unknown address: 401, no lockout to stop it`);
  }
  const before = await counts(books);
  const refused = await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } });
  t.equal(expectIpLimited(t, refused), 900, 'Retry-After 900 s: all five were at 10:00');
  t.same(await counts(books), before, 'no session opened');
  clock.advance(15 * minute);
  await logIn(t, api);
});

t.test('TOTP verify: 5 in 15 minutes per IP', async (t) => {
  const { api } = await limited(t);
  const body = { tempToken: 'tt_nosuchchallenge', token: '123456' };
  for (let i = 1; i <= 5; i++) t.equal((await api.request('POST', '/v1/auth/totp/verify', { key: null, body })).status, 401, `attempt ${i}`);
  expectIpLimited(t, await api.request('POST', '/v1/auth/totp/verify', { key: null, body }));
});

t.test('token refresh: 20 in 15 minutes per IP', async (t) => {
  const { api } = await limited(t);
  const body = { refreshToken: 'rt_nosuchtoken' };
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) statuses.push((await api.request('POST', '/v1/auth/refresh', { key: null, body })).status);
  t.same(statuses, Array(20).fill(401));
  expectIpLimited(t, await api.request('POST', '/v1/auth/refresh', { key: null, body }));
});

t.test('password reset request: 3 an hour per IP; the 4th mails nothing and stores no token', async (t) => {
  const { books, api, clock, smtp } = await limited(t);
  await registerUser(t, api);
  const forgot = () => api.request('POST', '/v1/password-reset/forgot-password', { key: null, body: { email: person.email } });
  // A minute apart, past the per-address cooldown of one a minute.
  for (let i = 1; i <= 3; i++) {
    t.equal((await forgot()).status, 200, `request ${i}`);
    // The e-mail goes after the answer: sent before the clock moves on.
    await api.settled();
    clock.advance(minute);
  }
  t.equal(smtp.messages.length, 3, 'three reset e-mails');
  const before = await counts(books);
  // The first was at 10:00, now 10:03: it leaves the window at 11:00, 57 minutes on.
  t.equal(expectIpLimited(t, await forgot()), 57 * 60, 'Retry-After 3420');
  await api.settled();
  t.equal(smtp.messages.length, 3, 'no fourth e-mail');
  t.same(await counts(books), before, 'no reset token stored');
});

t.test('verification e-mail resend: 3 an hour per IP', async (t) => {
  const { api, clock, smtp } = await limited(t);
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  const send = () => api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken });
  // Two minutes apart, past the per-user cooldown.
  for (let i = 1; i <= 3; i++) {
    t.equal((await send()).status, 200, `send ${i}`);
    clock.advance(2 * minute);
  }
  const mailed = smtp.messages.length;
  expectIpLimited(t, await send());
  t.equal(smtp.messages.length, mailed, 'no e-mail for the refused one');
});

t.test('the limits can be set for a server (tests); without rateLimits there are none', async (t) => {
  const { api } = await limited(t, { limits: { perIp: { 'registration.register': { max: 1, windowMs: minute } } } });
  t.equal((await api.request('POST', '/v1/registration/register', { key: null, body: registration(1) })).status, 201);
  t.equal(expectIpLimited(t, await api.request('POST', '/v1/registration/register', { key: null, body: registration(2) })), 60);

  const books = await newBooks(t, { clock: start });
  const open = await serveBooks(t, books);
  for (let i = 1; i <= 4; i++) await registerUser(t, open, registration(i));
});

t.test('every per-IP limit names an operation of the registry that needs no API key', async (t) => {
  for (const name of Object.keys(defaultLimits.perIp)) {
    const op = operations.find((o) => o.name === name);
    t.ok(op?.access === 'public' || op?.access === 'session', `${name} is an operation reached without an API key`);
  }
});

// Behind nginx every request comes from the proxy's address: without trustProxy all
// clients would share one allowance of 3 an hour. With it, the address the proxy
// appends last to X-Forwarded-For is the client's; what a client put before it is not.
t.test('behind a trusted proxy the last X-Forwarded-For address is the client; a forged first entry changes nothing', async (t) => {
  const { api } = await limited(t, { trustProxy: true });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  for (let i = 1; i <= 3; i++) {
    const r = await api.request('POST', '/v1/registration/register', { key: null, body: registration(i), headers: from(`198.51.100.${i}, 203.0.113.9`) });
    t.equal(r.status, 201, `registration ${i} for 203.0.113.9 (its first entry forged)`);
  }
  expectIpLimited(t, await api.request('POST', '/v1/registration/register', { key: null, body: registration(4), headers: from('198.51.100.99, 203.0.113.9') }));
  const other = await api.request('POST', '/v1/registration/register', { key: null, body: registration(5), headers: from('203.0.113.10') });
  t.equal(other.status, 201, 'another client behind the same proxy has its own 3');
  const direct = await api.request('POST', '/v1/registration/register', { key: null, body: registration(6) });
  t.equal(direct.status, 201, 'a request with no X-Forwarded-For is counted by its socket address');
});
