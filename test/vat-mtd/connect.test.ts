/**
 * acct vat connect: the OAuth 2.0 authorisation-code flow with a loopback
 * redirect, driven by a test that plays the browser (it opens the printed
 * address, follows the stand-in's redirect back to 127.0.0.1) in-process,
 * and once end to end through the real bin/acct.
 */
import { spawn } from 'node:child_process';
import t from 'tap';
import type { Test } from 'tap';
import { acctCommand, childEnv, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { AppError } from '../../src/engine/errors.js';
import { checkAccess } from '../../src/engine/operation.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Cli } from '../../src/cli/context.js';
import { connectWithBrowser } from '../../src/cli/commands/vat-connect.js';
import { mtdBooks, tokensRow, type MtdBooks } from './support.js';

/** The CLI's shared context over the test's books, as withCli builds it but with the stand-in as HMRC. */
function cliOf(m: MtdBooks): Cli {
  const cli: Cli = {
    store: m.books.store,
    clock: m.clock,
    globals: {},
    ctx: () => Promise.resolve(m.ctx()),
    print: () => undefined,
    async run(op, raw) {
      const input = parseOperationInput(op, raw);
      const ctx = m.ctx();
      checkAccess(op.access, ctx.principal);
      return op.run(ctx, input);
    },
  };
  return cli;
}

interface Browser {
  /** The page the browser ended on: its status and text. */
  readonly page: Promise<{ status: number; text: string }>;
}

/** A browser told to open `url`: it follows HMRC's redirect back to acct's loopback address, changing the query with `tamper`. */
function browse(url: string, tamper: (back: URL) => void = () => undefined): Browser {
  const page = (async () => {
    const hmrc = await fetch(url, { redirect: 'manual' });
    const back = new URL(hmrc.headers.get('location') ?? '');
    tamper(back);
    const res = await fetch(back);
    return { status: res.status, text: await res.text() };
  })();
  return { page };
}

async function failing(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(e instanceof AppError)) throw new Error(`expected an AppError, got ${String(e)}`);
  return e;
}

t.test('the browser signs in, HMRC sends it back with a code, the tokens are kept', async (t) => {
  const m = await mtdBooks(t);
  let browser: Browser | undefined;
  let redirect = '';
  const connection = await connectWithBrowser(cliOf(m), {
    port: 0,
    timeoutMs: 10_000,
    onUrl: (url, redirectUri) => {
      redirect = redirectUri;
      t.match(url, `${m.standIn.url}/oauth/authorize?response_type=code&client_id=${m.standIn.clientId}&scope=read%3Avat+write%3Avat&state=`);
      t.match(new URL(url).searchParams.get('redirect_uri'), /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      browser = browse(url);
    },
  });
  t.match(connection, { connected: true, hmrcBaseUrl: m.standIn.url, scope: 'read:vat write:vat', accessExpiresAt: '2026-07-15T14:00:00.000Z' });
  t.same(await browser?.page, { status: 200, text: 'acct is connected to HMRC. You can close this window.\n' });
  t.match(m.standIn.tokenRequests, [{ grant_type: 'authorization_code', redirect_uri: redirect }]);
  t.match(await tokensRow(m.books), { access_token: m.standIn.accessTokens[0], base_url: m.standIn.url });
  // The loopback server is gone.
  await t.rejects(fetch(redirect));
});

t.test('the user refuses at HMRC: nothing is kept, the browser is told', async (t) => {
  const m = await mtdBooks(t, { deny: true });
  let browser: Browser | undefined;
  const e = await failing(connectWithBrowser(cliOf(m), { port: 0, timeoutMs: 10_000, onUrl: (url) => (browser = browse(url)) }));
  t.equal(e.code, 'hmrc_not_connected');
  t.equal(e.message, 'HMRC did not grant access (access_denied: user denied the authorization); nothing was stored: run acct vat connect again');
  t.match(await browser?.page, { status: 400, text: /HMRC did not grant acct access/ });
  t.equal(await tokensRow(m.books), undefined);
  t.same(m.standIn.tokenRequests, []);
});

t.test('an answer with another state (a forged or stale redirect) is refused; the code is never exchanged', async (t) => {
  const m = await mtdBooks(t);
  let browser: Browser | undefined;
  const e = await failing(
    connectWithBrowser(cliOf(m), {
      port: 0,
      timeoutMs: 10_000,
      onUrl: (url) => (browser = browse(url, (back) => back.searchParams.set('state', 'forged'))),
    }),
  );
  t.equal(e.code, 'hmrc_not_connected');
  t.match(e.message, /carried a state acct did not send/);
  t.match(await browser?.page, { status: 400 });
  t.same(m.standIn.tokenRequests, [], 'no code exchanged');
  t.equal(await tokensRow(m.books), undefined);
});

t.test('no browser comes back in time', async (t) => {
  const m = await mtdBooks(t);
  const e = await failing(connectWithBrowser(cliOf(m), { port: 0, timeoutMs: 300, onUrl: () => undefined }));
  t.equal(e.code, 'hmrc_not_connected');
  t.match(e.message, /no answer came back to http:\/\/127\.0\.0\.1:\d+\/callback within 0\.3 seconds/);
});

t.test('HMRC refusing the code (used already) is 422 hmrc_rejected, and the browser is told', async (t) => {
  const m = await mtdBooks(t);
  let browser: Browser | undefined;
  const e = await failing(
    connectWithBrowser(cliOf(m), {
      port: 0,
      timeoutMs: 10_000,
      onUrl: (url) => (browser = browse(url, (back) => back.searchParams.set('code', 'not-a-code-hmrc-issued'))),
    }),
  );
  t.equal(e.code, 'hmrc_rejected');
  t.equal(e.message, 'HMRC refused the authorisation code: invalid_grant (code is invalid); run acct vat connect again');
  t.match(await browser?.page, { status: 502, text: /acct could not complete the connection/ });
});

t.test('without client credentials: 422 hmrc_not_configured before anything listens', async (t) => {
  const m = await mtdBooks(t);
  const r = await runCliInProcess(['--data', m.books.dataDir, '--hmrc-base-url', m.standIn.url, 'vat', 'connect'], {
    env: { ACCT_HMRC_CLIENT_ID: undefined, ACCT_HMRC_CLIENT_SECRET: undefined },
  });
  t.equal(r.status, 5);
  t.match(r.stderr, /hmrc_not_configured.*ACCT_HMRC_CLIENT_ID and ACCT_HMRC_CLIENT_SECRET/);
});

/** Run the real bin/acct, playing the browser once it prints the address on standard error. */
function connectEndToEnd(t: Test, m: MtdBooks, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; page: unknown }> {
  const [cmd, argv] = acctCommand(['--data', m.books.dataDir, '--hmrc-base-url', m.standIn.url, ...args]);
  const env = childEnv({ ACCT_HMRC_CLIENT_ID: m.standIn.clientId, ACCT_HMRC_CLIENT_SECRET: m.standIn.clientSecret });
  const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => void child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  let browser: Browser | undefined;
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    const url = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)$/m.exec(stderr)?.[1];
    if (url && !browser) browser = browse(url);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => void (browser?.page ?? Promise.resolve(null)).then((page) => resolve({ code, stdout, stderr, page })));
  });
}

t.test('end to end: the real acct vat connect, then acct vat connection', async (t) => {
  const m = await mtdBooks(t);
  const r = await connectEndToEnd(t, m, ['vat', 'connect']);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /Open this address in a browser, sign in to HMRC and grant acct access to your VAT account:/);
  t.match(r.stderr, /Waiting for HMRC to send the browser back to http:\/\/127\.0\.0\.1:\d+\/callback/);
  t.equal(
    r.stdout,
    `Connected to HMRC at ${m.standIn.url} (scope read:vat write:vat); the access token lasts until ${(await tokensRow(m.books))?.expires_at} and is refreshed as needed.\n`,
  );
  t.match(r.page, { status: 200 });

  const status = await runCliInProcessJson(['--data', m.books.dataDir, '--hmrc-base-url', m.standIn.url, '--json', 'vat', 'connection']);
  t.equal(status.status, 0, status.stderr);
  t.match(status.data, { connected: true, hmrcBaseUrl: m.standIn.url, scope: 'read:vat write:vat' });
  t.match(await tokensRow(m.books), { access_token: m.standIn.accessTokens[0] });

  // ACCT_HMRC_BASE_URL does what --hmrc-base-url does; the sandbox by default is another HMRC, not connected.
  const byEnv = await runCliInProcessJson(['--data', m.books.dataDir, '--json', 'vat', 'connection'], { env: { ACCT_HMRC_BASE_URL: m.standIn.url } });
  t.match(byEnv.data, { connected: true });
  const sandbox = await runCliInProcessJson(['--data', m.books.dataDir, '--json', 'vat', 'connection'], { env: { ACCT_HMRC_BASE_URL: undefined } });
  t.match(sandbox.data, { connected: false, hmrcBaseUrl: 'https://test-api.service.hmrc.gov.uk' });
});
