/**
 * Migration 0019 on an organisation database made before it: ledger_totals
 * starts at the sum of the transactions already there (drafts included),
 * and its triggers follow inserts, changes and deletions from then on.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { migrate, migrationsOf } from '../../src/store/migrate.js';

t.test('0019 backfills the books total debit and keeps it with triggers', async (t) => {
  const db = new Database(path.join(t.testdir(), 'live.sqlite'));
  t.teardown(() => db.close());
  db.pragma('foreign_keys = ON');
  const earlier = migrationsOf('org').filter((m) => m.version < 19);
  t.equal(earlier.length, 18, 'a database at 0018');
  for (const m of earlier) db.exec(m.sql);
  db.pragma(`user_version = ${earlier.length}`);
  const insert = db.prepare(
    `INSERT INTO transactions (id, date, description, source_type, status, is_reconciled, created_by, created_by_name, total_debit, account_codes, created_at, updated_at)
     VALUES (?, '2026-01-05', 'Before 0019', 'manual', ?, 0, 'cli', 'test', ?, '5100,1200', '2026-01-05T00:00:00.000Z', '2026-01-05T00:00:00.000Z')`,
  );
  insert.run('txn_1', 'posted', 12_345);
  insert.run('txn_2', 'draft', 655);

  migrate(db, 'org');
  const total = () => (db.prepare('SELECT total_debit AS n FROM ledger_totals WHERE id = 1').get() as { n: number }).n;
  // 12,345p posted + 655p in a draft = 13,000p.
  t.equal(total(), 13_000, 'backfilled from the transactions already there');
  insert.run('txn_3', 'posted', 1_000);
  t.equal(total(), 14_000, 'an insert adds its debits: 13,000p + 1,000p');
  db.prepare("UPDATE transactions SET total_debit = 155 WHERE id = 'txn_2'").run();
  t.equal(total(), 13_500, 'a changed draft moves it: 14,000p − 655p + 155p');
  db.prepare("DELETE FROM transactions WHERE id = 'txn_1'").run();
  t.equal(total(), 1_155, 'a deletion takes its debits out: 13,500p − 12,345p');
});
