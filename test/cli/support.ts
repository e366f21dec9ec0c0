/** What the CLI tests share: `acct init`, books made in-process, `acct --json` parsed, waiting for a server to stop. */
import net from 'node:net';
import type { Test } from 'tap';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { generousMs, newBooks, runCliInProcess, runCliInProcessJson, runCliOnTerminal, type CliOptions, type CliResult } from '../helpers/index.js';

export interface Created {
  readonly organisationId: string;
  readonly apiKey: string;
  readonly testApiKey: string;
}

export const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const liveKeyShape = /^sk_live_[0-9A-Za-z]{32}$/;
export const testKeyShape = /^sk_test_[0-9A-Za-z]{32}$/;

/** `acct --data DIR init … --yes --json` (in-process) with a limited company on the standard scheme unless told otherwise. */
export async function init(
  t: Test,
  dir: string,
  extra: readonly string[] = ['--name', 'Acme Widgets Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard'],
): Promise<Created> {
  const r = await runCliInProcess(['--data', dir, 'init', ...extra, '--yes', '--json']);
  if (r.status !== 0) t.fail(`init failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Created;
}

/**
 * A fresh data directory holding one organisation made in-process (Acme
 * Widgets Ltd, a limited company on the standard scheme, unless told
 * otherwise): a quicker set-up for tests that are not about init. Nothing
 * is chosen with acct use, so the CLI works on it as the only organisation.
 */
export async function books(t: Test, organisation: Partial<NewOrganisation> = {}): Promise<Created & { readonly dir: string }> {
  const b = await newBooks(t, { organisation });
  return { dir: b.dataDir, organisationId: b.organisationId, apiKey: b.apiKey, testApiKey: b.testApiKey };
}

/** `acct --data DIR --json ARGS…` (in-process), parsed; the test fails when it exits non-zero. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are checked field by field
export async function acctJson(t: Test, dir: string, args: readonly string[], options: Omit<CliOptions, 'input'> = {}): Promise<any> {
  const r = await runCliInProcessJson(['--data', dir, '--json', ...args], options);
  if (r.status !== 0) t.fail(`acct ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.data;
}

/**
 * The CLI on the books in `dir`, in-process: `acct` as it ran, `ok` its
 * stdout (the test fails when it exits non-zero), `json` its --json output
 * parsed (the same).
 */
export function cliOn(t: Test, dir: string) {
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const ok = async (...args: string[]): Promise<string> => {
    const r = await acct(...args);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const json = async (...args: string[]): Promise<never> => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as never;
  };
  return { acct, ok, json };
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolve once nothing listens on the URL's port any more (connections refused); reject after `ms` (a generous 20 s unless told). */
export async function waitUntilRefused(url: string, ms = generousMs): Promise<void> {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + ms;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    if (Date.now() > deadline) throw new Error(`${url} still accepts connections`);
    await delay(20);
  }
}

/** The start (YYYY-MM-DD) of the fiscal year holding today in the UK, for a year starting MM-DD. */
export function currentFiscalYearStart(monthDay: string, now = new Date()): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const year = Number(today.slice(0, 4));
  const thisYear = `${year}-${monthDay}`;
  return today >= thisYear ? thisYear : `${year - 1}-${monthDay}`;
}

/**
 * The real bin/acct on a pseudo-terminal `columns` wide, without colour, its
 * lines ending \n. `script` gives its terminal no size (0 columns) when
 * its own input is not one, so the width comes from $COLUMNS, which acct
 * reads first on a terminal.
 */
export function runCliOnTerminalAt(columns: number, args: readonly string[]): CliResult {
  const r = runCliOnTerminal(args, { env: { COLUMNS: String(columns), NO_COLOR: '1' } });
  return { ...r, stdout: r.stdout.replace(/\r\n/g, '\n') };
}
