/**
 * Session tokens over HTTP: accepted wherever an API key is (the user's
 * organisation, live books, every scope); 15 minutes for access, 7 days for
 * refresh; refresh rotates; logout and a password change end sessions.
 */
import t from 'tap';
import { movingClock, newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { logIn, person, registerUser } from './support.js';

const start = '2026-11-21T10:00:00Z';
const minute = 60_000;

t.test('a session token works wherever an API key does: the user organisation, live books, every scope', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const reg = await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  const contact = await api.request('POST', '/v1/contacts', { key: accessToken, body: { contactType: 'customer', name: 'Client Ltd' } });
  t.equal(contact.status, 201, 'a scoped write');
  const key = await api.request('POST', '/v1/api-keys', { key: accessToken, body: { name: 'made by Jo' } });
  t.equal(key.status, 201, 'an all-scopes operation');
  t.equal(key.body.data.mode, 'live', 'live mode');
  t.equal((await api.request('GET', '/v1/organisation', { key: accessToken })).body.data.id, reg.organisation.id, 'the user organisation');
  // Not the other organisation of the data directory.
  expectError(t, await api.request('GET', `/v1/contacts/${contact.body.data.id}`), 404, 'not_found');
  t.equal((await api.request('GET', '/v1/contacts', { key: accessToken })).body.data.length, 1);
});

t.test('session operations need a session: none is 401, an API key 403', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('GET', '/v1/auth/me', { key: null }), 401, 'unauthorized');
  expectError(t, await api.request('GET', '/v1/auth/me'), 403, 'insufficient_scope', { message: /session/ });
  expectError(t, await api.request('POST', '/v1/auth/logout'), 403, 'insufficient_scope');
  expectError(t, await api.request('GET', '/v1/auth/me', { key: 'at_' + 'x'.repeat(43) }), 401, 'unauthorized');
});

t.test('the access token lasts 15 minutes; refresh rotates and the spent refresh token is refused', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const first = await logIn(t, api);
  clock.advance(15 * minute - 1000);
  t.equal((await api.request('GET', '/v1/auth/me', { key: first.accessToken })).status, 200, 'alive at 14:59');
  clock.advance(1000);
  expectError(t, await api.request('GET', '/v1/auth/me', { key: first.accessToken }), 401, 'unauthorized', { message: /expired/ });
  expectError(t, await api.request('GET', '/v1/contacts', { key: first.accessToken }), 401, 'unauthorized');

  const refreshed = await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken: first.refreshToken } });
  t.equal(refreshed.status, 200);
  t.match(refreshed.body.data, { expiresIn: 900, user: { email: 'jo@example.com' } });
  t.not(refreshed.body.data.refreshToken, first.refreshToken, 'a new refresh token');
  t.equal((await api.request('GET', '/v1/auth/me', { key: refreshed.body.data.accessToken })).status, 200, 'the new access token works');
  expectError(t, await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken: first.refreshToken } }), 401, 'unauthorized');
  expectError(t, await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken: 'rt_nonsense' } }), 401, 'unauthorized');
});

t.test('the refresh token lasts 7 days', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const { refreshToken } = await logIn(t, api);
  clock.advance(7 * 24 * 60 * minute);
  expectError(t, await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken } }), 401, 'unauthorized');
});

t.test('logout ends this session only: its access and refresh tokens are refused', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const one = await logIn(t, api);
  const two = await logIn(t, api);
  const out = await api.request('POST', '/v1/auth/logout', { key: one.accessToken });
  t.equal(out.status, 200);
  t.same(out.body.data, { loggedOut: true });
  expectError(t, await api.request('GET', '/v1/auth/me', { key: one.accessToken }), 401, 'unauthorized');
  expectError(t, await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken: one.refreshToken } }), 401, 'unauthorized');
  t.equal((await api.request('GET', '/v1/auth/me', { key: two.accessToken })).status, 200, 'the other session lives on');
});

t.test('a password change needs the current password and ends every session of the user', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const one = await logIn(t, api);
  const two = await logIn(t, api);
  const hashBefore = (await books.store.platform.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash;
  expectError(
    t,
    await api.request('POST', '/v1/auth/password', { key: one.accessToken, body: { currentPassword: 'wrong one', newPassword: 'a new password' } }),
    401,
    'unauthorized',
  );
  expectError(
    t,
    await api.request('POST', '/v1/auth/password', { key: one.accessToken, body: { currentPassword: person.password, newPassword: 'short' } }),
    400,
    'validation_error',
    {
      field: 'newPassword',
    },
  );
  t.equal(
    (await books.store.platform.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash,
    hashBefore,
    'refusals changed nothing',
  );
  const changed = await api.request('POST', '/v1/auth/password', {
    key: one.accessToken,
    body: { currentPassword: person.password, newPassword: 'a new password' },
  });
  t.equal(changed.status, 200);
  t.same(changed.body.data, { passwordChanged: true, sessionsEnded: 3 });
  for (const s of [one, two]) {
    expectError(t, await api.request('GET', '/v1/auth/me', { key: s.accessToken }), 401, 'unauthorized');
    expectError(t, await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken: s.refreshToken } }), 401, 'unauthorized');
  }
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: person.email, password: person.password } }), 401, 'unauthorized');
  await logIn(t, api, person.email, 'a new password');
});
