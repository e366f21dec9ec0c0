/**
 * The administrator endpoints on organisations over HTTP: the list
 * (pagination B, search, plan and status filters), one organisation with
 * its users and counts, renaming and moving the trial's end, closing.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { addUser, adminAndUser, auditRows, logIn, userPassword } from './support.js';

const start = '2026-11-28T10:00:00Z';
const ua = { headers: { 'user-agent': 'acct-tests' } };

t.test('the list: newest first, pagination B, search by name or id, plan and status', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin } = await adminAndUser(t, api, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Bloggs Joinery', businessType: 'sole_trader', vatScheme: 'not_registered' });
  await addUser(books, 'kim@bloggs.test', { organisationId: other.organisationId });
  const made = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Client Ltd' } });
  t.equal(made.status, 201);

  const all = await api.request('GET', '/v1/admin/orgs', { key: admin });
  t.equal(all.status, 200);
  t.same(all.body.meta, { page: 1, perPage: 20, total: 2, pages: 1 });
  t.same(all.body.data.map((o: { name: string }) => o.name).sort(), ['Acme Widgets Ltd', 'Bloggs Joinery']);
  const acme = all.body.data.find((o: { id: string }) => o.id === books.organisationId);
  // Two users of Acme (root and jo); the books were just made: 90 days of trial from 28 November 2026 end on 26 February 2027.
  t.match(acme, {
    name: 'Acme Widgets Ltd',
    slug: 'acme-widgets-ltd',
    businessType: 'limited_company',
    plan: 'trial',
    subscriptionStatus: 'trialing',
    trialDaysRemaining: 90,
    userCount: 2,
    invoiceCount: 0,
    closedAt: null,
  });

  const one = await api.request('GET', '/v1/admin/orgs?perPage=1&page=2', { key: admin });
  t.same(one.body.meta, { page: 2, perPage: 1, total: 2, pages: 2 });
  t.equal(one.body.data.length, 1);

  t.same(
    (await api.request('GET', '/v1/admin/orgs?search=JOINERY', { key: admin })).body.data.map((o: { id: string }) => o.id),
    [other.organisationId],
  );
  t.same(
    (await api.request('GET', `/v1/admin/orgs?search=${other.organisationId.slice(0, 8)}`, { key: admin })).body.data.map((o: { id: string }) => o.id),
    [other.organisationId],
    'by the start of the id',
  );
  const filtered = await api.request('GET', '/v1/admin/orgs?plan=trial&status=trialing&perPage=1', { key: admin });
  t.same(filtered.body.meta, { page: 1, perPage: 1, total: 2, pages: 2 }, 'filtered, then paged');
  t.same((await api.request('GET', '/v1/admin/orgs?plan=sole_trader', { key: admin })).body.data, [], 'no paid plan yet');
  expectError(t, await api.request('GET', '/v1/admin/orgs?plan=gold', { key: admin }), 400, 'validation_error', { field: 'plan' });
});

t.test('one organisation: its users, counts of its live books, and the changes made to it', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin } = await adminAndUser(t, api, books);
  t.equal((await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Client Ltd' } })).status, 201);
  t.equal((await api.request('POST', '/v1/contacts', { key: books.testApiKey, body: { contactType: 'customer', name: 'Test only' } })).status, 201);
  const r = await api.request('GET', `/v1/admin/orgs/${books.organisationId}`, { key: admin });
  t.equal(r.status, 200);
  t.same(
    r.body.data.users.map((u: { email: string; role: string }) => [u.email, u.role]),
    [
      ['root@example.com', 'admin'],
      ['jo@example.com', 'user'],
    ],
  );
  t.same(r.body.data.stats, { invoices: 0, contacts: 1, transactions: 0 }, 'the live books only');
  t.same(r.body.data.recentActivity, []);
  expectError(t, await api.request('GET', '/v1/admin/orgs/00000000-0000-4000-8000-000000000000', { key: admin }), 404, 'not_found');
  expectError(t, await api.request('GET', '/v1/admin/orgs/acme', { key: admin }), 400, 'validation_error', { field: 'id' });
});

t.test('update: a new name in both books, a trial moved; one audit row; bad input changes nothing', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId } = await adminAndUser(t, api, books);
  const path = `/v1/admin/orgs/${books.organisationId}`;
  const r = await api.request('PATCH', path, { key: admin, body: { name: 'Acme Holdings Ltd', trialEndsOn: '2027-03-31' }, ...ua });
  t.equal(r.status, 200);
  // The trial ends 2027-03-31 23:59:59 UTC, which is 1 April 00:59:59 BST (summer time from 28 March 2027): London dates
  // 28 November 2026 to 1 April 2027: 3 (to 1 December) + 31 (December) + 31 (January) + 28 (February) + 31 (1 March to 1 April) = 124 days.
  t.match(r.body.data, { name: 'Acme Holdings Ltd', slug: 'acme-holdings-ltd', trialEndsAt: '2027-03-31T23:59:59.000Z', trialDaysRemaining: 124 });
  t.equal((await api.request('GET', '/v1/organisation')).body.data.name, 'Acme Holdings Ltd', 'the live books');
  t.equal((await api.request('GET', '/v1/organisation', { key: books.testApiKey })).body.data.name, 'Acme Holdings Ltd', 'the test books');
  const rows = await auditRows(books);
  t.equal(rows.length, 1);
  t.match(rows[0], {
    action: 'ORGANISATION_UPDATED',
    entity_type: 'organisation',
    entity_id: books.organisationId,
    admin_id: adminId,
    user_agent: 'acct-tests',
  });
  t.same(JSON.parse(rows[0]!.details), {
    request: { method: 'PATCH', path },
    name: { before: 'Acme Widgets Ltd', after: 'Acme Holdings Ltd' },
    trialEndsAt: { before: '2027-02-26T10:00:00.000Z', after: '2027-03-31T23:59:59.000Z' },
  });
  t.equal((await api.request('GET', path, { key: admin })).body.data.recentActivity.length, 1);

  expectError(t, await api.request('PATCH', path, { key: admin, body: {} }), 400, 'validation_error');
  expectError(t, await api.request('PATCH', path, { key: admin, body: { name: '' } }), 400, 'validation_error', { field: 'name' });
  expectError(t, await api.request('PATCH', path, { key: admin, body: { trialEndsOn: '31/03/2027' } }), 400, 'invalid_date', { field: 'trialEndsOn' });
  expectError(t, await api.request('PATCH', path, { key: admin, body: { plan: 'gold' } }), 400, 'validation_error', { field: 'plan' });
  t.equal((await auditRows(books)).length, 1, 'no row for a refusal');
  t.equal((await api.request('GET', '/v1/organisation')).body.data.name, 'Acme Holdings Ltd');
});

t.test("close: keys revoked, users suspended, sessions ended, books kept; again 409; the administrator's own is refused", async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Bloggs Joinery', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const { admin, adminId } = await adminAndUser(t, api, books);
  await addUser(books, 'kim@bloggs.test', { organisationId: other.organisationId });
  const kim = await logIn(t, api, 'kim@bloggs.test', userPassword);
  t.equal((await api.request('POST', '/v1/contacts', { key: other.apiKey, body: { contactType: 'customer', name: 'Their client' } })).status, 201);

  const r = await api.request('DELETE', `/v1/admin/orgs/${other.organisationId}`, { key: admin, ...ua });
  t.equal(r.status, 200);
  // Two keys made at provisioning (live and test); one user with one session.
  t.same(r.body.data, {
    id: other.organisationId,
    closed: true,
    closedAt: '2026-11-28T10:00:00.000Z',
    keysRevoked: 2,
    usersSuspended: 1,
    sessionsEnded: 1,
    subscriptionCancelled: null,
  });
  const rows = await auditRows(books);
  t.equal(rows.length, 1);
  t.match(rows[0], { action: 'ORGANISATION_CLOSED', entity_id: other.organisationId, admin_id: adminId });
  expectError(t, await api.request('GET', '/v1/contacts', { key: other.apiKey }), 401, 'unauthorized');
  expectError(t, await api.request('GET', '/v1/contacts', { key: kim }), 401, 'unauthorized');
  expectError(
    t,
    await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'kim@bloggs.test', password: userPassword } }),
    403,
    'account_suspended',
  );
  const shown = await api.request('GET', `/v1/admin/orgs/${other.organisationId}`, { key: admin });
  t.match(shown.body.data, { subscriptionStatus: 'closed', closedAt: '2026-11-28T10:00:00.000Z', stats: { contacts: 1 } }, 'the books are kept');
  t.same((await api.request('GET', '/v1/admin/orgs?status=closed', { key: admin })).body.data.length, 1);

  expectError(t, await api.request('DELETE', `/v1/admin/orgs/${other.organisationId}`, { key: admin }), 409, 'conflict');
  expectError(t, await api.request('PATCH', `/v1/admin/orgs/${other.organisationId}`, { key: admin, body: { name: 'Back' } }), 409, 'conflict');
  expectError(t, await api.request('DELETE', `/v1/admin/orgs/${books.organisationId}`, { key: admin }), 409, 'conflict', { message: /own organisation/ });
  t.equal((await auditRows(books)).length, 1);
  t.equal((await api.request('GET', '/v1/organisation')).status, 200, "the administrator's organisation is open");
});
