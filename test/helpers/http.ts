/**
 * HTTP in the tests: a real server on a loopback port over the books, and
 * the one function through which every test request and its reply pass
 * (`request`), whether the server runs in this process or as `acct serve`.
 */
import type { Test } from 'tap';
import type { AppError } from '../../src/engine/errors.js';
import { operations } from '../../src/engine/registry.js';
import { startServer, type ServerOptions } from '../../src/http/server.js';
import { contractIssues, operationAt } from '../../src/http/contract.js';
import type { Books } from './books.js';

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON, or the text when the reply is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are checked field by field in tests
  readonly body: any;
  /** The response text exactly as sent. */
  readonly text: string;
  /** The response bytes (a PDF, say). */
  readonly bytes: Uint8Array;
}

export interface RequestOptions {
  /** Sent as `Authorization: Bearer KEY`; null sends no Authorization header. */
  readonly key?: string | null;
  /** Sent as JSON, with content-type application/json. */
  readonly body?: unknown;
  /** Sent exactly as given, with no content-type unless `headers` has one. */
  readonly raw?: string | Uint8Array<ArrayBuffer>;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What is wrong with a JSON reply, measured against its operation's declared
 * output (or the error envelope); null when nothing is, or when the request
 * reached no operation (a route that does not exist).
 */
export function contractFailure(method: string, path: string, res: Response, body: unknown): string | null {
  if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return null;
  const op = operationAt(operations, method, path);
  if (!op) return null;
  const issues = contractIssues(op, res.status, body);
  return issues.length === 0 ? null : `${method} ${path} (${op.name}) answered ${res.status} outside its contract: ${issues.slice(0, 5).join('; ')}`;
}

/** The contract check of one reply, failing the test `t` (for a client that does not come through `request`). */
export function checkContract(t: Test, method: string, path: string, res: Response, body: unknown): void {
  const failure = contractFailure(method, path, res, body);
  if (failure !== null) t.fail(failure);
}

/**
 * One request to `baseUrl + path`. Every HTTP reply a test sees comes back
 * through here, and each is checked against its operation's declared output:
 * a handler that drifts from its contract fails (throws in) the test that reached it.
 */
export async function request(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const { key = null, body, raw, headers = {} } = options;
  const h: Record<string, string> = { ...headers };
  if (key !== null) h['authorization'] = `Bearer ${key}`;
  let payload: string | Uint8Array<ArrayBuffer> | undefined = raw;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    h['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers: h, body: payload });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  const failure = contractFailure(method, path, res, parsed);
  if (failure !== null) throw new Error(failure);
  return { status: res.status, headers: res.headers, body: parsed, text, bytes };
}

export interface Api {
  readonly url: string;
  /** A request with the given key (default: the Api's key; null sends none). */
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
}

/** Requests to a running server (in this process or `acct serve`), with `defaultKey` unless a request names another. */
export function apiAt(url: string, defaultKey: string | null): Api {
  return {
    url,
    request: (method, path, options = {}) => request(url, method, path, { ...options, key: options.key === undefined ? defaultKey : options.key }),
  };
}

export interface ServeOptions extends Partial<Omit<ServerOptions, 'store' | 'host' | 'port' | 'logError'>> {
  /**
   * Called with each failure the server reports (a 5xx). By default the test
   * fails on any; a test that expects some collects them from `logged`.
   */
  readonly onLogError?: (error: AppError) => void;
}

/** A served test server's client, with the failures it logged. */
export interface ServedApi extends Api {
  readonly logged: AppError[];
  /** Once the work left for after the responses so far (a password reset e-mail) is done. */
  settled(): Promise<void>;
}

/**
 * A real HTTP server on an ephemeral loopback port over the books' store,
 * as `acct serve` builds it: the registry and the books' clock unless the
 * test gives others, rate limits off unless asked for, PDFs rendered in
 * the request unless the test gives pdfWorkers (each server's pool would
 * start its own threads, 1 to 3 s apiece; test/loop tests the pool, and
 * acct serve runs it). Closed when the test ends.
 */
export async function serveBooks(t: Test, books: Books, options: ServeOptions = {}): Promise<ServedApi> {
  const { onLogError = (e: AppError) => t.fail(`unexpected internal error: ${String(e.cause)}`), ...server } = options;
  const logged: AppError[] = [];
  const running = await startServer({
    clock: books.clock,
    operations,
    pdfWorkers: 'none',
    ...server,
    store: books.store,
    host: '127.0.0.1',
    port: 0,
    logError: (e) => {
      logged.push(e);
      onLogError(e);
    },
  });
  t.teardown(() => running.close());
  return { ...apiAt(running.url, books.apiKey), logged, settled: () => running.settled() };
}
