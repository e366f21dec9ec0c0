/**
 * Who may call the administrator endpoints: an administrator's session only.
 * No bearer is 401; an API key (even one holding every scope), a plain
 * user's session and an impersonation session are 403.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { adminAndUser, auditCount } from './support.js';
import { operations } from '../../src/engine/registry.js';

const adminRoutes = operations.filter((op) => op.access === 'admin');

t.test('every administrator route refuses a caller who is not an administrator, before reading its input', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const api = await serveBooks(t, books);
  const { admin, user } = await adminAndUser(t, api, books);
  t.ok(adminRoutes.length >= 1, 'there are administrator routes');
  for (const op of adminRoutes) {
    t.ok(op.path.startsWith('/admin/'), `${op.name} is under /admin`);
    const path = `/v1${op.path.replace(/\{\w+\}/g, '1')}`;
    const body = op.method === 'GET' ? {} : { body: {} };
    expectError(t, await api.request(op.method, path, { key: null, ...body }), 401, 'unauthorized');
    expectError(t, await api.request(op.method, path, body), 403, 'insufficient_scope', { message: /administrator/ });
    expectError(t, await api.request(op.method, path, { key: user, ...body }), 403, 'insufficient_scope', { message: /administrator/ });
  }
  const list = await api.request('GET', '/v1/admin/audit-log', { key: admin });
  t.equal(list.status, 200, 'an administrator may');
  t.same(list.body.meta, { page: 1, perPage: 20, total: 0, pages: 0 }, 'pagination B, 20 a page');
});

t.test('administrator status is read on every request: taken away, the next request is refused', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const api = await serveBooks(t, books);
  const { adminId, admin } = await adminAndUser(t, api, books);
  t.equal((await api.request('GET', '/v1/admin/audit-log', { key: admin })).status, 200);
  await books.store.platform.write((trx) => trx.updateTable('users').set({ is_admin: 0 }).where('id', '=', adminId).execute());
  expectError(t, await api.request('GET', '/v1/admin/audit-log', { key: admin }), 403, 'insufficient_scope');
});

t.test('pagination B is checked: perPage above 100 or page 0 is a 400 naming the field', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const api = await serveBooks(t, books);
  const { admin } = await adminAndUser(t, api, books);
  expectError(t, await api.request('GET', '/v1/admin/audit-log?perPage=101', { key: admin }), 400, 'validation_error', { field: 'perPage' });
  expectError(t, await api.request('GET', '/v1/admin/audit-log?page=0', { key: admin }), 400, 'validation_error', { field: 'page' });
});

t.test('an impersonation session is never an administrator: 403 on a list and a mutation, no audit row; not even once the user is made one', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const api = await serveBooks(t, books);
  const { admin, userId, user } = await adminAndUser(t, api, books);
  const started = await api.request('POST', `/v1/admin/users/${userId}/impersonate`, { key: admin });
  t.equal(started.status, 201, 'impersonating jo@example.com');
  const as = started.body.data.accessToken as string;
  t.equal((await api.request('GET', '/v1/auth/me', { key: as })).body.data.email, 'jo@example.com', 'the token acts as the user');
  /** A list, the audit log and two mutations: each 403, and no audit row written. */
  const refused = async (who: string) => {
    const before = await auditCount(books);
    expectError(t, await api.request('GET', '/v1/admin/users', { key: as }), 403, 'insufficient_scope', { message: /administrator/ });
    expectError(t, await api.request('GET', '/v1/admin/audit-log', { key: as }), 403, 'insufficient_scope', { message: /administrator/ });
    expectError(t, await api.request('POST', '/v1/admin/system/clear-cache', { key: as }), 403, 'insufficient_scope', { message: /administrator/ });
    expectError(t, await api.request('POST', `/v1/admin/users/${userId}/unlock`, { key: as }), 403, 'insufficient_scope', { message: /administrator/ });
    t.equal(await auditCount(books), before, `${who}: the refused mutations wrote no audit row`);
  };
  t.equal(await auditCount(books), 1, 'the impersonation itself is audited');
  await refused('a plain user impersonated');

  // Made an administrator while the impersonation lasts: the user's own session may now, the impersonation still may not.
  t.equal((await api.request('PATCH', `/v1/admin/users/${userId}/role`, { key: admin, body: { role: 'admin' } })).status, 200);
  t.equal((await api.request('GET', '/v1/admin/users', { key: user })).status, 200, "the user's own session is an administrator's now");
  t.equal(await auditCount(books), 2, 'the role change is audited');
  await refused('an administrator impersonated');
});
