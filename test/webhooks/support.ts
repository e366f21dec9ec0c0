/**
 * Helpers of the webhook tests (not a test file itself): a server that
 * lets endpoints point at loopback, a throw-away self-signed certificate,
 * an HTTPS receiver that records what it is sent, and two checks of a
 * signature that share no code with the sender (openssl, and
 * `acct webhooks verify`).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import type { WebhookPolicy } from '../../src/engine/webhook-policy.js';
import { generousMs, runCliInProcess, serveBooks, type Api, type Books, type CliResult } from '../helpers/index.js';

export const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const secretShape = /^whsec_[0-9A-Za-z]+$/;

/** Loopback allowed (the receiver runs on 127.0.0.1), https still required. */
export const loopbackPolicy: WebhookPolicy = { allowHttp: false, allowPrivate: true };

/** A real server over the books, as serveBooks but with a webhook policy of the test's choosing. */
export function serveWebhooks(t: Test, books: Books, webhookPolicy: WebhookPolicy = loopbackPolicy): Promise<Api> {
  return serveBooks(t, books, { webhookPolicy });
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
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
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
   * answers; 'stall' sends 200 and part of a body, then nothing more;
   * 'hold' answers 200 once the test calls release().
   */
  answer: number | 'hang' | 'stall' | 'hold';
  /** The requests held ('hold') and not yet answered. */
  readonly held: number;
  /** Answer 200 to the requests held so far. */
  release(): void;
  /** Resolve once `n` requests have been received; reject after `ms` (a generous 20 s unless told). */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** An HTTPS receiver on 127.0.0.1 (on `port`, or an ephemeral one), closed when the test ends. */
export async function startReceiver(t: Test, tls: Tls, options: { port?: number; answer?: Receiver['answer'] } = {}): Promise<Receiver> {
  const hits: Hit[] = [];
  const held: (() => void)[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert });
  const receiver = {
    port: 0,
    url: (p = '/hook') => `https://127.0.0.1:${receiver.port}${p}`,
    hits,
    answer: options.answer ?? 200,
    get held() {
      return held.length;
    },
    release: () => held.splice(0).forEach((answer) => answer()),
    async waitFor(n: number, ms = generousMs) {
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
      if (receiver.answer === 'hold') {
        held.push(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
        return;
      }
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
function run(cmd: string, args: readonly string[], input: Buffer | string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
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

/** `acct webhooks verify` (in-process) on a received delivery, the raw body given with --payload. */
export async function cliVerify(secret: string, hit: Pick<Hit, 'headers' | 'raw'>, options: { tolerance?: number } = {}): Promise<CliResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-verify-'));
  try {
    const payload = path.join(dir, 'body');
    fs.writeFileSync(payload, hit.raw);
    const args = [
      'webhooks',
      'verify',
      '--secret',
      secret,
      '--timestamp',
      String(hit.headers['x-service-timestamp']),
      '--signature',
      String(hit.headers['x-service-signature']),
      '--payload',
      payload,
    ];
    if (options.tolerance !== undefined) args.push('--tolerance', String(options.tolerance));
    return await runCliInProcess(args);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
