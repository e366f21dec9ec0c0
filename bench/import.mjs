// Benchmark: `acct import journal` against its floor, raw better-sqlite3
// inserting the same rows (same schema, same indexes) in one transaction,
// both as fresh processes in the same run. Prints medians and the ratio.
// Usage: node bench/import.mjs [--size 100k] [--runs 3]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSize, writeJournal } from './generate.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const size = parseSize(arg('size', '100k'));
const runs = Number(arg('runs', '3'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-bench-'));
const journalFile = path.join(work, 'journal.jsonl');
writeJournal(journalFile, size);

/** Run a command; its wall time in seconds and peak resident memory in MB (GNU time). */
function measure(cmd, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  const [seconds, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, mb: kb / 1024 };
}

function freshOrganisation() {
  const data = fs.mkdtempSync(path.join(work, 'data-'));
  const out = execFileSync(process.execPath, [path.join(root, 'bin/acct'), '--data', data, 'init', '--name', 'Bench Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard', '--yes', '--json'], { encoding: 'utf8' });
  const { organisationId } = JSON.parse(out);
  return { data, file: path.join(data, 'orgs', organisationId, 'live.sqlite') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const acct = [];
const raw = [];
for (let i = 0; i < runs; i++) {
  const a = freshOrganisation();
  acct.push(measure(process.execPath, [path.join(root, 'bin/acct'), '--data', a.data, 'import', 'journal', journalFile]));
  const b = freshOrganisation();
  raw.push(measure(process.execPath, [path.join(root, 'bench/raw-insert.mjs'), b.file, journalFile]));
}
const a = median(acct.map((x) => x.seconds));
const b = median(raw.map((x) => x.seconds));
console.log(`| figure | acct | raw better-sqlite3 | ratio | target |`);
console.log(`|---|---|---|---|---|`);
console.log(`| import journal, ${size.toLocaleString('en-GB')} transactions | ${a.toFixed(2)} s, ${median(acct.map((x) => x.mb)).toFixed(0)} MB | ${b.toFixed(2)} s | ${(a / b).toFixed(2)}× | ≤ 3×, ≤ 300 MB |`);
fs.rmSync(work, { recursive: true, force: true });
