/**
 * A user's id at the API is a prefixed string, `usr_<n>` (the spec's
 * Conventions: identifiers are prefixed, usr_ for a user), though the
 * platform database keeps the integer key: /auth/me and the login answer,
 * the administrator's user endpoints (usr_2 taken, and the bare 2 of
 * earlier clients), the audit log, what a session made in the books, the
 * bug reports a user sent. Over HTTP on a real port.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { accountIds } from '../ledger-http/support.js';
import { adminAndUser, adminPassword } from './support.js';

const start = '2026-11-28T10:00:00Z';

t.test('a user is usr_<n> everywhere the API shows one; usr_<n> and <n> both name them on the way in', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId, userId, user } = await adminAndUser(t, api, books);
  const jo = `usr_${userId}`;
  const root = `usr_${adminId}`;

  const me = await api.request('GET', '/v1/auth/me', { key: user });
  t.equal(me.status, 200);
  t.equal(me.body.data.id, jo, '/auth/me');
  const login = await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'root@example.com', password: adminPassword } });
  t.equal(login.body.data.user.id, root, 'the login answer');

  const got = await api.request('GET', `/v1/admin/users/${jo}`, { key: admin });
  t.equal(got.status, 200, JSON.stringify(got.body.error ?? ''));
  t.match(got.body.data, { id: jo, email: 'jo@example.com' });
  const bare = await api.request('GET', `/v1/admin/users/${userId}`, { key: admin });
  t.equal(bare.status, 200, 'the bare integer of earlier clients still names the user');
  t.equal(bare.body.data.id, jo);
  const list = await api.request('GET', '/v1/admin/users', { key: admin });
  t.same(list.body.data.map((u: { id: string }) => u.id).sort(), [jo, root].sort(), 'the list');

  for (const id of ['usr_x', 'usr_', 'usr_0', 'user_2', '2x', 'key_2']) {
    expectError(t, await api.request('GET', `/v1/admin/users/${id}`, { key: admin }), 400, 'invalid_id', { field: 'id' });
  }
  expectError(t, await api.request('GET', '/v1/admin/users/usr_999', { key: admin }), 404, 'not_found', { message: /usr_999/ });

  const suspended = await api.request('POST', `/v1/admin/users/${jo}/suspend`, { key: admin, body: { reason: 'checking ids' } });
  t.equal(suspended.status, 200, JSON.stringify(suspended.body.error ?? ''));
  t.equal(suspended.body.data.id, jo);
  const conflict = await api.request('POST', `/v1/admin/users/${jo}/suspend`, { key: admin, body: {} });
  expectError(t, conflict, 409, 'conflict', { message: new RegExp(`user ${jo} is already suspended`) });

  const log = await api.request('GET', '/v1/admin/audit-log', { key: admin });
  t.equal(log.status, 200);
  t.match(log.body.data[0], { adminId: root, action: 'USER_SUSPENDED', entityType: 'user', entityId: jo }, 'the audit log names both as usr_…');
  const byUser = await api.request('GET', `/v1/admin/audit-log?entityType=user&entityId=${jo}`, { key: admin });
  t.same(
    byUser.body.data.map((e: { action: string }) => e.action),
    ['USER_SUSPENDED'],
    'filtered by the id as shown',
  );
  const byAdmin = await api.request('GET', `/v1/admin/audit-log?adminId=${root}`, { key: admin });
  t.equal(byAdmin.body.data.length, 1, 'filtered by the administrator as shown');
  expectError(t, await api.request('GET', '/v1/admin/audit-log?adminId=usr_x', { key: admin }), 400, 'invalid_id', { field: 'adminId' });

  const detail = await api.request('GET', `/v1/admin/users/${jo}`, { key: admin });
  t.match(detail.body.data.recentActivity[0], { adminId: root, entityId: jo }, "the user's recent activity");
  const org = await api.request('GET', `/v1/admin/orgs/${books.organisationId}`, { key: admin });
  t.equal(org.status, 200);
  t.same(org.body.data.users.map((u: { id: string }) => u.id).sort(), [jo, root].sort(), "the organisation's users");
  const search = await api.request('GET', `/v1/admin/search?q=${jo}`, { key: admin });
  t.same(
    search.body.data.users.map((u: { id: string }) => u.id),
    [jo],
    'the search finds a user by id',
  );

  const deleted = await api.request('DELETE', `/v1/admin/users/${jo}`, { key: admin });
  t.same(deleted.body.data, { id: jo, deleted: true });
});

t.test('what a session makes in the books names its user as usr_<n>, and so do records kept as user_<n> before', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, userId, user } = await adminAndUser(t, api, books);
  const jo = `usr_${userId}`;

  const acc = await accountIds(t, api, user);
  const made = await api.request('POST', '/v1/transactions', {
    key: user,
    body: {
      date: '2026-11-20',
      description: 'Stationery',
      lines: [
        { accountId: acc['5100'], amount: 1000 },
        { accountId: acc['1200'], amount: -1000 },
      ],
    },
  });
  t.equal(made.status, 201, JSON.stringify(made.body.error ?? ''));
  t.equal(made.body.data.createdBy, jo, 'createdBy: the user of the session');

  // A transaction recorded before, when a session was kept as user_<n>.
  const books0 = books.store.org(books.organisationId, 'live').db;
  await books0
    .updateTable('transactions')
    .set({ created_by: `user_${userId}` })
    .where('id', '=', made.body.data.id)
    .execute();
  const read = await api.request('GET', `/v1/transactions/${made.body.data.id}`, { key: user });
  t.equal(read.body.data.createdBy, jo, 'a record kept as user_<n> is shown as usr_<n>');

  const report = await api.request('POST', '/v1/bug-reports', { key: user, body: { title: 'Ids of users', description: 'What happened, in detail.' } });
  t.equal(report.status, 201, JSON.stringify(report.body.error ?? ''));
  const seen = await api.request('GET', `/v1/admin/bug-reports/${report.body.data.id}`, { key: admin });
  t.equal(seen.body.data.reportedBy, jo, 'the bug report names its reporter as usr_<n>');
});
