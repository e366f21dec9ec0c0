// The floor for HTTP posting: better-sqlite3 committing the same two-line
// posted transactions one by one, in a loop, on an organisation database
// (same schema, indexes and triggers, WAL, synchronous=FULL) with prepared
// statements and no checks. Prints {commits, seconds, perSecond, p50, p99}.
// Usage: node bench/raw-commits.mjs FILE SECONDS
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const [file, seconds] = process.argv.slice(2);
const db = new Database(file);
db.pragma('busy_timeout = 10000');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const ids = new Map(db.prepare('select code, id from accounts').all().map((r) => [r.code, r.id]));
const txn = db.prepare(`insert into transactions (id, date, description, reference, source_type, source_id, status, is_reconciled, reconciled_at,
  created_by, created_by_name, total_debit, account_codes, created_at, updated_at) values (?, ?, ?, null, 'manual', null, 'posted', 0, null, 'bench', 'bench', ?, ?, ?, ?)`);
const line = db.prepare(`insert into lines (id, transaction_id, line_no, account_id, contact_id, amount, description, vat_rate, vat_treatment, vat_amount, date, posted)
  values (?, ?, ?, ?, null, ?, null, null, null, null, ?, 1)`);
const begin = db.prepare('begin immediate');
const commit = db.prepare('commit');
const latencies = [];
const until = performance.now() + Number(seconds) * 1000;
const start = performance.now();
for (let i = 0; performance.now() < until; i++) {
  const t0 = performance.now();
  const id = `txn_${randomUUID()}`;
  const now = new Date().toISOString();
  const amount = 100 + (i % 10_000);
  begin.run();
  txn.run(id, '2026-01-15', `Bench sale ${i}`, amount, '1200,4000', now, now);
  line.run(`line_${randomUUID()}`, id, 1, ids.get('1200'), amount, '2026-01-15');
  line.run(`line_${randomUUID()}`, id, 2, ids.get('4000'), -amount, '2026-01-15');
  commit.run();
  latencies.push(performance.now() - t0);
}
const elapsed = (performance.now() - start) / 1000;
db.close();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ commits: latencies.length, seconds: elapsed, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) }));
