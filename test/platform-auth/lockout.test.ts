/** Lockout: five failed logins in a row lock the account for 15 minutes (423 with the time left); a success resets the count. */
import t from 'tap';
import { movingClock, newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { logIn, person, registerUser } from './support.js';

const start = '2026-11-21T10:00:00Z';
const minute = 60_000;

const fail = (api: Api) => api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: 'not the password' } });

t.test('the fifth failure locks for 15 minutes, even the right password; then it opens again', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  for (let i = 1; i <= 5; i++) expectError(t, await fail(api), 401, 'unauthorized');
  const locked = await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } });
  expectError(t, locked, 423, 'account_locked', { message: /try again in 15 min 0 s/ });
  clock.advance(10 * minute);
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } }), 423, 'account_locked', {
    message: /try again in 5 min 0 s/,
  });
  t.equal((await books.store.platform.db.selectFrom('sessions').select('id').execute()).length, 1, 'no session made while locked (the one of registration)');
  clock.advance(5 * minute);
  await logIn(t, api);
});

t.test('a success resets the count: four failures, a success, four more do not lock', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  for (let i = 1; i <= 4; i++) expectError(t, await fail(api), 401, 'unauthorized');
  await logIn(t, api);
  for (let i = 1; i <= 4; i++) expectError(t, await fail(api), 401, 'unauthorized');
  await logIn(t, api);
});

t.test('failures at an unknown address lock nothing and are never 423', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  for (let i = 1; i <= 6; i++) {
    expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'ghost@example.com', password: 'whatever' } }), 401, 'unauthorized');
  }
});

t.test('wrong passwords confirming a change of password or TOTP count toward the lockout too', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  // A stolen access token must not let its holder guess the password without limit: three wrong here, two at login.
  for (let i = 1; i <= 2; i++) {
    const r = await api.request('POST', '/v1/auth/password', { key: accessToken, body: { currentPassword: `guess ${i}`, newPassword: 'a new password' } });
    expectError(t, r, 401, 'unauthorized');
  }
  expectError(t, await api.request('DELETE', '/v1/auth/totp', { key: accessToken, body: { password: 'guess 3' } }), 401, 'unauthorized');
  for (let i = 1; i <= 2; i++) expectError(t, await fail(api), 401, 'unauthorized');
  // The fifth failure in a row locked the account: the right password is refused everywhere for 15 minutes.
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } }), 423, 'account_locked');
  const change = await api.request('POST', '/v1/auth/password', {
    key: accessToken,
    body: { currentPassword: person.password, newPassword: 'a new password' },
  });
  expectError(t, change, 423, 'account_locked');
  clock.advance(15 * 60_000);
  await logIn(t, api);
});

t.test('the time left never reads 60 s', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  for (let i = 1; i <= 5; i++) expectError(t, await fail(api), 401, 'unauthorized');
  // 15 min − 0.5 s = 14 min 59.5 s left, read rounded up to the second: 15 min 0 s, not 14 min 60 s.
  clock.advance(500);
  const locked = await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } });
  expectError(t, locked, 423, 'account_locked', { message: /try again in 15 min 0 s/ });
});
