import { InvalidArgumentError, type Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { systemClock } from '../../engine/clock.js';
import { operations } from '../../engine/registry.js';
import { defaultBodyLimit } from '../../http/body.js';
import { startServer, type RunningServer } from '../../http/server.js';
import { resolveDataDir } from '../../store/data-dir.js';
import { Store } from '../../store/store.js';
import { mailerOf, reportError, type GlobalOptions } from '../context.js';
import { sweepEverything } from '../../engine/sales/overdue.js';
import { sendAllWebhooks } from '../../engine/integration/webhook-sender.js';
import fs from 'node:fs';
import { examplesText, handWritten } from '../help.js';

/** The --port option's parser: a bad port is a usage error (exit 2) before anything opens. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return port;
}

function parseByteCount(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('expected a positive number of bytes');
  return Number(value);
}

function parseSeconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 86_400) throw new InvalidArgumentError('expected a whole number of seconds from 0 to 86400');
  return Number(value);
}

interface ServeFlags {
  readonly host: string;
  readonly port: number;
  readonly bodyLimit: number;
  readonly sweepInterval: number;
  readonly rateLimit: boolean;
  readonly allowHttpWebhooks?: boolean;
  readonly allowPrivateWebhooks?: boolean;
  readonly webhookCa?: string;
}

function readCa(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new AppError('validation_error', `--webhook-ca: cannot read ${file}: ${(e as Error).message}`, 'webhook-ca');
  }
}

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly bodyLimit?: number;
  /** Webhook URLs allowed beyond public https ones, and extra CAs for deliveries. */
  readonly webhooks?: { readonly allowHttp: boolean; readonly allowPrivate: boolean; readonly ca?: string };
  /** Enforce the plans' rate limits (default true). */
  readonly rateLimits?: boolean;
  /** Seconds between overdue sweeps (one runs at start); 0 sweeps only at start. */
  readonly sweepInterval?: number;
  /** Called once the server accepts connections, before the URL line is printed. */
  readonly onListening?: (server: RunningServer, store: Store) => Promise<string[]>;
}

/** Serve until SIGTERM or SIGINT, then finish requests in flight and close the databases. */
export async function serve(globals: GlobalOptions, options: ServeOptions, prepare?: (store: Store) => Promise<void>): Promise<void> {
  let store: Store | undefined;
  try {
    store = Store.open(resolveDataDir(globals.data));
    await prepare?.(store);
    const policy = { allowHttp: options.webhooks?.allowHttp ?? false, allowPrivate: options.webhooks?.allowPrivate ?? false };
    const ca = options.webhooks?.ca === undefined ? undefined : readCa(options.webhooks.ca);
    const running = await startServer({
      store,
      clock: systemClock,
      operations,
      host: options.host,
      port: options.port,
      bodyLimit: options.bodyLimit,
      mailer: await mailerOf(globals),
      rateLimits: options.rateLimits ?? true,
      webhookPolicy: policy,
    });
    const opened = store;
    // Overdue sweeps: one now, then one every interval; stop waits for one in flight.
    const report = (message: string) => console.error(message);
    let sweeping: Promise<unknown> = sweepEverything(opened, systemClock, report);
    await sweeping;
    const interval = options.sweepInterval ?? 60;
    const timer =
      interval > 0
        ? setInterval(() => {
            sweeping = sweeping.then(() => sweepEverything(opened, systemClock, report)).catch((e: unknown) => report(`overdue sweep failed: ${String(e)}`));
          }, interval * 1000)
        : undefined;
    // The webhook sender: new events out and due retries, every second; stop waits for a round in flight.
    let sending: Promise<unknown> = Promise.resolve();
    let busy = false;
    const sender = setInterval(() => {
      if (busy) return;
      busy = true;
      sending = sendAllWebhooks(opened, { clock: systemClock, policy, ca }, report)
        .catch((e: unknown) => report(`webhook sender failed: ${String(e)}`))
        .finally(() => {
          busy = false;
        });
    }, 1000);
    const extra = (await options.onListening?.(running, store)) ?? [];
    process.stdout.write(`acct listening on ${running.url} (data ${store.dataDir})\n${extra.map((l) => `${l}\n`).join('')}`);
    const stop = async () => {
      clearInterval(timer);
      clearInterval(sender);
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      await running.close();
      await sweeping;
      await sending;
      await opened.close();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (e) {
    await store?.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      reportError(new AppError('validation_error', `cannot listen on ${options.host}:${options.port}: ${(e as Error).message}`, 'port'), globals.json === true);
    } else reportError(e, globals.json === true);
  }
}

export function addServe(program: Command): void {
  const doc = handWritten.serve;
  program
    .command(doc.name)
    .description(doc.summary)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 3000)
    .option('--body-limit <bytes>', 'largest request body accepted', parseByteCount, defaultBodyLimit)
    .option('--allow-http-webhooks', 'let webhook endpoints use plain http:// URLs (local development)')
    .option('--allow-private-webhooks', 'let webhook endpoints resolve to loopback, private or link-local addresses (local development)')
    .option('--webhook-ca <file>', 'PEM certificate authorities to trust for webhook deliveries, besides the system ones')
    .option('--no-rate-limit', 'do not enforce the plans\' request rate limits (for load tests and scripted migrations)')
    .option('--sweep-interval <seconds>', 'seconds between sweeps that mark invoices and bills past their due date overdue (0: only at start)', parseSeconds, 60)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: ServeFlags, cmd: Command) => {
      await serve(cmd.optsWithGlobals<GlobalOptions>(), {
        ...flags,
        rateLimits: flags.rateLimit,
        webhooks: { allowHttp: flags.allowHttpWebhooks === true, allowPrivate: flags.allowPrivateWebhooks === true, ...(flags.webhookCa ? { ca: flags.webhookCa } : {}) },
      });
    });
}
