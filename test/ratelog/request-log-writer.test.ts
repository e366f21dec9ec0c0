/**
 * The request log writer in-process: successes one row each, refusals (403,
 * 429) one counted row per key, status, code, operation and minute, and the
 * cap on entries per set of books, oldest first.
 */
import t from 'tap';
import { movingClock, newBooks } from '../helpers/index.js';
import { RequestLogWriter, type RequestEntry } from '../../src/engine/integration/request-log-writer.js';
import { logRows } from './support.js';

const scopeRefusal = { code: 'insufficient_scope', message: 'this API key lacks the required scope invoices:read' };
const limited = { code: 'rate_limited', message: 'rate limit exceeded' };

function entryOf(organisationId: string, fields: Partial<RequestEntry>): RequestEntry {
  return {
    organisationId,
    mode: 'live',
    method: 'GET',
    path: '/v1/accounts',
    route: '/accounts',
    status: 200,
    latencyMs: 3,
    keyId: 'key_a',
    keyPrefix: 'sk_live_',
    idempotencyKey: null,
    error: undefined,
    ipAddress: '127.0.0.1',
    userAgent: null,
    headers: {},
    requestBody: undefined,
    responseBody: { success: true, data: [] },
    secrets: [],
    ...fields,
  };
}

t.test('identical successes in one minute are one row each', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock });
  const log = new RequestLogWriter(books.store, clock);
  for (let i = 0; i < 3; i++) log.add(entryOf(books.organisationId, {}));
  log.add(entryOf(books.organisationId, { status: 404, error: { code: 'not_found', message: 'no such invoice' } }));
  await log.close();
  const rows = await logRows(books);
  t.same(
    rows.map((r) => [r.status, r.count]),
    [
      [404, 1],
      [200, 1],
      [200, 1],
      [200, 1],
    ],
  );
});

t.test('refusals are counted per key, status, code, operation and minute, across flushes', async (t) => {
  const clock = movingClock('2026-11-21T10:00:10Z');
  const books = await newBooks(t, { clock });
  const log = new RequestLogWriter(books.store, clock);
  const org = books.organisationId;
  const refused = (fields: Partial<RequestEntry>) =>
    entryOf(org, { status: 403, error: scopeRefusal, path: '/v1/invoices/inv_1', route: '/invoices/{id}', ...fields });
  log.add(refused({}));
  log.add(refused({ path: '/v1/invoices/inv_2?x=1' })); // another id and query: the same operation
  log.add(refused({ keyId: 'key_b' })); // another key
  log.add(refused({ method: 'DELETE' })); // another operation on the same route
  log.add(refused({ status: 429, error: limited })); // another status
  await log.flush();
  clock.advance(20_000); // 10:00:30, the same minute
  log.add(refused({ path: '/v1/invoices/inv_3' }));
  await log.flush();
  clock.advance(30_000); // 10:01:00, the next minute
  log.add(refused({}));
  await log.close();

  const rows = await logRows(books);
  t.same(
    rows.map((r) => [r.created_at, r.key_id, r.method, r.status, r.count, r.path]),
    [
      ['2026-11-21T10:01:00.000Z', 'key_a', 'GET', 403, 1, '/v1/invoices/inv_1'],
      ['2026-11-21T10:00:10.000Z', 'key_a', 'GET', 429, 1, '/v1/invoices/inv_1'],
      ['2026-11-21T10:00:10.000Z', 'key_a', 'DELETE', 403, 1, '/v1/invoices/inv_1'],
      ['2026-11-21T10:00:10.000Z', 'key_b', 'GET', 403, 1, '/v1/invoices/inv_1'],
      // inv_1, inv_2 and (after a flush, 20 s later) inv_3: the first one's path and time.
      ['2026-11-21T10:00:10.000Z', 'key_a', 'GET', 403, 3, '/v1/invoices/inv_1'],
    ],
    'newest first; ids made in one millisecond count up in the order they were made',
  );
  t.same(JSON.parse(rows.find((r) => r.count === 3)?.error ?? 'null'), scopeRefusal, 'the summary keeps the error body of the first');
});

t.test('the log keeps at most maxEntries entries per set of books, the oldest going first', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock });
  const org = books.organisationId;
  const log = new RequestLogWriter(books.store, clock, { maxEntries: 5 });
  for (let i = 1; i <= 4; i++) {
    log.add(entryOf(org, { path: `/v1/accounts?n=${i}` }));
    clock.advance(1000);
  }
  log.add(entryOf(org, { path: '/v1/accounts?n=1', mode: 'test' })); // the test books have their own cap
  await log.flush();
  t.equal((await logRows(books)).length, 4, 'under the cap: all kept');
  for (let i = 5; i <= 8; i++) {
    log.add(entryOf(org, { path: `/v1/accounts?n=${i}` }));
    clock.advance(1000);
  }
  await log.flush();
  t.same(
    (await logRows(books)).map((r) => r.path),
    ['/v1/accounts?n=8', '/v1/accounts?n=7', '/v1/accounts?n=6', '/v1/accounts?n=5', '/v1/accounts?n=4'],
    'eight written, the newest five kept',
  );
  t.equal((await logRows(books, 'test')).length, 1);

  // Another writer (a restarted server) counts what the books hold at its first write.
  const next = new RequestLogWriter(books.store, clock, { maxEntries: 5 });
  next.add(entryOf(org, { path: '/v1/accounts?n=9' }));
  await next.close();
  t.same(
    (await logRows(books)).map((r) => r.path),
    ['/v1/accounts?n=9', '/v1/accounts?n=8', '/v1/accounts?n=7', '/v1/accounts?n=6', '/v1/accounts?n=5'],
  );
});
