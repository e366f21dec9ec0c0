/** acct admin create-user: a user of the organisation who can then log in over HTTP; --admin sets is_admin. */
import t from 'tap';
import { newBooks, runCliInProcess, serveBooks } from '../helpers/index.js';
import { expectError } from '../http/support.js';

t.test('acct admin create-user makes a user (an administrator with --admin) who can log in', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const r = await runCliInProcess([
    '--data',
    books.dataDir,
    'admin',
    'create-user',
    '--email',
    'Root@Example.com',
    '--password',
    'a long passphrase',
    '--admin',
  ]);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^Created administrator root@example\.com \(id usr_1\) of organisation /);
  const json = await runCliInProcess([
    '--data',
    books.dataDir,
    '--json',
    'admin',
    'create-user',
    '--email',
    'sam@example.com',
    '--password',
    'another passphrase',
    '--full-name',
    'Sam Smith',
  ]);
  t.equal(json.status, 0, json.stderr);
  t.same(JSON.parse(json.stdout), { id: 'usr_2', username: 'sam@example.com', email: 'sam@example.com', fullName: 'Sam Smith', isAdmin: false });

  const api = await serveBooks(t, books);
  const login = await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'root@example.com', password: 'a long passphrase' } });
  t.equal(login.status, 200);
  t.match(login.body.data.user, { id: 'usr_1', fullName: 'Root', isAdmin: true });
  const me = await api.request('GET', '/v1/auth/me', { key: login.body.data.accessToken });
  t.equal(me.body.data.organisation.id, books.organisationId, 'of the organisation of the data directory');
  const audit = await api.request('GET', '/v1/admin/audit-log', { key: login.body.data.accessToken });
  t.match(
    audit.body.data,
    [
      {
        action: 'USER_CREATED',
        entityId: '2',
        adminId: null,
        adminEmail: /^local:/,
        userAgent: 'acct CLI',
        details: { email: 'sam@example.com', role: 'user' },
      },
      { action: 'USER_CREATED', entityId: '1', details: { email: 'root@example.com', role: 'admin' } },
    ],
    'each user made is in the audit log, newest first',
  );
  expectError(
    t,
    await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'sam@example.com', password: 'a long passphrase' } }),
    401,
    'unauthorized',
  );
});

t.test('a taken address (exit 4) and a short password (exit 2) are refused and write nothing', async (t) => {
  const books = await newBooks(t);
  t.equal((await runCliInProcess(['--data', books.dataDir, 'admin', 'create-user', '--email', 'jo@example.com', '--password', 'a long passphrase'])).status, 0);
  const taken = await runCliInProcess(['--data', books.dataDir, 'admin', 'create-user', '--email', 'JO@example.com', '--password', 'a long passphrase']);
  t.equal(taken.status, 4);
  t.match(taken.stderr, /already exists/);
  const short = await runCliInProcess(['--data', books.dataDir, 'admin', 'create-user', '--email', 'kim@example.com', '--password', 'short']);
  t.equal(short.status, 2);
  t.match(short.stderr, /--password/);
  t.equal((await books.store.platform.db.selectFrom('users').select('id').execute()).length, 1);
});
