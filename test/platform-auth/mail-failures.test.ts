/**
 * Token e-mails when the mail server fails or is slow: forgot-password
 * answers the same whatever happens to the e-mail and as soon for a known
 * address as for an unknown one; the verification e-mail and the
 * administrator's reset link are 503; a failed send starts no cooldown.
 */
import net from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { movingClock, newBooks, serveBooks, type Api, type Books } from '../helpers/index.js';
import { startSmtp } from '../sales-cli/support.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import type { AppError } from '../../src/engine/errors.js';
import { expectError } from '../http/support.js';
import { adminAndUser, auditRows } from '../platform-admin/support.js';
import { logIn, person, registerUser } from './support.js';

const start = '2026-11-21T10:00:00Z';

const forgot = (api: Api, email: string) => api.request('POST', '/v1/password-reset/forgot-password', { key: null, body: { email } });
const tokens = (books: Books) => books.store.platform.db.selectFrom('user_tokens').select(['purpose', 'used_at']).execute();

/** An smtp:// URL of a loopback port nothing listens on (the connection is refused). */
async function deadSmtpUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}?ignoreTLS=true`;
}

/** Books served with a mail server that refuses connections; the failures the server logs. */
async function withMailDown(t: Test) {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const logged: AppError[] = [];
  const api = await serveBooks(t, books, { mailer: smtpMailer(await deadSmtpUrl()), onLogError: (e) => logged.push(e) });
  return { clock, books, api, logged };
}

/** A second server over the same books whose mail server works (the mail server back up). */
async function withMailUp(t: Test, books: Books) {
  const smtp = await startSmtp(t);
  return { smtp, api: await serveBooks(t, books, { mailer: smtpMailer(smtp.url()) }) };
}

t.test('forgot-password with the mail server down: the same answer as for an unknown address, the failure logged, no cooldown', async (t) => {
  const { books, api, logged } = await withMailDown(t);
  await registerUser(t, api);
  const known = await forgot(api, person.email);
  const unknown = await forgot(api, 'nobody@example.com');
  t.equal(known.status, 200, `not a 5xx: ${JSON.stringify(known.body)}`);
  t.same(known.body, unknown.body, 'the same answer');
  await api.settled();
  t.match(logged, [{ code: 'service_unavailable', message: /password reset e-mail could not be sent/ }], 'the failure is in the log');
  t.same(await tokens(books), [], 'the token of the failed send is not kept');

  const up = await withMailUp(t, books);
  t.equal((await forgot(up.api, person.email)).status, 200);
  await up.api.settled();
  t.same(
    up.smtp.messages.map((m) => m.rcptTo),
    [['jo@example.com']],
    'asked again within the minute, it is sent: the failed attempt started no cooldown',
  );
});

t.test('the verification e-mail with the mail server down: 503, nothing kept, and asking again is not held back', async (t) => {
  const { books, api, logged } = await withMailDown(t);
  await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  const send = (on: Api) => on.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken });
  expectError(t, await send(api), 503, 'service_unavailable', { message: /verification e-mail could not be sent/ });
  expectError(t, await send(api), 503, 'service_unavailable', { message: /verification e-mail could not be sent/ });
  t.equal(logged.length, 2, 'both failures logged');
  t.same(await tokens(books), [], 'no token kept');

  const up = await withMailUp(t, books);
  const sent = await send(up.api);
  t.same(sent.body.data, { email: 'jo@example.com', emailVerified: false, sent: true }, 'sent at once: no 429 for the e-mails that never went');
  t.equal(up.smtp.messages.length, 1);
});

t.test("an administrator's reset link with the mail server down: 503, no token, no audit row", async (t) => {
  const { books, api, logged } = await withMailDown(t);
  const { admin, userId } = await adminAndUser(t, api, books);
  expectError(t, await api.request('POST', `/v1/admin/users/${userId}/send-reset-link`, { key: admin }), 503, 'service_unavailable', {
    message: /password reset e-mail could not be sent/,
  });
  t.equal(logged.length, 1);
  t.same(await tokens(books), []);
  t.same(await auditRows(books), [], 'nothing audited: nothing was sent');
});

t.test('forgot-password answers before the e-mail is sent: a known address takes no longer than an unknown one', async (t) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  t.teardown(() => release());
  const books = await newBooks(t, { clock: movingClock(start) });
  // The mail server takes each message and then holds its answer until released.
  const smtp = await startSmtp(t, { hold: () => held });
  const api = await serveBooks(t, books, { mailer: smtpMailer(smtp.url()) });
  await registerUser(t, api);
  const answer = await Promise.race([forgot(api, person.email), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 2000))]);
  const waited = answer === 'waiting';
  release();
  t.notOk(waited, 'answered while the mail server still held the message');
  if (answer !== 'waiting') t.same(answer.body, (await forgot(api, 'nobody@example.com')).body, 'the same answer');
  t.equal(smtp.messages.length, 0, 'the mail server has not accepted it yet');
  await api.settled();
  t.same(
    smtp.messages.map((m) => m.rcptTo),
    [['jo@example.com']],
    'then it is sent',
  );
  const token = /\b[0-9a-f]{64}\b/.exec(smtp.messages[0]?.raw.toString('utf8') ?? '')?.[0] ?? '';
  t.same((await api.request('GET', `/v1/password-reset/reset-password/validate?token=${token}`, { key: null })).body.data, {
    valid: true,
    email: 'jo*****@example.com',
  });
});
