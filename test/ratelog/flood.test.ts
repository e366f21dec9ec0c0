/**
 * A flood of scope refusals (issue 15, finding 2): a key without the scope
 * an operation needs sends thousands of requests at once to a real server
 * with rate limits on. Every one counts against the organisation's limit,
 * so once the plan's minute is used they are answered 429; and the request
 * log keeps them as counted summaries, so the books barely grow.
 */
import fs from 'node:fs';
import t from 'tap';
import { movingClock, newBooks } from '../helpers/index.js';
import { orgFile } from '../../src/store/data-dir.js';
import { RequestLogWriter } from '../../src/engine/integration/request-log-writer.js';
import { createKey, expectError, serveWith } from '../integration/support.js';
import { logRows } from './support.js';

/** The bytes of a set of books on disk: the database and its write-ahead log. */
function sizeOf(file: string): number {
  const bytes = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  return bytes(file) + bytes(`${file}-wal`);
}

t.test('a 403 flood is answered 429 once the plan is used, and the log grows by two counted rows', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z'); // still through the flood: it all falls in one minute
  const books = await newBooks(t, { clock, organisation: { businessType: 'sole_trader', name: 'Jo Bloggs Plumbing', vatScheme: 'not_registered' } });
  const requestLog = new RequestLogWriter(books.store, clock);
  const api = await serveWith(t, books, { clock, requestLog });
  const { key, id: keyId } = await createKey(t, api, { name: 'reader', scopes: ['contacts:read'] }); // 1 of the Sole Trader's 60
  await requestLog.flush();
  const file = orgFile(books.dataDir, books.organisationId, 'live');
  const rowsBefore = (await logRows(books)).length;
  const bytesBefore = sizeOf(file);

  // Before the fix every refusal here was a 403 and a row: 3,000 of them took 3,000 rows and 1.4 MB (470 bytes each).
  const total = 2000;
  const statuses = new Map<number, number>();
  let sent = 0;
  const started = performance.now();
  // 50 clients at once, each sending one request after another: GET /v1/invoices needs invoices:read, which the key lacks.
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (sent < total) {
        sent++;
        const res = await fetch(`${api.url}/v1/invoices`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  t.comment(`${total} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 60 a minute less the key's creation: 59 reach the scope check (403), the other 1,941 are 429.
  t.same(Object.fromEntries(statuses), { 403: 59, 429: 1941 }, 'refusals count against the plan: 59 × 403, then 429');

  await requestLog.flush();
  const rows = await logRows(books);
  t.same(
    rows.slice(0, rows.length - rowsBefore).map((r) => [r.status, r.count, r.key_id, r.method, r.path]),
    [
      [429, 1941, keyId, 'GET', '/v1/invoices'],
      [403, 59, keyId, 'GET', '/v1/invoices'],
    ],
    'two new rows: the 403s and the 429s, each counted',
  );
  // Bound: the two new rows take well under a 4 KB page; the write-ahead log grows by the flushes, one commit every
  // 250 ms rewriting the page that holds the two counts (4 KB and a 24-byte frame header), so a flood of even 10 s is
  // 40 commits ≈ 160 KB, plus a few pages for the first inserts: 512 KB leaves room for an index page split or two.
  // Logged one row each, these 2,000 refusals took about 940 KB (2,000 × 470 bytes).
  const grown = sizeOf(file) - bytesBefore;
  t.comment(`grew ${grown} bytes`);
  t.ok(grown < 512 * 1024, `the books grew by ${grown} bytes, under 512 KB`);
  expectError(t, await api.request('GET', '/v1/organisation'), 429, 'rate_limited', { field: null }); // the minute is used up for every key of the organisation
});
