/** Isolation: the test dataset from the live one, and one organisation from another. */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { createKey, expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

t.test('a test key changes the test dataset only, and a live key the live one only', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const testPut = await api.request('PUT', '/v1/organisation', { key: books.testApiKey, body: { name: 'Sandbox Ltd', city: 'Testville' } });
  t.equal(testPut.status, 200);
  t.equal(testPut.body.data.name, 'Sandbox Ltd');
  t.equal(testPut.body.data.mode, 'test');

  const liveGet = await api.request('GET', '/v1/organisation');
  t.equal(liveGet.body.data.name, 'Acme Widgets Ltd', 'live still shows the old name');
  t.equal(liveGet.body.data.address.city, null);
  t.equal(liveGet.body.data.mode, 'live');
  t.equal(liveGet.body.data.id, books.organisationId, 'the same organisation');

  const livePut = await api.request('PUT', '/v1/organisation', { body: { name: 'Acme Renamed Ltd' } });
  t.equal(livePut.status, 200);
  const testGet = await api.request('GET', '/v1/organisation', { key: books.testApiKey });
  t.equal(testGet.body.data.name, 'Sandbox Ltd', 'test still shows its own name');
  t.equal(testGet.body.data.address.city, 'Testville');
  t.equal(testGet.body.data.id, books.organisationId);
  t.equal((await api.request('GET', '/v1/organisation')).body.data.name, 'Acme Renamed Ltd');
});

t.test('settings and closed periods of the test dataset do not touch the live one', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const settings = await api.request('PUT', '/v1/organisation/settings', { key: books.testApiKey, body: { invoicePrefix: 'TEST-' } });
  t.equal(settings.body.data.invoicePrefix, 'TEST-');
  const close = await api.request('POST', '/v1/reports/periods/period_20250401/close', { key: books.testApiKey });
  t.equal(close.status, 200);
  t.equal(close.body.data.isClosed, true);

  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.invoicePrefix, 'INV-');
  t.equal((await api.request('GET', '/v1/reports/periods/period_20250401')).body.data.isClosed, false, 'live period still open');
  const liveClose = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  t.equal(liveClose.status, 200, 'the live period can still be closed');
});

t.test('test keys do not see live keys in GET /api-keys, and live keys do not see test keys', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const liveExtra = await createKey(t, api, { name: 'live extra' });
  const testExtra = await api.request('POST', '/v1/api-keys', { key: books.testApiKey, body: { name: 'test extra' } });
  t.equal(testExtra.status, 201);
  t.match(testExtra.body.data.key, /^sk_test_[0-9A-Za-z]{32}$/, 'a test key makes test keys');
  t.equal(testExtra.body.data.prefix, 'sk_test_');

  const testList = await api.request('GET', '/v1/api-keys', { key: books.testApiKey });
  t.equal(testList.status, 200);
  t.equal(testList.body.meta.total, 2);
  t.same(testList.body.data.map((k: { name: string }) => k.name).sort(), ['Default test key', 'test extra']);
  t.ok(testList.body.data.every((k: { mode: string }) => k.mode === 'test'));
  t.notOk(
    testList.body.data.some((k: { id: string }) => k.id === liveExtra.id),
    'the live key is not listed',
  );

  const liveList = await api.request('GET', '/v1/api-keys');
  t.equal(liveList.body.meta.total, 2);
  t.same(liveList.body.data.map((k: { name: string }) => k.name).sort(), ['Default live key', 'live extra']);
  t.notOk(
    liveList.body.data.some((k: { id: string }) => k.id === testExtra.body.data.id),
    'the test key is not listed',
  );

  // A test key cannot revoke a live key, and the other way round.
  expectError(t, await api.request('DELETE', `/v1/api-keys/${liveExtra.id}`, { key: books.testApiKey }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/api-keys/${testExtra.body.data.id}`), 404, 'not_found');
  t.equal((await api.request('GET', '/v1/organisation', { key: liveExtra.key })).status, 200);
  t.equal((await api.request('GET', '/v1/organisation', { key: testExtra.body.data.key })).status, 200);
});

t.test("another organisation's key never sees this organisation", async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Jo Bloggs Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' });
  t.not(other.organisationId, books.organisationId);

  const theirs = await api.request('GET', '/v1/organisation', { key: other.apiKey });
  t.equal(theirs.status, 200);
  t.equal(theirs.body.data.id, other.organisationId);
  t.equal(theirs.body.data.name, 'Jo Bloggs Plumbing');
  t.equal(theirs.body.data.businessType, 'sole_trader');
  t.equal(theirs.body.data.settings.fiscalYearStart, '04-06');
  t.equal(theirs.body.data.subscription.trialDays, 90, 'the second organisation is still within the first 50');

  const put = await api.request('PUT', '/v1/organisation', { key: other.apiKey, body: { name: 'Bloggs & Co' } });
  t.equal(put.status, 200);
  t.equal(put.body.data.id, other.organisationId);
  const ours = await api.request('GET', '/v1/organisation');
  t.equal(ours.body.data.id, books.organisationId);
  t.equal(ours.body.data.name, 'Acme Widgets Ltd', 'their change did not touch our organisation');

  const ourKeys = await api.request('GET', '/v1/api-keys');
  const theirKeys = await api.request('GET', '/v1/api-keys', { key: other.apiKey });
  t.equal(theirKeys.body.meta.total, 1);
  t.equal(theirKeys.body.data[0].name, 'Default live key');
  t.not(theirKeys.body.data[0].id, ourKeys.body.data[0].id);
  t.notOk(
    theirKeys.body.data.some((k: { id: string }) => k.id === ourKeys.body.data[0].id),
    'our key is not in their list',
  );
  expectError(t, await api.request('DELETE', `/v1/api-keys/${ourKeys.body.data[0].id}`, { key: other.apiKey }), 404, 'not_found');
  t.equal((await api.request('GET', '/v1/organisation')).status, 200, 'our key still works');

  // Their periods follow their own calendar (6 April), not ours (1 April).
  const theirPeriods = await api.request('GET', '/v1/reports/periods', { key: other.apiKey });
  t.same(
    theirPeriods.body.data.periods.map((p: { id: string }) => p.id),
    ['period_20260406', 'period_20250406'],
  );
  expectError(t, await api.request('POST', '/v1/reports/periods/period_20250401/close', { key: other.apiKey }), 404, 'not_found');
  t.equal((await api.request('GET', '/v1/reports/periods/period_20250401')).body.data.isClosed, false);
});
