/**
 * Starting and stopping the HTTP server: listen, then on close finish
 * requests in flight. Each connection answers one request at a time, and a
 * response its client stops reading is dropped after the send timeout, so
 * a client that asks and never reads holds at most one response's memory,
 * and that not for long.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp, type AppOptions } from './app.js';
import { pdfPool } from './pdf-workers.js';
import type { PoolLimits } from '../worker-pool.js';
import { RequestLogWriter } from '../engine/integration/request-log-writer.js';
import { AfterResponse } from './after-response.js';
import { askForBody } from './body.js';

export interface ServerOptions extends Omit<AppOptions, 'pdfPool'> {
  readonly host: string;
  readonly port: number;
  /** How long close() waits for requests in flight before cutting connections. */
  readonly graceMs?: number;
  /** How long a response may go without its client taking any of it before the connection is dropped (30 s). */
  readonly sendTimeoutMs?: number;
  /**
   * The PDF renderer threads: how many, and their queue (src/http/pdf-workers.ts has the defaults);
   * 'none' renders in the request instead, as the CLI does (the tests' servers, which would otherwise start threads each).
   */
  readonly pdfWorkers?: Partial<PoolLimits> | 'none';
}

export interface RunningServer {
  readonly url: string;
  readonly server: http.Server;
  /** Once the work left for after the responses so far (an e-mail) is done. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** A connection's response in progress, and the requests pipelined behind it. */
interface Connection {
  current: http.ServerResponse | null;
  readonly next: (() => void)[];
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const requestLog = options.requestLog ?? new RequestLogWriter(options.store, options.clock);
  const pdfs = options.pdfWorkers === 'none' ? null : pdfPool(options.pdfWorkers);
  const afterResponse = new AfterResponse();
  const app = createApp({ ...options, requestLog, afterResponse, ...(pdfs ? { pdfPool: pdfs } : {}) });
  const handle = app.handler as unknown as http.RequestListener;
  const connections = new WeakMap<Socket, Connection>();

  // Pipelined requests wait for the response before theirs (Node sends responses in order anyway), so that a
  // client pipelining hundreds of requests and reading none makes the server hold one response, not hundreds.
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    let connection = connections.get(socket);
    if (!connection) connections.set(socket, (connection = { current: null, next: [] }));
    const c = connection;
    const start = () => {
      if (socket.destroyed) {
        c.next.length = 0;
        return;
      }
      c.current = res;
      res.once('close', () => {
        c.current = null;
        c.next.shift()?.();
      });
      handle(req, res);
    };
    if (c.current) c.next.push(start);
    else start();
  };
  const server = http.createServer(onRequest);
  // Expect: 100-continue is answered when the body is to be read, and its declared size is within the operation's
  // limit (body.ts), not by node at once: a body too large, or a request refused before it is read, is answered
  // without the client sending it (node then closes the connection).
  server.on('checkContinue', (req: http.IncomingMessage & { [askForBody]?: () => void }, res: http.ServerResponse) => {
    req[askForBody] = () => res.writeContinue();
    onRequest(req, res);
  });
  server.keepAliveTimeout = 5000;
  // Node's socket timeout counts time without progress, reading or writing (nginx's send_timeout): a client
  // that stops reading a response is dropped; one that reads slowly is not.
  server.timeout = options.sendTimeoutMs ?? 30_000;
  server.on('timeout', (socket: Socket) => {
    const current = connections.get(socket)?.current;
    // A request fully received whose answer is still being worked out (a PDF waiting for a renderer) is not a stalled send.
    if (current && current.req.complete && !current.headersSent) return;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    server,
    settled: () => afterResponse.settled(),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // close() stops accepting and ends idle keep-alive connections; busy ones end after their response.
        server.close(
          () =>
            void afterResponse
              .settled()
              .then(() => requestLog.close())
              .then(() => (pdfs ? pdfs.close() : undefined))
              .then(resolve),
        );
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), options.graceMs ?? 10_000).unref();
      })),
  };
}
