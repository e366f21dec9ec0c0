/**
 * The API request log at its published path, /api-request-log: the fields of
 * an entry (key name and preview, address, user agent, status, response
 * time), the detail's request headers and bodies with secrets redacted and
 * bodies capped, another organisation's entry not found, and the old
 * /request-log path still answering as before.
 */
import t from 'tap';
import type { Test } from 'tap';
import { generousMs, newBooks, type Api } from '../helpers/index.js';
import { expectError, serveWith } from './support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { addUser, adminPassword, logIn } from '../platform-admin/support.js';

type Entry = Record<string, unknown>;

/** The log, polled until an entry for `method path` is in it (it is written in batches). */
async function entryFor(t: Test, api: Api, method: string, path: string, key?: string): Promise<Entry> {
  for (const deadline = Date.now() + generousMs; Date.now() <= deadline;) {
    const r = await api.request('GET', '/v1/api-request-log?limit=100', key === undefined ? {} : { key });
    t.equal(r.status, 200, 'log listed');
    const found = (r.body.data as Entry[]).find((e) => e['method'] === method && e['path'] === path);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${method} ${path} in the request log within ${generousMs / 1000} s`);
}

async function detailOf(t: Test, api: Api, entry: Entry, base = '/v1/api-request-log'): Promise<Entry> {
  const r = await api.request('GET', `${base}/${String(entry['id'])}`);
  t.equal(r.status, 200, 'detail read');
  return r.body.data as Entry;
}

t.test('an entry has the published fields; the detail its headers and bodies, secrets redacted', async (t) => {
  const books = await newBooks(t);
  const api = await serveWith(t, books, { rateLimits: false });
  const headers = {
    'User-Agent': 'log-test/1.0',
    Cookie: 'session=s3cr3t-cookie',
    'Stripe-Signature': 't=1,v1=s3cr3t-sig',
    'X-Client-Secret': 's3cr3t-client',
    'X-Refresh-Token': 's3cr3t-token',
    'Idempotency-Key': 'log-fields',
  };
  const body = { contactType: 'customer', name: 'Log Ltd' };
  t.equal((await api.request('POST', '/v1/contacts', { body, headers })).status, 201);
  t.equal((await api.request('GET', '/v1/contacts?limit=5', { headers: { 'User-Agent': 'log-test/1.0' } })).status, 200);

  const keys = await api.request('GET', '/v1/api-keys');
  const own = (keys.body.data as Entry[]).find((k) => books.apiKey.endsWith(String(k['keyPreview']).slice(-4)) && k['mode'] === 'live');
  t.ok(own, 'the key making the requests is listed');

  const created = await entryFor(t, api, 'POST', '/v1/contacts');
  t.match(created, {
    id: /^req_/,
    apiKeyId: own?.['id'],
    keyPreview: own?.['keyPreview'],
    keyName: own?.['name'],
    method: 'POST',
    path: '/v1/contacts',
    statusCode: 201,
    responseTimeMs: Number,
    ipAddress: /127\.0\.0\.1|::1/,
    userAgent: 'log-test/1.0',
    createdAt: String,
  });
  t.notOk('requestHeaders' in created || 'requestBody' in created || 'responseBody' in created, 'the list leaves headers and bodies out');

  const detail = await detailOf(t, api, created);
  const sent = detail['requestHeaders'] as Record<string, string>;
  for (const name of ['authorization', 'cookie', 'stripe-signature', 'x-client-secret', 'x-refresh-token'])
    t.equal(sent[name], '[redacted]', `${name} redacted`);
  t.equal(sent['idempotency-key'], 'log-fields', 'a header that is no secret is kept');
  t.equal(sent['user-agent'], 'log-test/1.0');
  t.same(detail['requestBody'], body, 'the request body as sent');
  t.match(detail['responseBody'], { success: true, data: { name: 'Log Ltd', contactType: 'customer' } }, 'the response body as sent');
  t.equal(detail['requestBodyTruncated'], false);
  t.equal(detail['responseBodyTruncated'], false);
  t.notMatch(JSON.stringify(detail), /s3cr3t|sk_live_[0-9a-z]{20}/i, 'no secret anywhere in the entry');

  const listed = await detailOf(t, api, await entryFor(t, api, 'GET', '/v1/contacts?limit=5'));
  t.equal(listed['requestBody'], null, 'a GET has no request body');
  t.equal(listed['responseBody'], null, "a read's answer is not kept: it is the resource as it stood");
});

t.test('a new API key and a secret sent in a body are not stored in the log', async (t) => {
  const books = await newBooks(t);
  const api = await serveWith(t, books, { rateLimits: false });
  const made = await api.request('POST', '/v1/api-keys', { body: { name: 'CI', scopes: ['contacts:read'] } });
  t.equal(made.status, 201);
  const secretKey = String(made.body.data.key);
  t.match(secretKey, /^sk_live_/);
  const detail = await detailOf(t, api, await entryFor(t, api, 'POST', '/v1/api-keys'));
  t.match(detail['responseBody'], { success: true, data: { name: 'CI', key: '[redacted]' } }, 'the key shown once is redacted');
  t.notOk(JSON.stringify(detail).includes(secretKey.slice(8)), 'the key is nowhere in the entry');

  // A refused request is logged with its body too: its secret field redacted.
  const refused = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'X', secret: 'hunter2' } });
  t.equal(refused.status, 400);
  const logged = await detailOf(t, api, await entryFor(t, api, 'POST', '/v1/contacts'));
  t.same(logged['requestBody'], { contactType: 'customer', name: 'X', secret: '[redacted]' });
  t.match(logged['responseBody'], { success: false, error: { code: 'validation_error' } });
});

t.test('bodies over 16 KiB are stored cut to 16 KiB and marked truncated', async (t) => {
  const books = await newBooks(t);
  const api = await serveWith(t, books, { rateLimits: false });
  // 20,000 characters of name: over the 16,384 kept, and refused (a name is shorter), which is logged all the same.
  const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'n'.repeat(20_000) } });
  t.equal(r.status, 400);
  const refused = await detailOf(t, api, await entryFor(t, api, 'POST', '/v1/contacts'));
  t.equal(refused['requestBodyTruncated'], true);
  t.type(refused['requestBody'], 'string', 'a cut body is its text, not JSON');
  t.equal((refused['requestBody'] as string).length, 16_384);
  t.ok((refused['requestBody'] as string).startsWith('{"contactType":"customer","name":"nnn'));
  // The chart of accounts is longer than 16 KiB: a read's answer, not kept at all.
  const accounts = await api.request('GET', '/v1/accounts');
  t.ok(accounts.text.length > 16_384, `the chart is ${accounts.text.length} characters`);
  const listed = await detailOf(t, api, await entryFor(t, api, 'GET', '/v1/accounts'));
  t.same([listed['responseBody'], listed['responseBodyTruncated']], [null, false]);
});

t.test("another organisation's entry is not found; the old /request-log path answers as before", async (t) => {
  const books = await newBooks(t);
  const api = await serveWith(t, books, { rateLimits: false });
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Trader', businessType: 'sole_trader', vatScheme: 'not_registered' });
  t.equal((await api.request('GET', '/v1/organisation')).status, 200);
  const mine = await entryFor(t, api, 'GET', '/v1/organisation');
  expectError(t, await api.request('GET', `/v1/api-request-log/${String(mine['id'])}`, { key: other.apiKey }), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/request-log/${String(mine['id'])}`, { key: other.apiKey }), 404, 'not_found');

  const old = await api.request('GET', '/v1/request-log');
  t.equal(old.status, 200);
  t.match(
    (old.body.data as Entry[]).find((e) => e['id'] === mine['id']),
    { path: '/v1/organisation', status: 200, latencyMs: Number, keyId: mine['apiKeyId'], keyPrefix: 'sk_live_' },
    'the old names are still there',
  );
  t.match(old.body.meta, { total: Number });
  const detail = await detailOf(t, api, mine, '/v1/request-log');
  t.match(detail, { id: mine['id'], status: 200, statusCode: 200, error: null });
});

t.test("an administrator's requests are in no organisation's request log; an HMRC authorisation code is redacted", async (t) => {
  const books = await newBooks(t);
  const api = await serveWith(t, books, { rateLimits: false });
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Trader', businessType: 'sole_trader', vatScheme: 'not_registered' });
  // The administrator is a user of these books' organisation: what they do across the platform is not this organisation's.
  await addUser(books, 'root@example.com', { admin: true });
  const admin = await logIn(t, api, 'root@example.com', adminPassword);
  const report = await api.request('POST', '/v1/bug-reports', {
    key: other.apiKey,
    body: { title: 'Other Trader private issue', description: 'our payroll for Jane Doe is wrong' },
  });
  t.equal(report.status, 201);
  const renamed = await api.request('PATCH', `/v1/admin/orgs/${other.organisationId}`, { key: admin, body: { name: 'Other Trader Renamed' } });
  t.equal(renamed.status, 200, JSON.stringify(renamed.body?.error ?? ''));
  t.equal((await api.request('PATCH', `/v1/admin/bug-reports/${String(report.body.data.id)}`, { key: admin, body: { status: 'acknowledged' } })).status, 200);
  t.equal((await api.request('GET', '/v1/admin/search?q=jane', { key: admin })).status, 200);

  // Without HMRC configured the connection is refused; its body is logged all the same, the code redacted.
  await api.request('POST', '/v1/vat/connection', { body: { code: 'hmrc-auth-code-S3CR3T', redirectUri: 'http://127.0.0.1:9/callback' } });
  const connect = await detailOf(t, api, await entryFor(t, api, 'POST', '/v1/vat/connection'));
  t.match(connect['requestBody'], { code: '[redacted]', redirectUri: 'http://127.0.0.1:9/callback' });
  t.notMatch(JSON.stringify(connect), /S3CR3T/, 'the code is nowhere in the entry');

  // The log is written in batches, in order: once this later request is there, the administrator's would be too.
  t.equal((await api.request('GET', '/v1/organisation')).status, 200);
  await entryFor(t, api, 'GET', '/v1/organisation');
  for (const key of [books.apiKey, admin, other.apiKey]) {
    const paths = ((await api.request('GET', '/v1/api-request-log?limit=100', { key })).body.data as Entry[]).map((e) => String(e['path']));
    t.same(
      paths.filter((p) => p.startsWith('/v1/admin')),
      [],
      'no administrator request in the log',
    );
    t.notMatch(JSON.stringify(paths), /jane|Renamed/i);
  }
});
