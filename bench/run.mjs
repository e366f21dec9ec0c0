// The benchmark runner: every figure of the benchmarks issue at one size,
// each beside its reference measured in the same run, with the ratio and
// the target. Prints the table and writes it to bench/results/<date>.md
// (appending, so earlier runs stay), with the figures as JSON beside it
// (bench/results/<date>-<size>.json); the newest earlier JSON of the same
// size is shown as the "previous" column, so that a regression shows.
//
// Usage: npm run bench -- [--size 10k|100k|1m] [--runs N] [--seconds S]
//        [--connections C] [--work DIR] [--only import,reports,…,idle]
//        [--database postgres://user@host:port/db] [--migrate-timeout MIN]
//
// Sections: import, reports, http-reports, general-ledger, post, get,
// startup (memory is read from the server across the HTTP sections), and
// idle (one server over 1,000 organisations: bench/idle.mjs, [--organisations
// N] [--rate R]; about two minutes, and 1,000 organisations made once).
// References not installed (ledger, hledger) are reported as such.
//
// PostgreSQL: --database postgres://user@host:port/db (a base URL, no
// ?schema) adds the second store. The section migrate-store copies the loaded
// organisation (the one the import section makes) into a fresh schema
// (b + random hex) with `acct migrate-store`, timed, its proof (row counts
// and trial balance per set of books) in the notes; the HTTP sections
// (http-reports, post, get) then run on that copy as well, each PostgreSQL
// row under its SQLite row, and POST is also loaded through two `acct serve`
// processes over the same database (two autocannon instances of half the
// connections each, at once). Every schema of the run is dropped at the end.
// --migrate-timeout MIN (default 20, 0: none) stops a copy that runs longer,
// records it as not met, with its PostgreSQL backend sampled each minute.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningUrl } from './listening.mjs';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { parseSize, writeJournal } from './generate.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const acctBin = path.join(root, 'bin/acct');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizeText = arg('size', '100k');
const size = parseSize(sizeText);
const big = size >= 500_000;
const runs = Number(arg('runs', big ? '3' : '5'));
const refRuns = big ? 1 : Math.min(runs, 3);
const seconds = Number(arg('seconds', big ? '15' : '10'));
const connections = Number(arg('connections', '32'));
const only = arg('only')?.split(',');
const database = arg('database');
if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) throw new Error(`--database: expected a postgres:// URL, not ${database}`);
const wanted = (section) => !only || only.includes(section);
/** The sections that read the generated ledger. */
const ledgerWanted = ['import', 'reports', 'general-ledger', 'http-reports', 'post', 'get', 'migrate-store'].some(wanted);
const work = arg('work', path.join(os.tmpdir(), 'acct-bench', sizeText));
fs.mkdirSync(work, { recursive: true });

const rows = [];
const notes = [];
const log = (text) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

// ---- measuring ----------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Run a command to completion: wall seconds and peak resident MB (GNU time). */
function measure(cmd, args, options = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const [s, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds: s, mb: kb / 1024, stdout: r.stdout };
}

/** Median wall time and the largest peak memory over n runs. */
function measureRuns(n, cmd, args, options) {
  const all = Array.from({ length: n }, () => measure(cmd, args, options));
  return { seconds: median(all.map((m) => m.seconds)), mb: Math.max(...all.map((m) => m.mb)), stdout: all[0].stdout };
}

const acct = (args, options) => measureRuns(runs, process.execPath, [acctBin, ...args], options);
const acctOnce = (args) => execFileSync(process.execPath, [acctBin, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });

const fmt = {
  s: (x) => (x >= 10 ? `${x.toFixed(1)} s` : x >= 1 ? `${x.toFixed(2)} s` : `${(x * 1000).toFixed(0)} ms`),
  ms: (x) => `${x.toFixed(1)} ms`,
  mb: (x) => `${x.toFixed(0)} MB`,
  rate: (x) => `${x.toFixed(0)}/s`,
};

/**
 * One row of the table. `better` says which way the ratio should go: for
 * times the ratio is acct / reference (lower is better), for rates it is
 * acct / reference as a share (higher is better).
 */
function row(figure, acctText, referenceText, ratio, target, met, value) {
  rows.push({ figure, acct: acctText, reference: referenceText, ratio, target, met, value });
  log(`${figure}: ${acctText} | ${referenceText} | ${ratio} | ${met === null ? '' : met ? 'met' : 'NOT met'}`);
}

// ---- the ledger --------------------------------------------------------

function freshOrganisation(name) {
  const data = fs.mkdtempSync(path.join(work, `${name}-`));
  const created = JSON.parse(acctOnce(['--data', data, 'init', '--name', 'Bench Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard', '--yes', '--json']));
  return { data, key: created.apiKey, organisationId: created.organisationId, file: path.join(data, 'orgs', created.organisationId, 'live.sqlite') };
}

const journalFile = path.join(work, 'journal.jsonl');
if (ledgerWanted && !fs.existsSync(journalFile)) {
  log(`generating ${size.toLocaleString('en-GB')} transactions`);
  writeJournal(`${journalFile}.part`, size);
  fs.renameSync(`${journalFile}.part`, journalFile);
}
const lastDate = ledgerWanted ? JSON.parse(execFileSync('tail', ['-n', '1', journalFile], { encoding: 'utf8' })).date : undefined;
const firstDate = ledgerWanted ? JSON.parse(execFileSync('head', ['-n', '1', journalFile], { encoding: 'utf8' })).date : undefined;

/** The loaded organisation the other sections read: made by the import section, else kept from an earlier run. */
const loadedFile = path.join(work, 'loaded.json');
let loaded = fs.existsSync(loadedFile) ? JSON.parse(fs.readFileSync(loadedFile, 'utf8')) : undefined;

if (wanted('import') || (ledgerWanted && !loaded)) {
  const importRuns = big ? 1 : Math.min(runs, 3);
  const acctTimes = [];
  const rawTimes = [];
  for (let i = 0; i < importRuns; i++) {
    const raw = freshOrganisation('raw');
    log(`raw better-sqlite3 insert, run ${i + 1} of ${importRuns}`);
    rawTimes.push(measure(process.execPath, [path.join(root, 'bench/raw-insert.mjs'), raw.file, journalFile]));
    fs.rmSync(raw.data, { recursive: true, force: true });
    const org = freshOrganisation('acct');
    log(`acct import journal, run ${i + 1} of ${importRuns}`);
    acctTimes.push(measure(process.execPath, [acctBin, '--data', org.data, 'import', 'journal', journalFile]));
    if (loaded) fs.rmSync(loaded.data, { recursive: true, force: true });
    loaded = org;
    fs.writeFileSync(loadedFile, JSON.stringify(loaded));
  }
  const a = median(acctTimes.map((m) => m.seconds));
  const r = median(rawTimes.map((m) => m.seconds));
  const mb = Math.max(...acctTimes.map((m) => m.mb));
  row(
    `import journal, ${size.toLocaleString('en-GB')} transactions (peak memory)`,
    `${fmt.s(a)} (${fmt.mb(mb)})`,
    `raw better-sqlite3 ${fmt.s(r)}`,
    `${(a / r).toFixed(2)}×`,
    '≤ 3×, ≤ 300 MB',
    a / r <= 3 && mb <= 300,
    { seconds: a, reference: r, mb },
  );
}

// ---- reports as fresh processes -----------------------------------------

const exported = path.join(work, 'export.journal');
function ensureExport() {
  if (fs.existsSync(exported) && fs.statSync(exported).mtimeMs > fs.statSync(loaded.file).mtimeMs) return;
  log('exporting the journal for ledger and hledger');
  const fd = fs.openSync(exported, 'w');
  const r = spawnSync(process.execPath, [acctBin, '--data', loaded.data, 'export', '--format', 'hledger'], { stdio: ['ignore', fd, 'inherit'] });
  fs.closeSync(fd);
  if (r.status !== 0) throw new Error('export failed');
}

/** A peer's time on the exported journal, or why there is none. */
function peer(cmd, args) {
  if (!has(cmd)) {
    if (!notes.includes(`${cmd} is not installed here, so its column is empty.`)) notes.push(`${cmd} is not installed here, so its column is empty.`);
    return { missing: `${cmd} not installed` };
  }
  ensureExport();
  try {
    return measureRuns(refRuns, cmd, ['-f', exported, ...args]);
  } catch (e) {
    return { missing: `${cmd} failed: ${String(e.message).slice(0, 200)}` };
  }
}

const reportTarget = { target: '≥ 20× faster than ledger, < 1 s, ≤ 150 MB', met: (faster, r) => faster >= 20 && r.seconds < 1 && r.mb <= 150 };

function reportRow(figure, acctResult, ledgerResult, hledgerResult, goal = reportTarget) {
  const refs = [ledgerResult.missing ?? `ledger ${fmt.s(ledgerResult.seconds)} (${fmt.mb(ledgerResult.mb)})`, hledgerResult.missing ?? `hledger ${fmt.s(hledgerResult.seconds)} (${fmt.mb(hledgerResult.mb)})`];
  const faster = ledgerResult.missing ? null : ledgerResult.seconds / acctResult.seconds;
  const hfaster = hledgerResult.missing ? null : hledgerResult.seconds / acctResult.seconds;
  row(
    figure,
    `${fmt.s(acctResult.seconds)} (${fmt.mb(acctResult.mb)})`,
    refs.join('; '),
    [faster === null ? null : `${faster.toFixed(1)}× faster than ledger`, hfaster === null ? null : `${hfaster.toFixed(1)}× than hledger`].filter(Boolean).join(', ') || '—',
    goal.target,
    faster === null ? null : goal.met(faster, acctResult),
    { seconds: acctResult.seconds, mb: acctResult.mb, ledger: ledgerResult.seconds ?? null, hledger: hledgerResult.seconds ?? null },
  );
}

const asOf = '2999-12-31';
const data = loaded ? ['--data', loaded.data] : [];
if (wanted('reports')) {
  log('reports as fresh processes');
  reportRow('trial balance, fresh `acct` process', acct([...data, '--json', 'report', 'trial-balance', '--as-of', asOf]), peer('ledger', ['bal']), peer('hledger', ['bal']));
  reportRow(
    'balance sheet, fresh `acct` process',
    acct([...data, '--json', 'report', 'balance-sheet', '--as-of', asOf]),
    peer('ledger', ['bal', '^assets', '^liabilities', '^equity']),
    peer('hledger', ['bs']),
  );
  reportRow(
    'profit and loss, fresh `acct` process',
    acct([...data, '--json', 'report', 'profit-loss', '--from', firstDate, '--to', lastDate]),
    peer('ledger', ['bal', '^revenues', '^expenses']),
    peer('hledger', ['is']),
  );
}

// ---- the general ledger of one account for one year -----------------------

if (wanted('general-ledger')) {
  const year = String(Number(lastDate.slice(0, 4)) - 1);
  const bankId = JSON.parse(acctOnce([...data, '--json', 'accounts', 'list', '--flat', 'true'])).accounts.find((a) => a.code === '1200').id;
  log(`general ledger of 1200 for ${year}`);
  const a = acct([...data, '--json', 'report', 'general-ledger', '--account-id', bankId, '--from', `${year}-01-01`, '--to', `${year}-12-31`]);
  const l = peer('ledger', ['reg', '^assets:1200', '-b', `${year}-01-01`, '-e', `${Number(year) + 1}-01-01`]);
  const h = peer('hledger', ['reg', '^assets:1200', `date:${year}`]);
  reportRow(`general ledger of the bank account for ${year}, fresh \`acct\` process`, a, l, h, { target: '≥ 25× faster than ledger', met: (faster) => faster >= 25 });
}

// ---- PostgreSQL: acct migrate-store ----------------------------------------

/** The schema prefixes this run made (each NAME and NAME_*), dropped at the end of the run. */
const madeSchemas = [];
const pgBase = () => {
  const u = new URL(database);
  u.search = '';
  return u.toString();
};
const pgAt = (schema) => {
  const u = new URL(pgBase());
  u.searchParams.set('schema', schema);
  return u.toString();
};

/** Run statements on the base database, on one connection of this process. */
async function pgClient(fn) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgBase() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dropSchemas() {
  if (madeSchemas.length === 0) return;
  await pgClient(async (client) => {
    for (const name of madeSchemas.splice(0)) {
      const { rows: found } = await client.query("select nspname from pg_namespace where nspname = $1 or starts_with(nspname, $1 || '_')", [name]);
      for (const { nspname } of found) await client.query(`drop schema "${nspname}" cascade`);
      log(`dropped the ${found.length} schemas ${name}, ${name}_*`);
    }
  });
}

const migrateWanted = wanted('migrate-store') || (database !== undefined && ['http-reports', 'post', 'get'].some(wanted));
if (wanted('migrate-store') && database === undefined) throw new Error('the migrate-store section needs --database postgres://…');
/** The copy is stopped after this many minutes (0: never), and the row says so. */
const migrateTimeout = Number(arg('migrate-timeout', '20'));

/** What the copy into `schema` is doing: its backend (found by the locks it holds on the schema's tables), its statement, and the largest tables so far. */
async function copyProgress(client, schema) {
  const { rows: backend } = await client.query(
    `select a.pid, extract(epoch from now() - a.xact_start) as xact, extract(epoch from now() - a.query_start) as statement, a.state, a.wait_event_type, a.wait_event, left(a.query, 80) as query
       from pg_stat_activity a
      where a.pid in (select l.pid from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace n on n.oid = c.relnamespace
                       where n.nspname = $1 or starts_with(n.nspname, $1 || '_'))
        and a.pid <> pg_backend_pid()`,
    [schema],
  );
  const { rows: sizes } = await client.query(
    `select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where starts_with(n.nspname, $1 || '_') and n.nspname like '%_live' and c.relkind = 'r'
        and c.relname in ('transactions', 'lines', 'account_days', 'row_counts', 'ledger_totals') order by bytes desc`,
    [schema],
  );
  return { backend: backend[0], sizes: sizes.map((s) => ({ name: s.name, mb: Number(s.bytes) / 2 ** 20 })) };
}

/**
 * Run the copy to completion (or to the timeout, when it is stopped): wall
 * seconds and peak resident MB (GNU time), its output, and a sample of its
 * progress in PostgreSQL each minute.
 */
async function measureCopy(args, schema) {
  const child = spawn('/usr/bin/time', ['-f', '%e %M', process.execPath, acctBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const started = Date.now();
  const samples = [];
  let stopped = false;
  const sample = async () => {
    try {
      samples.push({ minutes: (Date.now() - started) / 60_000, ...(await pgClient((client) => copyProgress(client, schema))) });
      const last = samples.at(-1);
      log(`copy at ${last.minutes.toFixed(1)} min: ${last.backend ? `${last.backend.query.replace(/\s+/g, ' ').slice(0, 40)}… (statement ${Number(last.backend.statement).toFixed(0)} s)` : 'no backend'}; ${last.sizes.map((s) => `${s.name} ${s.mb.toFixed(0)} MB`).join(', ')}`);
    } catch (e) {
      log(`progress sample failed: ${e.message}`);
    }
  };
  const ticker = setInterval(sample, 60_000);
  const timer =
    migrateTimeout > 0
      ? setTimeout(async () => {
          stopped = true;
          await sample();
          // The copy is the child of GNU time: stop it (time then reports), and end its backend's statement so that its schema can be dropped.
          const copyPid = Number(fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
          if (copyPid) process.kill(copyPid, 'SIGTERM');
          const pid = samples.at(-1)?.backend?.pid;
          if (pid) await pgClient((client) => client.query('select pg_terminate_backend($1)', [pid])).catch(() => {});
        }, migrateTimeout * 60_000)
      : undefined;
  const status = await new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  clearInterval(ticker);
  clearTimeout(timer);
  const [s, kb] = stderr.trim().split('\n').pop().split(' ').map(Number);
  if (status !== 0 && !stopped) throw new Error(`acct ${args.join(' ')} exited ${status}: ${stderr.slice(-2000)}\n${stdout}`);
  return { seconds: s, mb: kb / 1024, stdout, stopped, samples };
}

/** The loaded organisation's copy in PostgreSQL: its schema prefix and URL, and what the copy took. */
let copied;
try {
  if (migrateWanted) {
    const schema = `b${randomBytes(6).toString('hex')}`;
    madeSchemas.push(schema);
    const url = pgAt(schema);
    const figure = `\`acct migrate-store\` of the loaded organisation into PostgreSQL, ${size.toLocaleString('en-GB')}-transaction ledger (peak memory)`;
    const sqliteTransactions = (() => {
      const db = new Database(loaded.file, { readonly: true });
      try {
        return db.prepare('select count(*) as n from transactions').get().n;
      } finally {
        db.close();
      }
    })();
    log(`acct migrate-store of the loaded organisation (${sqliteTransactions} live transactions) into PostgreSQL, schema ${schema}${migrateTimeout > 0 ? ` (stopped if it runs past ${migrateTimeout} min)` : ''}`);
    const m = await measureCopy(['migrate-store', '--from', `sqlite:${loaded.data}`, '--to', url], schema);
    const trail = m.samples.map((p) => `${p.minutes.toFixed(0)} min: ${p.backend ? `\`${p.backend.query.replace(/\s+/g, ' ').slice(0, 30)}…\` (statement ${Number(p.backend.statement).toFixed(0)} s, transaction ${(Number(p.backend.xact) / 60).toFixed(1)} min)` : 'no backend'}; ${p.sizes.map((s) => `${s.name} ${s.mb.toFixed(0)} MB`).join(', ')}`);
    if (m.stopped) {
      row(figure, `did not finish: stopped after ${fmt.s(m.seconds)} (${fmt.mb(m.mb)})`, `${sqliteTransactions.toLocaleString('en-GB')} transactions to copy, in one PostgreSQL transaction per set of books (nothing committed when stopped)`, '—', 'exits 0, every set of books proved', false, { seconds: m.seconds, mb: m.mb, stopped: true, transactions: sqliteTransactions, samples: m.samples });
      notes.push(`\`acct migrate-store\` into schema ${schema} was stopped after ${migrateTimeout} min (--migrate-timeout). Its PostgreSQL backend, each minute (the current statement, and the size of the live books' ledger tables and the three the triggers keep, uncommitted rows and dead row versions included):\n${trail.map((t) => `  - ${t}`).join('\n')}`);
    } else {
      const proof = m.stdout.split('\n').filter((l) => /^(ok|NOT)\s/.test(l));
      if (proof.length === 0 || proof.some((l) => !l.startsWith('ok '))) throw new Error(`acct migrate-store did not prove the copy:\n${m.stdout}`);
      const rowsCopied = proof.reduce((n, l) => n + Number((/([\d,]+) rows/.exec(l)?.[1] ?? '0').replaceAll(',', '')), 0);
      const transactions = await pgClient(async (client) => Number((await client.query(`select count(*) as n from "${schema}_${loaded.organisationId.replaceAll('-', '')}_live".transactions`)).rows[0].n));
      copied = { schema, url, seconds: m.seconds, mb: m.mb, proof, rows: rowsCopied, transactions };
      log(`copied and proved in ${fmt.s(m.seconds)}: ${rowsCopied} rows, ${transactions} live transactions`);
      row(
        figure,
        `${fmt.s(m.seconds)} (${fmt.mb(m.mb)})`,
        `${rowsCopied.toLocaleString('en-GB')} rows (${transactions.toLocaleString('en-GB')} transactions) copied and proved: ${fmt.rate(rowsCopied / m.seconds)} rows, ${fmt.rate(transactions / m.seconds)} transactions`,
        '—',
        'exits 0, every set of books proved',
        true,
        { seconds: m.seconds, mb: m.mb, rows: rowsCopied, transactions, rowsPerSecond: rowsCopied / m.seconds, transactionsPerSecond: transactions / m.seconds, proof },
      );
      notes.push(
        `\`acct migrate-store --from sqlite:DIR --to 'postgres://…?schema=${schema}'\` exited 0; its proof:\n${proof.map((l) => `  - \`${l.trim()}\``).join('\n')}` +
          (trail.length > 0 ? `\n  - its backend each minute: ${trail.join('; ')}` : ''),
      );
    }
  }
} catch (e) {
  await dropSchemas();
  throw e;
}

// ---- the running server ------------------------------------------------

/** `acct serve` on the loaded organisation, as its own process; its peak memory is read from /proc. */
async function startServe(dataDir, extra = []) {
  const child = spawn(process.execPath, [acctBin, '--data', dataDir, ...extra, 'serve', '--port', '0', '--no-rate-limit', '--sweep-interval', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // What the server prints on stderr (an internal error is logged there even when the response was sent) is passed on and kept for the notes.
  let errors = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    errors += chunk;
  });
  const url = await listeningUrl(child);
  const status = (field) => Number(/(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field)))[1]) / 1024;
  return {
    url,
    peakMb: () => status('VmHWM'),
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }).then(() => {
      if (errors.trim() === '') return;
      const counts = new Map();
      for (const line of errors.trim().split('\n')) if (!/^\s+at /.test(line)) counts.set(line.trim(), (counts.get(line.trim()) ?? 0) + 1);
      const lines = [...counts].slice(0, 5).map(([line, n]) => `${n} × \`${line.slice(0, 200)}\``);
      notes.push(`\`acct serve\` (${extra.includes('--database') ? 'PostgreSQL' : 'SQLite'}) printed on stderr: ${lines.join('; ')}${counts.size > 5 ? `; and ${counts.size - 5} other lines` : ''}.`);
    }),
  };
}

/** One API call on a connection of its own (no keep-alive to race the server's idle timeout); the parsed body. */
async function request(base, key, method, pathname, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/v1${pathname}`, { method, agent: false, headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks);
        if (res.statusCode >= 300) reject(new Error(`${method} ${pathname}: ${res.statusCode} ${String(text).slice(0, 300)}`));
        else resolve(text);
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
const call = async (...args) => JSON.parse(String(await request(...args)));

async function load(url, options) {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1, ...options });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${options.method ?? 'GET'} ${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { perSecond: result.requests.total / (result.duration || seconds), p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, bad };
}

const reportPaths = [
  ['trial balance', `/reports/trial-balance?asOf=${asOf}`],
  ['balance sheet', `/reports/balance-sheet?asOf=${asOf}`],
  ['profit and loss', `/reports/profit-loss?from=${firstDate}&to=${lastDate}`],
];

/** The warm p50 of each report over HTTP. */
async function reportsOver(server, key) {
  const out = [];
  for (const [figure, pathname] of reportPaths) {
    for (let i = 0; i < 3; i++) await call(server.url, key, 'GET', pathname);
    const ms = [];
    for (let i = 0; i < 21; i++) {
      const start = performance.now();
      await call(server.url, key, 'GET', pathname);
      ms.push(performance.now() - start);
    }
    out.push({ figure, p50: median(ms) });
  }
  return out;
}

/** The body the POST loads send: a posted two-line sale. */
async function postBodyOf(server, key) {
  const accounts = new Map((await call(server.url, key, 'GET', '/accounts?flat=true')).data.accounts.map((a) => [a.code, a.id]));
  return JSON.stringify({ date: '2026-01-15', description: 'Bench sale', lines: [{ accountId: accounts.get('1200'), amount: 12000 }, { accountId: accounts.get('4000'), amount: -12000 }] });
}
const postOptions = (key, body, extra = {}) => ({ method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...extra });

/** The GET loads' paths on a server: a list and one invoice (made here). */
async function getPathsOn(server, key) {
  const contact = await call(server.url, key, 'POST', '/contacts', { name: 'Bench Customer Ltd', contactType: 'customer' });
  const invoice = await call(server.url, key, 'POST', '/invoices', {
    contactId: contact.data.id,
    issueDate: '2026-01-15',
    items: [{ description: 'Consulting', quantity: 3, unitPrice: 45000, vatRate: 'standard' }],
  });
  return [
    ['GET /transactions?limit=50', '/transactions?limit=50'],
    ['GET /invoices/{id}', `/invoices/${invoice.data.id}`],
  ];
}

const httpSections = ['http-reports', 'post', 'get'].filter(wanted);
const pgFigure = (figure, what = 'PostgreSQL') => `${figure}, ${what}`;
const versus = (pg, sqlite) => `${((pg / sqlite) * 100).toFixed(0)}% of SQLite`;
if (httpSections.length > 0) {
  const key = loaded.key;
  const sqlite = {};
  const pgResult = {};
  let pgData;
  try {
    // ---- SQLite: the loaded organisation's files
    // The raw commit loop writes into a copy of the same organisation, so that both write into indexes of the same size.
    const floorFile = path.join(work, 'floor.sqlite');
    if (wanted('post')) fs.copyFileSync(loaded.file, floorFile);
    const server = await startServe(loaded.data);
    try {
      if (wanted('http-reports')) {
        log('reports in the running server, SQLite');
        sqlite.reports = await reportsOver(server, key);
      }
      if (wanted('post')) {
        log(`POST /transactions, SQLite, ${connections} connections, ${seconds} s`);
        sqlite.post = await load(`${server.url}/v1/transactions`, postOptions(key, await postBodyOf(server, key)));
        log(`raw better-sqlite3 commit loop, ${seconds} s, on a copy of the organisation`);
        sqlite.floor = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/raw-commits.mjs'), floorFile, String(seconds)], { encoding: 'utf8' }));
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${floorFile}${suffix}`, { force: true });
      }
      if (wanted('get')) {
        sqlite.gets = [];
        for (const [figure, pathname] of await getPathsOn(server, key)) {
          log(`${figure}, SQLite, ${connections} connections, ${seconds} s, and plain node:http`);
          const bodyFile = path.join(work, 'plain-body.json');
          fs.writeFileSync(bodyFile, await request(server.url, key, 'GET', pathname));
          const got = await load(`${server.url}/v1${pathname}`, { headers: { authorization: `Bearer ${key}` } });
          const plain = spawn(process.execPath, [path.join(root, 'bench/plain-server.mjs'), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
          const plainUrl = await new Promise((resolve) => plain.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
          const ref = await load(`${plainUrl}${pathname}`, {});
          plain.kill('SIGTERM');
          sqlite.gets.push({ figure, got, ref });
        }
      }
      sqlite.peak = server.peakMb();
    } finally {
      await server.stop();
    }

    // ---- PostgreSQL: the same organisation copied by acct migrate-store, served from a data directory of its own (with the same secret key)
    if (database !== undefined && !copied) notes.push('No PostgreSQL rows for the HTTP sections: the copy into PostgreSQL did not finish.');
    if (copied) {
      pgData = fs.mkdtempSync(path.join(work, 'pg-'));
      if (fs.existsSync(path.join(loaded.data, 'secret.key'))) fs.copyFileSync(path.join(loaded.data, 'secret.key'), path.join(pgData, 'secret.key'));
      const pgServer = await startServe(pgData, ['--database', copied.url]);
      let second;
      try {
        if (wanted('http-reports')) {
          log('reports in the running server, PostgreSQL');
          pgResult.reports = await reportsOver(pgServer, key);
        }
        if (wanted('post')) {
          const body = await postBodyOf(pgServer, key);
          log(`POST /transactions, PostgreSQL, one acct serve, ${connections} connections, ${seconds} s`);
          pgResult.post = await load(`${pgServer.url}/v1/transactions`, postOptions(key, body));
          second = await startServe(pgData, ['--database', copied.url]);
          const halves = [Math.ceil(connections / 2), Math.floor(connections / 2)];
          log(`POST /transactions, PostgreSQL, two acct serve, ${halves.join(' + ')} connections at once, ${seconds} s`);
          const both = await Promise.all([pgServer, second].map((s, i) => load(`${s.url}/v1/transactions`, postOptions(key, body, { connections: halves[i] }))));
          pgResult.post2 = {
            perSecond: both[0].perSecond + both[1].perSecond,
            each: both.map((b) => b.perSecond),
            p99: Math.max(...both.map((b) => b.p99)),
            total: both[0].total + both[1].total,
            bad: both[0].bad + both[1].bad,
            halves,
          };
          pgResult.secondPeak = second.peakMb();
          await second.stop();
          second = undefined;
        }
        if (wanted('get')) {
          pgResult.gets = [];
          for (const [figure, pathname] of await getPathsOn(pgServer, key)) {
            log(`${figure}, PostgreSQL, ${connections} connections, ${seconds} s`);
            pgResult.gets.push({ figure, got: await load(`${pgServer.url}/v1${pathname}`, { headers: { authorization: `Bearer ${key}` } }) });
          }
        }
        pgResult.peak = pgServer.peakMb();
      } finally {
        if (second) await second.stop();
        await pgServer.stop();
      }
      // The servers' own account of the loads: any 5xx in the organisation's request log (written once the response is sent, so a client never sees some failures).
      const failures = await pgClient(
        async (client) =>
          (await client.query(`select status, error, count(*) as n from "${copied.schema}_${loaded.organisationId.replaceAll('-', '')}_live".request_log where status >= 500 group by 1, 2 order by 3 desc`)).rows,
      );
      pgResult.failures = failures;
      if (failures.length > 0)
        notes.push(`The PostgreSQL organisation's request log holds 5xx answers after the loads: ${failures.map((f) => `${f.n} × ${f.status} ${String(f.error ?? '').slice(0, 300)}`).join('; ')}`);
    }
  } finally {
    await dropSchemas();
    if (pgData) fs.rmSync(pgData, { recursive: true, force: true });
  }

  // ---- the rows: each PostgreSQL figure under its SQLite one
  if (sqlite.reports) {
    sqlite.reports.forEach(({ figure, p50 }, i) => {
      row(`${figure} over HTTP, warm (p50 of 21)`, fmt.ms(p50), '—', '—', 'p50 ≤ 150 ms', p50 <= 150, { p50 });
      const pg = pgResult.reports?.[i];
      if (pg) row(pgFigure(`${figure} over HTTP, warm (p50 of 21)`), fmt.ms(pg.p50), `SQLite, same run, ${fmt.ms(p50)}`, `${(pg.p50 / p50).toFixed(2)}× SQLite`, 'p50 ≤ 150 ms', pg.p50 <= 150, { p50: pg.p50, sqlite: p50 });
    });
  }
  if (sqlite.post) {
    const { post, floor } = sqlite;
    const share = post.perSecond / floor.perSecond;
    const figure = `POST /transactions (2 lines, posted), ${connections} connections (p99)`;
    row(
      figure,
      `${fmt.rate(post.perSecond)} (p99 ${post.p99} ms)`,
      `raw commit loop, same organisation, ${fmt.rate(floor.perSecond)} (p99 ${floor.p99.toFixed(1)} ms)`,
      `${(share * 100).toFixed(0)}%`,
      '≥ 50%, p99 ≤ 25 ms',
      share >= 0.5 && post.p99 <= 25,
      { perSecond: post.perSecond, p99: post.p99, reference: floor.perSecond },
    );
    if (pgResult.post) {
      const one = pgResult.post;
      row(
        pgFigure(figure, 'PostgreSQL, one `acct serve`'),
        `${fmt.rate(one.perSecond)} (p99 ${one.p99} ms)`,
        `SQLite, same run, ${fmt.rate(post.perSecond)} (p99 ${post.p99} ms)`,
        versus(one.perSecond, post.perSecond),
        '—',
        null,
        { perSecond: one.perSecond, p99: one.p99, total: one.total, errors: one.bad, sqlite: post.perSecond },
      );
      const two = pgResult.post2;
      row(
        pgFigure(figure, `PostgreSQL, two \`acct serve\` (${two.halves.join(' + ')} connections at once)`),
        `${fmt.rate(two.perSecond)} (${two.each.map(fmt.rate).join(' + ')}; p99 ${two.p99} ms; ${two.bad} errors or non-2xx of ${two.total.toLocaleString('en-GB')})`,
        `one \`acct serve\` ${fmt.rate(one.perSecond)}; SQLite ${fmt.rate(post.perSecond)}`,
        `${(two.perSecond / one.perSecond).toFixed(2)}× one process, ${versus(two.perSecond, post.perSecond)}`,
        '0 errors',
        two.bad === 0,
        { perSecond: two.perSecond, each: two.each, p99: two.p99, total: two.total, errors: two.bad, one: one.perSecond, sqlite: post.perSecond },
      );
    }
  }
  if (sqlite.gets) {
    sqlite.gets.forEach(({ figure, got, ref }, i) => {
      const share = got.perSecond / ref.perSecond;
      row(
        `${figure}, ${connections} connections`,
        `${fmt.rate(got.perSecond)} (p99 ${got.p99} ms)`,
        `plain node:http, same body, ${fmt.rate(ref.perSecond)}`,
        `${(share * 100).toFixed(0)}%`,
        '≥ 35%',
        share >= 0.35,
        { perSecond: got.perSecond, reference: ref.perSecond },
      );
      const pg = pgResult.gets?.[i]?.got;
      if (pg)
        row(
          pgFigure(`${figure}, ${connections} connections`),
          `${fmt.rate(pg.perSecond)} (p99 ${pg.p99} ms)`,
          `SQLite, same run, ${fmt.rate(got.perSecond)} (p99 ${got.p99} ms); plain node:http ${fmt.rate(ref.perSecond)}`,
          `${versus(pg.perSecond, got.perSecond)}; ${((pg.perSecond / ref.perSecond) * 100).toFixed(0)}% of plain`,
          '≥ 35% of plain',
          pg.perSecond / ref.perSecond >= 0.35,
          { perSecond: pg.perSecond, p99: pg.p99, sqlite: got.perSecond, reference: ref.perSecond },
        );
    });
  }
  const memoryFigure = `\`acct serve\` peak resident memory under the loads above`;
  row(memoryFigure, fmt.mb(sqlite.peak), '—', '—', '≤ 250 MB', sqlite.peak <= 250, { mb: sqlite.peak });
  if (pgResult.peak !== undefined)
    row(
      pgFigure(memoryFigure),
      fmt.mb(pgResult.peak) + (pgResult.secondPeak !== undefined ? ` (the second process ${fmt.mb(pgResult.secondPeak)})` : ''),
      `SQLite, same run, ${fmt.mb(sqlite.peak)}`,
      '—',
      '≤ 250 MB',
      pgResult.peak <= 250,
      { mb: pgResult.peak, second: pgResult.secondPeak ?? null, sqlite: sqlite.peak },
    );
  if (copied) {
    const settings = await pgClient(async (client) => (await client.query("select name, setting, unit from pg_settings where name in ('server_version', 'fsync', 'synchronous_commit', 'shared_buffers', 'max_connections') order by name")).rows);
    notes.push(
      `PostgreSQL rows: the loaded organisation copied by \`acct migrate-store\` (the row above) into a fresh schema, served by \`acct serve --database … --no-rate-limit --sweep-interval 0\` from a data directory of its own holding the same secret key, on the same machine as the loads and the database server (${settings.map((r) => `${r.name} ${r.setting}${r.unit ? ` × ${r.unit}` : ''}`).join(', ')}). ` +
        (pgResult.post2
          ? 'The two-process POST row: a second `acct serve` over the same database, both loaded at once by two autocannon instances in this process, their requests a second summed; any error, timeout or non-2xx fails the run.'
          : ''),
    );
  }
}

// Whatever the HTTP sections did not drop (migrate-store alone).
await dropSchemas();

// ---- start-up -------------------------------------------------------------

if (wanted('startup')) {
  log('start-up against node -e 0');
  const small = path.join(work, 'startup-1k');
  if (!fs.existsSync(small)) {
    const org = freshOrganisation('startup');
    const journal1k = path.join(work, 'journal-1k.jsonl');
    writeJournal(journal1k, 1000);
    acctOnce(['--data', org.data, 'import', 'journal', journal1k]);
    fs.renameSync(org.data, small);
  }
  const commands = {
    node: [process.execPath, ['-e', '0']],
    version: [process.execPath, [acctBin, '--version']],
    report: [process.execPath, [acctBin, '--data', small, '--json', 'report', 'trial-balance']],
  };
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < 21; i++) {
    for (const [name, [cmd, args]] of Object.entries(commands)) {
      const start = process.hrtime.bigint();
      const r = spawnSync(cmd, args, { stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
      times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const nodeMs = median(times.node);
  for (const [name, figure, limit] of [
    ['version', '`acct --version`', 1.6],
    ['report', '`acct report trial-balance --json`, 1k-transaction ledger', 3],
  ]) {
    const ms = median(times[name]);
    row(`${figure} (median of 21, interleaved)`, fmt.ms(ms), `\`node -e 0\` ${fmt.ms(nodeMs)}`, `${(ms / nodeMs).toFixed(2)}×`, `≤ ${limit}×`, ms / nodeMs <= limit, { ms, reference: nodeMs });
  }
}

// ---- idle, with many organisations ------------------------------------------

if (wanted('idle')) {
  const { idleBench } = await import('./idle.mjs');
  const count = Number(arg('organisations', '1000'));
  const rate = Number(arg('rate', '50'));
  // Twice the other loads' time: at 50 a second, 1,000 requests for the p99.
  const r = await idleBench({ work, count, rate, seconds: 2 * seconds, log });
  const share = (x) => `${(x * 100).toFixed(2)}% of a core`;
  const who = `\`acct serve\` over ${count.toLocaleString('en-GB')} organisations`;
  row(`idle CPU, ${who}, 10 s once start-up work is over`, share(r.idleCpu), '—', '—', '< 1% of a core', r.idleCpu < 0.01, { cpu: r.idleCpu, startup: r.settledSeconds });
  row(`idle CPU, ${who}, 60 s (holds one overdue sweep)`, share(r.sweepCpu), '—', '—', '< 1% of a core', r.sweepCpu < 0.01, { cpu: r.sweepCpu });
  row(
    `GET /v1/contacts of a random organisation of ${count.toLocaleString('en-GB')}, ${rate}/s for ${2 * seconds} s (p99)`,
    `p99 ${r.p99} ms (p50 ${r.p50} ms, max ${r.max} ms)`,
    '—',
    '—',
    'p99 ≤ 50 ms',
    r.p99 <= 50,
    { p99: r.p99, p50: r.p50, total: r.total },
  );
  notes.push(
    'The 60-s idle figure holds one overdue sweep (acct serve --sweep-interval, default 60 s), which opens only the books issued into or written by another process since (none here; every organisation is swept at start and on each new UK day), and six of the webhook sender\'s checks for other processes\' writes (two stat calls per closed file).',
  );
  if (fs.existsSync('/sys/kernel/mm/damon/admin/kdamonds/0/state') && fs.readFileSync('/sys/kernel/mm/damon/admin/kdamonds/0/state', 'utf8').trim() === 'on') {
    notes.push(
      "This machine's kernel runs DAMON, which pages out file pages left untouched for a few seconds: a request to an organisation idle for a while reads its database from disk.",
    );
  }
}

// ---- the results ---------------------------------------------------------

const today = new Date().toISOString().slice(0, 10);
const resultsDir = path.join(root, 'bench/results');
fs.mkdirSync(resultsDir, { recursive: true });
// The previous figures: the last run of this size (today's file, else the newest earlier one).
const previousFile = fs
  .readdirSync(resultsDir)
  .filter((f) => f.endsWith(`-${sizeText}.json`) && f <= `${today}-${sizeText}.json`)
  .sort()
  .pop();
const previous = previousFile ? JSON.parse(fs.readFileSync(path.join(resultsDir, previousFile), 'utf8')) : {};
const versions = [
  `Node ${process.version}`,
  has('ledger') ? execFileSync('ledger', ['--version'], { encoding: 'utf8' }).split('\n')[0] : 'ledger not installed',
  has('hledger') ? execFileSync('hledger', ['--version'], { encoding: 'utf8' }).trim().split(',')[0] : 'hledger not installed',
];
const header = `| figure | acct | reference, same run | ratio | target | met | previous (${previousFile ?? 'none'}) |\n|---|---|---|---|---|---|---|\n`;
const table =
  header +
  rows
    .map((r) => `| ${r.figure} | ${r.acct} | ${r.reference} | ${r.ratio} | ${r.target} | ${r.met === null ? '—' : r.met ? 'yes' : '**no**'} | ${previous[r.figure]?.acct ?? '—'} |`)
    .join('\n') +
  '\n';
const section =
  `\n## \`npm run bench -- --size ${sizeText}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n\n` +
  `${ledgerWanted ? `${size.toLocaleString('en-GB')} transactions (${firstDate} to ${lastDate})` : 'no ledger sections'}; ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os.loadavg()[0].toFixed(2)} at the end; ${versions.join(', ')}. ` +
  `acct figures are medians of ${runs} runs (imports and peers: ${big ? 1 : Math.min(runs, 3)}), HTTP loads ${seconds} s each with autocannon in this process and the server in its own.\n\n` +
  table +
  notes.map((n) => `- ${n}\n`).join('');
const mdFile = path.join(resultsDir, `${today}.md`);
if (!fs.existsSync(mdFile)) fs.writeFileSync(mdFile, `# Benchmark results, ${today}\n`);
fs.appendFileSync(mdFile, section);
// Today's figures of this size: this run's, over those of earlier runs today that this one did not measure (--only).
const todayFile = path.join(resultsDir, `${today}-${sizeText}.json`);
const kept = fs.existsSync(todayFile) ? JSON.parse(fs.readFileSync(todayFile, 'utf8')) : {};
fs.writeFileSync(todayFile, `${JSON.stringify({ ...kept, ...Object.fromEntries(rows.map((r) => [r.figure, r])) }, null, 2)}\n`);
process.stdout.write(section);
log(`written to ${path.relative(root, mdFile)}`);
