// Start-up for small books: a fresh `acct report` on a 10,000-transaction
// ledger against ledger-cli's `bal` on the same books (exported with
// `acct export --format hledger`), and `acct --version` against `node -e 0`.
// At this size a report is start-up bound, so the figures say how long acct
// takes to begin rather than how fast it sums.
//
// Runs are paired (A B A B …) and each pair gives one ratio, so that a
// machine whose speed drifts during the run still gives a fair ratio; the
// figure is the median pair. Prints the table and appends it to
// bench/results/<date>-startup.md.
//
// Usage: npm run bench:startup -- [--runs N] [--size 10k] [--work DIR]
// (ledger: apt-get install -y ledger). The books are built once and kept
// under the work folder (default os.tmpdir()/acct-bench-startup/<size>).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSize, writeJournal } from './generate.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const acctBin = path.join(root, 'bin/acct');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizeText = arg('size', '10k');
const size = parseSize(sizeText);
const runs = Number(arg('runs', '15'));
const work = arg('work', path.join(os.tmpdir(), 'acct-bench-startup', sizeText));
const log = (text) => process.stderr.write(`[startup ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const acctOnce = (args) => execFileSync(process.execPath, [acctBin, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

// ---- the books, made once ----------------------------------------------------

fs.mkdirSync(work, { recursive: true });
const journalFile = path.join(work, 'journal.jsonl');
if (!fs.existsSync(journalFile)) {
  log(`generating ${size.toLocaleString('en-GB')} transactions`);
  writeJournal(`${journalFile}.part`, size);
  fs.renameSync(`${journalFile}.part`, journalFile);
}
const firstDate = JSON.parse(execFileSync('head', ['-n', '1', journalFile], { encoding: 'utf8' })).date;
const lastDate = JSON.parse(execFileSync('tail', ['-n', '1', journalFile], { encoding: 'utf8' })).date;
const books = path.join(work, 'books');
if (!fs.existsSync(books)) {
  log('making the books: init, then import journal');
  const part = `${books}.part`;
  fs.rmSync(part, { recursive: true, force: true });
  acctOnce(['--data', part, 'init', '--name', 'Bench Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard', '--yes', '--json']);
  acctOnce(['--data', part, 'import', 'journal', journalFile]);
  fs.renameSync(part, books);
}
const exported = path.join(work, 'books.journal');
if (!fs.existsSync(exported)) {
  log('exporting the journal for ledger');
  fs.writeFileSync(`${exported}.part`, acctOnce(['--data', books, 'export', '--format', 'hledger']));
  fs.renameSync(`${exported}.part`, exported);
}

// ---- measuring -----------------------------------------------------------------

const devNull = fs.openSync('/dev/null', 'w');
function once([cmd, args]) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', devNull, 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-1000)}`);
  return ms;
}

/** Paired runs after one warm-up of each: medians of A and B and the median of the pairs' A/B. */
function paired(a, b) {
  once(a);
  once(b);
  const as = [];
  const bs = [];
  const ratios = [];
  for (let i = 0; i < runs; i++) {
    const ta = once(a);
    const tb = once(b);
    as.push(ta);
    bs.push(tb);
    ratios.push(ta / tb);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

const hasLedger = spawnSync('sh', ['-c', 'command -v ledger']).status === 0;
const ledger = (...args) => ['ledger', ['-f', exported, ...args]];
const acct = (...args) => [process.execPath, [acctBin, '--data', books, ...args]];

const reports = [
  ['trial balance', acct('report', 'trial-balance', '--as-of', lastDate), ledger('bal')],
  ['balance sheet', acct('report', 'balance-sheet', '--as-of', lastDate), ledger('bal', '^assets', '^liabilities', '^equity')],
  ['profit and loss', acct('report', 'profit-loss', '--from', firstDate, '--to', lastDate), ledger('bal', '^revenues', '^expenses')],
];

const rows = [];
const ms = (x) => `${x.toFixed(1)} ms`;
for (const [name, a, b] of reports) {
  const shown = `\`acct ${a[1].slice(3).join(' ')}\``;
  if (!hasLedger) {
    log(`${name}: ledger is not installed (apt-get install -y ledger)`);
    continue;
  }
  log(`${name}: ${runs} pairs`);
  const r = paired(a, b);
  const faster = 1 / r.ratio;
  rows.push([`${name}, ${shown}`, ms(r.a), `\`ledger ${b[1].slice(2).join(' ')}\` ${ms(r.b)}`, `${faster.toFixed(2)}×`, '≥ 1.5× (ledger ÷ acct)', faster >= 1.5 ? 'yes' : '**no**']);
}
log(`--version: ${runs} pairs`);
const v = paired([process.execPath, [acctBin, '--version']], [process.execPath, ['-e', '0']]);
rows.push(['`acct --version`', ms(v.a), `\`node -e 0\` ${ms(v.b)}`, `${v.ratio.toFixed(2)}×`, '≤ 1.2× (acct ÷ node)', v.ratio <= 1.2 ? 'yes' : '**no**']);

// ---- the results -----------------------------------------------------------------

const now = new Date();
const transactions = size.toLocaleString('en-GB');
const ledgerVersion = hasLedger ? execFileSync('ledger', ['--version'], { encoding: 'utf8' }).split('\n')[0].trim() : 'ledger not installed';
const table = [
  `## \`npm run bench:startup\`, ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `${transactions} transactions (${firstDate} to ${lastDate}), tables written to /dev/null; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)} at the end; Node ${process.version}, ${ledgerVersion}. Each row: one warm-up each, then ${runs} pairs run in turn (A B A B …); times are medians, the ratio is the median pair's.`,
  '',
  '| figure | acct | reference, same run | ratio | target | met |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
].join('\n');
process.stdout.write(`${table}\n`);
const resultsFile = path.join(root, 'bench/results', `${now.toISOString().slice(0, 10)}-startup.md`);
if (!fs.existsSync(resultsFile)) fs.writeFileSync(resultsFile, `# Start-up benchmark, ${now.toISOString().slice(0, 10)}\n\nReproduce: \`npm run build && npm run bench:startup\` (see the top of bench/startup.mjs).\n\n`);
fs.appendFileSync(resultsFile, `${table}\n`);
log(`appended to ${path.relative(root, resultsFile)}`);
