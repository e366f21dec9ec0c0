/**
 * The loopback redirect of an OAuth 2.0 sign-in from the command line: a
 * server on 127.0.0.1 (a free port unless one is given) that waits for the
 * browser to come back to /callback with the authorisation's answer, and
 * answers the browser once the command knows how it went.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Callback {
  readonly query: URLSearchParams;
  /** The page the browser shows afterwards. */
  answer(status: number, text: string): void;
}

export interface Loopback {
  readonly redirectUri: string;
  /** The first request to /callback; null when none comes within `timeoutMs`. */
  callback(timeoutMs: number): Promise<Callback | null>;
  close(): Promise<void>;
}

export async function openLoopback(port: number): Promise<Loopback> {
  let arrive!: (c: Callback) => void;
  const arrived = new Promise<Callback>((resolve) => (arrive = resolve));
  let taken = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`${text}\n`);
    };
    if (req.method !== 'GET' || url.pathname !== '/callback') return page(404, 'Not found');
    if (taken) return page(409, 'acct has already had an answer; close this window');
    taken = true;
    arrive({ query: url.searchParams, answer: page });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${bound}/callback`,
    async callback(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
      try {
        return await Promise.race([arrived, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The browser's page is on its way (connection: close); idle keep-alive sockets go now, any other soon.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      }),
  };
}
