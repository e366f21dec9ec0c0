/**
 * A user id is never given twice: the audit log, impersonation sessions and
 * what a user did in the books keep naming the user who was deleted, not
 * whoever registers next. Over HTTP, and for a platform database made
 * before ids were kept (migration 0007 rebuilds the users table).
 */
import Database from 'better-sqlite3';
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { dropSchemas, freshDatabaseUrl, runCliInProcess, testDatabaseUrl } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { registerUser } from '../platform-auth/support.js';
import { migrationsOf } from '../../src/store/migrate.js';
import { platformFile } from '../../src/store/data-dir.js';
import { openStore } from '../../src/store/open.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { insertUser } from '../../src/engine/users/users.js';
import { fixedClock } from '../helpers/clock.js';
import { addUser, adminAndUser } from './support.js';

const start = '2026-11-28T10:00:00Z';

t.test('delete the user with the highest id, register another: a new id, and the audit log still names the one deleted', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId } = await adminAndUser(t, api, books);
  const dave = await addUser(books, 'dave@example.com', { fullName: 'Dave Deleted' });
  t.ok(dave > adminId, 'dave has the highest id');

  t.equal((await api.request('DELETE', `/v1/admin/users/${dave}`, { key: admin })).status, 200);
  const carol = await registerUser(t, api, {
    email: 'carol@example.com',
    password: 'correct horse battery',
    fullName: 'Carol New',
    organisationName: 'Carol Ltd',
  });
  t.match(carol.user.id, /^usr_[0-9]+$/, 'shown as usr_<n>');
  const carolId = Number(String(carol.user.id).slice('usr_'.length));
  t.not(carolId, dave, `carol is not given dave's id ${dave}`);
  t.ok(carolId > dave, 'ids only go up');

  expectError(t, await api.request('GET', `/v1/admin/users/usr_${dave}`, { key: admin }), 404, 'not_found');
  const deleted = await api.request('GET', `/v1/admin/audit-log?entityType=user&entityId=usr_${dave}`, { key: admin });
  t.equal(deleted.status, 200);
  t.same(
    deleted.body.data.map((e: { action: string }) => e.action),
    ['USER_DELETED'],
    "dave's id names only dave's deletion",
  );
});

t.test(
  'a platform database from before (version 6): users rebuilt keeping rows, sessions, tokens and indexes; no id of a deleted user given again',
  { skip: testDatabaseUrl() ? 'SQLite files only: a PostgreSQL identity never goes back' : false },
  async (t) => {
    const dataDir = t.testdir();
    const file = platformFile(dataDir);
    const old = new Database(file);
    for (const m of migrationsOf('platform').slice(0, 6)) old.exec(m.sql);
    old.pragma('user_version = 6');
    const at = '2026-11-01T09:00:00.000Z';
    old
      .prepare('insert into organisations (id, created_at, trial_days, trial_ends_at, early_access) values (?, ?, 30, ?, 0)')
      .run('0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10', at, at);
    const user = old.prepare(
      'insert into users (id, email, full_name, organisation_id, password_hash, is_admin, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const [id, email, admin] of [
      [1, 'root@old.test', 1],
      [2, 'jo@old.test', 0],
      [3, 'sam@old.test', 0],
      [4, 'kim@old.test', 0],
    ] as const)
      user.run(id, email, email, '0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10', 'x', admin, at, at);
    old
      .prepare(
        'insert into sessions (id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, created_at, impersonated_by) values (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run('ses_1', 2, 'ah', at, 'rh', at, at, null);
    old.prepare("insert into user_tokens (token_hash, user_id, purpose, created_at, expires_at) values ('th', 3, 'verify_email', ?, ?)").run(at, at);
    // Users 5 and 4 were deleted (the audit log says so, as every deletion does); 4 has been handed to kim already, 5 must not be again.
    old
      .prepare(
        "insert into audit_log (admin_id, admin_email, action, entity_type, entity_id, details, created_at) values (1, 'root@old.test', 'USER_DELETED', 'user', '5', '{}', ?)",
      )
      .run(at);
    old.close();

    const store = await openStore(dataDir, { create: false });
    t.teardown(() => store.close());
    const db = store.platform.db;
    t.same(
      (await db.selectFrom('users').select(['id', 'email', 'is_admin']).orderBy('id').execute()).map((u) => [u.id, u.email, u.is_admin]),
      [
        [1, 'root@old.test', 1],
        [2, 'jo@old.test', 0],
        [3, 'sam@old.test', 0],
        [4, 'kim@old.test', 0],
      ],
      'every user kept',
    );
    t.equal((await db.selectFrom('sessions').select('user_id').executeTakeFirstOrThrow()).user_id, 2, 'the session kept');
    t.equal((await db.selectFrom('user_tokens').select('user_id').executeTakeFirstOrThrow()).user_id, 3, 'the token kept');

    const made = await store.platform.write((trx) =>
      insertUser(trx, fixedClock(start), {
        organisationId: '0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10',
        email: 'new@old.test',
        fullName: 'New',
        passwordHash: 'x',
        isAdmin: false,
      }),
    );
    t.equal(made.id, 6, 'past 5, the highest id the audit log names');
    await store.platform.write((trx) => trx.deleteFrom('users').where('id', '=', 6).execute());
    const next = await store.platform.write((trx) =>
      insertUser(trx, fixedClock(start), {
        organisationId: '0b6f3c1e-3f7a-4c1d-9a57-2d4f6e8b9c10',
        email: 'next@old.test',
        fullName: 'Next',
        passwordHash: 'x',
        isAdmin: false,
      }),
    );
    t.equal(next.id, 7, 'and 6, deleted, is not given again');
    await store.close();

    const check = new Database(file, { readonly: true });
    t.teardown(() => check.close());
    t.same(check.pragma('foreign_key_check'), [], 'every reference holds');
    t.match(String((check.prepare("select sql from sqlite_master where name = 'users'").get() as { sql: string }).sql), /AUTOINCREMENT/);
    t.same(
      (
        check
          .prepare(
            "select name from sqlite_master where type = 'index' and sql is not null and tbl_name in ('users', 'sessions', 'user_tokens', 'login_challenges') order by name",
          )
          .all() as { name: string }[]
      ).map((r) => r.name),
      ['sessions_by_user', 'user_tokens_by_user', 'users_by_organisation'],
      'the indexes there were',
    );
    t.same(
      (check.prepare('select "table" as t from pragma_foreign_key_list(\'sessions\')').all() as { t: string }[]).map((r) => r.t),
      ['users'],
      'sessions still reference users',
    );
  },
);

t.test(
  'acct migrate-store: the copy gives no deleted user id again either',
  { skip: testDatabaseUrl() ? false : 'needs ACCT_TEST_DATABASE_URL' },
  async (t) => {
    const dir = t.testdir();
    const url = freshDatabaseUrl(testDatabaseUrl()!);
    t.teardown(() => dropSchemas(url));
    const clock = fixedClock(start);
    const sqlite = SqliteStore.open(dir);
    const { organisationId } = await createOrganisation(sqlite, clock, { name: 'Old Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
    const user = (email: string) =>
      sqlite.platform.write((trx) => insertUser(trx, clock, { organisationId, email, fullName: email, passwordHash: 'x', isAdmin: false }));
    await user('one@old.test');
    const two = await user('two@old.test');
    await sqlite.platform.write((trx) => trx.deleteFrom('users').where('id', '=', two.id).execute());
    await sqlite.close();

    const copied = await runCliInProcess(['migrate-store', '--from', `sqlite:${dir}`, '--to', url]);
    t.equal(copied.status, 0, copied.stderr);
    const pg = await PostgresStore.open(dir, url, { create: false });
    t.teardown(() => pg.close());
    const next = await pg.platform.write((trx) =>
      insertUser(trx, clock, { organisationId, email: 'three@old.test', fullName: 'Three', passwordHash: 'x', isAdmin: false }),
    );
    t.equal(next.id, two.id + 1, `past ${two.id}, deleted before the copy`);
  },
);
