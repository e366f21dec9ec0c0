/**
 * The installation's settings over HTTP: listed with value, default and
 * meaning; set one by one, checked per key (unknown 404, a bad value 400 on
 * value, neither audited nor stored); and what each does: early access off
 * gives the 30-day trial while spots remain, registration off refuses sign
 * ups (403 registration_disabled), maintenance mode refuses changes by all
 * but administrators with 503 and Retry-After while reads go on.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, runCliInProcess, serveBooks, type Api, type Books } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { adminAndUser, adminPassword, auditCount, logIn, newAuditRow } from './support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';

const clock = '2026-11-28T10:00:00Z';

async function setUp(t: Test): Promise<{ books: Books; api: Api; admin: string; adminId: number; user: string }> {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  return { books, api, ...(await adminAndUser(t, api, books)) };
}

const set = (api: Api, admin: string, key: string, value: unknown) => api.request('PATCH', `/v1/admin/settings/${key}`, { key: admin, body: { value } });

t.test('every known setting, with its default until set; a change is audited with before and after', async (t) => {
  const { books, api, admin, adminId } = await setUp(t);
  const list = await api.request('GET', '/v1/admin/settings', { key: admin });
  t.equal(list.status, 200);
  t.same(
    list.body.data.map((s: Record<string, unknown>) => [s['key'], s['value'], s['default'], s['updatedAt']]),
    [
      ['early_access_enabled', true, true, null],
      ['registration_enabled', true, true, null],
      ['maintenance_mode', false, false, null],
    ],
  );
  t.ok(
    list.body.data.every((s: { description: string }) => s.description.length > 20),
    'each says what it does',
  );

  const before = await auditCount(books);
  const r = await set(api, admin, 'registration_enabled', false);
  t.equal(r.status, 200);
  t.match(r.body.data, { key: 'registration_enabled', value: false, default: true, updatedAt: '2026-11-28T10:00:00.000Z' });
  const details = await newAuditRow(t, books, before, {
    adminId,
    adminEmail: 'root@example.com',
    action: 'SETTING_UPDATED',
    entityType: 'setting',
    entityId: 'registration_enabled',
    method: 'PATCH',
    path: '/v1/admin/settings/registration_enabled',
  });
  t.same(details, { request: { method: 'PATCH', path: '/v1/admin/settings/registration_enabled' }, before: true, after: false });
  const again = await api.request('GET', '/v1/admin/settings', { key: admin });
  t.match(again.body.data[1], { key: 'registration_enabled', value: false, updatedAt: '2026-11-28T10:00:00.000Z' });

  const stored = await books.store.platform.db.selectFrom('platform_settings').selectAll().where('key', 'like', 'admin.%').execute();
  t.same(stored, [{ key: 'admin.registration_enabled', value: '{"value":false,"updatedAt":"2026-11-28T10:00:00.000Z"}' }], 'JSON, under admin.<key>');
});

t.test('an unknown key is 404, a value the key does not take is 400 on value: nothing stored, nothing audited', async (t) => {
  const { books, api, admin } = await setUp(t);
  const before = await auditCount(books);
  expectError(t, await set(api, admin, 'dark_mode', true), 404, 'not_found', { message: /dark_mode/ });
  expectError(t, await set(api, admin, 'maintenance_mode', 'yes'), 400, 'validation_error', { field: 'value', message: /true or false/ });
  expectError(t, await set(api, admin, 'maintenance_mode', 1), 400, 'validation_error', { field: 'value' });
  expectError(t, await set(api, admin, 'maintenance_mode', { on: true }), 400, 'validation_error', { field: 'value' });
  // value is a union (true or false, a number or a string, as keys come to take them): its absence was "value: Invalid input".
  expectError(t, await api.request('PATCH', '/v1/admin/settings/maintenance_mode', { key: admin, body: {} }), 400, 'validation_error', {
    field: 'value',
    message: 'value is required',
  });
  expectError(t, await set(api, admin, 'maintenance_mode', null), 400, 'validation_error', { field: 'value', message: 'value is required' });
  t.equal(await auditCount(books), before);
  t.same(await books.store.platform.db.selectFrom('platform_settings').selectAll().where('key', 'like', 'admin.%').execute(), []);
});

t.test('early access off: a new organisation gets 30 days while spots remain; on again, 90', async (t) => {
  const { books, api, admin } = await setUp(t);
  const trialOf = async (name: string) => {
    const created = await createOrganisation(books.store, books.clock, { name, businessType: 'sole_trader', vatScheme: 'not_registered' });
    return books.store.platform.db
      .selectFrom('organisations')
      .select(['trial_days', 'early_access'])
      .where('id', '=', created.organisationId)
      .executeTakeFirstOrThrow();
  };
  t.equal((await set(api, admin, 'early_access_enabled', false)).status, 200);
  t.same(await trialOf('Late Ltd'), { trial_days: 30, early_access: 0 }, '30 days, with every spot left');
  t.match(
    (await api.request('GET', '/v1/early-access/stats', { key: null })).body.data,
    { claimed: 0, trialDays: 30, isEarlyAccess: false },
    'the stats agree',
  );
  t.equal((await set(api, admin, 'early_access_enabled', true)).status, 200);
  t.same(await trialOf('Early Ltd'), { trial_days: 90, early_access: 1 });
});

t.test('registration off: POST /registration/register is 403 registration_disabled and makes nothing', async (t) => {
  const { books, api, admin } = await setUp(t);
  const person = { email: 'new@example.com', password: 'a long passphrase', fullName: 'New Person', organisationName: 'New Ltd' };
  t.equal((await set(api, admin, 'registration_enabled', false)).status, 200);
  expectError(t, await api.request('POST', '/v1/registration/register', { key: null, body: person }), 403, 'registration_disabled', {
    message: /registration is closed/,
  });
  t.equal((await books.store.platform.db.selectFrom('organisations').select('id').execute()).length, 1, 'no organisation made');
  t.equal((await set(api, admin, 'registration_enabled', true)).status, 200);
  t.equal((await api.request('POST', '/v1/registration/register', { key: null, body: person })).status, 201, 'open again');
});

t.test('maintenance mode: changes by others are 503 with Retry-After; reads, logins and administrators go on', async (t) => {
  const { books, api, admin, user } = await setUp(t);
  t.equal((await set(api, admin, 'maintenance_mode', true)).status, 200);

  const refused = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Bob Ltd' } });
  expectError(t, refused, 503, 'service_unavailable', { message: /maintenance/ });
  t.equal(refused.headers.get('retry-after'), '300');
  expectError(t, await api.request('POST', '/v1/bug-reports', { key: user, body: { title: 'Cannot save', description: 'x' } }), 503, 'service_unavailable');
  expectError(t, await api.request('POST', '/v1/registration/register', { key: null, body: {} }), 503, 'service_unavailable');
  t.equal((await books.store.org(books.organisationId, 'live').db.selectFrom('contacts').select('id').execute()).length, 0, 'nothing written');

  t.equal((await api.request('GET', '/v1/contacts')).status, 200, 'reads still work');
  t.equal((await api.request('GET', '/v1/admin/settings', { key: admin })).status, 200);
  const fresh = await logIn(t, api, 'root@example.com', adminPassword);
  t.ok(fresh, 'logging in still works');
  t.equal(
    (await api.request('POST', '/v1/contacts', { key: admin, body: { contactType: 'customer', name: 'Bob Ltd' } })).status,
    201,
    'an administrator may change things',
  );

  // Switched off by another process (the CLI): the server sees it from the next request.
  const off = await runCliInProcess(['--data', books.dataDir, '--json', 'admin', 'update-setting', 'maintenance_mode', '--value', 'false']);
  t.equal(off.status, 0, off.stderr);
  t.match(JSON.parse(off.stdout), { key: 'maintenance_mode', value: false });
  t.equal((await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Carol Ltd' } })).status, 201, 'changes allowed again');
});

t.test('acct admin settings and update-setting: the local operator, audited as local:<user>', async (t) => {
  const books = await newBooks(t, { clock });
  const list = await runCliInProcess(['--data', books.dataDir, 'admin', 'settings']);
  t.equal(list.status, 0, list.stderr);
  t.match(list.stdout, /maintenance_mode/);
  const bad = await runCliInProcess(['--data', books.dataDir, 'admin', 'update-setting', 'maintenance_mode', '--value', 'maybe']);
  t.equal(bad.status, 2, 'a bad value: exit 2');
  t.match(bad.stderr, /true or false/);
  const unknown = await runCliInProcess(['--data', books.dataDir, 'admin', 'update-setting', 'dark_mode', '--value', 'true']);
  t.equal(unknown.status, 3, 'an unknown key: exit 3');
  t.equal(await auditCount(books), 0);
  const r = await runCliInProcess(['--data', books.dataDir, '--json', 'admin', 'update-setting', 'early_access_enabled', '--value', 'false']);
  t.equal(r.status, 0, r.stderr);
  t.match(JSON.parse(r.stdout), { key: 'early_access_enabled', value: false, default: true });
  await newAuditRow(t, books, 0, {
    adminId: null,
    adminEmail: /^local:.+/,
    action: 'SETTING_UPDATED',
    entityType: 'setting',
    entityId: 'early_access_enabled',
    method: 'PATCH',
    path: 'acct admin update-setting',
  });
});
