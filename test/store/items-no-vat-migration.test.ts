/**
 * Migration 0016 on an organisation database made before it: document_items
 * is rebuilt so that a line may have no VAT rate (vat_rate_name NULL, for a
 * sale of a business not registered for VAT); the lines already there keep
 * every column, the rate names stay checked, and both indexes are back.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { migrate, migrationsOf } from '../../src/store/migrate.js';

const columns =
  'id, document_id, position, description, quantity, unit_price, vat_rate_name, vat_rate, net, vat_amount, line_total, account_id, source_item_id';

t.test('0016 keeps the lines, allows no rate, and still refuses an unknown one', async (t) => {
  const db = new Database(path.join(t.testdir(), 'live.sqlite'));
  t.teardown(() => db.close());
  // As the store opens an organisation database.
  db.pragma('foreign_keys = ON');
  const earlier = migrationsOf('org').filter((m) => m.version < 16);
  t.equal(earlier.length, 15, 'a database at 0015');
  for (const m of earlier) db.exec(m.sql);
  db.pragma(`user_version = ${earlier.length}`);
  db.prepare(
    "INSERT INTO accounts (id, code, name, account_type, created_at, updated_at) VALUES ('acc_4000', '4000', 'Sales', 'revenue', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')",
  ).run();
  const insert = db.prepare(`INSERT INTO document_items (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const rows = [
    ['line_1', 'inv_1', 1, 'Consulting', 1.5, 50_000, 'standard', 20, 75_000, 15_000, 90_000, 'acc_4000', null],
    ['line_2', 'cn_1', 1, 'Consulting', 1, 10_000, 'reduced', 5, 10_000, 500, 10_500, 'acc_4000', 'line_1'],
  ] as const;
  for (const row of rows) insert.run(...row);
  t.throws(
    () => insert.run('line_3', 'inv_2', 1, 'Design', 1, 100, null, 0, 100, 0, 100, null, null),
    /NOT NULL constraint failed/,
    'before: a rate is needed',
  );

  migrate(db, 'org');
  t.equal(db.pragma('user_version', { simple: true }), migrationsOf('org').length);
  const kept = db.prepare(`SELECT ${columns} FROM document_items ORDER BY id`).raw().all();
  t.same(kept, rows, 'every line kept, column for column');
  insert.run('line_3', 'inv_2', 1, 'Design', 1, 100, null, 0, 100, 0, 100, null, null);
  t.same(db.prepare("SELECT vat_rate_name AS name, vat_rate AS rate FROM document_items WHERE id = 'line_3'").get(), { name: null, rate: 0 }, 'after: no rate');
  t.throws(
    () => insert.run('line_4', 'inv_2', 2, 'Design', 1, 100, 'none', 0, 100, 0, 100, null, null),
    /CHECK constraint failed/,
    'an unknown name is refused',
  );
  t.same(db.pragma('foreign_key_check'), [], 'references intact');
  t.throws(
    () => insert.run('line_5', 'inv_2', 3, 'Design', 1, 100, null, 0, 100, 0, 100, 'acc_none', null),
    /FOREIGN KEY constraint failed/,
    'account_id still references accounts',
  );
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'document_items' AND sql IS NOT NULL ORDER BY name").all();
  t.same(indexes, [{ name: 'document_items_by_document' }, { name: 'document_items_by_source' }]);
});
