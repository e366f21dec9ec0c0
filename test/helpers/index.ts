/** Shared test fixtures: a fresh data directory with an organisation, a real server on a loopback port, the real CLI. */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { fixedClock, systemClock, type Clock } from '../../src/engine/clock.js';
import { createOrganisation, type NewOrganisation } from '../../src/engine/organisation/provision.js';
import { operations } from '../../src/engine/registry.js';
import { startServer } from '../../src/http/server.js';
import { contractIssues, operationAt } from '../../src/http/contract.js';
import { Store } from '../../src/store/store.js';
import { scopes, type Scope } from '../../src/engine/scopes.js';
import type { Ctx, Principal } from '../../src/engine/operation.js';
import type { Mode } from '../../src/store/data-dir.js';

export const acctBin = fileURLToPath(new URL('../../bin/acct', import.meta.url));

/**
 * The environment for a child acct process. tap's own loader hooks (in
 * NODE_OPTIONS) are for the test files, not for the compiled CLI under
 * test; tap's spawn wrapper puts them back, so children also start through
 * `nodeCommand`, which removes them after that wrapper has run.
 */
export const nodeCommand = (args: readonly string[]): [string, string[]] => ['env', ['-u', 'NODE_OPTIONS', process.execPath, ...args]];

export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
  delete env['NODE_OPTIONS'];
  return env;
}

export const defaultOrganisation: NewOrganisation = {
  name: 'Acme Widgets Ltd',
  businessType: 'limited_company',
  vatScheme: 'standard',
};

export interface Books {
  readonly dataDir: string;
  readonly store: Store;
  readonly clock: Clock;
  readonly organisationId: string;
  readonly apiKey: string;
  readonly testApiKey: string;
  /** An in-process context, as the CLI would build it (all scopes unless given). */
  ctx(options?: { mode?: Mode; scopes?: readonly Scope[] }): Ctx;
}

/** A new data directory holding one organisation, closed when the test ends. */
export async function newBooks(t: Test, options: { organisation?: Partial<NewOrganisation>; clock?: Clock | string } = {}): Promise<Books> {
  const dataDir = t.testdir();
  const clock = typeof options.clock === 'string' ? fixedClock(options.clock) : (options.clock ?? systemClock);
  const store = Store.open(dataDir);
  t.teardown(() => store.close());
  const created = await createOrganisation(store, clock, { ...defaultOrganisation, ...options.organisation });
  return {
    dataDir,
    store,
    clock,
    ...created,
    ctx: ({ mode = 'live', scopes: held = scopes } = {}) => {
      const principal: Principal = { organisationId: created.organisationId, mode, scopes: held, keyId: null, actor: { id: 'cli', name: 'test' } };
      return { clock, store, platform: store.platform, principal };
    },
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are checked field by field in tests
  readonly body: any;
}

export interface Api {
  readonly url: string;
  /** A request with the given key (default: the organisation's live key; null sends none). */
  request(method: string, path: string, options?: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Reply>;
}

/** A real HTTP server on an ephemeral loopback port over the books' data directory. */
export async function serveBooks(t: Test, books: Books, options: { bodyLimit?: number } = {}): Promise<Api> {
  const running = await startServer({
    store: books.store,
    clock: books.clock,
    operations,
    host: '127.0.0.1',
    port: 0,
    bodyLimit: options.bodyLimit,
    logError: (e) => t.fail(`unexpected internal error: ${String(e.cause)}`),
  });
  t.teardown(() => running.close());
  return {
    url: running.url,
    async request(method, path, { key = books.apiKey, body, raw, headers = {} } = {}) {
      const h: Record<string, string> = { ...headers };
      if (key !== null) h['authorization'] = `Bearer ${key}`;
      let payload: string | undefined = raw;
      if (body !== undefined) {
        payload = JSON.stringify(body);
        h['content-type'] = 'application/json';
      }
      const res = await fetch(`${running.url}${path}`, { method, headers: h, body: payload });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the test sees the text
      }
      checkContract(t, method, path, res, parsed);
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };
}

/**
 * Every JSON reply of the server against its operation's declared output
 * (or the error envelope): a handler that drifts from its contract fails
 * the test that reached it.
 */
export function checkContract(t: Test, method: string, path: string, res: Response, body: unknown): void {
  if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return;
  const op = operationAt(operations, method, path);
  if (!op) return;
  const issues = contractIssues(op, res.status, body);
  if (issues.length > 0) t.fail(`${method} ${path} (${op.name}) answered ${res.status} outside its contract: ${issues.slice(0, 5).join('; ')}`);
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the real bin/acct and wait for it. */
export function runCli(args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliResult {
  const [cmd, argv] = nodeCommand([acctBin, ...args]);
  const r = spawnSync(cmd, argv, {
    input: options.input ?? '',
    env: childEnv(options.env),
    cwd: options.cwd,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Run bin/acct with --json and parse its standard output. */
export function runCliJson(args: readonly string[], options: Parameters<typeof runCli>[1] = {}): { status: number | null; data: unknown; stderr: string } {
  const r = runCli(args, options);
  let data: unknown;
  try {
    data = JSON.parse(r.stdout);
  } catch {
    data = undefined;
  }
  return { status: r.status, data, stderr: r.stderr };
}

/** Start `bin/acct … serve` as a process; resolves with its URL once it prints it. */
export function spawnServe(t: Test, args: readonly string[]): Promise<{ url: string; child: ReturnType<typeof spawn>; output: () => string }> {
  const [cmd, argv] = nodeCommand([acctBin, ...args]);
  const child = spawn(cmd, argv, { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[0], child, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${out}`));
    });
  });
}
