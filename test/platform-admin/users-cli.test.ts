/**
 * acct users … and acct admin audit-log through the commander program: the
 * local operator of the files is the administrator, and the audit log says
 * so (local:<user>, no address, the CLI as user agent).
 */
import t from 'tap';
import { newBooks, runCliInProcess } from '../helpers/index.js';
import { addUser, auditRows } from './support.js';

t.test('acct users list, suspend and unlock; acct admin audit-log shows what the operator did', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const jo = await addUser(books, 'jo@example.com', { fullName: 'Jo Bloggs' });
  await addUser(books, 'sam@example.com', { fullName: 'Sam Smith' });
  const acct = (...args: string[]) => runCliInProcess(['--data', books.dataDir, ...args]);

  const list = await acct('--json', 'users', 'list');
  t.equal(list.status, 0, list.stderr);
  t.same(
    (JSON.parse(list.stdout) as { email: string }[]).map((u) => u.email),
    ['sam@example.com', 'jo@example.com'],
    'every page, as one array',
  );
  const onePage = await acct('--json', 'users', 'list', '--per-page', '1', '--page', '2');
  t.same(JSON.parse(onePage.stdout).meta, { page: 2, perPage: 1, total: 2, pages: 2 }, 'one page asked for: with its meta');
  const table = await acct('users', 'list', '--search', 'bloggs');
  t.match(table.stdout, /jo@example\.com/);
  t.notMatch(table.stdout, /sam@example\.com/);

  const suspended = await acct('--json', 'users', 'suspend', `usr_${jo}`, '--reason', 'chargeback');
  t.equal(suspended.status, 0, suspended.stderr);
  t.match(JSON.parse(suspended.stdout), { id: `usr_${jo}`, status: 'suspended' });
  const again = await acct('users', 'suspend', String(jo));
  t.equal(again.status, 4, 'a conflict exits 4');
  t.match(again.stderr, /already suspended/);
  t.equal((await acct('users', 'unsuspend', String(jo))).status, 0, 'the bare id of earlier clients is taken too');

  const rows = await auditRows(books);
  t.equal(rows.length, 2, 'two changes, two rows; the refusal none');
  t.match(rows[0], { action: 'USER_SUSPENDED', admin_id: null, admin_email: /^local:/, ip_address: null, user_agent: 'acct CLI' });
  t.match(JSON.parse(rows[0]!.details), { request: { method: 'POST', path: 'acct users suspend' }, reason: 'chargeback' });

  const log = await acct('--json', 'admin', 'audit-log');
  t.equal(log.status, 0, log.stderr);
  t.same(
    (JSON.parse(log.stdout) as { action: string }[]).map((e) => e.action),
    ['USER_UNSUSPENDED', 'USER_SUSPENDED'],
    'newest first',
  );
  const missing = await acct('users', 'get', '99');
  t.equal(missing.status, 3, 'not found exits 3');
  const missingUsr = await acct('users', 'get', 'usr_99');
  t.equal(missingUsr.status, 3, 'usr_99: not found exits 3');
  t.match(missingUsr.stderr, /user usr_99 not found/);
  const malformed = await acct('users', 'get', 'usr_x');
  t.not(malformed.status, 0, 'a malformed id is refused');
  t.match(malformed.stderr, /invalid_id|must be a user id/);
});
