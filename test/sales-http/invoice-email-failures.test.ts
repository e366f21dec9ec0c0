/**
 * POST /v1/invoices/{id}/send with sendEmail when the SMTP server fails or
 * hangs, with and without an Idempotency-Key, over a real server: the
 * e-mail is sent with no transaction open, so other writes to the books go
 * on while it hangs; a failure answers 503 and leaves a draft, nothing
 * posted and no idempotency record, so the same key sends it later.
 */
import t from 'tap';
import type { Test } from 'tap';
import { movingClock, newBooks, type Api, type Books, type Reply } from '../helpers/index.js';
import { accountIds, outbox } from '../ledger-http/support.js';
import { item } from './invoice-support.js';
import { expectError, rowCount, serveWith } from '../integration/support.js';
import { fingerprintOf } from '../../src/engine/integration/idempotency.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import { startDroppingSmtp, startSmtp } from '../sales-cli/support.js';

const start = '2026-11-21T10:00:00Z';

type Serve = (smtpUrl: string) => Promise<Api & { readonly logged: { code: string }[] }>;

interface Draft {
  readonly books: Books;
  /** A server over the books whose mailer is the given SMTP server (several may run at once). */
  readonly serve: Serve;
  readonly acc: Readonly<Record<string, string>>;
  readonly invoice: { readonly id: string; readonly transactionId: string };
  readonly clock: ReturnType<typeof movingClock>;
}

/** Books with a customer (jo@client.test unless `email` is null) and a draft invoice of 1 × £100.00 at 20%. */
async function draft(t: Test, email: string | null = 'jo@client.test'): Promise<Draft> {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const serve: Serve = (smtpUrl) => serveWith(t, books, { rateLimits: false, mailer: smtpMailer(smtpUrl) });
  const api = await serveWith(t, books, { rateLimits: false });
  const acc = await accountIds(t, api);
  const contact = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Client One Ltd', ...(email ? { email } : {}) } });
  t.equal(contact.status, 201, 'contact created');
  const created = await api.request('POST', '/v1/invoices', { body: { contactId: contact.body.data.id, issueDate: '2026-11-01', items: [item()] } });
  t.equal(created.status, 201, 'invoice created');
  // 1 × £100.00 = £100.00 net; VAT 20% = £20.00; total £120.00 = 12000p.
  t.match(created.body.data, { status: 'draft', subtotal: 10000, vatAmount: 2000, total: 12000 });
  return { books, serve, acc, invoice: created.body.data, clock };
}

const headers = (key: string | undefined) => (key === undefined ? {} : { headers: { 'Idempotency-Key': key } });

function sendEmail(api: Api, id: string, key: string | undefined): Promise<Reply> {
  return api.request('POST', `/v1/invoices/${id}/send`, { body: { sendEmail: true }, ...headers(key) });
}

async function balance(api: Api, accountId: string): Promise<unknown> {
  return (await api.request('GET', `/v1/accounts/${accountId}/balance`)).body.data.balance;
}

/** Still a draft, its entries unposted, no invoice.sent, receivable and sales untouched, no idempotency record. */
async function untouched(t: Test, api: Api, d: Draft): Promise<void> {
  const got = await api.request('GET', `/v1/invoices/${d.invoice.id}`);
  t.match(got.body.data, { status: 'draft', sentAt: null }, 'still a draft');
  t.equal((await api.request('GET', `/v1/transactions/${d.invoice.transactionId}`)).body.data.status, 'draft', 'its entries are not posted');
  t.notOk(
    (await outbox(d.books)).some((e) => e.event === 'invoice.sent'),
    'no invoice.sent',
  );
  t.same(await balance(api, d.acc['1100']!), { debit: 0, credit: 0, net: 0 }, 'receivable untouched');
  t.same(await balance(api, d.acc['4000']!), { debit: 0, credit: 0, net: 0 }, 'sales untouched');
  t.equal(await rowCount(d.books, 'idempotency_keys'), 0, 'no idempotency record');
}

/** Sent once: posted, £120.00 receivable (12000p), £100.00 sales (10000p), one invoice.sent. */
async function sentOnce(t: Test, api: Api, d: Draft): Promise<void> {
  t.equal((await api.request('GET', `/v1/invoices/${d.invoice.id}`)).body.data.status, 'sent');
  t.equal((await api.request('GET', `/v1/transactions/${d.invoice.transactionId}`)).body.data.status, 'posted', 'its entries are posted');
  t.same(await balance(api, d.acc['1100']!), { debit: 12000, credit: 0, net: 12000 }, 'receivable £120.00');
  t.same(await balance(api, d.acc['4000']!), { debit: 0, credit: 10000, net: -10000 }, 'sales £100.00');
  t.equal((await outbox(d.books)).filter((e) => e.event === 'invoice.sent').length, 1, 'one invoice.sent');
}

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** `promise`, or a failure when it takes longer than `ms`. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const failures = {
  'refuses the message': async (t: Test) => (await startSmtp(t, { refuse: 'mailbox unavailable' })).url(),
  'drops the connection': (t: Test) => startDroppingSmtp(t),
} as const;

for (const [failure, failing] of Object.entries(failures)) {
  for (const key of [undefined, 'k-send']) {
    t.test(`an SMTP server that ${failure}, ${key ? 'with' : 'without'} an Idempotency-Key: 503, a draft, nothing posted; later it goes through`, async (t) => {
      const d = await draft(t);
      const broken = await d.serve(await failing(t));
      const r = await sendEmail(broken, d.invoice.id, key);
      expectError(t, r, 503, 'service_unavailable', { message: /could not be e-mailed.*still a draft/ });
      t.same(
        broken.logged.map((e) => e.code),
        ['service_unavailable'],
        'logged as a service failure',
      );
      await untouched(t, broken, d);

      // The same request (and key) against a working SMTP server: it runs, it is not a replay.
      const smtp = await startSmtp(t);
      const working = await d.serve(smtp.url());
      const retried = await sendEmail(working, d.invoice.id, key);
      t.equal(retried.status, 200, JSON.stringify(retried.body?.error ?? ''));
      t.equal(retried.headers.get('idempotent-replayed'), null, 'not a replay');
      t.match(retried.body.data, { status: 'sent', emailed: true });
      t.equal(smtp.messages.length, 1, 'one e-mail');
      await sentOnce(t, working, d);
      t.equal(await rowCount(d.books, 'idempotency_keys'), key ? 1 : 0, key ? 'the success is recorded' : 'no key, no record');
      if (key) {
        const again = await sendEmail(working, d.invoice.id, key);
        t.equal(again.headers.get('idempotent-replayed'), 'true');
        t.equal(again.text, retried.text, 'the success is replayed');
        t.equal(smtp.messages.length, 1, 'no second e-mail');
      }
    });
  }
}

for (const key of [undefined, 'k-hang']) {
  t.test(
    `an SMTP server that hangs, ${key ? 'with' : 'without'} an Idempotency-Key: other writes go on meanwhile; then it refuses: 503 and a draft`,
    async (t) => {
      const d = await draft(t);
      const arrived = gate();
      const release = gate();
      const smtp = await startSmtp(t, {
        refuse: 'mailbox unavailable',
        hold: () => {
          arrived.open();
          return release.promise;
        },
      });
      const api = await d.serve(smtp.url());
      let settled = false;
      const sending = sendEmail(api, d.invoice.id, key).finally(() => (settled = true));
      await within(10_000, arrived.promise, 'the e-mail reaching the SMTP server');

      // While the SMTP server holds the message, the books take other writes.
      const contact = await within(
        5000,
        api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Paper Supplies Ltd' } }),
        'POST /v1/contacts',
      );
      t.equal(contact.status, 201, 'a contact is created while the e-mail hangs');
      const keyed = await within(
        5000,
        api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Ink Ltd' }, headers: { 'Idempotency-Key': 'k-other' } }),
        'a keyed POST',
      );
      t.equal(keyed.status, 201, 'and one with its own Idempotency-Key');
      const renamed = await within(5000, api.request('PUT', '/v1/organisation', { body: { email: 'accounts@acme.test' } }), 'PUT /v1/organisation');
      t.equal(renamed.status, 200);
      t.equal(settled, false, 'the send is still waiting for the SMTP server');

      release.open();
      expectError(t, await sending, 503, 'service_unavailable');
      t.equal(smtp.refused(), 1);
      const got = await api.request('GET', `/v1/invoices/${d.invoice.id}`);
      t.match(got.body.data, { status: 'draft', sentAt: null }, 'still a draft');
      t.equal((await api.request('GET', `/v1/transactions/${d.invoice.transactionId}`)).body.data.status, 'draft', 'nothing posted');
      t.same(await balance(api, d.acc['1100']!), { debit: 0, credit: 0, net: 0 }, 'receivable untouched');
      t.equal(await rowCount(d.books, 'idempotency_keys'), 1, "only the other request's record remains");
      t.equal(await rowCount(d.books, 'contacts'), 3, 'the two contacts made during the hang are kept');
    },
  );
}

t.test('a second request with the key while the first hangs in SMTP waits, then replays it: one e-mail, one posting', async (t) => {
  const d = await draft(t);
  const arrived = gate();
  const release = gate();
  const smtp = await startSmtp(t, {
    hold: () => {
      arrived.open();
      return release.promise;
    },
  });
  const api = await d.serve(smtp.url());
  const first = sendEmail(api, d.invoice.id, 'k-twice');
  await within(10_000, arrived.promise, 'the e-mail reaching the SMTP server');
  let secondSettled = false;
  const second = sendEmail(api, d.invoice.id, 'k-twice').finally(() => (secondSettled = true));
  // Meanwhile the books take writes; the second request is still waiting on the key.
  t.equal(
    (await within(5000, api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Paper Supplies Ltd' } }), 'POST /v1/contacts')).status,
    201,
  );
  t.equal(secondSettled, false, 'the second request waits for the first');
  // The key with another body is refused at once, not kept waiting.
  const other = await within(
    5000,
    api.request('POST', `/v1/invoices/${d.invoice.id}/send`, { body: { sendEmail: false }, headers: { 'Idempotency-Key': 'k-twice' } }),
    'the other body',
  );
  expectError(t, other, 409, 'conflict', { message: /k-twice was first used for POST/ });

  release.open();
  const [a, b] = await Promise.all([first, second]);
  t.equal(a.status, 200, JSON.stringify(a.body?.error ?? ''));
  t.equal(a.headers.get('idempotent-replayed'), null);
  t.equal(b.headers.get('idempotent-replayed'), 'true', 'the second is a replay');
  t.equal(b.text, a.text, 'byte for byte');
  t.equal(smtp.messages.length, 1, 'one e-mail');
  await sentOnce(t, api, d);
});

t.test('a refusal of the e-mail step (no address) with a key is stored and replayed like any 422', async (t) => {
  const d = await draft(t, null);
  const smtp = await startSmtp(t);
  const api = await d.serve(smtp.url());
  const first = await sendEmail(api, d.invoice.id, 'k-no-address');
  expectError(t, first, 422, 'unprocessable_entity', { message: /Client One Ltd has no email address/ });
  const second = await sendEmail(api, d.invoice.id, 'k-no-address');
  t.equal(second.headers.get('idempotent-replayed'), 'true');
  t.equal(second.text, first.text);
  t.equal(smtp.messages.length, 0, 'no e-mail');
  t.equal(await rowCount(d.books, 'idempotency_keys'), 1, 'the refusal is recorded');
  t.match((await api.request('GET', `/v1/invoices/${d.invoice.id}`)).body.data, { status: 'draft' });
  t.same(await balance(api, d.acc['1100']!), { debit: 0, credit: 0, net: 0 }, 'nothing posted');
});

t.test('a key left reserved by a request that died is taken over after 5 minutes', async (t) => {
  const d = await draft(t);
  const smtp = await startSmtp(t);
  const api = await d.serve(smtp.url());
  const path = `/v1/invoices/${d.invoice.id}/send`;
  // What a process killed during the e-mail leaves: the reservation, 6 minutes old (10:00 - 6 min = 09:54).
  await d.books.store.org(d.books.organisationId, 'live').write((trx) =>
    trx
      .insertInto('idempotency_keys')
      .values({
        key: 'k-dead',
        fingerprint: fingerprintOf('POST', path, { sendEmail: true }),
        method: 'POST',
        path,
        status: 0,
        response: '',
        created_at: '2026-11-21T09:54:00.000Z',
        reserved_by: 'a-dead-request',
      })
      .execute(),
  );
  const r = await sendEmail(api, d.invoice.id, 'k-dead');
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  t.equal(r.headers.get('idempotent-replayed'), null, 'run, not replayed');
  t.equal(smtp.messages.length, 1);
  await sentOnce(t, api, d);
  const row = await d.books.store.org(d.books.organisationId, 'live').db.selectFrom('idempotency_keys').selectAll().executeTakeFirstOrThrow();
  t.match(row, { key: 'k-dead', status: 200, reserved_by: null, created_at: '2026-11-21T10:00:00.000Z' });
  t.equal(row.response, r.text, 'the response is stored');
});
