/**
 * The installation as a whole over HTTP: the stats, the search, the system
 * health, the failed webhook deliveries of every organisation's books and
 * their replay, and the server's caches. Figures are worked by hand from
 * the rows each test makes. And acct admin on the CLI.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, runCliInProcess, serveBooks, type Api, type Books } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { addUser, adminAndUser, auditCount, newAuditRow } from './support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { createEndpoint } from '../../src/engine/integration/webhooks.js';
import type { DeliveryStatus, WebhookDeliveriesTable } from '../../src/store/tables.js';
import type { Mode } from '../../src/store/data-dir.js';

const clock = '2026-11-28T10:00:00Z';
const hoursAgo = (h: number) => new Date(Date.parse(clock) - h * 3600_000).toISOString();

interface Setup {
  readonly books: Books;
  readonly api: Api;
  readonly admin: string;
  readonly adminId: number;
  readonly user: string;
  readonly other: { readonly organisationId: string; readonly apiKey: string };
}

async function setUp(t: Test, options: { rateLimits?: boolean } = {}): Promise<Setup> {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books, options);
  const people = await adminAndUser(t, api, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Trading Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
  return { books, api, ...people, other };
}

/** A delivery of an endpoint made in the books, as the sender would have left it. */
async function delivery(books: Books, orgId: string, mode: Mode, status: DeliveryStatus, at: string, error: string | null): Promise<string> {
  const handle = books.store.org(orgId, mode);
  return handle.write(async (trx) => {
    let endpoint = await trx.selectFrom('webhook_endpoints').select('id').executeTakeFirst();
    endpoint ??= await createEndpoint(trx, books.clock, handle.secrets, {
      url: 'https://hooks.example.com/in',
      events: ['contact.created'],
      description: null,
    });
    const row: WebhookDeliveriesTable = {
      id: randomUUID(),
      endpoint_id: endpoint.id,
      event_id: `evt_${randomUUID().replace(/-/g, '').slice(0, 26)}`,
      event: 'contact.created',
      body: '{}',
      event_at: at,
      status,
      attempts: status === 'pending' ? 1 : 5,
      next_attempt_at: status === 'pending' ? clock : null,
      last_attempt_at: at,
      response_status: error ? 500 : 200,
      latency_ms: 20,
      error,
      created_at: at,
      completed_at: status === 'pending' ? null : at,
    };
    await trx.insertInto('webhook_deliveries').values(row).execute();
    return row.id;
  });
}

const deliveryRow = (books: Books, orgId: string, mode: Mode, id: string) =>
  books.store.org(orgId, mode).db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

t.test('stats: counts worked by hand', async (t) => {
  const s = await setUp(t);
  const platform = s.books.store.platform;
  const suspended = await addUser(s.books, 'sus@example.com');
  const locked = await addUser(s.books, 'lock@example.com');
  const old = await addUser(s.books, 'old@example.com', { organisationId: s.other.organisationId });
  await platform.write(async (trx) => {
    await trx
      .updateTable('users')
      .set({ suspended_at: hoursAgo(1) })
      .where('id', '=', suspended)
      .execute();
    await trx.updateTable('users').set({ locked_until: '2026-11-28T10:10:00.000Z' }).where('id', '=', locked).execute();
    await trx
      .updateTable('users')
      .set({ created_at: hoursAgo(20 * 24), email_verified: 1 })
      .where('id', '=', old)
      .execute();
    await trx
      .updateTable('organisations')
      .set({ closed_at: hoursAgo(2) })
      .where('id', '=', s.other.organisationId)
      .execute();
  });
  for (const [title, severity] of [
    ['VAT box 6 is empty', 'high'],
    ['Logo is blurry', 'low'],
  ]) {
    t.equal((await s.api.request('POST', '/v1/bug-reports', { key: s.user, body: { title, description: 'x', severity } })).status, 201);
  }
  const reports = await platform.db.selectFrom('bug_reports').select('id').orderBy('title').execute();
  t.equal((await s.api.request('PATCH', `/v1/admin/bug-reports/${reports[0]!.id}`, { key: s.admin, body: { status: 'resolved' } })).status, 200);

  const r = await s.api.request('GET', '/v1/admin/stats', { key: s.admin });
  t.equal(r.status, 200);
  t.same(r.body.data, {
    organisations: { total: 2, closed: 1 },
    users: { total: 5, admins: 1, verified: 1, suspended: 1, locked: 1 },
    // One verified user who is no administrator (old@example.com, of the other organisation): one spot claimed.
    earlyAccess: { claimed: 1, totalSpots: 50, enabled: true },
    bugReports: {
      total: 2,
      byStatus: { open: 1, acknowledged: 0, investigating: 0, resolved: 1, wont_fix: 0, duplicate: 0 },
      bySeverity: { critical: 0, high: 1, medium: 0, low: 1 },
    },
    sessions: { activeNow: 2 },
    signups: { last7Days: 4, last30Days: 5 },
  });
});

t.test('search: users by address or name, organisations by name or id, bug reports by title or id; at least 2 characters', async (t) => {
  const s = await setUp(t);
  t.equal((await s.api.request('POST', '/v1/bug-reports', { key: s.user, body: { title: 'Other totals are wrong', description: 'x' } })).status, 201);
  const report = await s.books.store.platform.db.selectFrom('bug_reports').select(['id', 'created_at']).executeTakeFirstOrThrow();
  const search = async (q: string) => {
    const r = await s.api.request('GET', `/v1/admin/search?q=${encodeURIComponent(q)}`, { key: s.admin });
    t.equal(r.status, 200, `search ${q}`);
    return r.body.data;
  };
  t.same(await search('JO@'), {
    query: 'JO@',
    users: [{ id: 'usr_2', email: 'jo@example.com', fullName: 'Jo Bloggs', organisationId: s.books.organisationId, isAdmin: false, suspended: false }],
    organisations: [],
    bugReports: [],
  });
  t.same(
    (await search('root admin')).users.map((u: { email: string }) => u.email),
    ['root@example.com'],
    'by full name',
  );
  const other = await search('other');
  t.same(other.organisations, [{ id: s.other.organisationId, name: 'Other Trading Ltd', businessType: 'sole_trader', createdAt: '2026-11-28T10:00:00.000Z' }]);
  t.same(other.bugReports, [
    {
      id: report.id,
      title: 'Other totals are wrong',
      status: 'open',
      severity: 'medium',
      organisationId: s.books.organisationId,
      createdAt: report.created_at,
    },
  ]);
  t.same(
    (await search(s.other.organisationId.slice(0, 8))).organisations.map((o: { id: string }) => o.id),
    [s.other.organisationId],
    'an organisation by the start of its id',
  );
  t.same(
    (await search(report.id)).bugReports.map((b: { id: string }) => b.id),
    [report.id],
    'a report by its id',
  );
  t.same(await search('%%'), { query: '%%', users: [], organisations: [], bugReports: [] }, '% is literal');
  expectError(t, await s.api.request('GET', '/v1/admin/search?q=j', { key: s.admin }), 400, 'validation_error', { field: 'q' });
  expectError(t, await s.api.request('GET', '/v1/admin/search?q=%20j%20', { key: s.admin }), 400, 'validation_error', { field: 'q' });
  expectError(t, await s.api.request('GET', '/v1/admin/search', { key: s.admin }), 400, 'validation_error', { field: 'q' });
});

t.test("system health: the database, and the last 24 hours' deliveries of every organisation's books", async (t) => {
  const s = await setUp(t);
  const healthy = await s.api.request('GET', '/v1/admin/system/health', { key: s.admin });
  t.equal(healthy.status, 200);
  t.match(healthy.body.data, {
    status: 'healthy',
    timestamp: '2026-11-28T10:00:00.000Z',
    database: { latencyMs: Number, pool: { totalCount: Number, idleCount: Number, waitingCount: 0 } },
    webhooks: { last24h: { total: 0, processed: 0, failed: 0, pending: 0 }, recentErrors: [], status: 'healthy' },
  });
  const pool = healthy.body.data.database.pool;
  t.ok(pool.totalCount >= 1 && pool.idleCount <= pool.totalCount, 'the platform file and the organisation files open');

  const org = s.books.organisationId;
  await delivery(s.books, org, 'live', 'succeeded', hoursAgo(1), null);
  const failed = await delivery(s.books, org, 'live', 'failed', hoursAgo(2), 'HTTP 500');
  const retrying = await delivery(s.books, s.other.organisationId, 'test', 'pending', hoursAgo(3), 'no response within 30 s');
  const old = await delivery(s.books, org, 'live', 'failed', hoursAgo(48), 'HTTP 410');
  const r = await s.api.request('GET', '/v1/admin/system/health', { key: s.admin });
  t.equal(r.body.data.status, 'warning', 'a third failed: more than 10%');
  t.same(r.body.data.webhooks.last24h, { total: 3, processed: 1, failed: 1, pending: 1 }, 'the one of two days ago is not counted');
  t.equal(r.body.data.webhooks.status, 'warning');
  t.same(
    r.body.data.webhooks.recentErrors.map((e: Record<string, unknown>) => [e['deliveryId'], e['organisationId'], e['mode'], e['status'], e['error']]),
    [
      [failed, org, 'live', 'failed', 'HTTP 500'],
      [retrying, s.other.organisationId, 'test', 'pending', 'no response within 30 s'],
      [old, org, 'live', 'failed', 'HTTP 410'],
    ],
    'the latest failed attempts, newest first',
  );
});

t.test("failed deliveries of every organisation's books, newest first, pagination B", async (t) => {
  const s = await setUp(t);
  const org = s.books.organisationId;
  const a = await delivery(s.books, org, 'live', 'failed', hoursAgo(5), 'HTTP 500');
  const b = await delivery(s.books, s.other.organisationId, 'test', 'failed', hoursAgo(1), 'HTTP 404');
  const c = await delivery(s.books, org, 'live', 'failed', hoursAgo(3), 'HTTP 502');
  await delivery(s.books, org, 'live', 'succeeded', hoursAgo(2), null);
  await delivery(s.books, org, 'live', 'pending', hoursAgo(2), 'HTTP 503');

  const r = await s.api.request('GET', '/v1/admin/system/webhooks/failed', { key: s.admin });
  t.equal(r.status, 200);
  t.same(
    r.body.data.map((d: { id: string }) => d.id),
    [b, c, a],
  );
  t.same(r.body.meta, { page: 1, perPage: 20, total: 3, pages: 1 });
  t.match(r.body.data[0], {
    id: b,
    organisationId: s.other.organisationId,
    mode: 'test',
    endpointUrl: 'https://hooks.example.com/in',
    eventType: 'contact.created',
    attempts: 5,
    responseStatus: 500,
    error: 'HTTP 404',
    failedAt: hoursAgo(1),
  });
  const page2 = await s.api.request('GET', '/v1/admin/system/webhooks/failed?perPage=2&page=2', { key: s.admin });
  t.same(
    page2.body.data.map((d: { id: string }) => d.id),
    [a],
  );
  t.same(page2.body.meta, { page: 2, perPage: 2, total: 3, pages: 2 });
  const mine = await s.api.request('GET', `/v1/admin/system/webhooks/failed?organisationId=${org}&mode=live`, { key: s.admin });
  t.same(
    mine.body.data.map((d: { id: string }) => d.id),
    [c, a],
  );
  t.equal(mine.body.meta.total, 2);
});

t.test('replay: named deliveries or every failed one go back to the queue; an id not failed is 404 and nothing changes', async (t) => {
  const s = await setUp(t);
  const org = s.books.organisationId;
  const a = await delivery(s.books, org, 'live', 'failed', hoursAgo(5), 'HTTP 500');
  const b = await delivery(s.books, s.other.organisationId, 'test', 'failed', hoursAgo(1), 'HTTP 404');
  const c = await delivery(s.books, org, 'test', 'failed', hoursAgo(3), 'HTTP 502');
  const ok = await delivery(s.books, org, 'live', 'succeeded', hoursAgo(2), null);
  const woken: string[] = [];
  t.teardown(s.books.store.onWork('webhooks', (orgId, mode) => woken.push(`${orgId}/${mode}`)));

  const before = await auditCount(s.books);
  const replay = (body: unknown) => s.api.request('POST', '/v1/admin/system/replay-webhooks', { key: s.admin, body });
  const unknown = randomUUID();
  expectError(t, await replay({ deliveryIds: [a, unknown] }), 404, 'not_found', { message: new RegExp(`${unknown}.*nothing was replayed`) });
  expectError(t, await replay({ deliveryIds: [ok] }), 404, 'not_found', { message: /among the failed/ });
  expectError(t, await replay({ deliveryIds: ['not-a-uuid'] }), 400, 'validation_error', { field: 'deliveryIds[0]' });
  t.equal((await deliveryRow(s.books, org, 'live', a)).status, 'failed', 'nothing changed');
  t.equal(await auditCount(s.books), before, 'nothing audited');

  const one = await replay({ deliveryIds: [a] });
  t.equal(one.status, 200);
  t.same(one.body.data, { requeued: 1, books: [{ organisationId: org, mode: 'live', requeued: 1 }] });
  t.match(await deliveryRow(s.books, org, 'live', a), {
    status: 'pending',
    attempts: 0,
    next_attempt_at: '2026-11-28T10:00:00.000Z',
    completed_at: null,
    error: 'HTTP 500',
  });
  await new Promise((resolve) => setImmediate(resolve));
  t.ok(woken.includes(`${org}/live`), 'the sender is told at once');
  const details = await newAuditRow(t, s.books, before, {
    adminId: s.adminId,
    adminEmail: 'root@example.com',
    action: 'WEBHOOKS_REPLAYED',
    entityType: 'system',
    entityId: 'webhooks',
    method: 'POST',
    path: '/v1/admin/system/replay-webhooks',
  });
  t.match(details, { deliveryIds: [a], requeued: 1 });

  const all = await replay({});
  t.same(all.body.data.requeued, 2, 'every failed one left');
  t.same(
    all.body.data.books.map((b: { organisationId: string; mode: string }) => `${b.organisationId}/${b.mode}`).sort(),
    [`${org}/test`, `${s.other.organisationId}/test`].sort(),
  );
  t.equal((await deliveryRow(s.books, s.other.organisationId, 'test', b)).status, 'pending');
  t.equal((await deliveryRow(s.books, org, 'test', c)).status, 'pending');
  t.equal((await deliveryRow(s.books, org, 'live', ok)).status, 'succeeded', 'a succeeded one is left alone');
  t.match(
    await newAuditRow(t, s.books, before + 1, {
      ...{ adminId: s.adminId, adminEmail: 'root@example.com' },
      action: 'WEBHOOKS_REPLAYED',
      entityType: 'system',
      entityId: 'webhooks',
      method: 'POST',
      path: '/v1/admin/system/replay-webhooks',
    }),
    {
      deliveryIds: null,
      requeued: 2,
    },
  );
  t.same((await replay({})).body.data, { requeued: 0, books: [] }, 'nothing failed is left');
});

// A replay used to answer requeued: 1 for a delivery to an endpoint switched off, which the sender then never tried.
t.test('replay: a delivery to an endpoint switched off is 422 when named, and left out of every failed one', async (t) => {
  const s = await setUp(t);
  const org = s.books.organisationId;
  const on = await delivery(s.books, org, 'live', 'failed', hoursAgo(5), 'HTTP 500');
  // The other organisation's endpoint is switched off after its delivery failed.
  const off = await delivery(s.books, s.other.organisationId, 'live', 'failed', hoursAgo(4), 'HTTP 500');
  const otherBooks = s.books.store.org(s.other.organisationId, 'live');
  const { endpoint_id: offEndpoint } = await deliveryRow(s.books, s.other.organisationId, 'live', off);
  await otherBooks.write((trx) => trx.updateTable('webhook_endpoints').set({ is_active: 0 }).where('id', '=', offEndpoint).execute());

  const before = await auditCount(s.books);
  const replay = (body: unknown) => s.api.request('POST', '/v1/admin/system/replay-webhooks', { key: s.admin, body });
  const refused = await replay({ deliveryIds: [on, off] });
  expectError(t, refused, 422, 'unprocessable_entity', {
    message: new RegExp(`${off}.*${offEndpoint}.*switched off.*nothing was replayed`),
  });
  t.equal((await deliveryRow(s.books, org, 'live', on)).status, 'failed', 'the other one named is not queued either');
  t.equal((await deliveryRow(s.books, s.other.organisationId, 'live', off)).status, 'failed');
  t.equal(await auditCount(s.books), before, 'nothing audited');

  const all = await replay({});
  t.same(all.body.data, { requeued: 1, books: [{ organisationId: org, mode: 'live', requeued: 1 }] }, 'only the one whose endpoint is on');
  t.equal((await deliveryRow(s.books, org, 'live', on)).status, 'pending');
  t.equal((await deliveryRow(s.books, s.other.organisationId, 'live', off)).status, 'failed', 'the one to the endpoint switched off stays failed');
});

t.test("clear-cache empties the server's caches and says how much each held", async (t) => {
  const s = await setUp(t, { rateLimits: true });
  t.equal((await s.api.request('GET', '/v1/organisation')).status, 200, 'a request with the API key: its key and plan are kept');
  const before = await auditCount(s.books);
  const r = await s.api.request('POST', '/v1/admin/system/clear-cache', { key: s.admin });
  t.equal(r.status, 200);
  t.same(r.body.data, {
    cleared: [
      { name: 'api-keys', description: 'API keys authenticated, by hash', entries: 1 },
      { name: 'plans', description: "organisations' plans, for the rate limits (each re-read after a minute)", entries: 1 },
    ],
    note: null,
  });
  const details = await newAuditRow(t, s.books, before, {
    adminId: s.adminId,
    adminEmail: 'root@example.com',
    action: 'CACHE_CLEARED',
    entityType: 'system',
    entityId: 'cache',
    method: 'POST',
    path: '/v1/admin/system/clear-cache',
  });
  t.same(details['cleared'], [
    { name: 'api-keys', entries: 1 },
    { name: 'plans', entries: 1 },
  ]);
  t.same(
    (await s.api.request('POST', '/v1/admin/system/clear-cache', { key: s.admin })).body.data.cleared.map((c: { entries: number }) => c.entries),
    [0, 0],
    "empty now: an administrator's request to /admin/… takes the administrator's own rate limit, so it reads no organisation's plan (9715ad8)",
  );
  t.equal((await s.api.request('GET', '/v1/organisation')).status, 200, 'and filled again as requests come');
});

t.test('acct admin stats, system-health and clear-cache: the local operator; the CLI has no caches and says so', async (t) => {
  const books = await newBooks(t, { clock });
  const stats = await runCliInProcess(['--data', books.dataDir, '--json', 'admin', 'stats']);
  t.equal(stats.status, 0, stats.stderr);
  t.match(JSON.parse(stats.stdout), { organisations: { total: 1, closed: 0 }, users: { total: 0 }, earlyAccess: { claimed: 0 } });
  const health = await runCliInProcess(['--data', books.dataDir, '--json', 'admin', 'system-health']);
  t.equal(health.status, 0, health.stderr);
  t.match(JSON.parse(health.stdout), { status: 'healthy', webhooks: { last24h: { total: 0 } } });
  const cleared = await runCliInProcess(['--data', books.dataDir, '--json', 'admin', 'clear-cache']);
  t.equal(cleared.status, 0, cleared.stderr);
  t.match(JSON.parse(cleared.stdout), { cleared: [], note: /the CLI keeps no caches/ });
  await newAuditRow(t, books, 0, {
    adminId: null,
    adminEmail: /^local:.+/,
    action: 'CACHE_CLEARED',
    entityType: 'system',
    entityId: 'cache',
    method: 'POST',
    path: 'acct admin clear-cache',
  });
  const search = await runCliInProcess(['--data', books.dataDir, '--json', 'admin', 'search', '--q', 'acme']);
  t.equal(search.status, 0, search.stderr);
  t.same(
    JSON.parse(search.stdout).organisations.map((o: { name: string }) => o.name),
    ['Acme Widgets Ltd'],
  );
});
