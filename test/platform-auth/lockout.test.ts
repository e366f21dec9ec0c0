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
