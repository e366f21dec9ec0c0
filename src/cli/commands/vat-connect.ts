/**
 * acct vat connect: the OAuth 2.0 sign-in to HMRC from the command line.
 * It listens on a loopback address, prints the HMRC address to open, waits
 * for the browser to come back with the authorisation code, checks the
 * state, and has the code exchanged for tokens (vat.authorisation-url and
 * vat.authorise, the operations an API client would use).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { authorisationUrlOp, authorise } from '../../engine/vat/mtd/connection-ops.js';
import { withCli, type Cli, type GlobalOptions } from '../context.js';
import { examplesText, groupSummaries, handWritten } from '../help.js';
import { openLoopback } from '../loopback.js';
import { parsePort } from './serve.js';

export interface Connection {
  readonly connected: boolean;
  readonly hmrcBaseUrl: string;
  readonly scope: string | null;
  readonly accessExpiresAt: string | null;
}

export interface ConnectOptions {
  readonly port: number;
  readonly timeoutMs: number;
  /** Told the address the user must open, once the loopback server listens. */
  readonly onUrl: (url: string, redirectUri: string) => void;
}

const notConnected = (why: string) => new AppError('hmrc_not_connected', `${why}; nothing was stored: run acct vat connect again`);

/** The whole sign-in; the connection once the tokens are stored. */
export async function connectWithBrowser(cli: Cli, options: ConnectOptions): Promise<Connection> {
  const loopback = await openLoopback(options.port);
  try {
    const redirectUri = loopback.redirectUri;
    const asked = await cli.run(authorisationUrlOp, { params: {}, query: { redirectUri }, body: undefined });
    const { url, state } = asked.data as { url: string; state: string };
    options.onUrl(url, redirectUri);
    const back = await loopback.callback(options.timeoutMs);
    if (back === null) throw notConnected(`no answer came back to ${redirectUri} within ${options.timeoutMs / 1000} seconds`);
    const q = back.query;
    if (q.get('state') !== state) {
      back.answer(400, 'This answer does not belong to the sign-in acct started; nothing was stored.');
      throw notConnected(`the answer to ${redirectUri} carried a state acct did not send (a stale or forged redirect)`);
    }
    const error = q.get('error');
    const code = q.get('code');
    if (error !== null || code === null || code === '') {
      const said = [error ?? 'no code', q.get('error_description')].filter((s) => s !== null && s !== '').join(': ');
      back.answer(400, `HMRC did not grant acct access (${said}); nothing was stored.`);
      throw notConnected(`HMRC did not grant access (${said})`);
    }
    try {
      const done = await cli.run(authorise, { params: {}, query: {}, body: { code, redirectUri } });
      back.answer(200, 'acct is connected to HMRC. You can close this window.');
      return done.data as Connection;
    } catch (e) {
      back.answer(502, `acct could not complete the connection: ${(e as Error).message}`);
      throw e;
    }
  } finally {
    await loopback.close();
  }
}

function parseTimeout(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 3600) throw new InvalidArgumentError('expected a whole number of seconds from 1 to 3600');
  return Number(value);
}

export function addVatConnect(program: Command): void {
  const doc = handWritten.vatConnect;
  const group = program.command('vat').description(groupSummaries['vat'] ?? '');
  group
    .command('connect')
    .option('--port <port>', 'the loopback port HMRC sends the browser back to, as registered with your HMRC application (0: a free one)', parsePort, 0)
    .option('--timeout <seconds>', 'how long to wait for the browser to come back', parseTimeout, 600)
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { port: number; timeout: number }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const connection = await connectWithBrowser(cli, {
          port: flags.port,
          timeoutMs: flags.timeout * 1000,
          onUrl: (url, redirectUri) =>
            process.stderr.write(
              `Open this address in a browser, sign in to HMRC and grant acct access to your VAT account:\n\n  ${url}\n\n` +
                `Waiting for HMRC to send the browser back to ${redirectUri} …\n`,
            ),
        });
        if (globals.json) cli.print(connection);
        else {
          process.stdout.write(
            `Connected to HMRC at ${connection.hmrcBaseUrl} (scope ${connection.scope ?? ''}); ` +
              `the access token lasts until ${connection.accessExpiresAt ?? ''} and is refreshed as needed.\n`,
          );
        }
      });
    });
}
