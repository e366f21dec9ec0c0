/**
 * PostgreSQL dropping the store's connections, as a restart or an
 * administrator's pg_terminate_backend does: the requests under way are
 * told 503 and the server carries on; the LISTEN connection comes back once
 * the database takes connections again. Each test has a database of its
 * own, whose backends it terminates. Needs ACCT_TEST_DATABASE_URL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import t, { type Test } from 'tap';
import { AppError } from '../../src/engine/errors.js';
import { appErrorOf, markDatabaseSocketError } from '../../src/store/driver-errors.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { eventually, newBooks, serveBooks, testDatabaseUrl } from '../helpers/index.js';

const base = testDatabaseUrl();
const skip = base === undefined ? 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass)' : false;

/** One query on the base database (create, alter and drop databases; terminate backends). */
async function admin<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A database of the test's own, dropped (its connections ended) when the test ends: its name and URL. */
async function ownDatabase(t: Test): Promise<{ name: string; url: string }> {
  const name = `acct_t_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  t.teardown(() => admin(`drop database if exists ${name} with (force)`));
  const url = new URL(base!);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** End every connection to the database but the asking one's: the rows pg_terminate_backend answered. */
const terminate = async (name: string): Promise<number> =>
  (await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name])).length;

/** Books on a database of the test's own (newBooks takes its database from ACCT_TEST_DATABASE_URL). */
async function booksOnOwnDatabase(t: Test) {
  const own = await ownDatabase(t);
  process.env['ACCT_TEST_DATABASE_URL'] = own.url;
  try {
    return { own, books: await newBooks(t) };
  } finally {
    process.env['ACCT_TEST_DATABASE_URL'] = base;
  }
}

t.test('connections terminated under requests: 503 for those under way, and the server carries on', { skip }, async (t) => {
  const { own, books } = await booksOnOwnDatabase(t);
  const unexpected: AppError[] = [];
  const api = await serveBooks(t, books, { onLogError: (e) => void (e.code === 'service_unavailable' || unexpected.push(e)) });
  t.equal((await api.request('GET', '/v1/invoices?limit=5')).status, 200, 'a request before');

  const statuses = new Map<number, number>();
  let running = true;
  const worker = async () => {
    while (running) {
      const r = await api.request('GET', '/v1/invoices?limit=5');
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status !== 200 && r.status !== 503) t.fail(`${r.status}: ${JSON.stringify(r.body)}`);
      if (r.status === 503) t.equal(r.body.error.code, 'service_unavailable');
    }
  };
  const workers = Array.from({ length: 5 }, worker);
  let terminated = 0;
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    terminated += await terminate(own.name);
  }
  running = false;
  await Promise.all(workers);
  t.ok(terminated > 0, `backends terminated under the requests: ${terminated}`);
  t.same(
    unexpected.map((e) => `${e.code}: ${String(e.cause)}`),
    [],
    `nothing but 503s reported (statuses ${JSON.stringify([...statuses])})`,
  );
  const after = await eventually(
    () => api.request('GET', '/v1/invoices?limit=5'),
    (r) => r.status === 200,
  );
  t.equal(after.status, 200, 'a request after the terminations succeeds');
});

t.test('the LISTEN connection comes back after the database refused connections for a while', { skip }, async (t) => {
  const { own, books } = await booksOnOwnDatabase(t);
  const heard: string[] = [];
  const stop = books.store.onWork('webhooks', (orgId) => heard.push(orgId));
  t.teardown(() => void stop());
  const listening = () => admin(`select pid from pg_stat_activity where datname = $1 and query = 'listen acct'`, [own.name]);
  await eventually(listening, (rows) => rows.length === 1);

  // As a restart does: the connections ended, and new ones refused until the database is up again.
  await admin(`alter database ${own.name} allow_connections false`);
  await terminate(own.name);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  await admin(`alter database ${own.name} allow_connections true`);

  const back = await eventually(listening, (rows) => rows.length === 1, 10_000);
  t.equal(back.length, 1, 'listening again');
  // Work notified for books the process has not opened yet comes through the LISTEN connection alone.
  const orgId = randomUUID();
  const schema = books.store.kind === 'postgres' ? (books.store as PostgresStore).schemaOf(orgId, 'live') : '';
  const client = new pg.Client({ connectionString: own.url });
  await client.connect();
  await client.query(`select pg_notify('acct', $1)`, [`${schema} webhooks`]);
  await client.end();
  await eventually(
    () => Promise.resolve(heard),
    (h) => h.includes(orgId),
  );
  t.ok(heard.includes(orgId), 'a notification after the restart is heard');
});

t.test('a connection lost while PostgreSQL shuts down is 503, not 500', async (t) => {
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
  const terminated = new Error('Connection terminated unexpectedly');
  markDatabaseSocketError(reset);
  for (const [what, e] of [
    ['a reset on a connection to the database', reset],
    ["pg's connection terminated unexpectedly", terminated],
    ['a client no longer queryable', new Error('Client has encountered a connection error and is not queryable')],
  ] as const) {
    const error = appErrorOf(e);
    t.equal(error.code, 'service_unavailable', what);
    t.equal(error.status, 503, what);
  }
  // A reset nothing says came from the database (a request's own client hanging up) is not the database's.
  const hangUp = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
  t.equal(appErrorOf(hangUp).code, 'internal_error', 'a reset not from the database is left alone');
  if (base !== undefined) {
    // pg's server-side shutdown codes, as pg reports them.
    await import('../../src/store/postgres/postgres-store.js');
    for (const code of ['57P01', '57P02', '57P03']) {
      const e = Object.assign(new pg.DatabaseError('terminating connection', 0, 'error'), { code });
      t.equal(appErrorOf(e).code, 'service_unavailable', code);
    }
  }
});
