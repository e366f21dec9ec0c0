// The idle benchmark: one `acct serve` over many organisations (1,000 by
// default), its CPU while nobody calls it, then requests spread over random
// organisations at a steady rate, with their latency. Idle CPU is read twice
// from /proc/<pid>/stat: over `idleSeconds` (10) once start-up work is over,
// and over a whole `sweepSeconds` (60, the default --sweep-interval), which
// holds one overdue sweep (of the books issued into since: none while idle)
// and six of the webhook sender's looks for other processes' writes. The organisations are made
// once through the engine (not one `acct init` each) and kept under the work
// directory for the next run.
//
// The requests come at 50 a second by default, evenly spaced (an open loop:
// each is sent on time whether or not the ones before were answered, unlike
// autocannon's rate, which sends each second's requests in a burst): each of
// 1,000 organisations calling every 20 s, mostly to books the server has
// closed (its cache holds 32 files).
//
// Used by bench/run.mjs (--only idle); alone: node bench/idle.mjs
// [--organisations N] [--idle-seconds S] [--sweep-seconds S] [--rate R] [--seconds S] [--work DIR]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningUrl } from './listening.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const acctBin = path.join(root, 'bin/acct');

/** A data directory with `count` organisations and their live keys, made once. */
async function organisations(work, count, log) {
  const dir = path.join(work, `idle-${count}`);
  const keysFile = path.join(dir, 'keys.json');
  if (fs.existsSync(keysFile)) return { dir, keys: JSON.parse(fs.readFileSync(keysFile, 'utf8')) };
  fs.rmSync(dir, { recursive: true, force: true });
  const { openStore } = await import(path.join(root, 'dist/store/open.js'));
  const { createOrganisation } = await import(path.join(root, 'dist/engine/organisation/provision.js'));
  const { systemClock } = await import(path.join(root, 'dist/engine/clock.js'));
  const store = await openStore(path.join(dir, 'data'));
  const keys = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const made = await createOrganisation(store, systemClock, { name: `Idle ${i + 1} Ltd`, businessType: 'limited_company', vatScheme: 'standard' });
    keys.push(made.apiKey);
    if ((i + 1) % 100 === 0) log(`${i + 1} of ${count} organisations made (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await store.close();
  fs.writeFileSync(keysFile, JSON.stringify(keys));
  return { dir, keys };
}

/**
 * GET `url` with a random organisation's key, `rate` times a second for
 * `seconds`, each request sent at its time on a connection of its own (no
 * keep-alive to race the server's idle timeout); latency from sending to
 * the end of the answer.
 */
async function steadyLoad(url, keys, rate, seconds) {
  const ms = [];
  const failures = [];
  const get = (key) =>
    new Promise((resolve) => {
      const sent = performance.now();
      http
        .get(url, { agent: false, headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) ms.push(performance.now() - sent);
            else failures.push(`status ${res.statusCode}`);
            resolve();
          });
        })
        .on('error', (e) => {
          failures.push(e.message);
          resolve();
        });
    });
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const sent = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(get(keys[Math.floor(Math.random() * keys.length)]));
  }
  await Promise.all(sent);
  ms.sort((a, b) => a - b);
  const at = (q) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN);
  return { latency: { p50: at(0.5), p99: at(0.99), max: Math.round(ms.at(-1) ?? NaN) }, total, failures };
}

/** The CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

/**
 * Measure: start `acct serve` with its default flags, wait for its start-up
 * work to settle, read its CPU over `idleSeconds`, then send requests to
 * random organisations at `rate` a second for `seconds`.
 */
export async function idleBench({ work, count = 1000, idleSeconds = 10, sweepSeconds = 60, rate = 50, seconds = 20, log }) {
  const { dir, keys } = await organisations(work, count, log);
  const started = performance.now();
  const child = spawn(process.execPath, [acctBin, '--data', path.join(dir, 'data'), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await listeningUrl(child);
    const startupSeconds = (performance.now() - started) / 1000;
    // The work of start-up (the overdue sweep, the webhook sender's first look at every organisation) goes on after
    // the server listens: idle starts once a whole second passes with under 2% of a core used, or after 3 minutes.
    const settling = performance.now();
    for (let last = cpuSeconds(child.pid); performance.now() - settling < 180_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = cpuSeconds(child.pid);
      if (now - last < 0.02) break;
      last = now;
    }
    const settledSeconds = (performance.now() - started) / 1000;
    log(`acct serve over ${count} organisations listening after ${startupSeconds.toFixed(1)} s, settled after ${settledSeconds.toFixed(1)} s; ${idleSeconds} s idle`);
    /** The share of a core the server uses over `s` seconds. */
    const cpuOver = async (s) => {
      const cpuBefore = cpuSeconds(child.pid);
      const wallBefore = performance.now();
      await new Promise((resolve) => setTimeout(resolve, s * 1000));
      return (cpuSeconds(child.pid) - cpuBefore) / ((performance.now() - wallBefore) / 1000);
    };
    const idleCpu = await cpuOver(idleSeconds);
    log(`idle CPU ${(idleCpu * 100).toFixed(2)}% of a core over ${idleSeconds} s; now over ${sweepSeconds} s (one overdue sweep)`);
    const sweepCpu = sweepSeconds > 0 ? await cpuOver(sweepSeconds) : null;
    if (sweepCpu !== null) log(`idle CPU ${(sweepCpu * 100).toFixed(2)}% of a core over ${sweepSeconds} s`);
    log(`GET /v1/contacts at ${rate}/s over random organisations, ${seconds} s`);
    const result = await steadyLoad(`${url}/v1/contacts`, keys, rate, seconds);
    if (result.failures.length > 0) throw new Error(`GET /v1/contacts: ${result.failures.length} failed, first: ${result.failures[0]}`);
    return { startupSeconds, settledSeconds, idleCpu, sweepCpu, ...result.latency, total: result.total };
  } finally {
    if (child.exitCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const result = await idleBench({
    work: arg('work', path.join(os.tmpdir(), 'acct-bench', 'idle')),
    count: Number(arg('organisations', '1000')),
    idleSeconds: Number(arg('idle-seconds', '10')),
    sweepSeconds: Number(arg('sweep-seconds', '60')),
    rate: Number(arg('rate', '50')),
    seconds: Number(arg('seconds', '20')),
    log: (text) => process.stderr.write(`[idle ${new Date().toISOString().slice(11, 19)}] ${text}\n`),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
