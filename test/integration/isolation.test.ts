/**
 * Isolation over a real server: two organisations in one data directory
 * never see or touch each other's contacts, invoices, bills, quotes,
 * transactions, accounts, bug reports or billing (404 not_found, as if they
 * did not exist), whether B calls with an API key, a user's session or an
 * administrator's session; and within one organisation the test dataset (sk_test_ keys) and the live
 * one do not see each other.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api, type Reply } from '../helpers/index.js';
import { accountIds } from '../ledger-http/support.js';
import { item } from '../sales-http/invoice-support.js';
import { logIn, registerUser } from '../platform-auth/support.js';
import { startSmtp, type Smtp } from '../sales-cli/support.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { hashPassword } from '../../src/engine/users/password.js';
import { insertUser } from '../../src/engine/users/users.js';
import { expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

interface Made {
  readonly contact: string;
  readonly supplier: string;
  readonly invoice: string;
  readonly bill: string;
  readonly quote: string;
  readonly transaction: string;
  readonly account: string;
  readonly bugReport: string;
}

async function created(t: Test, r: Reply, what: string): Promise<string> {
  t.equal(r.status, 201, `${what} created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body?.data?.id as string;
}

/** One of each resource, made with the key given (all drafts, so that their owner could still change or delete them). */
async function makeEverything(t: Test, api: Api, key: string): Promise<Made> {
  const acc = await accountIds(t, api, key);
  const contact = await created(t, await api.request('POST', '/v1/contacts', { key, body: { contactType: 'customer', name: 'Client One Ltd' } }), 'contact');
  const supplier = await created(
    t,
    await api.request('POST', '/v1/contacts', { key, body: { contactType: 'supplier', name: 'Paper Supplies Ltd' } }),
    'supplier',
  );
  const invoice = await created(t, await api.request('POST', '/v1/invoices', { key, body: { contactId: contact, items: [item()] } }), 'invoice');
  const bill = await created(
    t,
    await api.request('POST', '/v1/bills', { key, body: { contactId: supplier, items: [item({ description: 'Paper' })] } }),
    'bill',
  );
  const quote = await created(t, await api.request('POST', '/v1/quotes', { key, body: { contactId: contact, items: [item()] } }), 'quote');
  const transaction = await created(
    t,
    await api.request('POST', '/v1/transactions', {
      key,
      body: {
        date: '2026-02-05',
        description: 'Stationery',
        status: 'draft',
        lines: [
          { accountId: acc['5100']!, amount: 100 },
          { accountId: acc['1200']!, amount: -100 },
        ],
      },
    }),
    'transaction',
  );
  const account = await created(
    t,
    await api.request('POST', '/v1/accounts', { key, body: { code: '6000', name: 'Other costs', accountType: 'expense' } }),
    'account',
  );
  const bugReport = await created(
    t,
    await api.request('POST', '/v1/bug-reports', { key, body: { title: 'Totals are wrong', description: 'private details' } }),
    'bug report',
  );
  return { contact, supplier, invoice, bill, quote, transaction, account, bugReport };
}

type Call = readonly [method: string, path: string, body?: unknown];

/** Every request on the resources made, with bodies that pass validation, so only the lookup can refuse them. */
function callsOn(m: Made): Call[] {
  return [
    ['GET', `/v1/contacts/${m.contact}`],
    ['GET', `/v1/contacts/${m.contact}/summary`],
    ['PUT', `/v1/contacts/${m.contact}`, { name: 'Hijacked' }],
    ['DELETE', `/v1/contacts/${m.supplier}`],
    ['GET', `/v1/invoices/${m.invoice}`],
    ['GET', `/v1/invoices/${m.invoice}/pdf`],
    ['PUT', `/v1/invoices/${m.invoice}`, { notes: 'Hijacked' }],
    ['POST', `/v1/invoices/${m.invoice}/send`, {}],
    ['POST', `/v1/invoices/${m.invoice}/void`],
    ['POST', `/v1/invoices/${m.invoice}/payments`, { amount: 100, date: '2026-11-21', method: 'bank_transfer' }],
    ['DELETE', `/v1/invoices/${m.invoice}`],
    ['GET', `/v1/bills/${m.bill}`],
    ['PUT', `/v1/bills/${m.bill}`, { notes: 'Hijacked' }],
    ['POST', `/v1/bills/${m.bill}/approve`],
    ['POST', `/v1/bills/${m.bill}/void`],
    ['DELETE', `/v1/bills/${m.bill}`],
    ['GET', `/v1/quotes/${m.quote}`],
    ['PUT', `/v1/quotes/${m.quote}`, { notes: 'Hijacked' }],
    ['POST', `/v1/quotes/${m.quote}/convert`],
    ['DELETE', `/v1/quotes/${m.quote}`],
    ['GET', `/v1/transactions/${m.transaction}`],
    ['PUT', `/v1/transactions/${m.transaction}`, { description: 'Hijacked' }],
    ['PATCH', `/v1/transactions/${m.transaction}/status`, { status: 'posted' }],
    ['DELETE', `/v1/transactions/${m.transaction}`],
    ['GET', `/v1/accounts/${m.account}`],
    ['GET', `/v1/accounts/${m.account}/balance`],
    ['GET', `/v1/transactions/account/${m.account}`],
    ['PUT', `/v1/accounts/${m.account}`, { name: 'Hijacked' }],
    ['DELETE', `/v1/accounts/${m.account}`],
    ['GET', `/v1/bug-reports/${m.bugReport}`],
  ];
}

/** What the owner sees of each resource (to check that nothing changed). */
async function snapshot(t: Test, api: Api, key: string, m: Made): Promise<Record<string, unknown>> {
  const paths = {
    contact: `/v1/contacts/${m.contact}`,
    supplier: `/v1/contacts/${m.supplier}`,
    invoice: `/v1/invoices/${m.invoice}`,
    bill: `/v1/bills/${m.bill}`,
    quote: `/v1/quotes/${m.quote}`,
    transaction: `/v1/transactions/${m.transaction}`,
    account: `/v1/accounts/${m.account}`,
    bugReport: `/v1/bug-reports/${m.bugReport}`,
  };
  const out: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(paths)) {
    const r = await api.request('GET', path, { key });
    t.equal(r.status, 200, `the owner reads its ${name}`);
    out[name] = r.body.data;
  }
  return out;
}

const lists = [
  '/v1/contacts?limit=100',
  '/v1/invoices?limit=100',
  '/v1/bills?limit=100',
  '/v1/quotes?limit=100',
  '/v1/transactions?limit=100',
  '/v1/accounts?flat=true',
  '/v1/bug-reports?limit=100',
];

/** Every id in the lists the key can read. */
async function listedIds(t: Test, api: Api, key: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const path of lists) {
    const r = await api.request('GET', path, { key });
    t.equal(r.status, 200, `${path} listed`);
    const rows = (Array.isArray(r.body.data) ? r.body.data : r.body.data.accounts) as { id: string }[];
    for (const row of rows) ids.add(row.id);
  }
  return ids;
}

async function expectInvisible(t: Test, api: Api, key: string, m: Made, who: string): Promise<void> {
  for (const [method, path, body] of callsOn(m)) {
    const r = await api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    t.test(`${who}: ${method} ${path.replace(/_[0-9a-z]+/, '_…')}`, async (t) => {
      expectError(t, r, 404, 'not_found');
    });
  }
  const seen = await listedIds(t, api, key);
  for (const [name, id] of Object.entries(m)) t.notOk(seen.has(id), `${who}: ${name} not in any list`);
}

/** B's lists hold nothing (of A's or made), and B cannot point its records at A's contact or account. */
async function expectOwnBooksOnly(t: Test, api: Api, key: string, a: Made): Promise<void> {
  for (const path of lists.filter((p) => !p.startsWith('/v1/accounts'))) {
    const r = await api.request('GET', path, { key });
    t.equal(r.body.meta.total, 0, `B's ${path} is empty`);
  }
  expectError(t, await api.request('POST', '/v1/invoices', { key, body: { contactId: a.contact, items: [item()] } }), 400, 'validation_error', {
    field: 'contactId',
  });
  const bAcc = await accountIds(t, api, key);
  const crossLine = await api.request('POST', '/v1/transactions', {
    key,
    body: {
      date: '2026-02-05',
      description: 'Into their books',
      lines: [
        { accountId: a.account, amount: 100 },
        { accountId: bAcc['1200']!, amount: -100 },
      ],
    },
  });
  expectError(t, crossLine, 400, 'validation_error'); // an account B does not have
  t.equal((await api.request('GET', '/v1/transactions', { key })).body.meta.total, 0, 'B has no transaction');
}

t.test("another organisation's key gets 404 for every resource of this one, and lists none of them", async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Jo Bloggs Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const a = await makeEverything(t, api, books.apiKey);
  const before = await snapshot(t, api, books.apiKey, a);

  await expectInvisible(t, api, other.apiKey, a, 'organisation B (live)');
  await expectInvisible(t, api, other.testApiKey, a, 'organisation B (test)');

  await expectOwnBooksOnly(t, api, other.apiKey, a);

  t.same(await snapshot(t, api, books.apiKey, a), before, "A's records are exactly as they were");
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.invoiceNextNumber, 2, "A's invoice numbers untouched");

  // An Idempotency-Key of A's means nothing in B.
  const aKeyed = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Keyed' }, headers: { 'Idempotency-Key': 'shared' } });
  t.equal(aKeyed.status, 201);
  const bKeyed = await api.request('POST', '/v1/contacts', {
    key: other.apiKey,
    body: { contactType: 'customer', name: 'Keyed' },
    headers: { 'Idempotency-Key': 'shared' },
  });
  t.equal(bKeyed.status, 201);
  t.equal(bKeyed.headers.get('idempotent-replayed'), null, "not a replay of A's response");
  t.not(bKeyed.body.data.id, aKeyed.body.data.id);
});

t.test('test and live datasets: what one key type makes, the other never sees', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const inTest = await makeEverything(t, api, books.testApiKey);
  const inLive = await makeEverything(t, api, books.apiKey);
  for (const [name, id] of Object.entries(inTest)) t.not(id, inLive[name as keyof Made], `test and live ${name} are different records`);
  const testBefore = await snapshot(t, api, books.testApiKey, inTest);
  const liveBefore = await snapshot(t, api, books.apiKey, inLive);

  await expectInvisible(t, api, books.apiKey, inTest, 'the live key on test records');
  await expectInvisible(t, api, books.testApiKey, inLive, 'the test key on live records');

  t.same(await snapshot(t, api, books.testApiKey, inTest), testBefore, 'test records unchanged');
  t.same(await snapshot(t, api, books.apiKey, inLive), liveBefore, 'live records unchanged');
  // Each dataset counts its own: one invoice each, numbered INV-0001 in both.
  for (const key of [books.apiKey, books.testApiKey]) {
    const r = await api.request('GET', '/v1/invoices', { key });
    t.equal(r.body.meta.total, 1);
    t.equal(r.body.data[0].invoiceNumber, 'INV-0001');
  }
});

t.test('billing: each organisation sees and manages only its own subscription; a provider event changes only the organisation it names', async (t) => {
  const { billedBooks, subscribe, status } = await import('../platform-billing/support.js');
  const b = await billedBooks(t);
  const other = await createOrganisation(b.books.store, b.books.clock, {
    name: 'Jo Bloggs Plumbing',
    businessType: 'sole_trader',
    vatScheme: 'not_registered',
  });
  await subscribe(t, b, 'limited_company');
  t.match(await status(t, b), { plan: 'limited_company', hasStripeCustomer: true, subscription: { status: 'trialing' } });
  for (const key of [other.apiKey, other.testApiKey]) {
    t.match(await status(t, b, key), { plan: 'trial', hasStripeCustomer: false, hasSubscription: false, subscription: null }, "B's own status");
  }
  expectError(t, await b.api.request('POST', '/v1/billing/portal', { key: other.apiKey, body: {} }), 400, 'invalid_request');
  // B checking out gets a customer of its own, not A's.
  const r = await b.api.request('POST', '/v1/billing/checkout', { key: other.apiKey, body: { plan: 'sole_trader' } });
  t.equal(r.status, 200);
  const rows = await b.books.store.platform.db.selectFrom('organisations').select(['id', 'stripe_customer_id', 'plan']).execute();
  const customers = rows.map((row) => row.stripe_customer_id);
  t.equal(new Set(customers).size, 2, 'two customers, one each');
  t.equal(rows.find((row) => row.id === other.organisationId)?.plan, 'trial', 'B is still on the trial');
});

t.test("an administrator of organisation B sees A's users only through /admin, and A's books not at all", async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Jo Bloggs Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const a = await makeEverything(t, api, books.apiKey);
  const register = await api.request('POST', '/v1/registration/register', {
    key: null,
    body: { email: 'a-user@example.com', password: 'a long password', fullName: 'A User', organisationName: 'Elsewhere Ltd' },
  });
  t.equal(register.status, 201);
  // An administrator whose own organisation is B.
  const passwordHash = await hashPassword('root passphrase');
  await books.store.platform.write((trx) =>
    insertUser(trx, books.clock, { organisationId: other.organisationId, email: 'root@example.com', fullName: 'Root', passwordHash, isAdmin: true }),
  );
  const login = await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'root@example.com', password: 'root passphrase' } });
  const admin = login.body.data.accessToken as string;
  await expectInvisible(t, api, admin, a, "B's administrator, on A's books");
  t.equal((await api.request('GET', '/v1/organisation', { key: admin })).body.data.id, other.organisationId, "the administrator's books are B's");
  const users = await api.request('GET', '/v1/admin/users', { key: admin });
  t.same(users.body.data.map((u: { email: string }) => u.email).sort(), ['a-user@example.com', 'root@example.com'], 'the platform users, through /admin');
});

/**
 * An ordinary user registered over HTTP (their own organisation, B), who
 * verified their address with the token mailed to them, logged in; their
 * organisation's id and session token. The API must mail through `smtp`.
 */
async function verifiedUserOfB(t: Test, api: Api, smtp: Smtp): Promise<{ organisationId: string; session: string }> {
  const registered = await registerUser(t, api);
  const { accessToken } = await logIn(t, api);
  t.equal((await api.request('POST', '/v1/email-verification/verify-email/send', { key: accessToken })).status, 200, 'verification mailed');
  const mail = smtp.messages.filter((m) => m.rcptTo.includes('jo@example.com')).at(-1);
  const token = /\b[0-9a-f]{64}\b/.exec(mail?.raw.toString('utf8') ?? '')?.[0];
  t.ok(token, 'a verification token was mailed');
  t.equal((await api.request('POST', '/v1/email-verification/verify-email', { key: null, body: { token } })).status, 200, 'verified');
  t.match((await api.request('GET', '/v1/auth/me', { key: accessToken })).body.data, {
    email: 'jo@example.com',
    isAdmin: false,
    emailVerified: true,
    organisation: { id: registered.organisation.id },
  });
  return { organisationId: registered.organisation.id as string, session: accessToken as string };
}

t.test('an ordinary user of organisation B, with their session, gets 404 for every resource of A and lists none of them', async (t) => {
  const books = await newBooks(t, { clock });
  const smtp = await startSmtp(t);
  const api = await serveBooks(t, books, { mailer: smtpMailer(smtp.url()) });
  const a = await makeEverything(t, api, books.apiKey);
  const before = await snapshot(t, api, books.apiKey, a);
  const { organisationId, session } = await verifiedUserOfB(t, api, smtp);
  t.not(organisationId, books.organisationId, 'B is another organisation');

  await expectInvisible(t, api, session, a, "B's user (session)");

  await expectOwnBooksOnly(t, api, session, a);
  // Nor A's bug reports through the administrator's list.
  expectError(t, await api.request('GET', '/v1/admin/bug-reports', { key: session }), 403, 'insufficient_scope');
  expectError(t, await api.request('GET', `/v1/admin/bug-reports/${a.bugReport}`, { key: session }), 403, 'insufficient_scope');

  t.same(await snapshot(t, api, books.apiKey, a), before, "A's records are exactly as they were");
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.invoiceNextNumber, 2, "A's invoice numbers untouched");
  t.equal((await api.request('GET', '/v1/organisation', { key: session })).body.data.id, organisationId, "the user's books are B's");
});

t.test("billing: an ordinary user of organisation B sees and manages only B's subscription", async (t) => {
  const { billedBooks, subscribe, status } = await import('../platform-billing/support.js');
  const b = await billedBooks(t);
  const smtp = await startSmtp(t);
  // The same books, with billing and e-mail.
  const api = await serveBooks(t, b.books, { billing: b.settings, mailer: smtpMailer(smtp.url()) });
  await subscribe(t, b, 'limited_company');
  t.match(await status(t, b), { plan: 'limited_company', hasStripeCustomer: true, subscription: { status: 'trialing' } });
  const { organisationId, session } = await verifiedUserOfB(t, api, smtp);
  const own = await api.request('GET', '/v1/billing/status', { key: session });
  t.equal(own.status, 200);
  t.match(own.body.data, { plan: 'trial', hasStripeCustomer: false, hasSubscription: false, subscription: null }, "B's own status");
  expectError(t, await api.request('POST', '/v1/billing/portal', { key: session, body: {} }), 400, 'invalid_request');
  // B's user checking out (B registered as a limited company, the default) gets a customer of B's own, not A's.
  const r = await api.request('POST', '/v1/billing/checkout', { key: session, body: { plan: 'limited_company' } });
  t.equal(r.status, 200);
  const rows = await b.books.store.platform.db.selectFrom('organisations').select(['id', 'stripe_customer_id', 'plan']).execute();
  t.equal(new Set(rows.map((row) => row.stripe_customer_id)).size, 2, 'two customers, one each');
  t.equal(rows.find((row) => row.id === organisationId)?.plan, 'trial', 'B is still on the trial');
  t.match(await status(t, b), { plan: 'limited_company', hasStripeCustomer: true, subscription: { status: 'trialing' } }, "A's status unchanged");
  // And none of the administrator's billing routes.
  expectError(
    t,
    await api.request('POST', `/v1/admin/orgs/${b.books.organisationId}/cancel-subscription`, { key: session, body: {} }),
    403,
    'insufficient_scope',
  );
});
