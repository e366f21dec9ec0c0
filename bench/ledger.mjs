// The account-ledger benchmark: `acct ledger 1200` on an account with N
// lines (default 1,000,000), as CSV, JSON and a table, each into /dev/null,
// beside the floor measured in the same run: sqlite3 printing the same lines
// as CSV straight from the organisation's file (no running balance), when
// sqlite3 is installed. Target (issue 19): a million lines print in under
// 3 s as CSV.
//
// Usage: node bench/ledger.mjs [--lines N] [--runs R] [--work DIR]
//
// The books are made once per size in DIR/<N> (default
// os.tmpdir()/acct-bench-ledger/<N>): a journal of N two-line transactions
// (bank 1200 against sales 4000 or expenses 5000), imported with
// `acct import journal` (not timed). Figures are medians of R runs (default
// 3). Appends the table to bench/results/<date>-ledger.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const acctBin = path.join(root, 'bin/acct');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const lines = Number(arg('lines', '1000000'));
const runs = Number(arg('runs', '3'));
const work = path.join(arg('work', path.join(os.tmpdir(), 'acct-bench-ledger')), String(lines));
const log = (text) => process.stderr.write(`[bench-ledger ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

function acct(args, options = {}) {
  const r = spawnSync(process.execPath, [acctBin, '--data', path.join(work, 'data'), ...args], { encoding: 'utf8', maxBuffer: 1 << 30, ...options });
  if (r.status !== 0) throw new Error(`acct ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Made once: an organisation whose bank account has `lines` posted lines. */
function prepare() {
  const done = path.join(work, 'ready');
  if (fs.existsSync(done)) return;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  acct(['init', '--name', 'Ledger Bench Ltd', '--business-type', 'limited_company', '--vat-scheme', 'not_registered', '--yes']);
  const journal = path.join(work, 'journal.jsonl');
  const fd = fs.openSync(journal, 'w');
  const day0 = Date.UTC(2019, 3, 6);
  let buffer = [];
  for (let i = 0; i < lines; i++) {
    const date = new Date(day0 + Math.floor((i / lines) * 6 * 365) * 86_400_000).toISOString().slice(0, 10);
    const amount = 100 + ((i * 7919) % 250_000);
    const sale = i % 3 !== 0;
    buffer.push(
      JSON.stringify({
        date,
        description: sale ? `Receipt ${i}` : `Supplier payment ${i}`,
        reference: `R${i}`,
        lines: sale
          ? [
              { accountCode: '1200', amount },
              { accountCode: '4000', amount: -amount },
            ]
          : [
              { accountCode: '5000', amount },
              { accountCode: '1200', amount: -amount },
            ],
      }),
    );
    if (buffer.length === 10_000) {
      fs.writeSync(fd, `${buffer.join('\n')}\n`);
      buffer = [];
    }
  }
  if (buffer.length > 0) fs.writeSync(fd, `${buffer.join('\n')}\n`);
  fs.closeSync(fd);
  log(`importing ${lines.toLocaleString('en-GB')} transactions (once for this size)`);
  acct(['import', 'journal', journal]);
  fs.writeFileSync(done, '');
}

function timed(command, args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { stdio: ['ignore', fs.openSync('/dev/null', 'w'), 'pipe'], encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

prepare();
// The count is checked once: every line of the account, plus the header and the opening row.
const printed = acct(['ledger', '1200', '--csv']).split('\n').length - 1;
if (printed !== lines + 2) throw new Error(`acct ledger 1200 --csv printed ${printed} lines, not ${lines + 2}`);

const orgId = fs.readdirSync(path.join(work, 'data', 'orgs')).find((d) => /^[0-9a-f-]{36}$/.test(d));
const liveFile = orgId ? path.join(work, 'data', 'orgs', orgId, 'live.sqlite') : undefined;
const hasSqlite = spawnSync('sqlite3', ['-version']).status === 0;
const steps = [
  ['`acct ledger 1200 --csv`', () => timed(process.execPath, [acctBin, '--data', path.join(work, 'data'), 'ledger', '1200', '--csv'])],
  ['`acct --json ledger 1200`', () => timed(process.execPath, [acctBin, '--data', path.join(work, 'data'), '--json', 'ledger', '1200'])],
  ['`acct ledger 1200` (table)', () => timed(process.execPath, [acctBin, '--data', path.join(work, 'data'), 'ledger', '1200'])],
];
if (hasSqlite && liveFile && fs.existsSync(liveFile)) {
  const sql =
    "select l.date, coalesce(l.description, t.description), t.reference, l.amount from lines l join transactions t on t.id = l.transaction_id join accounts a on a.id = l.account_id where a.code = '1200' and l.posted = 1 order by l.date, t.created_at, t.id, l.line_no";
  steps.push(['`sqlite3 -csv` of the same lines (floor)', () => timed('sqlite3', ['-readonly', '-csv', liveFile, sql])]);
}
const rows = [];
for (const [step, run] of steps) {
  const times = Array.from({ length: runs }, () => run());
  rows.push({ step, seconds: median(times) });
  log(`${step}: ${median(times).toFixed(2)} s`);
}
const floor = rows.find((r) => r.step.includes('sqlite3'));
const table =
  '| step | wall (median) | lines/s | vs sqlite3 | target |\n|---|---:|---:|---:|---|\n' +
  rows
    .map(
      (r) =>
        `| ${r.step} | ${r.seconds.toFixed(2)} s | ${Math.round(lines / r.seconds).toLocaleString('en-GB')} | ${floor ? `${(r.seconds / floor.seconds).toFixed(1)}×` : '—'} | ${r.step.includes('--csv') && lines >= 1e6 ? `< 3 s at ${lines.toLocaleString('en-GB')}: ${r.seconds < 3 ? 'yes' : 'no'}` : ''} |`,
    )
    .join('\n') +
  '\n';
const today = new Date().toISOString().slice(0, 10);
const section =
  `\n## \`node bench/ledger.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n\n` +
  `${lines.toLocaleString('en-GB')} lines on 1200 Bank Account; ${os.cpus().length} shared cores, load average ${os.loadavg()[0].toFixed(2)}; Node ${process.version}; medians of ${runs} runs, output to /dev/null.\n\n` +
  table;
const mdFile = path.join(root, 'bench/results', `${today}-ledger.md`);
if (!fs.existsSync(mdFile)) fs.writeFileSync(mdFile, `# Account ledger benchmark, ${today}\n\nReproduce: \`npm run build && node bench/ledger.mjs\` (see the top of bench/ledger.mjs).\n`);
fs.appendFileSync(mdFile, section);
process.stdout.write(section);
