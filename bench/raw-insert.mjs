// The floor for an import: better-sqlite3 inserting the journal's rows into
// an organisation database (same schema and indexes) in one transaction,
// with prepared statements and no checks.
import fs from 'node:fs';
import readline from 'node:readline';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const [file, journal] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const ids = new Map(db.prepare('select code, id from accounts').all().map((r) => [r.code, r.id]));
const now = new Date().toISOString();
const txn = db.prepare(`insert into transactions (id, date, description, reference, source_type, source_id, status, is_reconciled, reconciled_at,
  created_by, created_by_name, total_debit, account_codes, created_at, updated_at) values (?, ?, ?, ?, 'import', 'raw', 'posted', 0, null, 'bench', 'bench', ?, ?, ?, ?)`);
const line = db.prepare(`insert into lines (id, transaction_id, line_no, account_id, contact_id, amount, description, vat_rate, vat_treatment, vat_amount, date, posted)
  values (?, ?, ?, ?, null, ?, null, ?, ?, null, ?, 1)`);
db.exec('begin immediate');
const input = readline.createInterface({ input: fs.createReadStream(journal), crlfDelay: Infinity });
for await (const text of input) {
  const e = JSON.parse(text);
  const id = `txn_${randomUUID()}`;
  txn.run(id, e.date, e.description, e.reference, e.lines.reduce((s, l) => s + Math.max(l.amount, 0), 0), e.lines.map((l) => l.accountCode).join(','), now, now);
  e.lines.forEach((l, i) => line.run(`line_${randomUUID()}`, id, i + 1, ids.get(l.accountCode), l.amount, l.vatRate ?? null, l.vatTreatment ?? null, e.date));
}
db.exec('commit');
db.close();
