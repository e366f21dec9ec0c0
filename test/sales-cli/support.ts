/**
 * Helpers shared by the invoice CLI tests and the invoice e-mail test (not a
 * test file itself): a real SMTP server on a loopback port, the messages it
 * received taken apart by hand (MIME, base64, quoted-printable), the text of
 * a PDF through pdftotext, and the CLI's steps of an invoice's life.
 */
import { execFileSync } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { SMTPServer } from 'smtp-server';
import { runCliInProcessJson } from '../helpers/index.js';

export interface Received {
  /** The envelope: MAIL FROM (false when empty) and RCPT TO addresses. */
  readonly mailFrom: string | false;
  readonly rcptTo: readonly string[];
  /** The message as transmitted. */
  readonly raw: Buffer;
}

export interface Smtp {
  readonly port: number;
  /** Messages accepted so far, in order. */
  readonly messages: Received[];
  /** How many DATA commands were refused (with `refuse`). */
  refused(): number;
  /** An smtp:// URL for this server (without STARTTLS), with extra query parameters. */
  url(query?: Record<string, string>): string;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 and an ephemeral port, closed
 * when the test ends. With `refuse`, every message is read and then refused
 * with that text and code 550. With `hold`, the answer to each message waits
 * until the promise it returns settles (an SMTP server that hangs).
 */
export async function startSmtp(t: Test, options: { refuse?: string; hold?: () => Promise<unknown> } = {}): Promise<Smtp> {
  const messages: Received[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 1000,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => void answer());
      const answer = async () => {
        await options.hold?.();
        if (options.refuse !== undefined) {
          refused++;
          callback(Object.assign(new Error(options.refuse), { responseCode: 550 }));
          return;
        }
        const { mailFrom, rcptTo } = session.envelope;
        messages.push({ mailFrom: mailFrom === false ? false : mailFrom.address, rcptTo: rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      };
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= new Promise<void>((resolve) => server.close(() => resolve())));
  t.teardown(close);
  return {
    port,
    messages,
    refused: () => refused,
    url: (query = {}) => `smtp://127.0.0.1:${port}?${new URLSearchParams({ ignoreTLS: 'true', ...query }).toString()}`,
    close,
  };
}

/**
 * An SMTP server that greets and then drops the connection at the first
 * command (a mail relay going away mid-conversation); its smtp:// URL.
 */
export async function startDroppingSmtp(t: Test): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('220 drop.test ESMTP\r\n');
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `smtp://127.0.0.1:${(server.address() as AddressInfo).port}?ignoreTLS=true`;
}

export interface MimePart {
  /** Header values by lower-case name, unfolded. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, transfer-decoded. */
  readonly body: Buffer;
}

export interface Mail {
  readonly headers: Readonly<Record<string, string>>;
  /** The leaf parts, multiparts opened (a single-part message is its own one part). */
  readonly parts: readonly MimePart[];
}

/** A parameter of a header value: `filename` of `attachment; filename="INV-0001.pdf"`. */
export function headerParam(value: string | undefined, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

function splitEntity(text: string): { headers: Record<string, string>; body: string } {
  const at = text.indexOf('\r\n\r\n');
  const head = at < 0 ? text : text.slice(0, at);
  const body = at < 0 ? '' : text.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function transferDecode(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body, 'latin1');
  }
}

function leafParts(text: string): { headers: Record<string, string>; parts: MimePart[] } {
  const { headers, body } = splitEntity(text);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = headerParam(type, 'boundary');
  if (!/^multipart\//i.test(type) || boundary === undefined) {
    return { headers, parts: [{ headers, body: transferDecode(body, headers['content-transfer-encoding']) }] };
  }
  const parts: MimePart[] = [];
  // Between the first delimiter and the closing one; each delimiter begins a line.
  const sections = `\r\n${body}`.split(`\r\n--${boundary}`);
  for (const section of sections.slice(1)) {
    if (section.startsWith('--')) break;
    parts.push(...leafParts(section.replace(/^[ \t]*\r\n/, '')).parts);
  }
  return { headers, parts };
}

/** Take a received message apart (latin1 keeps the bytes of 8-bit bodies). */
export function parseMail(raw: Buffer): Mail {
  return leafParts(raw.toString('latin1'));
}

/** The text/plain part, decoded as UTF-8. */
export function mailText(mail: Mail): string {
  const part = mail.parts.find((p) => /^text\/plain/i.test(p.headers['content-type'] ?? 'text/plain'));
  return part ? part.body.toString('utf8') : '';
}

export interface Attachment {
  readonly contentType: string;
  readonly filename: string | undefined;
  readonly bytes: Buffer;
}

/** The parts sent as attachments. */
export function attachments(mail: Mail): Attachment[] {
  return mail.parts
    .filter((p) => /^attachment/i.test(p.headers['content-disposition'] ?? ''))
    .map((p) => ({
      contentType: (p.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
      filename: headerParam(p.headers['content-disposition'], 'filename') ?? headerParam(p.headers['content-type'], 'name'),
      bytes: p.body,
    }));
}

/** `pdftotext -layout` of PDF bytes. */
export function pdfText(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes, encoding: 'utf8' });
}

/** Each fragment present in order on one line of layout text, any spacing between. */
export function row(...parts: string[]): RegExp {
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[ \\t]+'));
}

/** No SMTP server from the environment running the tests. */
export const noSmtp: NodeJS.ProcessEnv = { ACCT_SMTP_URL: '' };

/** `acct --data DIR --json ARGS…` (in-process), parsed; the test fails when it exits non-zero. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- results are checked field by field
export async function acctOk(t: Test, dir: string, args: readonly string[]): Promise<any> {
  const r = await runCliInProcessJson(['--data', dir, '--json', ...args], { env: noSmtp });
  t.equal(r.status, 0, `acct ${args.join(' ')}: ${r.stderr}`);
  return r.data;
}

/** `acct contacts create` of a customer (Client One Ltd, jo@client.test unless told otherwise); its id. */
export async function customerOk(t: Test, dir: string, extra: readonly string[] = ['--email', 'jo@client.test']): Promise<string> {
  return (await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Client One Ltd', ...extra])).id as string;
}

/** Items worked by hand: 1.5 × £500.00 at 20% (net 750.00, VAT 150.00) and 2 × £10.00 at 0%; subtotal £770.00, VAT £150.00, total £920.00. */
export const twoItems = ['--item', 'Consulting;1.5;500.00;standard', '--item', 'Books;2;10;zero'] as const;

/** A past-due invoice (issued 2026-01-01, due 2026-01-31) for the contact, sent (still sent in the books until a read or a sweep moves it, though the reply says overdue, as that read will); its id and number. */
export async function sentPastDueOk(t: Test, dir: string, contactId: string): Promise<{ id: string; invoiceNumber: string }> {
  const created = await acctOk(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    contactId,
    ...twoItems,
    '--issue-date',
    '2026-01-01',
    '--due-date',
    '2026-01-31',
  ]);
  t.equal((await acctOk(t, dir, ['invoices', 'send', created.id])).status, 'overdue', `${created.invoiceNumber} sent, past its due date`);
  return { id: created.id as string, invoiceNumber: created.invoiceNumber as string };
}
