/**
 * The CLI in the tests, two ways: in this process (the real commander
 * program, presenters and store, from src/, at the cost of a function
 * call), and end to end (the real bin/acct on the built bundle, as a
 * process), kept for what only a process shows: startup, stdin, signals,
 * serve, exit codes as the shell sees them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import chalk from 'chalk';
import type { Test } from 'tap';
import { projectFile } from '../../src/paths.js';

export const acctBin = fileURLToPath(projectFile('bin/acct'));
const srcDir = fileURLToPath(projectFile('src'));
const bundle = fileURLToPath(projectFile('dist/acct.cjs'));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /** Standard input (end to end only). */
  readonly input?: string | Buffer;
  /** Added to the environment (NO_COLOR and FORCE_COLOR=0 are always set). */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

// --- end to end -----------------------------------------------------------

function newestMtime(dir: string): { file: string; mtime: number } {
  let newest = { file: dir, mtime: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const found = entry.isDirectory() ? newestMtime(file) : { file, mtime: fs.statSync(file).mtimeMs };
    if (found.mtime > newest.mtime) newest = found;
  }
  return newest;
}

let distChecked = false;

/**
 * bin/acct runs the bundle in dist/, not src/: after an edit of src/ without
 * a build, an end-to-end test would silently check the old code. Fail
 * instead, naming the file and the fix.
 */
export function assertDistFresh(): void {
  if (distChecked) return;
  let built: number;
  try {
    built = fs.statSync(bundle).mtimeMs;
  } catch {
    throw new Error(`${bundle} is missing: run npm run build before the CLI tests`);
  }
  const newest = newestMtime(srcDir);
  if (newest.mtime > built) {
    throw new Error(
      `dist/acct.cjs is older than ${path.relative(path.dirname(srcDir), newest.file)}: run npm run build (bin/acct runs the bundle, so these tests would check stale code)`,
    );
  }
  distChecked = true;
}

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

/** The command line that runs the real bin/acct, once dist/ is known to be current. */
export function acctCommand(args: readonly string[]): [string, string[]] {
  assertDistFresh();
  return nodeCommand([acctBin, ...args]);
}

/** Run the real bin/acct and wait for it (blocking: nothing else in this process runs meanwhile). */
export function runCli(args: readonly string[], options: CliOptions = {}): CliResult {
  const [cmd, argv] = acctCommand(args);
  const r = spawnSync(cmd, argv, { input: options.input ?? '', env: childEnv(options.env), cwd: options.cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Run the real bin/acct on a pseudo-terminal (util-linux `script`), as a
 * person at a terminal would: stdout and stderr are the terminal, so
 * colour and progress bars are on unless the environment says otherwise.
 * `env` replaces the colour variables childEnv sets (pass NO_COLOR or
 * FORCE_COLOR to test them); the output comes back with \r\n line ends.
 */
export function runCliOnTerminal(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliResult {
  const [cmd, argv] = acctCommand(args);
  const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
  const env = childEnv();
  delete env['NO_COLOR'];
  delete env['FORCE_COLOR'];
  // A person's terminal, not a CI runner's: supports-color turns colour off on a
  // terminal whenever CI is set (as it is in .ci/run), which no user sees.
  for (const name of Object.keys(env)) if (name === 'CI' || name.startsWith('CI_') || name === 'CONTINUOUS_INTEGRATION') delete env[name];
  const r = spawnSync('script', ['-qec', [cmd, ...argv].map(quote).join(' '), '/dev/null'], {
    env: { ...env, TERM: 'xterm-256color', ...options.env },
    cwd: options.cwd,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Run the real bin/acct without blocking (servers in this process keep answering it). */
export function runCliAsync(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const [cmd, argv] = acctCommand(args);
  const child = spawn(cmd, argv, { env: childEnv(options.env), cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
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
 * Start the real `bin/acct ARGS…` (serve or demo) and resolve once standard
 * output holds a loopback URL and matches `ready` (default: the URL alone).
 * Killed when the test ends, if still running.
 */
export function startAcct(t: Test, args: readonly string[], options: { ready?: RegExp; env?: NodeJS.ProcessEnv } = {}): Promise<Running> {
  const { ready = /http:\/\/127\.0\.0\.1:\d+/, env = {} } = options;
  // nodeCommand execs node in place (env -u NODE_OPTIONS), so signals sent to child.pid reach acct itself.
  const [cmd, argv] = acctCommand(args);
  const child = spawn(cmd, argv, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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

// --- in process -------------------------------------------------------------

interface Capture {
  readonly stdout: Buffer[];
  readonly stderr: Buffer[];
}

/** The run whose output a write belongs to: writes from anything else (tap's own report) pass through. */
const capturing = new AsyncLocalStorage<Capture>();
let captureInstalled = false;

function installCapture(): void {
  if (captureInstalled) return;
  captureInstalled = true;
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), done?: (e?: Error | null) => void): boolean => {
      const capture = capturing.getStore();
      if (capture === undefined) return write(chunk, encoding, done);
      capture[name].push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
      const callback = typeof encoding === 'function' ? encoding : done;
      if (callback) process.nextTick(callback);
      return true;
    };
  }
}

/** One in-process run at a time: each changes process-wide state (environment, cwd, exit code) for its duration. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Run the CLI in this process: `main` of src/cli/main.ts, as bin/acct calls
 * it, with standard output and error captured, the environment, working
 * directory, colour level and exit code of this process set for the run and
 * put back after it. Same result as runCli. Not for what needs a process of
 * its own: standard input or output as a file (`-`), serve and demo.
 */
export function runCliInProcess(args: readonly string[], options: Omit<CliOptions, 'input'> = {}): Promise<CliResult> {
  const run = queue.then(() => runNow(args, options));
  queue = run.catch(() => undefined);
  return run;
}

async function runNow(args: readonly string[], options: Omit<CliOptions, 'input'>): Promise<CliResult> {
  if (args.includes('-')) throw new Error(`acct ${args.join(' ')}: standard input or output as a file needs a process of its own: use runCli`);
  const { main, commandWord } = await import('../../src/cli/main.js');
  const command = commandWord(args);
  if (command === 'serve' || command === 'demo') throw new Error(`acct ${command} keeps running: use startAcct`);
  installCapture();

  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', FORCE_COLOR: '0', ...options.env };
  const savedEnv = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  const savedCwd = process.cwd();
  const savedLevel = chalk.level;
  const savedExitCode = process.exitCode;
  const errorListeners = new Set(process.stdout.listeners('error'));
  const capture: Capture = { stdout: [], stderr: [] };
  let status: number;
  try {
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (options.cwd !== undefined) process.chdir(options.cwd);
    chalk.level = 0;
    process.exitCode = undefined;
    await capturing.run(capture, () => main([process.execPath, acctBin, ...args]));
    status = Number(process.exitCode ?? 0);
  } finally {
    process.exitCode = savedExitCode;
    chalk.level = savedLevel;
    process.chdir(savedCwd);
    for (const [k, v] of savedEnv) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    // main() listens for EPIPE on standard output on every run.
    for (const l of process.stdout.listeners('error')) if (!errorListeners.has(l)) process.stdout.off('error', l as (e: Error) => void);
  }
  return { status, stdout: Buffer.concat(capture.stdout).toString('utf8'), stderr: Buffer.concat(capture.stderr).toString('utf8') };
}

/** Parse a run's standard output as JSON (undefined when it is not). */
function withData(r: CliResult): { status: number | null; data: unknown; stderr: string } {
  let data: unknown;
  try {
    data = JSON.parse(r.stdout);
  } catch {
    data = undefined;
  }
  return { status: r.status, data, stderr: r.stderr };
}

/** runCli, its standard output parsed as JSON. */
export function runCliJson(args: readonly string[], options: CliOptions = {}): { status: number | null; data: unknown; stderr: string } {
  return withData(runCli(args, options));
}

/** runCliInProcess, its standard output parsed as JSON. */
export async function runCliInProcessJson(
  args: readonly string[],
  options: Omit<CliOptions, 'input'> = {},
): Promise<{ status: number | null; data: unknown; stderr: string }> {
  return withData(await runCliInProcess(args, options));
}
