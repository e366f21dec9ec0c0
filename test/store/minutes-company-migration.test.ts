/**
 * Migration 0036 on an organisation database made before it: board minutes
 * gain the company's name and number at the meeting. Minutes with dividends
 * declared under them take those the first dividend was declared with (0031
 * keeps them on the dividend); minutes with none take the company's as it
 * stands, the best there is.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { migrate, migrationsOf } from '../../src/store/migrate.js';

const at = '2026-05-01T10:00:00.000Z';

t.test('0036 gives earlier minutes the company of their first dividend, else the company as it stands', async (t) => {
  const db = new Database(path.join(t.testdir(), 'live.sqlite'));
  t.teardown(() => db.close());
  db.pragma('foreign_keys = ON');
  const earlier = migrationsOf('org').filter((m) => m.version < 36);
  t.equal(earlier.length, 35, 'a database at 0035');
  for (const m of earlier) db.exec(m.sql);
  db.pragma(`user_version = ${earlier.length}`);
  // The company has been renamed since BR-2026-001's dividends were declared.
  db.prepare(
    `INSERT INTO organisation (id, name, business_type, company_number, country, currency, vat_scheme, fiscal_year_start, invoice_prefix,
       invoice_next_number, quote_prefix, quote_next_number, default_payment_terms, quote_validity_days, created_at, updated_at)
     VALUES ('org_1', 'Renamed Widgets Ltd', 'limited_company', 'SC123456', 'GB', 'GBP', 'not_registered', '04-01', 'INV-', 1, 'QUO-', 1, 30, 30, ?, ?)`,
  ).run(at, at);
  db.prepare("INSERT INTO directors (id, full_name, created_at, updated_at) VALUES ('dir_1', 'Jo Bloggs', ?, ?)").run(at, at);
  const minutes = db.prepare(
    `INSERT INTO board_minutes (id, resolution_ref, date, financial_year_end, attendees_json, chair_id, retained_profit, total_dividend, created_at)
     VALUES (?, ?, '2026-05-01', '2026-03-31', '["dir_1"]', 'dir_1', 750000, 100000, ?)`,
  );
  minutes.run('bm_1', 'BR-2026-001', at);
  minutes.run('bm_2', 'BR-2026-002', at);
  const dividend = db.prepare(
    `INSERT INTO dividends (id, voucher_number, director_id, board_minutes_id, amount, share_class, shares_held, date_declared, payment_method, status,
       financial_year_end, created_at, updated_at, shareholder_name, company_name, company_number)
     VALUES (?, ?, 'dir_1', 'bm_1', 60000, 'Ordinary', 60, '2026-05-01', 'bank_transfer', 'declared', '2026-03-31', ?, ?, 'Jo Bloggs', ?, ?)`,
  );
  dividend.run('div_1', 'DIV-0001', '2026-05-01T10:00:00.000Z', at, 'Acme Widgets Ltd', '01234567');
  dividend.run('div_2', 'DIV-0002', '2026-05-02T10:00:00.000Z', at, 'Later Name Ltd', '07654321');

  migrate(db, 'org');
  t.equal(db.pragma('user_version', { simple: true }), migrationsOf('org').length);
  t.same(db.prepare('SELECT id, company_name, company_number FROM board_minutes ORDER BY id').all(), [
    { id: 'bm_1', company_name: 'Acme Widgets Ltd', company_number: '01234567' },
    { id: 'bm_2', company_name: 'Renamed Widgets Ltd', company_number: 'SC123456' },
  ]);
});
