/**
 * Helpers of the integration tests (not a test file itself): a real server
 * with the options serveBooks does not give (rate limits, an operation list
 * of the test's own, an injected clock), and replies that keep the raw text.
 */
import type { Test } from 'tap';
import type { Clock } from '../../src/engine/clock.js';
import type { AppError } from '../../src/engine/errors.js';
import type { Mailer } from '../../src/engine/mail.js';
import type { Operation } from '../../src/engine/operation.js';
import { operations as registry } from '../../src/engine/registry.js';
import { startServer } from '../../src/http/server.js';
import type { Books, Reply } from '../helpers/index.js';

export { allScopes, createKey, expectError, steppingClock } from '../http/support.js';

/** A reply with the response text exactly as sent. */
export interface RawReply extends Reply {
  readonly text: string;
}

export interface RawApi {
  readonly url: string;
  request(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<RawReply>;
}

/** A clock the test moves by hand (as steppingClock, but readable as ISO text). */
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

/**
 * A real server over the books' store, as `acct serve` builds it but with
 * what the test chooses: rate limits on unless told otherwise, the registry
 * unless another operation list is given, the books' clock unless another,
 * no mailer unless one is given.
 * Internal errors are collected in `internalErrors` rather than failing the
 * test (a test of a 500 expects one).
 */
export async function serveWith(
  t: Test,
  books: Books,
  options: { clock?: Clock; operations?: readonly Operation[]; rateLimits?: boolean; mailer?: Mailer } = {},
): Promise<RawApi & { readonly internalErrors: AppError[] }> {
  const internalErrors: AppError[] = [];
  const running = await startServer({
    store: books.store,
    clock: options.clock ?? books.clock,
    operations: options.operations ?? registry,
    host: '127.0.0.1',
    port: 0,
    rateLimits: options.rateLimits ?? true,
    mailer: options.mailer ?? null,
    logError: (e) => internalErrors.push(e),
  });
  t.teardown(() => running.close());
  return { ...rawApi(running.url, books.apiKey), internalErrors };
}

/** Requests against a running server; the default key is the one given. */
export function rawApi(url: string, defaultKey: string): RawApi {
  return {
    url,
    async request(method, path, { key = defaultKey, body, headers = {} } = {}) {
      const h: Record<string, string> = { ...headers };
      if (key !== null) h['authorization'] = `Bearer ${key}`;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = JSON.stringify(body);
        h['content-type'] = 'application/json';
      }
      const res = await fetch(`${url}${path}`, { method, headers: h, body: payload });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the test sees the text
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
  };
}

/** How many rows a table of the organisation's live (or test) database holds. */
export async function rowCount(
  books: Books,
  table: 'contacts' | 'invoices' | 'idempotency_keys' | 'outbox' | 'payments' | 'transactions' | 'lines',
  organisationId: string = books.organisationId,
  mode: 'live' | 'test' = 'live',
): Promise<number> {
  const row = await books.store
    .org(organisationId, mode)
    .db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
