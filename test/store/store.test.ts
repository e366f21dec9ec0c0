import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { migrationsOf } from '../../src/store/migrate.js';
import { resolveDataDir } from '../../src/store/data-dir.js';
import { newBooks } from '../helpers/index.js';

t.test('the data directory: --data, then $ACCT_DATA, then ./acct-data', async (t) => {
  t.equal(resolveDataDir('/x/y', { ACCT_DATA: '/z' }), '/x/y');
  t.equal(resolveDataDir(undefined, { ACCT_DATA: '/z' }), '/z');
  t.equal(resolveDataDir(undefined, {}), path.resolve('acct-data'));
});

t.test('databases open with WAL, synchronous=FULL, foreign keys and a busy timeout, migrated', async (t) => {
  const books = await newBooks(t);
  for (const file of [path.join(books.dataDir, 'platform.sqlite'), path.join(books.dataDir, 'orgs', books.organisationId, 'live.sqlite')]) {
    t.ok(fs.existsSync(file), file);
  }
  const db = new Database(path.join(books.dataDir, 'orgs', books.organisationId, 'live.sqlite'), { readonly: true });
  t.teardown(() => db.close());
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('user_version', { simple: true }), migrationsOf('org').length);
  // synchronous, foreign_keys and busy_timeout are per connection: check them on the store's own handle.
  const { sql } = await import('kysely');
  const handle = books.store.org(books.organisationId, 'live');
  const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(handle.db)).rows[0] as object)[0];
  t.equal(await pragma('synchronous'), 2, 'FULL');
  t.equal(await pragma('foreign_keys'), 1);
  t.equal(await pragma('busy_timeout'), 10000);
});

t.test('reopening applies nothing twice; a database newer than this acct is refused', async (t) => {
  const dir = t.testdir();
  SqliteStore.open(dir).close();
  const again = SqliteStore.open(dir);
  await again.close();
  const db = new Database(path.join(dir, 'platform.sqlite'));
  t.equal(db.pragma('user_version', { simple: true }), migrationsOf('platform').length);
  db.pragma('user_version = 999');
  db.close();
  t.throws(() => SqliteStore.open(dir), /newer than this acct knows/);
});

t.test('an unknown or malformed organisation id is not found, and never touches the filesystem', async (t) => {
  const books = await newBooks(t);
  t.throws(() => books.store.org('00000000-0000-4000-8000-000000000000', 'live'), { code: 'not_found' });
  t.throws(() => books.store.org('../../etc', 'live'), { code: 'not_found' });
  t.notOk(fs.existsSync(path.join(books.dataDir, 'orgs', '00000000-0000-4000-8000-000000000000')));
});

t.test('a failed write transaction leaves nothing behind', async (t) => {
  const books = await newBooks(t);
  const handle = books.store.org(books.organisationId, 'live');
  await t.rejects(
    handle.write(async (trx) => {
      await trx.updateTable('organisation').set({ name: 'Changed' }).execute();
      throw new Error('boom');
    }),
    /boom/,
  );
  const row = await handle.db.selectFrom('organisation').select('name').executeTakeFirstOrThrow();
  t.equal(row.name, 'Acme Widgets Ltd');
});

t.test('writes that arrive together share one commit; each is acknowledged only once it is committed; a refused one rolls back alone', async (t) => {
  const books = await newBooks(t);
  const file = path.join(books.dataDir, 'orgs', books.organisationId, 'live.sqlite');
  const handle = books.store.org(books.organisationId, 'live');
  const other = new Database(file, { readonly: true });
  t.teardown(() => other.close());
  const committed = () => (other.prepare("select count(*) as n from row_counts where table_name like 'probe-%'").get() as { n: number }).n;
  const seenByOthers: number[] = [];
  const writes = Array.from({ length: 10 }, (_, i) =>
    handle.write(async (trx) => {
      await trx
        .insertInto('row_counts')
        .values({ table_name: `probe-${i}`, n: i })
        .execute();
      seenByOthers.push(committed());
      if (i === 4) throw new Error('refused');
      return i;
    }),
  );
  const outcomes = await Promise.allSettled(writes);
  t.same(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
  );
  t.same(seenByOthers, Array(10).fill(0), 'another connection saw none of them before the one commit');
  t.equal(committed(), 9, 'after it, all but the refused one');
  const kept = await handle.db.selectFrom('row_counts').select('n').where('table_name', 'like', 'probe-%').orderBy('n').execute();
  t.same(
    kept.map((r) => r.n),
    [0, 1, 2, 3, 5, 6, 7, 8, 9],
  );

  // A write after the group is a transaction of its own, and its result is committed when it resolves.
  t.equal(await handle.write(async (trx) => (await trx.insertInto('row_counts').values({ table_name: 'probe-late', n: 10 }).execute(), 'done')), 'done');
  t.equal(committed(), 10);
});

t.test('the cache closes the least recently used databases beyond its size', async (t) => {
  const dir = t.testdir();
  const store = SqliteStore.open(dir, { cacheSize: 2 });
  t.teardown(() => store.close());
  const books = await newBooks(t);
  // Reuse the created organisation's files from another store with a small cache.
  const other = SqliteStore.open(books.dataDir, { cacheSize: 1 });
  t.teardown(() => other.close());
  const opened: string[] = [];
  other.onOpen((_id, mode) => opened.push(mode));
  const live = other.org(books.organisationId, 'live');
  t.equal(other.org(books.organisationId, 'live'), live, 'a cached handle is reused');
  t.same(opened, ['live']);
  other.org(books.organisationId, 'test');
  t.same(opened, ['live', 'test']);
  t.equal(other.openFiles, 1, 'the live file was closed to make room');
  t.equal(other.org(books.organisationId, 'live'), live, 'the same handle, still valid');
  const row = await live.db.selectFrom('organisation').select('name').executeTakeFirstOrThrow();
  t.equal(row.name, 'Acme Widgets Ltd', 'used again, it opens its file again');
  t.same(opened, ['live', 'test', 'live']);
  t.equal(other.openFiles, 1);
});

t.test("the store's rows are the driver's own: same columns, same values, a repeated name keeps the last", async (t) => {
  const books = await newBooks(t);
  const handle = books.store.org(books.organisationId, 'live');
  const query = "select a.id, a.code, a.name, b.code, b.name, 7 as n, null as z from accounts a join accounts b on b.code = '4000' where a.code = '1200'";
  const { sql } = await import('kysely');
  const ours = (await sql.raw(query).execute(handle.db)).rows;
  const driver = new Database(path.join(books.dataDir, 'orgs', books.organisationId, 'live.sqlite'), { readonly: true });
  t.teardown(() => driver.close());
  const theirs = driver.prepare(query).all();
  t.strictSame(ours, theirs);
  t.match(ours, [{ code: '4000', n: 7, z: null }], "b's code, the later column of that name");
  t.strictSame(Object.keys(ours[0] as object), ['id', 'code', 'name', 'n', 'z']);
  const streamed = [];
  for await (const row of handle.db
    .selectFrom('accounts')
    .select(['code', 'name', 'account_type'])
    .where('code', 'in', ['1200', '4000'])
    .orderBy('code')
    .stream())
    streamed.push(row);
  t.strictSame(
    streamed,
    driver.prepare("select code, name, account_type from accounts where code in ('1200', '4000') order by code").all(),
    'streamed rows too',
  );
});
