// A narrower probe than bench/run.mjs: the trial balance and the balance sheet over a large ledger,
// in-process through the engine (account_days) against the same sums read
// from every posted line (the aggregate the reports used before), and as a
// fresh `acct report` process. Prints medians.
// Usage: node bench/reports.mjs --data DIR [--runs 5]
//   DIR holds one organisation, loaded for example with
//   node bench/generate.mjs … and acct import journal (as bench/startup.mjs makes its books).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const data = arg('data');
if (!data) throw new Error('--data DIR is required');
const runs = Number(arg('runs', '5'));
const asOf = arg('as-of', '2030-12-31');

const { openStore } = await import(path.join(root, 'dist/store/open.js'));
const { trialBalance, balanceSheet } = await import(path.join(root, 'dist/engine/reports/statements.js'));
const { sql } = await import('kysely');

const store = await openStore(data);
const [org] = await store.platform.db.selectFrom('organisations').select('id').execute();
const books = store.org(org.id, 'live');
const lines = await sql`select count(*) as n from lines`.execute(books.db);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    ms.push(performance.now() - start);
  }
  return median(ms);
}

const fromLines = () =>
  sql`select account_id, sum(case when amount > 0 then amount else 0 end) as debit, sum(amount) as net
      from lines where posted = 1 and date <= ${asOf} group by account_id`.execute(books.db);

const results = {
  'sums over every posted line (the floor before account_days)': await time(fromLines),
  'trial balance (engine)': await time(() => trialBalance(books.db, asOf)),
  'balance sheet (engine)': await time(() => balanceSheet(books.db, asOf)),
};
await store.close();

const cli = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  const r = spawnSync(process.execPath, [path.join(root, 'bin/acct'), '--data', data, 'report', 'trial-balance', '--as-of', asOf, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  cli.push(performance.now() - start);
}
results['acct report trial-balance (fresh process)'] = median(cli);
const version = spawnSync(process.execPath, [path.join(root, 'bin/acct'), '--version'], { encoding: 'utf8' });
results['acct --version (node start-up alone)'] = await time(async () => spawnSync(process.execPath, [path.join(root, 'bin/acct'), '--version']));

console.log(`${Number(lines.rows[0].n).toLocaleString('en-GB')} lines, as of ${asOf}, median of ${runs} (acct ${version.stdout.trim()})`);
for (const [what, ms] of Object.entries(results)) console.log(`${what.padEnd(60)} ${ms.toFixed(1).padStart(8)} ms`);
