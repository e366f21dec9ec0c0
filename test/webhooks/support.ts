/**
 * Helpers of the webhook tests (not a test file itself): a server that
 * lets endpoints point at loopback, a throw-away self-signed certificate,
 * an HTTPS receiver that records what it is sent, and two checks of a
 * signature that share no code with the sender (openssl, and the real
 * `acct webhooks verify`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Test } from 'tap';
import type { Clock } from '../../src/engine/clock.js';
import { operations } from '../../src/engine/registry.js';
import type { WebhookPolicy } from '../../src/engine/webhook-policy.js';
import { startServer } from '../../src/http/server.js';
import { acctBin, checkContract, childEnv, nodeCommand, type Api, type Books, type CliResult } from '../helpers/index.js';

/** A clock that stands still until the test moves it. */
export interface MovingClock extends Clock {
  advance(ms: number): void;
}

export function movingClock(iso: string): MovingClock {
  let at = Date.parse(iso);
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
  };
}

export const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const secretShape = /^whsec_[0-9A-Za-z]+$/;

/** Loopback allowed (the receiver runs on 127.0.0.1), https still required. */
export const loopbackPolicy: WebhookPolicy = { allowHttp: false, allowPrivate: true };

/** A real server over the books, as serveBooks but with a webhook policy of the test's choosing. */
export async function serveWebhooks(t: Test, books: Books, webhookPolicy: WebhookPolicy = loopbackPolicy): Promise<Api> {
  const running = await startServer({
    store: books.store,
    clock: books.clock,
    operations,
    host: '127.0.0.1',
    port: 0,
    webhookPolicy,
    logError: (e) => t.fail(`unexpected internal error: ${String(e.cause)}`),
  });
  t.teardown(() => running.close());
  return {
    url: running.url,
    async request(method, p, { key = books.apiKey, body, raw, headers = {} } = {}) {
      const h: Record<string, string> = { ...headers };
      if (key !== null) h['authorization'] = `Bearer ${key}`;
      let payload: string | undefined = raw;
      if (body !== undefined) {
        payload = JSON.stringify(body);
        h['content-type'] = 'application/json';
      }
      const res = await fetch(`${running.url}${p}`, { method, headers: h, body: payload });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the test sees the text
      }
      checkContract(t, method, p, res, parsed);
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };
}

export interface Tls {
  readonly key: string;
  readonly cert: string;
  /** The certificate's file, for --webhook-ca. */
  readonly certPath: string;
}

/**
 * A one-day self-signed certificate for 127.0.0.1 and localhost, made by
 * openssl in `dir` (made if missing; not t.testdir() itself when the test
 * keeps other files there, since a second t.testdir() call empties it).
 */
export function selfSigned(dir: string): Tls {
  fs.mkdirSync(dir, { recursive: true });
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyPath, 'utf8'), cert: fs.readFileSync(certPath, 'utf8'), certPath };
}

/** One request as the receiver saw it. */
export interface Hit {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  readonly raw: Buffer;
  /** When it arrived (ms since the epoch, real time). */
  readonly at: number;
}

export interface Receiver {
  readonly port: number;
  /** https://127.0.0.1:PORT + path. */
  url(p?: string): string;
  readonly hits: Hit[];
  /**
   * The status answered from now on; 'hang' reads the request and never
   * answers; 'stall' sends 200 and part of a body, then nothing more.
   */
  answer: number | 'hang' | 'stall';
  /** Resolve once `n` requests have been received; reject after `ms`. */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** An HTTPS receiver on 127.0.0.1 (on `port`, or an ephemeral one), closed when the test ends. */
export async function startReceiver(t: Test, tls: Tls, options: { port?: number; answer?: number | 'hang' | 'stall' } = {}): Promise<Receiver> {
  const hits: Hit[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert });
  const receiver = {
    port: 0,
    url: (p = '/hook') => `https://127.0.0.1:${receiver.port}${p}`,
    hits,
    answer: options.answer ?? 200,
    async waitFor(n: number, ms = 5000) {
      const deadline = Date.now() + ms;
      while (hits.length < n) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${hits.length} requests, not ${n}, within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
      if (receiver.answer === 'hang') return;
      if (receiver.answer === 'stall') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
        res.write('partial');
        return;
      }
      res.writeHead(receiver.answer, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  receiver.port = (server.address() as AddressInfo).port;
  t.teardown(() => receiver.close());
  return receiver;
}

/** A loopback port that was free a moment ago and on which nothing listens now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Run a program to its end without blocking the event loop (the servers and the receiver in this process keep answering). */
function run(cmd: string, args: readonly string[], input: Buffer | string, env?: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret, in lowercase hex, computed by openssl. */
export async function opensslSignature(secret: string, timestamp: string, body: Buffer): Promise<string> {
  const r = await run('openssl', ['dgst', '-sha256', '-hmac', secret], Buffer.concat([Buffer.from(`${timestamp}.`), body]));
  const m = /= ([0-9a-f]{64})\s*$/.exec(r.stdout);
  if (r.status !== 0 || !m?.[1]) throw new Error(`openssl dgst failed (${r.status}): ${r.stderr}`);
  return m[1];
}

/** `acct webhooks verify` on a received delivery, the raw body on standard input. */
export function cliVerify(secret: string, hit: Pick<Hit, 'headers' | 'raw'>, options: { tolerance?: number } = {}): Promise<CliResult> {
  const args = ['webhooks', 'verify', '--secret', secret, '--timestamp', String(hit.headers['x-service-timestamp']), '--signature', String(hit.headers['x-service-signature'])];
  if (options.tolerance !== undefined) args.push('--tolerance', String(options.tolerance));
  const [cmd, argv] = nodeCommand([acctBin, ...args]);
  return run(cmd, argv, hit.raw, childEnv());
}

/** `acct ARGS…` (serve) started with extra environment variables; resolves with its URL once printed. */
export function startServeWithEnv(t: Test, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess; stderr(): string; exited: Promise<number | null> }> {
  const [cmd, argv] = nodeCommand([acctBin, ...args]);
  const child = spawn(cmd, argv, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`acct did not start: ${out}${err}`)), 20_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[0], child, stderr: () => err, exited });
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`acct exited ${code} before it was ready: ${out}${err}`));
    });
  });
}
