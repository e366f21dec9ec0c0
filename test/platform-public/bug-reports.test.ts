/** Bug reports through HTTP: submit, list, get; validation refusals write nothing; another organisation's report is 404; the API context needs all scopes. */
import t from 'tap';
import type { Test } from 'tap';
import { eventually, newBooks, serveBooks, apiAt, type Api, type Books } from '../helpers/index.js';
import { createKey, expectError } from '../http/support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';

const clock = '2026-11-21T10:00:00Z';

const minimal = { title: 'Totals wrong', description: 'The VAT return box 6 shows £0.' };

async function served(t: Test): Promise<{ books: Books; api: Api }> {
  const books = await newBooks(t, { clock });
  return { books, api: await serveBooks(t, books) };
}

async function reportCount(books: Books): Promise<number> {
  const rows = await books.store.platform.db.selectFrom('bug_reports').select('id').execute();
  return rows.length;
}

t.test('a report is submitted open, with its fields as sent and the defaults', async (t) => {
  const { api } = await served(t);
  const r = await api.request('POST', '/v1/bug-reports', {
    body: {
      ...minimal,
      severity: 'high',
      pageUrl: 'https://app.example.com/vat',
      browserInfo: { language: 'en-GB', platform: 'Linux', theme: 'dark', userAgent: 'Firefox/140', viewport: { width: 1280, height: 800 } },
    },
  });
  t.equal(r.status, 201);
  const report = r.body.data;
  t.match(report.id, /^bug_[0-9a-z]+$/);
  t.same(report, {
    id: report.id,
    title: 'Totals wrong',
    description: 'The VAT return box 6 shows £0.',
    severity: 'high',
    status: 'open',
    pageUrl: 'https://app.example.com/vat',
    browserInfo: { language: 'en-GB', platform: 'Linux', theme: 'dark', userAgent: 'Firefox/140', viewport: { width: 1280, height: 800 } },
    apiContext: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    resolvedAt: null,
  });
  const plain = await api.request('POST', '/v1/bug-reports', { body: minimal });
  t.equal(plain.body.data.severity, 'medium', 'severity defaults to medium');
  t.equal(plain.body.data.pageUrl, null);
  t.equal(plain.body.data.browserInfo, null);

  const got = await api.request('GET', `/v1/bug-reports/${report.id as string}`);
  t.same(got.body.data, report, 'read back as submitted');
});

t.test('refused input: 400 naming the field, and nothing written', async (t) => {
  const { books, api } = await served(t);
  const cases: [string, Record<string, unknown>, string][] = [
    ['a title of 4 characters', { ...minimal, title: 'Oops' }, 'title'],
    ['a title of 5 spaces and less once trimmed', { ...minimal, title: '  ab   ' }, 'title'],
    ['a title of 201 characters', { ...minimal, title: 'x'.repeat(201) }, 'title'],
    ['no title', { description: 'd' }, 'title'],
    ['no description', { title: 'Totals wrong' }, 'description'],
    ['a description of 5001 characters', { ...minimal, description: 'x'.repeat(5001) }, 'description'],
    ['an unknown severity', { ...minimal, severity: 'urgent' }, 'severity'],
    ['a pageUrl of 501 characters', { ...minimal, pageUrl: `https://e.com/${'x'.repeat(487)}` }, 'pageUrl'],
    ['a theme that is not light or dark', { ...minimal, browserInfo: { theme: 'blue' } }, 'browserInfo.theme'],
    ['browserInfo not an object', { ...minimal, browserInfo: 'Firefox' }, 'browserInfo'],
    ['an unknown browserInfo member', { ...minimal, browserInfo: { plugins: [] } }, 'browserInfo.plugins'],
    ['includeApiContext not a boolean', { ...minimal, includeApiContext: 'yes' }, 'includeApiContext'],
    ['an unknown member', { ...minimal, organisationId: books.organisationId }, 'organisationId'],
  ];
  for (const [what, body, field] of cases) {
    const r = await api.request('POST', '/v1/bug-reports', { body });
    t.equal(r.status, 400, `${what}: 400`);
    t.equal(r.body.error?.field, field, `${what}: field ${field}`);
  }
  t.equal(await reportCount(books), 0, 'no report written');
});

t.test("another organisation's report, and the live books' report to a test key, are 404", async (t) => {
  const { books, api } = await served(t);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const mine = (await api.request('POST', '/v1/bug-reports', { body: minimal })).body.data.id as string;
  const theirs = (await api.request('POST', '/v1/bug-reports', { body: { ...minimal, title: 'Their bug' }, key: other.apiKey })).body.data.id as string;

  expectError(t, await api.request('GET', `/v1/bug-reports/${theirs}`), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/bug-reports/${mine}`, { key: other.apiKey }), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/bug-reports/${mine}`, { key: books.testApiKey }), 404, 'not_found', { message: `bug report ${mine} not found` });
  const listed = await api.request('GET', '/v1/bug-reports');
  t.same(
    listed.body.data.map((r: { id: string }) => r.id),
    [mine],
    'the list holds only my report',
  );
  t.equal((await api.request('GET', '/v1/bug-reports', { key: books.testApiKey })).body.meta.total, 0, 'the test books have none');
  expectError(t, await api.request('GET', '/v1/bug-reports/bug_0000000000000000000000000x'), 404, 'not_found');
  expectError(t, await api.request('GET', '/v1/bug-reports/inv_0000000000000000000000000x'), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('GET', '/v1/bug-reports', { key: null }), 401, 'unauthorized');
  expectError(t, await api.request('POST', '/v1/bug-reports', { key: null, body: minimal }), 401, 'unauthorized');
});

t.test('any key of the organisation may submit, list and get', async (t) => {
  const { api } = await served(t);
  const { key } = await createKey(t, api, { name: 'narrow', scopes: ['reports:read'] });
  const r = await api.request('POST', '/v1/bug-reports', { body: minimal, key });
  t.equal(r.status, 201);
  t.equal((await api.request('GET', `/v1/bug-reports/${r.body.data.id as string}`, { key })).status, 200);
  t.equal((await api.request('GET', '/v1/bug-reports', { key })).body.meta.total, 1);
});

t.test('the list: newest first, filtered by status and severity, paged as the other lists', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const ids: string[] = [];
  for (const severity of ['low', 'critical', 'low']) {
    ids.push((await api.request('POST', '/v1/bug-reports', { body: { ...minimal, severity } })).body.data.id as string);
  }
  const first = await api.request('GET', '/v1/bug-reports?limit=2');
  t.same(
    first.body.data.map((r: { id: string }) => r.id),
    [ids[2], ids[1]],
  );
  t.same(first.body.meta, { total: 3, page: 1, limit: 2, hasMore: true });
  const second = await api.request('GET', '/v1/bug-reports?limit=2&page=2');
  t.same(
    second.body.data.map((r: { id: string }) => r.id),
    [ids[0]],
  );
  t.same(second.body.meta, { total: 3, page: 2, limit: 2, hasMore: false });
  t.equal((await api.request('GET', '/v1/bug-reports?severity=low')).body.meta.total, 2);
  t.equal((await api.request('GET', '/v1/bug-reports?status=open')).body.meta.total, 3);
  t.equal((await api.request('GET', '/v1/bug-reports?status=resolved')).body.meta.total, 0);
  t.equal((await api.request('GET', '/v1/bug-reports')).body.meta.limit, 20, '20 a page by default');
  expectError(t, await api.request('GET', '/v1/bug-reports?status=closed'), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('GET', '/v1/bug-reports?limit=101'), 400, 'validation_error', { field: 'limit' });
});

/** Wait until the books' request log holds `count` entries (it is written in batches), reading the database so as not to add to it; 20 s at most. */
async function logged(t: Test, books: Books, count: number): Promise<void> {
  const db = books.store.org(books.organisationId, 'live').db;
  const rows = await eventually(
    () => db.selectFrom('request_log').select('id').execute(),
    (r) => r.length >= count,
  );
  if (rows.length < count) t.fail(`the request log held ${rows.length} entries, not ${count}`);
}

t.test("includeApiContext: the organisation's last 5 logged requests, seen only by a key with all scopes", async (t) => {
  const { books, api } = await served(t);
  for (let i = 1; i <= 6; i++) await api.request('GET', `/v1/contacts?page=${i}`);
  await logged(t, books, 6);

  const r = await api.request('POST', '/v1/bug-reports', { body: { ...minimal, includeApiContext: true } });
  t.equal(r.status, 201);
  t.same(
    r.body.data.apiContext.map((e: { path: string }) => e.path),
    ['/v1/contacts?page=6', '/v1/contacts?page=5', '/v1/contacts?page=4', '/v1/contacts?page=3', '/v1/contacts?page=2'],
    'the newest five, newest first',
  );
  t.match(r.body.data.apiContext[0], { method: 'GET', status: 200, keyPrefix: 'sk_live_', count: 1 }, 'as the request log lists them');

  const { key: narrow } = await createKey(t, api, { name: 'narrow', scopes: ['contacts:read'] });
  const before = await reportCount(books);
  expectError(t, await api.request('POST', '/v1/bug-reports', { body: { ...minimal, includeApiContext: true }, key: narrow }), 403, 'insufficient_scope', {
    message: /all scopes/,
  });
  t.equal(await reportCount(books), before, 'nothing written');
  const seen = await api.request('GET', `/v1/bug-reports/${r.body.data.id as string}`, { key: narrow });
  t.equal(seen.body.data.apiContext, null, 'a narrow key does not see the request log through a report');
  t.equal((await api.request('GET', `/v1/bug-reports/${r.body.data.id as string}`)).body.data.apiContext.length, 5);

  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const otherApi = apiAt(api.url, other.apiKey);
  const theirs = await otherApi.request('POST', '/v1/bug-reports', { body: { ...minimal, includeApiContext: true } });
  t.same(theirs.body.data.apiContext, [], "another organisation's report holds none of these requests");
});
