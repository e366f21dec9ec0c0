/**
 * Migration 0013 on an organisation database made before it: the expense
 * accounts coded exactly four digits from 5000 to 5099 become cost of sales,
 * so existing books keep their gross profit; '501', which sorted among them
 * as text, does not.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { migrate, migrationsOf } from '../../src/store/migrate.js';

t.test('0013 marks expense accounts 5000 to 5099, and no other', async (t) => {
  const db = new Database(path.join(t.testdir(), 'live.sqlite'));
  t.teardown(() => db.close());
  const earlier = migrationsOf('org').filter((m) => m.version < 13);
  t.equal(earlier.length, 12, 'a database at 0012');
  for (const m of earlier) db.exec(m.sql);
  db.pragma(`user_version = ${earlier.length}`);
  const insert = db.prepare(
    "INSERT INTO accounts (id, code, name, account_type, created_at, updated_at) VALUES (?, ?, ?, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')",
  );
  for (const [code, type] of [
    ['5000', 'expense'],
    ['501', 'expense'],
    ['5050', 'expense'],
    ['5099', 'expense'],
    ['5100', 'expense'],
    ['50500', 'expense'],
    ['500A', 'expense'],
    ['5060', 'revenue'],
  ] as const) {
    insert.run(`acc_${code}`, code, `Account ${code}`, type);
  }

  migrate(db, 'org');
  t.equal(db.pragma('user_version', { simple: true }), migrationsOf('org').length);
  const flagged = db.prepare('SELECT code FROM accounts WHERE is_cost_of_sales = 1 ORDER BY code').all() as { code: string }[];
  t.same(
    flagged.map((a) => a.code),
    ['5000', '5050', '5099'],
  );
  t.equal((db.prepare("SELECT is_cost_of_sales AS c FROM accounts WHERE code = '501'").get() as { c: number }).c, 0);
  t.throws(() => db.prepare("UPDATE accounts SET is_cost_of_sales = 2 WHERE code = '501'").run(), /CHECK constraint failed/);
});
