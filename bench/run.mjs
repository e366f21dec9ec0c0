// The benchmark runner: every figure of the benchmarks issue at one size,
// each beside its reference measured in the same run, with the ratio and
// the target. Prints the table and writes it to bench/results/<date>.md
// (appending, so earlier runs stay), with the figures as JSON beside it
// (bench/results/<date>-<size>.json); the newest earlier JSON of the same
// size is shown as the "previous" column, so that a regression shows.
//
// Usage: npm run bench -- [--size 10k|100k|1m] [--runs N] [--seconds S]
//        [--connections C] [--work DIR] [--only import,reports,…,idle]
//
// Sections: import, reports, http-reports, general-ledger, post, get,
// startup (memory is read from the server across the HTTP sections), and
// idle (one server over 1,000 organisations: bench/idle.mjs, [--organisations
// N] [--rate R]; about two minutes, and 1,000 organisations made once).
// References not installed (ledger, hledger) are reported as such.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningUrl } from './listening.mjs';
import autocannon from 'autocannon';
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
const wanted = (section) => !only || only.includes(section);
/** The sections that read the generated ledger. */
const ledgerWanted = ['import', 'reports', 'general-ledger', 'http-reports', 'post', 'get'].some(wanted);
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

// ---- the running server ------------------------------------------------

/** `acct serve` on the loaded organisation, as its own process; its peak memory is read from /proc. */
async function startServe(dataDir) {
  const child = spawn(process.execPath, [acctBin, '--data', dataDir, 'serve', '--port', '0', '--no-rate-limit', '--sweep-interval', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningUrl(child);
  const status = (field) => Number(/(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(field)))[1]) / 1024;
  return {
    url,
    peakMb: () => status('VmHWM'),
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
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
  return { perSecond: result.requests.total / (result.duration || seconds), p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

const httpSections = ['http-reports', 'post', 'get'].filter(wanted);
if (httpSections.length > 0) {
  // The raw commit loop writes into a copy of the same organisation, so that both write into indexes of the same size.
  const floorFile = path.join(work, 'floor.sqlite');
  if (wanted('post')) fs.copyFileSync(loaded.file, floorFile);
  const server = await startServe(loaded.data);
  const key = loaded.key;
  try {
    if (wanted('http-reports')) {
      log('reports in the running server');
      for (const [figure, pathname] of [
        ['trial balance', `/reports/trial-balance?asOf=${asOf}`],
        ['balance sheet', `/reports/balance-sheet?asOf=${asOf}`],
        ['profit and loss', `/reports/profit-loss?from=${firstDate}&to=${lastDate}`],
      ]) {
        for (let i = 0; i < 3; i++) await call(server.url, key, 'GET', pathname);
        const ms = [];
        for (let i = 0; i < 21; i++) {
          const start = performance.now();
          await call(server.url, key, 'GET', pathname);
          ms.push(performance.now() - start);
        }
        const p50 = median(ms);
        row(`${figure} over HTTP, warm (p50 of 21)`, fmt.ms(p50), '—', '—', 'p50 ≤ 150 ms', p50 <= 150, { p50 });
      }
    }

    const accounts = new Map((await call(server.url, key, 'GET', '/accounts?flat=true')).data.accounts.map((a) => [a.code, a.id]));

    if (wanted('post')) {
      log(`POST /transactions, ${connections} connections, ${seconds} s`);
      const body = JSON.stringify({ date: '2026-01-15', description: 'Bench sale', lines: [{ accountId: accounts.get('1200'), amount: 12000 }, { accountId: accounts.get('4000'), amount: -12000 }] });
      const post = await load(`${server.url}/v1/transactions`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
      log(`raw better-sqlite3 commit loop, ${seconds} s, on a copy of the organisation`);
      const floor = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bench/raw-commits.mjs'), floorFile, String(seconds)], { encoding: 'utf8' }));
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${floorFile}${suffix}`, { force: true });
      const share = post.perSecond / floor.perSecond;
      row(
        `POST /transactions (2 lines, posted), ${connections} connections (p99)`,
        `${fmt.rate(post.perSecond)} (p99 ${post.p99} ms)`,
        `raw commit loop, same organisation, ${fmt.rate(floor.perSecond)} (p99 ${floor.p99.toFixed(1)} ms)`,
        `${(share * 100).toFixed(0)}%`,
        '≥ 50%, p99 ≤ 25 ms',
        share >= 0.5 && post.p99 <= 25,
        { perSecond: post.perSecond, p99: post.p99, reference: floor.perSecond },
      );
    }

    if (wanted('get')) {
      const contact = await call(server.url, key, 'POST', '/contacts', { name: 'Bench Customer Ltd', contactType: 'customer' });
      const invoice = await call(server.url, key, 'POST', '/invoices', {
        contactId: contact.data.id,
        issueDate: '2026-01-15',
        items: [{ description: 'Consulting', quantity: 3, unitPrice: 45000, vatRate: 'standard' }],
      });
      for (const [figure, pathname] of [
        ['GET /transactions?limit=50', '/transactions?limit=50'],
        ['GET /invoices/{id}', `/invoices/${invoice.data.id}`],
      ]) {
        log(`${figure}, ${connections} connections, ${seconds} s, and plain node:http`);
        const bodyFile = path.join(work, 'plain-body.json');
        fs.writeFileSync(bodyFile, await request(server.url, key, 'GET', pathname));
        const got = await load(`${server.url}/v1${pathname}`, { headers: { authorization: `Bearer ${key}` } });
        const plain = spawn(process.execPath, [path.join(root, 'bench/plain-server.mjs'), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
        const plainUrl = await new Promise((resolve) => plain.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
        const ref = await load(`${plainUrl}${pathname}`, {});
        plain.kill('SIGTERM');
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
      }
    }
    const peak = server.peakMb();
    row(`\`acct serve\` peak resident memory under the loads above`, fmt.mb(peak), '—', '—', '≤ 250 MB', peak <= 250, { mb: peak });
  } finally {
    await server.stop();
  }
}

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
