/** GET /v1/health: the database asked a real query; degraded when slow, 503 when it fails or does not answer. */
import t from 'tap';
import type { Test } from 'tap';
import type { Kysely, KyselyPlugin } from 'kysely';
import { newBooks, serveBooks, type Books } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import type { Store } from '../../src/store/store.js';
import type { PlatformDb } from '../../src/store/tables.js';

const clock = '2026-11-21T10:00:00Z';

/** An object that is `target` but for the members given (methods stay bound to target, whose private fields they use). */
function overriding<T extends object>(target: T, members: Partial<T>): T {
  return new Proxy(target, {
    get(obj, prop) {
      if (Object.hasOwn(members, prop)) return (members as Record<string | symbol, unknown>)[prop];
      const value: unknown = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
    },
  });
}

/** A server whose platform database goes through `plugin` (the health check is the only platform query a public request makes). */
async function serveWithPlatformPlugin(t: Test, books: Books, plugin: KyselyPlugin) {
  const db: Kysely<PlatformDb> = books.store.platform.db.withPlugin(plugin);
  const store = overriding<Store>(books.store, { platform: overriding(books.store.platform, { db }) });
  return serveBooks(t, { ...books, store }, { onLogError: () => undefined });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a database that answers: 200 operational, with the latency of a real query', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/health', { key: null });
  t.equal(r.status, 200);
  t.same(r.body.data.services.api, { status: 'operational', latency: 0 });
  const database = r.body.data.services.database;
  t.ok(database.latency >= 0, `the query's latency, ${database.latency} ms`);
  // A select 1 takes a millisecond or so; a machine loaded enough to stall it over 1000 ms makes it degraded, rightly:
  // the status checked is the one its latency calls for, so that the test fails for a wrong status, not a slow machine.
  if (database.latency <= 1000) {
    t.equal(r.body.data.status, 'operational');
    t.equal(database.status, 'operational');
    t.notOk('message' in database);
  } else {
    t.equal(r.body.data.status, 'degraded', `a loaded machine: the query took ${database.latency} ms`);
    t.equal(database.status, 'degraded');
  }
  t.equal(r.body.data.timestamp, '2026-11-21T10:00:00.000Z');
});

t.test('a query that fails: 503 service_unavailable naming the database, and the failure logged', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveWithPlatformPlugin(t, books, {
    transformQuery: () => {
      throw new Error('disk I/O error');
    },
    transformResult: (args) => Promise.resolve(args.result),
  });
  const r = await api.request('GET', '/v1/health', { key: null });
  expectError(t, r, 503, 'service_unavailable', { message: /^outage: database \(the query failed: disk I\/O error\)$/ });
  t.equal(api.logged.length, 1, 'reported to the log');
});

t.test('an answer slower than 1000 ms: 200 degraded, with a message', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveWithPlatformPlugin(t, books, {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await sleep(1100);
      return args.result;
    },
  });
  const r = await api.request('GET', '/v1/health', { key: null });
  t.equal(r.status, 200);
  t.equal(r.body.data.status, 'degraded', 'the overall status is the worst service');
  t.equal(r.body.data.services.database.status, 'degraded');
  t.ok(r.body.data.services.database.latency > 1000);
  t.equal(r.body.data.services.database.message, 'answered in more than 1000 ms');
  t.equal(r.body.data.services.api.status, 'operational');
});

t.test('no answer within 3 s: 503, the database in outage', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveWithPlatformPlugin(t, books, {
    transformQuery: (args) => args.node,
    transformResult: () => new Promise(() => undefined),
  });
  const started = Date.now();
  const r = await api.request('GET', '/v1/health', { key: null });
  expectError(t, r, 503, 'service_unavailable', { message: 'outage: database (no answer within 3000 ms)' });
  t.ok(Date.now() - started >= 2900, 'after the time limit, not before');
});
