/** Starting and stopping the HTTP server: listen, then on close finish requests in flight. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.js';
import { pdfPool } from './pdf-workers.js';
import type { PoolLimits } from './worker-pool.js';
import { RequestLogWriter } from '../engine/integration/request-log-writer.js';

export interface ServerOptions extends Omit<AppOptions, 'pdfPool'> {
  readonly host: string;
  readonly port: number;
  /** How long close() waits for requests in flight before cutting connections. */
  readonly graceMs?: number;
  /** The PDF renderer threads: how many, and their queue (src/http/pdf-workers.ts has the defaults). */
  readonly pdfWorkers?: Partial<PoolLimits>;
}

export interface RunningServer {
  readonly url: string;
  readonly server: http.Server;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const requestLog = options.requestLog ?? new RequestLogWriter(options.store, options.clock);
  const pdfs = pdfPool(options.pdfWorkers);
  const app = createApp({ ...options, requestLog, pdfPool: pdfs });
  const server = http.createServer(app.handler as unknown as http.RequestListener);
  server.keepAliveTimeout = 5000;
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
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // close() stops accepting and ends idle keep-alive connections; busy ones end after their response.
        server.close(() => void requestLog.close().then(() => pdfs.close().then(resolve)));
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), options.graceMs ?? 10_000).unref();
      })),
  };
}
