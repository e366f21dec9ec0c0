/**
 * What keeps the administrators of the platform honest over HTTP, when
 * they act against each other: two administrators removing each other at
 * the same moment leave one, not none.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api, type Books } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { runCliInProcess } from '../helpers/index.js';
import { addUser, adminPassword, logIn } from './support.js';

const start = '2026-11-28T10:00:00Z';

/** The administrators still active (not suspended), straight from the table. */
const activeAdmins = async (books: Books): Promise<number[]> =>
  (await books.store.platform.db.selectFrom('users').select('id').where('is_admin', '=', 1).where('suspended_at', 'is', null).orderBy('id').execute()).map(
    (r) => r.id,
  );

/**
 * Two administrators, logged in. Then a platform write (a promotion, as the
 * tester's loop made): the next requests each re-read the site settings
 * before their session is checked, which lines two requests sent together
 * up as in service: both are authenticated before either writes.
 */
async function twoAdmins(t: Test, api: Api, books: Books) {
  const oneId = await addUser(books, 'one@example.com', { admin: true });
  const twoId = await addUser(books, 'two@example.com', { admin: true });
  const one = await logIn(t, api, 'one@example.com', adminPassword);
  const two = await logIn(t, api, 'two@example.com', adminPassword);
  await books.store.platform.write((trx) => trx.updateTable('users').set({ is_admin: 1 }).execute());
  return { oneId, twoId, one, two };
}

const removals: readonly { readonly name: string; readonly method: string; readonly path: (id: number) => string; readonly body?: unknown }[] = [
  { name: 'demote', method: 'PATCH', path: (id) => `/v1/admin/users/${id}/role`, body: { role: 'user' } },
  { name: 'suspend', method: 'POST', path: (id) => `/v1/admin/users/${id}/suspend` },
  { name: 'delete', method: 'DELETE', path: (id) => `/v1/admin/users/${id}` },
];

for (const removal of removals) {
  for (const firstSent of ['one', 'two'] as const) {
    t.test(
      `two administrators ${removal.name} each other at once (${firstSent}'s request sent first): exactly one succeeds, one administrator stays`,
      async (t) => {
        const books = await newBooks(t, { clock: start });
        const api = await serveBooks(t, books);
        const { oneId, twoId, one, two } = await twoAdmins(t, api, books);
        const send = (who: 'one' | 'two') =>
          who === 'one'
            ? api.request(removal.method, removal.path(twoId), { key: one, ...(removal.body ? { body: removal.body } : {}) })
            : api.request(removal.method, removal.path(oneId), { key: two, ...(removal.body ? { body: removal.body } : {}) });
        const order = firstSent === 'one' ? (['one', 'two'] as const) : (['two', 'one'] as const);
        const replies = await Promise.all(order.map(send));
        const statuses = replies.map((r) => r.status);
        t.equal(statuses.filter((s) => s === 200).length, 1, `exactly one of ${JSON.stringify(statuses)} succeeds`);
        const refused = replies.find((r) => r.status !== 200)!;
        // The other is no longer an active administrator when its change runs in the write transaction (403), or
        // already when its session is checked, should the first change have committed by then (403; 401 once suspended or deleted).
        t.ok([401, 403].includes(refused.status), `the other is refused: ${refused.status} ${JSON.stringify(refused.body?.error)}`);
        t.match(refused.body?.error, { code: refused.status === 403 ? 'insufficient_scope' : 'unauthorized' });
        t.equal((await activeAdmins(books)).length, 1, 'one active administrator remains');
      },
    );
  }
}

t.test('an administrator demoted a moment ago cannot change anyone with the session they still hold', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { oneId, twoId, one, two } = await twoAdmins(t, api, books);
  t.equal((await api.request('PATCH', `/v1/admin/users/${twoId}/role`, { key: one, body: { role: 'user' } })).status, 200);
  expectError(t, await api.request('PATCH', `/v1/admin/users/${oneId}/role`, { key: two, body: { role: 'user' } }), 403, 'insufficient_scope');
  t.same(await activeAdmins(books), [oneId]);
});

t.test('the local operator cannot remove the last active administrator either (409), and may once there is another', async (t) => {
  const books = await newBooks(t, { clock: start });
  const only = await addUser(books, 'one@example.com', { admin: true });
  const jo = await addUser(books, 'jo@example.com');
  const acct = (...args: string[]) => runCliInProcess(['--data', books.dataDir, ...args]);
  for (const args of [
    ['users', 'role', String(only), '--role', 'user'],
    ['users', 'suspend', String(only)],
    ['users', 'delete', String(only)],
  ]) {
    const r = await acct(...args);
    t.equal(r.status, 4, `${args.join(' ')}: exit 4 (conflict): ${r.stderr}`);
    t.match(r.stderr, /no active administrator/);
  }
  t.same(await activeAdmins(books), [only], 'still the administrator');
  t.equal((await acct('users', 'role', String(jo), '--role', 'admin')).status, 0);
  const demoted = await acct('users', 'role', String(only), '--role', 'user');
  t.equal(demoted.status, 0, demoted.stderr);
  t.same(await activeAdmins(books), [jo]);
});

const endings: readonly { readonly name: string; readonly method: string; readonly path: (id: number) => string; readonly body?: unknown }[] = [
  { name: 'suspended', method: 'POST', path: (id) => `/v1/admin/users/${id}/suspend` },
  { name: 'demoted', method: 'PATCH', path: (id) => `/v1/admin/users/${id}/role`, body: { role: 'user' } },
  { name: 'deleted', method: 'DELETE', path: (id) => `/v1/admin/users/${id}` },
];

for (const ending of endings) {
  t.test(`an impersonation session ends when its administrator is ${ending.name}`, async (t) => {
    const books = await newBooks(t, { clock: start });
    const api = await serveBooks(t, books);
    const { twoId, one, two } = await twoAdmins(t, api, books);
    const joId = await addUser(books, 'jo@example.com');
    const opened = await api.request('POST', `/v1/admin/users/${joId}/impersonate`, { key: two });
    t.equal(opened.status, 201);
    const as = opened.body.data.accessToken as string;
    t.equal((await api.request('GET', '/v1/organisation', { key: as })).status, 200, 'the impersonation reads the books');

    const r = await api.request(ending.method, ending.path(twoId), { key: one, ...(ending.body ? { body: ending.body } : {}) });
    t.equal(r.status, 200);
    expectError(t, await api.request('GET', '/v1/organisation', { key: as }), 401, 'unauthorized', { message: /ended/ });
    expectError(t, await api.request('POST', '/v1/contacts', { key: as, body: { contactType: 'customer', name: 'Acme Widgets Ltd' } }), 401, 'unauthorized');
    t.equal(
      (await books.store.platform.db.selectFrom('sessions').select('revoked_at').where('impersonated_by', '=', twoId).executeTakeFirstOrThrow()).revoked_at !==
        null,
      true,
      'revoked',
    );
  });
}

t.test('an impersonation session whose administrator is no longer an active one is refused, however that came about', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { twoId, two } = await twoAdmins(t, api, books);
  const joId = await addUser(books, 'jo@example.com');
  const as = (await api.request('POST', `/v1/admin/users/${joId}/impersonate`, { key: two })).body.data.accessToken as string;
  // Demoted straight in the table (as an older acct, or another tool, might): the session itself was never revoked.
  await books.store.platform.write((trx) => trx.updateTable('users').set({ is_admin: 0 }).where('id', '=', twoId).execute());
  expectError(t, await api.request('GET', '/v1/organisation', { key: as }), 401, 'unauthorized', { message: /administrator/ });
  await books.store.platform.write((trx) => trx.updateTable('users').set({ is_admin: 1, suspended_at: start }).where('id', '=', twoId).execute());
  expectError(t, await api.request('GET', '/v1/organisation', { key: as }), 401, 'unauthorized', { message: /administrator/ });
  await books.store.platform.write((trx) => trx.updateTable('users').set({ suspended_at: null }).where('id', '=', twoId).execute());
  t.equal((await api.request('GET', '/v1/organisation', { key: as })).status, 200, 'an active administrator again: the session stands');
});
