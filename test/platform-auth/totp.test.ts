/**
 * TOTP (RFC 6238): the published SHA-1 vectors, then over HTTP set-up,
 * enable, a login in two steps, ±1 step, no code twice, a temporary token
 * of 5 minutes used once, and disabling with the password.
 */
import t from 'tap';
import type { Test } from 'tap';
import { createHmac } from 'node:crypto';
import { movingClock, newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { base32Decode, base32Encode, hotp, totpAt } from '../../src/engine/users/totp.js';
import { logIn, person, registerUser } from './support.js';

const start = '2026-11-21T10:00:00Z';

t.test("RFC 6238 Appendix B, SHA-1: secret '12345678901234567890', 8 digits and their last 6", async (t) => {
  const secret = Buffer.from('12345678901234567890');
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  for (const [seconds, code] of vectors) {
    t.equal(totpAt(secret, seconds * 1000, 8), code, `T = ${seconds}: ${code}`);
    t.equal(totpAt(secret, seconds * 1000), code.slice(2), `T = ${seconds}: ${code.slice(2)} in 6 digits`);
  }
  t.equal(hotp(secret, 1, 6), '287082', 'RFC 4226 Appendix D, count 1');
  t.equal(base32Encode(secret), 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  t.same(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'), secret);
});

/** The code at an instant, computed here independently of the engine (RFC 4226 §5.3). */
function codeAt(secretBase32: string, ms: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const mac = createHmac('sha1', base32Decode(secretBase32)).update(counter).digest();
  const offset = mac[19]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function withTotp(t: Test, api: Api, clock: { now(): Date; advance(ms: number): void }) {
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  const setup = await api.request('POST', '/v1/auth/totp/setup', { key: accessToken });
  t.equal(setup.status, 200);
  const secret = setup.body.data.secret as string;
  t.match(secret, /^[A-Z2-7]{32}$/, '160 bits in base32');
  t.equal(setup.body.data.otpauth, `otpauth://totp/acct%3Ajo%40example.com?secret=${secret}&issuer=acct&algorithm=SHA1&digits=6&period=30`);
  const enabled = await api.request('POST', '/v1/auth/totp/enable', { key: accessToken, body: { token: codeAt(secret, clock.now().getTime()) } });
  t.equal(enabled.status, 200, 'enabled');
  clock.advance(30_000);
  return { secret, accessToken };
}

t.test('set up, enable, then a login needs the code: a temporary token, then the login response', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { secret, accessToken } = await withTotp(t, api, clock);
  t.equal((await api.request('GET', '/v1/auth/me', { key: accessToken })).body.data.totpEnabled, true);
  expectError(t, await api.request('POST', '/v1/auth/totp/setup', { key: accessToken }), 409, 'conflict', { message: /already enabled/ });
  const stored = await books.store.platform.db.selectFrom('users').select('totp_secret').executeTakeFirstOrThrow();
  t.notOk(stored.totp_secret?.includes(secret), 'the secret is sealed at rest');

  const first = await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } });
  t.equal(first.status, 200);
  t.same(Object.keys(first.body.data).sort(), ['requiresTotp', 'tempToken']);
  t.equal(first.body.data.requiresTotp, true);
  const tempToken = first.body.data.tempToken as string;
  expectError(t, await api.request('GET', '/v1/auth/me', { key: tempToken }), 401, 'unauthorized', { message: /malformed|invalid/ });
  expectError(
    t,
    await api.request('POST', '/v1/auth/totp/verify', {
      key: null,
      body: { tempToken, token: '000000' === codeAt(secret, clock.now().getTime()) ? '111111' : '000000' },
    }),
    401,
    'unauthorized',
  );
  const verified = await api.request('POST', '/v1/auth/totp/verify', { key: null, body: { tempToken, token: codeAt(secret, clock.now().getTime()) } });
  t.equal(verified.status, 200);
  t.match(verified.body.data, { expiresIn: 900, user: { email: 'jo@example.com' } });
  t.equal((await api.request('GET', '/v1/auth/me', { key: verified.body.data.accessToken })).status, 200, 'a session');
  expectError(
    t,
    await api.request('POST', '/v1/auth/totp/verify', { key: null, body: { tempToken, token: codeAt(secret, clock.now().getTime() + 30_000) } }),
    401,
    'unauthorized',
    {
      message: /temporary token/,
    },
  );
});

t.test('a code is accepted one step either side, never twice, and not after an earlier one was used', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { secret } = await withTotp(t, api, clock);
  const challenge = async () =>
    (await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } })).body.data.tempToken as string;
  const verify = async (token: string) => api.request('POST', '/v1/auth/totp/verify', { key: null, body: { tempToken: await challenge(), token } });
  const now = clock.now().getTime();
  expectError(t, await verify(codeAt(secret, now - 60_000)), 401, 'unauthorized');
  expectError(t, await verify(codeAt(secret, now + 60_000)), 401, 'unauthorized');
  t.equal((await verify(codeAt(secret, now - 30_000 + 1))).status, 401, 'the previous step was used to enable');
  const next = codeAt(secret, now + 30_000);
  t.equal((await verify(next)).status, 200, 'the next step');
  expectError(t, await verify(next), 401, 'unauthorized', { message: /used/ });
  t.equal((await verify(codeAt(secret, now))).status, 401, 'the current step is before the one accepted');
  clock.advance(60_000);
  t.equal((await verify(codeAt(secret, clock.now().getTime()))).status, 200, 'a later step');
});

t.test('the temporary token lasts 5 minutes', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { secret } = await withTotp(t, api, clock);
  const tempToken = (await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } })).body.data.tempToken;
  clock.advance(5 * 60_000);
  expectError(
    t,
    await api.request('POST', '/v1/auth/totp/verify', { key: null, body: { tempToken, token: codeAt(secret, clock.now().getTime()) } }),
    401,
    'unauthorized',
    {
      message: /temporary token/,
    },
  );
});

t.test('enable refuses a wrong code; disable needs the password', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  expectError(t, await api.request('POST', '/v1/auth/totp/enable', { key: accessToken, body: { token: '123456' } }), 400, 'validation_error', {
    message: /set TOTP up/,
  });
  const secret = (await api.request('POST', '/v1/auth/totp/setup', { key: accessToken })).body.data.secret as string;
  const wrong = codeAt(secret, clock.now().getTime()) === '123456' ? '654321' : '123456';
  expectError(t, await api.request('POST', '/v1/auth/totp/enable', { key: accessToken, body: { token: wrong } }), 400, 'validation_error', { field: 'token' });
  t.equal((await api.request('GET', '/v1/auth/me', { key: accessToken })).body.data.totpEnabled, false, 'still off');
  t.equal((await api.request('POST', '/v1/auth/totp/enable', { key: accessToken, body: { token: codeAt(secret, clock.now().getTime()) } })).status, 200);
  expectError(t, await api.request('DELETE', '/v1/auth/totp', { key: accessToken, body: { password: 'wrong password' } }), 401, 'unauthorized');
  t.equal((await api.request('GET', '/v1/auth/me', { key: accessToken })).body.data.totpEnabled, true, 'still on');
  const off = await api.request('DELETE', '/v1/auth/totp', { key: accessToken, body: { password: person.password } });
  t.same(off.body.data, { totpEnabled: false });
  const plain = await logIn(t, api);
  t.match(plain.accessToken, /^at_/, 'a login in one step again');
});
