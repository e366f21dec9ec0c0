/** What every CLI command shares: global options, opening the store, the caller, printing results. */
import fs from 'node:fs';
import os from 'node:os';
import chalk from 'chalk';
import { AppError } from '../engine/errors.js';
import { systemClock, type Clock } from '../engine/clock.js';
import { scopes } from '../engine/scopes.js';
import { checkAccess, type Ctx, type FileResult, type Operation, type Principal, type Result } from '../engine/operation.js';
import type { Mailer } from '../engine/mail.js';
import { sandboxBaseUrl, type HmrcSettings } from '../engine/hmrc.js';
import { stripeApiUrl, type BillingSettings } from '../engine/stripe.js';
import { parseOperationInput, type RawInput } from '../engine/input.js';
import { loadOrganisation } from '../engine/organisation/organisation.js';
import { resolveOrganisation } from '../engine/platform/organisations.js';
import { appErrorOf } from '../store/driver-errors.js';
import { platformFile, resolveDataDir } from '../store/data-dir.js';
import { openStore, resolveDatabase } from '../store/open.js';
import type { Mode, Store } from '../store/store.js';
import { printable, renderData, renderError } from './render.js';
import { moneyTestOf } from './money-columns.js';
import { tableWidth } from './fit-table.js';

export interface GlobalOptions {
  readonly data?: string;
  /** A postgres:// URL: the books are kept there rather than in the data directory's SQLite files. */
  readonly database?: string;
  readonly org?: string;
  readonly test?: boolean;
  readonly json?: boolean;
  /** Every column of a table, however wide. */
  readonly wide?: boolean;
  readonly smtp?: string;
  readonly hmrcBaseUrl?: string;
}

export interface Cli {
  readonly store: Store;
  readonly clock: Clock;
  readonly globals: GlobalOptions;
  /**
   * The context of an operation run by the owner of the files, with every
   * scope. `writes`: the command is about to change the books, so on a
   * terminal the first line of its output names them (see contextLine).
   */
  ctx(options?: { needsOrganisation?: boolean; writes?: boolean }): Promise<Ctx>;
  /** Print an operation's data: JSON with --json, else tables with money in pounds (`op` says which fields are money). */
  print(data: unknown, meta?: unknown, op?: Operation): void;
  /** Run an operation as the owner of the files: access check, input validation, handler; `extra` joins the context (a progress bar). */
  run(op: Operation, raw: RawInput, extra?: Pick<Ctx, 'progress'>): Promise<Result>;
}

/**
 * Open the data directory, run `work`, close; errors print their code and
 * set the exit status. Only `create` (acct init) makes a data directory
 * that is not there, and records a --database URL in it: any other command
 * on one that is not there is refused, leaving no file.
 */
export async function withCli(globals: GlobalOptions, work: (cli: Cli) => Promise<void>, { create = false } = {}): Promise<void> {
  let store: Store | undefined;
  try {
    const dataDir = resolveDataDir(globals.data);
    const database = resolveDatabase(globals.database, dataDir);
    if (!create && database === undefined && !fs.existsSync(platformFile(dataDir))) {
      throw new AppError('not_found', `no organisation in ${dataDir}: run acct init first`);
    }
    // Only acct init (create) records the database in the data directory: another command's --database is for this run.
    store = await openStore(dataDir, { database, create, record: create });
    const opened = store;
    let named = false;
    const cli: Cli = {
      store: opened,
      clock: systemClock,
      globals,
      async ctx({ needsOrganisation = true, writes = false } = {}) {
        let principal: Principal | null = null;
        if (needsOrganisation) {
          const organisationId = await resolveOrganisation(opened, globals.org);
          principal = { organisationId, mode: globals.test ? 'test' : 'live', scopes, keyId: null, actor: cliActor() };
          if (writes && !named && !globals.json && process.stdout.isTTY === true) {
            named = true;
            const { name } = await loadOrganisation(opened.org(organisationId, principal.mode).db);
            process.stdout.write(`${chalk.dim(printable(contextLine(name, principal.mode)))}\n`);
          }
        }
        return {
          clock: systemClock,
          store: opened,
          platform: opened.platform,
          principal,
          mailer: await mailerOf(globals),
          hmrc: hmrcOf(globals),
          billing: billingOf(),
        };
      },
      print(data, meta, op) {
        process.stdout.write(
          globals.json ? `${JSON.stringify(data, null, 2)}\n` : renderData(data, meta, op ? moneyTestOf(op) : undefined, tableWidth(globals.wide)),
        );
      },
      async run(op, raw, extra) {
        const input = parseOperationInput(op, raw);
        const admin = op.access === 'admin';
        const ctx = await cli.ctx({ needsOrganisation: op.access !== 'public' && !admin, writes: op.method !== 'GET' && !admin });
        const principal = admin ? operatorPrincipal() : ctx.principal;
        checkAccess(op.access, principal);
        const request = { method: op.method, path: ['acct', op.cli.group, op.cli.action].filter(Boolean).join(' '), ipAddress: null, userAgent: 'acct CLI' };
        return op.run({ ...ctx, principal, request, ...extra }, input);
      },
    };
    await work(cli);
  } catch (e) {
    reportError(e, globals.json === true);
  } finally {
    await store?.close();
  }
}

/**
 * The books a command changes, printed first on a terminal so that a
 * person sees which organisation (and whether the test books) before
 * reading what was done: its name, and "TEST books" under --test. Not
 * with --json nor into a pipe, whose readers parse the output.
 */
export const contextLine = (name: string, mode: Mode): string => (mode === 'test' ? `${name} · TEST books` : name);

/** The SMTP mailer of --smtp or $ACCT_SMTP_URL, loaded only when one is configured. */
export async function mailerOf(globals: GlobalOptions): Promise<Mailer | null> {
  const url = globals.smtp ?? process.env['ACCT_SMTP_URL'];
  if (url === undefined || url === '') return null;
  const { smtpMailer } = await import('../mail/smtp.js');
  return smtpMailer(url);
}

/** HMRC's API: --hmrc-base-url or $ACCT_HMRC_BASE_URL (HMRC's sandbox by default), and the client id and secret from the environment. */
export function hmrcOf(globals: GlobalOptions): HmrcSettings {
  const env = (name: string): string | null => {
    const value = process.env[name];
    return value === undefined || value === '' ? null : value;
  };
  return {
    baseUrl: globals.hmrcBaseUrl ?? env('ACCT_HMRC_BASE_URL') ?? sandboxBaseUrl,
    clientId: env('ACCT_HMRC_CLIENT_ID'),
    clientSecret: env('ACCT_HMRC_CLIENT_SECRET'),
  };
}

/** The card-payment provider's settings as acct serve's flags give them (the other commands have none of these flags). */
export interface BillingFlags {
  readonly stripeKey?: string;
  readonly stripeBaseUrl?: string;
  readonly stripeWebhookSecret?: string;
  readonly billingReturnUrl?: string;
}

/** The card-payment provider (Stripe): the flags given, else $ACCT_STRIPE_KEY, $ACCT_STRIPE_BASE_URL (default Stripe's API), $ACCT_STRIPE_WEBHOOK_SECRET, $ACCT_BILLING_RETURN_URL. */
export function billingOf(flags: BillingFlags = {}): BillingSettings {
  const env = (name: string): string | null => {
    const value = process.env[name];
    return value === undefined || value === '' ? null : value;
  };
  return {
    secretKey: flags.stripeKey ?? env('ACCT_STRIPE_KEY'),
    baseUrl: flags.stripeBaseUrl ?? env('ACCT_STRIPE_BASE_URL') ?? stripeApiUrl,
    webhookSecret: flags.stripeWebhookSecret ?? env('ACCT_STRIPE_WEBHOOK_SECRET'),
    returnUrl: flags.billingReturnUrl ?? env('ACCT_BILLING_RETURN_URL'),
  };
}

/** Refuse a missing -o, or an existing file without --force, before the document is made (rendering it costs seconds). */
export function checkOutput(output: string | undefined, force: boolean): asserts output is string {
  if (output === undefined || output === '') {
    throw new AppError('validation_error', 'say where to write the document: -o FILE, or -o - for standard output', 'output');
  }
  if (!force && output !== '-' && fs.existsSync(output)) throw existing(output);
}

const existing = (output: string): AppError => new AppError('conflict', `${output} already exists: pass --force to overwrite it`);

/**
 * Write a document where the user said: `-o FILE`, or `-o -` for standard
 * output; the path written, or null for standard output. Never a name
 * taken from the data (a document number is made from a prefix that any
 * key holder may set), and never over an existing file without --force:
 * the exclusive create also refuses a link planted at that name.
 */
export function writeFileResult(file: FileResult, output: string | undefined, force = false): string | null {
  checkOutput(output, force);
  if (output === '-') {
    fs.writeSync(1, file.bytes);
    return null;
  }
  try {
    fs.writeFileSync(output, file.bytes, { flag: force ? 'w' : 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw existing(output);
    throw new AppError('validation_error', `cannot write ${output}: ${(e as Error).message}`, 'output');
  }
  return output;
}

/** The local user, recorded as the author of what the CLI changes. */
/**
 * The local operator of the files running an administrator command: an
 * administrator (whoever can open the files can read them anyway), in no
 * organisation, recorded in the audit log as local:<user name>.
 */
export function operatorPrincipal(): Principal {
  const actor = cliActor();
  return { organisationId: '', mode: 'live', scopes: [], keyId: null, actor, admin: { userId: null, email: `local:${actor.name}` } };
}

function cliActor(): { id: string; name: string } {
  let name = process.env['USER'] ?? 'local user';
  try {
    name = os.userInfo().username;
  } catch {
    // no passwd entry (some containers): keep $USER
  }
  return { id: 'cli', name };
}

export function reportError(e: unknown, json: boolean): void {
  const error = appErrorOf(e);
  // A bug's cause, for its report; a 503 (the database down, an e-mail refused) says what happened in its message.
  if (error.status >= 500 && error.code !== 'service_unavailable' && error.cause) console.error(error.cause);
  console.error(renderError(error, json));
  process.exitCode = error.exitCode;
}

/** `--body`: JSON text, @file.json, or - for standard input. */
export function readBodyArgument(value: string): unknown {
  let text = value;
  try {
    if (value === '-') text = fs.readFileSync(0, 'utf8');
    else if (value.startsWith('@')) text = fs.readFileSync(value.slice(1), 'utf8');
  } catch (e) {
    throw new AppError('validation_error', `cannot read ${value === '-' ? 'standard input' : value.slice(1)}: ${(e as Error).message}`, 'body');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AppError('validation_error', `malformed JSON body: ${(e as Error).message}`, 'body');
  }
}
