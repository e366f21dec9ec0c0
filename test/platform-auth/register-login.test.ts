/**
 * Registration and login over HTTP: a user with an organisation provisioned
 * as acct init does, one 409 for a taken address, scrypt hashes with their
 * parameters, a new session on every login, one 401 for an unknown user and
 * a wrong password.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { syncBuiltinESMExports } from 'node:module';
import t from 'tap';
import { sql } from 'kysely';
import { booksExist, newBooks, serveBooks, type Books } from '../helpers/index.js';
import { resolveDatabase } from '../../src/store/open.js';
import { expectError } from '../http/support.js';
import { logIn, person, registerUser } from './support.js';

const clock = '2026-11-21T10:00:00Z';

/** The cost parameters of each scrypt derivation made while `during` runs (node:crypto's scrypt wrapped, for ES imports too). */
async function scryptCosts<T>(during: () => Promise<T>): Promise<{ result: T; costs: { N?: number; r?: number; p?: number }[] }> {
  const real = crypto.scrypt;
  const costs: { N?: number; r?: number; p?: number }[] = [];
  crypto.scrypt = function (this: unknown, ...args: unknown[]) {
    const options = typeof args[3] === 'object' && args[3] !== null ? (args[3] as crypto.ScryptOptions) : {};
    costs.push({ N: options.N ?? options.cost, r: options.r ?? options.blockSize, p: options.p ?? options.parallelization });
    return Reflect.apply(real, this, args) as void;
  };
  syncBuiltinESMExports();
  try {
    return { result: await during(), costs };
  } finally {
    crypto.scrypt = real;
    syncBuiltinESMExports();
  }
}

t.test('registration creates the user and a provisioned organisation, and its token opens the books', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const data = await registerUser(t, api, { ...person, plan: 'limited-company' });
  t.match(data, {
    checkoutUrl: null,
    organisation: { name: 'Bloggs Joinery Ltd', slug: 'bloggs-joinery-ltd' },
    user: {
      username: 'jo@example.com',
      email: 'jo@example.com',
      fullName: 'Jo Bloggs',
      isAdmin: false,
      emailVerified: false,
      createdAt: '2026-11-21T10:00:00.000Z',
    },
  });
  t.match(data.token, /^at_[A-Za-z0-9_-]{43}$/);
  const org = await api.request('GET', '/v1/organisation', { key: data.token });
  t.equal(org.status, 200);
  t.match(org.body.data, { id: data.organisation.id, name: 'Bloggs Joinery Ltd', businessType: 'limited_company', settings: { vatScheme: 'not_registered' } });
  // Provisioned as acct init does: the UK chart, the default bank account, and a live and a test key.
  const accounts = await api.request('GET', '/v1/accounts', { key: data.token });
  t.ok(
    accounts.body.data.accounts.some((a: { code: string }) => a.code === '1200'),
    'the chart of accounts is there',
  );
  const keys = await books.store.platform.db.selectFrom('api_keys').select('mode').where('organisation_id', '=', data.organisation.id).execute();
  t.same(keys.map((k) => k.mode).sort(), ['live', 'test'], 'a live and a test key');
  const me = await api.request('GET', '/v1/auth/me', { key: data.token });
  t.match(me.body.data, {
    email: 'jo@example.com',
    totpEnabled: false,
    organisation: { id: data.organisation.id, name: 'Bloggs Joinery Ltd', plan: 'limited_company' },
  });
});

t.test('the plan defaults to limited-company; sole-trader seeds the sole trader chart; the underscored ids are accepted too', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const businessTypeOf = async (body: Record<string, unknown>) => {
    const data = await registerUser(t, api, body);
    const org = await api.request('GET', '/v1/organisation', { key: data.token });
    const chart = await api.request('GET', '/v1/accounts?flat=true', { key: data.token });
    return [org.body.data.businessType, chart.body.data.accounts.find((a: { code: string }) => a.code === '3000')?.name];
  };
  t.same(await businessTypeOf(person), ['limited_company', 'Share Capital'], 'no plan: limited-company');
  t.same(await businessTypeOf({ ...person, email: 'sole@example.com', plan: 'sole-trader' }), ['sole_trader', "Owner's Capital"]);
  t.same(await businessTypeOf({ ...person, email: 'old@example.com', plan: 'sole_trader' }), ['sole_trader', "Owner's Capital"]);
  t.same(await businessTypeOf({ ...person, email: 'ltd@example.com', plan: 'limited_company' }), ['limited_company', 'Share Capital']);
});

t.test('an unknown plan is a 400 on plan and writes nothing', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const orgs = async () => (await books.store.platform.db.selectFrom('organisations').select('id').execute()).length;
  const before = await orgs();
  for (const plan of ['trial', 'sole trader', 'Limited-Company']) {
    expectError(t, await api.request('POST', '/v1/registration/register', { key: null, body: { ...person, plan } }), 400, 'validation_error', {
      field: 'plan',
    });
  }
  t.equal(await orgs(), before, 'no organisation was made');
  t.equal((await books.store.platform.db.selectFrom('users').select('id').execute()).length, 0, 'no user');
});

t.test('an address already registered, in any capitals, is 409 and writes nothing', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const orgs = async () => (await books.store.platform.db.selectFrom('organisations').select('id').execute()).length;
  const before = await orgs();
  const again = await api.request('POST', '/v1/registration/register', { key: null, body: { ...person, email: 'JO@example.COM', organisationName: 'Other' } });
  expectError(t, again, 409, 'conflict');
  t.notMatch(again.body.error.message, /jo@example\.com|email/i, 'the message does not say which detail clashed');
  t.equal(await orgs(), before, 'no organisation was made');
  t.equal((await books.store.platform.db.selectFrom('users').select('id').execute()).length, 1, 'one user');
});

/** The organisations' books in the store: folders under orgs/ (SQLite), or live schemas of the test's prefix (PostgreSQL). */
async function booksOnDisk(books: Books): Promise<number> {
  if (books.store.kind === 'sqlite') return fs.readdirSync(path.join(books.dataDir, 'orgs')).length;
  const prefix = new URL(resolveDatabase(undefined, books.dataDir, {}) ?? '').searchParams.get('schema') ?? '';
  const { rows } = await sql<{ n: string }>`select count(*) as n from pg_namespace where nspname like ${`${prefix}\\_%\\_live`}`.execute(
    books.store.platform.db,
  );
  return Number(rows[0]?.n);
}

t.test('concurrent registrations of one address: one 201, the others 409, and the refused ones leave no books behind', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const orgs = async () => (await books.store.platform.db.selectFrom('organisations').select('id').execute()).length;
  t.equal(await booksOnDisk(books), 1, "the books' own organisation");
  t.equal(await orgs(), 1);
  const replies = await Promise.all(
    [1, 2, 3, 4, 5].map((n) => api.request('POST', '/v1/registration/register', { key: null, body: { ...person, organisationName: `Bloggs ${n} Ltd` } })),
  );
  t.same(replies.map((r) => r.status).sort(), [201, 409, 409, 409, 409], 'one registered, four refused');
  t.equal(await orgs(), 2, 'one organisation more');
  t.equal(await booksOnDisk(books), 2, 'and only its books: the refused ones were removed');
  const created = replies.find((r) => r.status === 201)?.body.data.organisation.id as string;
  t.ok(await booksExist(books.store, books.dataDir, created, 'live'));
  t.ok(await booksExist(books.store, books.dataDir, created, 'test'));
});

t.test('registration validates its fields', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('POST', '/v1/registration/register', { key: null, body: { ...person, password: 'short12' } }), 400, 'validation_error', {
    field: 'password',
  });
  expectError(t, await api.request('POST', '/v1/registration/register', { key: null, body: { ...person, email: 'not-an-address' } }), 400, 'validation_error', {
    field: 'email',
  });
  expectError(t, await api.request('POST', '/v1/registration/register', { key: null, body: { ...person, fullName: '' } }), 400, 'validation_error', {
    field: 'fullName',
  });
  t.equal((await books.store.platform.db.selectFrom('users').select('id').execute()).length, 0, 'nothing written');
});

t.test('the password is stored as scrypt with N=2^17, r=8, p=1 and its salt, never in plain text', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const row = await books.store.platform.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
  t.match(row.password_hash, /^scrypt\$17\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
  t.notMatch(row.password_hash, /horse/);
});

t.test('login: tokens and the user; a new session on every login; email or username', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const reg = await registerUser(t, api);
  const first = await logIn(t, api);
  t.match(first, { expiresIn: 900, user: { id: reg.user.id, username: 'jo@example.com', email: 'jo@example.com', fullName: 'Jo Bloggs', isAdmin: false } });
  t.match(first.accessToken, /^at_/);
  t.match(first.refreshToken, /^rt_/);
  const second = await api.request('POST', '/v1/auth/login', { key: null, body: { username: ' JO@EXAMPLE.COM ', password: person.password } });
  t.equal(second.status, 200, 'username works as email, in any capitals');
  t.not(second.body.data.accessToken, first.accessToken, 'a new access token');
  t.not(second.body.data.refreshToken, first.refreshToken, 'a new refresh token');
  t.equal((await api.request('GET', '/v1/auth/me', { key: first.accessToken })).status, 200, 'the first session still works');
  t.equal((await api.request('GET', '/v1/auth/me', { key: second.body.data.accessToken })).status, 200, 'so does the second');
  const sessions = await books.store.platform.db.selectFrom('sessions').select(['access_hash', 'refresh_hash']).execute();
  t.equal(sessions.length, 3, 'registration and two logins');
  t.notOk(JSON.stringify(sessions).includes(first.accessToken.slice(3)), 'tokens are stored only as hashes');
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { password: 'x' } }), 400, 'validation_error', { field: 'email' });
});

t.test('an unknown address and a wrong password get the same 401, both after the scrypt work', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await registerUser(t, api);
  const timed = async (email: string, password: string) => {
    const started = performance.now();
    const { result: r, costs } = await scryptCosts(() => api.request('POST', '/v1/auth/login', { key: null, body: { email, password } }));
    return { r, costs, ms: performance.now() - started };
  };
  const wrong = await timed(person.email, 'wrong password');
  const unknown = await timed('nobody@example.com', 'wrong password');
  expectError(t, wrong.r, 401, 'unauthorized');
  expectError(t, unknown.r, 401, 'unauthorized');
  t.same(unknown.r.body, wrong.r.body, 'the same body');
  // The same work, counted rather than timed (a ratio of two timings fails whenever one of them loses its core):
  // one derivation at the stored hash's cost, for the unknown address as for the wrong password.
  t.same(wrong.costs, [{ N: 2 ** 17, r: 8, p: 1 }], 'a wrong password: one scrypt derivation at N = 2^17, r = 8, p = 1');
  t.same(unknown.costs, wrong.costs, 'an unknown address: the same derivation');
  // And awaited: scrypt at N=2^17 takes tens of milliseconds at least, so an answer that did not wait for it would come
  // in a few. A lower bound: a slow machine cannot break it.
  const quick = await timed('nobody@example.com', 'x');
  t.same(quick.costs, wrong.costs, 'a short password too');
  t.ok(
    quick.ms > 25 && unknown.ms > 25,
    `the unknown address took ${Math.round(unknown.ms)} ms and ${Math.round(quick.ms)} ms, wrong password ${Math.round(wrong.ms)} ms`,
  );
});
