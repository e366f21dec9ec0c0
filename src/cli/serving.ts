/**
 * Running the server: the HTTP layer, the overdue sweeper and the webhook
 * sender, until SIGTERM or SIGINT. Loaded only by `acct serve` and `acct
 * demo`, so that other commands do not pay for the HTTP layer at start-up.
 */
import fs from 'node:fs';
import { AppError } from '../engine/errors.js';
import { systemClock } from '../engine/clock.js';
import { operations } from '../engine/registry.js';
import { startServer, type RunningServer } from '../http/server.js';
import { resolveDataDir } from '../store/data-dir.js';
import { openStore, resolveDatabase } from '../store/open.js';
import type { Store } from '../store/store.js';
import { billingOf, hmrcOf, mailerOf, reportError, type BillingFlags, type GlobalOptions } from './context.js';
import { OverdueSweeper } from '../engine/sales/overdue.js';
import { WebhookSender } from '../engine/integration/webhook-sender.js';

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
  /** One reverse proxy in front: the client's address is the last in X-Forwarded-For. */
  readonly trustProxy?: boolean;
  /** Seconds between overdue sweeps of the books issued into since (everything is swept at start and each new day); 0 sweeps only at start. */
  readonly sweepInterval?: number;
  /** The card-payment provider's settings given as flags (the rest from the environment). */
  readonly billing?: BillingFlags;
  /** Called once the server accepts connections, before the URL line is printed. */
  readonly onListening?: (server: RunningServer, store: Store) => Promise<string[]>;
}

/** Serve until SIGTERM or SIGINT, then finish requests in flight and close the databases. */
export async function serve(globals: GlobalOptions, options: ServeOptions, prepare?: (store: Store) => Promise<void>): Promise<void> {
  let store: Store | undefined;
  try {
    const dataDir = resolveDataDir(globals.data);
    store = await openStore(dataDir, { database: resolveDatabase(globals.database, dataDir), create: true });
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
      hmrc: hmrcOf(globals),
      billing: billingOf(options.billing),
      rateLimits: options.rateLimits ?? true,
      trustProxy: options.trustProxy ?? false,
      webhookPolicy: policy,
    });
    const opened = store;
    // The overdue sweep of every organisation now, which also gives the webhook sender its first look at each set of
    // books while the file is open (so start-up opens each once); then the sender wakes for new events and due retries.
    const report = (message: string) => console.error(message);
    const sweeper = new OverdueSweeper(opened, { clock: systemClock, intervalMs: (options.sweepInterval ?? 60) * 1000, report });
    const sender = new WebhookSender(opened, { clock: systemClock, policy, ca, report });
    await sweeper.start((books) => sender.lookAt(books));
    sender.start();
    const extra = (await options.onListening?.(running, store)) ?? [];
    process.stdout.write(`acct listening on ${running.url} (data ${store.dataDir})\n${extra.map((l) => `${l}\n`).join('')}`);
    const stop = async () => {
      const sweeperStopped = sweeper.stop();
      const senderStopped = sender.stop();
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      await running.close();
      await sweeperStopped;
      await senderStopped;
      await opened.close();
    };
    const onSignal = () => void stop();
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  } catch (e) {
    await store?.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      reportError(new AppError('validation_error', `cannot listen on ${options.host}:${options.port}: ${(e as Error).message}`, 'port'), globals.json === true);
    } else reportError(e, globals.json === true);
  }
}
