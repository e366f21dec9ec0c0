/** What the CLI tests share: running `acct init`, starting `acct serve`/`acct demo` as processes, plain HTTP calls. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { Test } from 'tap';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { acctBin, childEnv, newBooks, nodeCommand, runCli, runCliJson, type CliResult } from '../helpers/index.js';

export { runCli, runCliJson, type CliResult };

export interface Created {
  readonly organisationId: string;
  readonly apiKey: string;
  readonly testApiKey: string;
}

export const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const liveKeyShape = /^sk_live_[0-9A-Za-z]{32}$/;
export const testKeyShape = /^sk_test_[0-9A-Za-z]{32}$/;

/** `acct --data DIR init … --yes --json` with a limited company on the standard scheme unless told otherwise. */
export function init(t: Test, dir: string, extra: readonly string[] = ['--name', 'Acme Widgets Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']): Created {
  const r = runCli(['--data', dir, 'init', ...extra, '--yes', '--json']);
  if (r.status !== 0) t.fail(`init failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Created;
}

/**
 * A fresh data directory holding one organisation made in-process (Acme
 * Widgets Ltd, a limited company on the standard scheme, unless told
 * otherwise): a quicker set-up for tests that are not about init. Nothing
 * is chosen with acct use, so the CLI works on it as the only organisation.
 */
export async function books(t: Test, organisation: Partial<NewOrganisation> = {}): Promise<Created & { readonly dir: string }> {
  const b = await newBooks(t, { organisation });
  return { dir: b.dataDir, organisationId: b.organisationId, apiKey: b.apiKey, testApiKey: b.testApiKey };
}

/** `acct --data DIR --json ARGS…`, parsed; the test fails when it exits non-zero. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are checked field by field
export function acctJson(t: Test, dir: string, args: readonly string[], options: Parameters<typeof runCli>[1] = {}): any {
  const r = runCliJson(['--data', dir, '--json', ...args], options);
  if (r.status !== 0) t.fail(`acct ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.data;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything printed on standard output so far. */
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<Exit>;
}

/**
 * Start `bin/acct ARGS…` (serve or demo) and resolve once standard output
 * holds a loopback URL and matches `ready` (default: the URL alone).
 */
export function startAcct(t: Test, args: readonly string[], ready: RegExp = /http:\/\/127\.0\.0\.1:\d+/): Promise<Running> {
  // nodeCommand execs node in place (env -u NODE_OPTIONS), so signals sent to child.pid reach acct itself.
  const [cmd, argv] = nodeCommand([acctBin, ...args]);
  const child = spawn(cmd, argv, { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`acct ${args.join(' ')} did not start: ${out}${err}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m && ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, url: m[0], stdout: () => out, stderr: () => err, exited });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`acct ${args.join(' ')} exited (${code ?? signal}) before it was ready: ${out}${err}`));
    });
  });
}

export interface Reply {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are checked field by field
  readonly body: any;
}

/** One HTTP request with a bearer key (none when key is null). */
export async function call(url: string, method: string, path: string, key: string | null, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: res.status, body: parsed };
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolve once nothing listens on the URL's port any more (connections refused); reject after `ms`. */
export async function waitUntilRefused(url: string, ms = 5000): Promise<void> {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + ms;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`${url} still accepts connections`);
    await delay(20);
  }
}

/** The start (YYYY-MM-DD) of the fiscal year holding today in the UK, for a year starting MM-DD. */
export function currentFiscalYearStart(monthDay: string, now = new Date()): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const year = Number(today.slice(0, 4));
  const thisYear = `${year}-${monthDay}`;
  return today >= thisYear ? thisYear : `${year - 1}-${monthDay}`;
}
