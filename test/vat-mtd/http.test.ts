/**
 * Making Tax Digital over the real HTTP adapter (a server on a loopback
 * port, HMRC's stand-in behind it): connect, obligations, submit (with an
 * Idempotency-Key), HMRC's return, liabilities and payments, each reply
 * checked against its operation's declared output; scopes; HMRC failing or
 * unreachable is 503 hmrc_unavailable with nothing kept.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Api } from '../helpers/index.js';
import { createKey, expectError, rowCount, serveWith } from '../integration/support.js';
import { connectOverHttp, fileReturn, mtdBooks, q1, q1Json, quarters2026, returnRow, settingsOf, type MtdBooks } from './support.js';
import type { ReturnBody } from './hmrc-stand-in.js';

const q1Period = { start: '2026-01-01', end: '2026-03-31' };

/** Q4 2025, sent by other software under a period key with a #: £300.00 VAT on £1,500 of sales, nothing reclaimed. */
const q4Held: ReturnBody = {
  periodKey: '#001',
  vatDueSales: 300,
  vatDueAcquisitions: 0,
  totalVatDue: 300,
  vatReclaimedCurrPeriod: 0,
  netVatDue: 300,
  totalValueSalesExVAT: 1500,
  totalValuePurchasesExVAT: 0,
  totalValueGoodsSuppliedExVAT: 0,
  totalAcquisitionsExVAT: 0,
  finalised: true,
};

async function serve(t: Test, m: MtdBooks): Promise<Api & { readonly logged: { code: string }[] }> {
  return serveWith(t, m.books, { rateLimits: false, hmrc: settingsOf(m.standIn) });
}

t.test('over HTTP: connect, obligations, submit with a key (replayed, then refused), view the return', async (t) => {
  const m = await mtdBooks(t, {
    obligations: [{ periodKey: '#001', start: '2025-10-01', end: '2025-12-31', due: '2026-02-07', status: 'F', received: '2026-01-20' }, ...quarters2026()],
    held: { '#001': q4Held },
  });
  const api = await serve(t, m);
  await connectOverHttp(t, api);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);

  const obligations = await api.request('GET', '/v1/vat/obligations?from=2025-10-01&to=2026-09-30');
  t.equal(obligations.status, 200);
  t.same(
    obligations.body.data.obligations.map((o: { periodKey: string; status: string; received: string | null; returnId: string | null }) => [
      o.periodKey,
      o.status,
      o.received,
      o.returnId,
    ]),
    [
      ['#001', 'fulfilled', '2026-01-20', null],
      ['26A1', 'open', null, 'vatr_q1'],
      ['26A2', 'open', null, null],
      ['26A3', 'open', null, null],
    ],
  );

  const headers = { 'Idempotency-Key': 'submit-q1' };
  const sent = await api.request('POST', '/v1/vat/returns/vatr_q1/submit', { headers });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  t.match(sent.body.data, { id: 'vatr_q1', periodKey: '26A1', netVatDue: 187467, formBundleNumber: '256660290001', paymentIndicator: 'DD' });
  t.same(m.standIn.posted, [q1Json], 'HMRC received the return once, exactly so');

  const replay = await api.request('POST', '/v1/vat/returns/vatr_q1/submit', { headers });
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.equal(replay.text, sent.text, 'the same answer');
  t.equal(m.standIn.posted.length, 1, 'HMRC not asked again');

  const again = await api.request('POST', '/v1/vat/returns/vatr_q1/submit');
  expectError(t, again, 409, 'already_submitted', { message: /period key 26A1, form bundle 256660290001/ });
  t.equal(m.standIn.posted.length, 1);

  // HMRC's view of what it received, in pence: boxes 1-5 as sent, boxes 6-9 whole pounds (£12,451 = 1245100p).
  const view = await api.request('GET', '/v1/vat/hmrc-returns/26A1');
  t.equal(view.status, 200);
  t.same(view.body.data, {
    periodKey: '26A1',
    vatDueSales: 249012,
    vatDueAcquisitions: 0,
    totalVatDue: 249012,
    vatReclaimedCurrPeriod: 61545,
    netVatDue: 187467,
    totalValueSalesExVAT: 1245100,
    totalValuePurchasesExVAT: 307700,
    totalValueGoodsSuppliedExVAT: 0,
    totalAcquisitionsExVAT: 0,
    returnId: 'vatr_q1',
  });

  // A period key with a # travels as %23, both ways: £300.00 = 30000p, £1,500 = 150000p.
  const hashed = await api.request('GET', '/v1/vat/hmrc-returns/%23001');
  t.equal(hashed.status, 200, JSON.stringify(hashed.body));
  t.match(hashed.body.data, { periodKey: '#001', vatDueSales: 30000, netVatDue: 30000, totalValueSalesExVAT: 150000, returnId: null });
  t.ok(m.standIn.calls.includes('GET /organisations/vat/123456782/returns/%23001'), 'sent to HMRC as %23001');

  expectError(t, await api.request('GET', '/v1/vat/hmrc-returns/26A2'), 404, 'not_found', { message: 'HMRC holds no VAT return for period key 26A2' });
  expectError(t, await api.request('GET', '/v1/vat/hmrc-returns/26a1x'), 400, 'validation_error', { field: 'periodKey' });
  expectError(t, await api.request('POST', '/v1/vat/returns/vatr_none/submit'), 404, 'not_found');
  t.same((await api.request('GET', '/v1/vat/connection')).body.data.connected, true);
});

t.test('liabilities and payments, in pence', async (t) => {
  const m = await mtdBooks(t, {
    liabilities: [
      {
        taxPeriod: { from: '2026-01-01', to: '2026-03-31' },
        type: 'VAT Return Debit Charge',
        originalAmount: 1874.67,
        outstandingAmount: 874.67,
        due: '2026-05-07',
      },
      { type: 'VAT Interest', originalAmount: 12.3, due: '2026-06-30' },
    ],
    payments: [{ amount: 1000, received: '2026-05-01' }, { amount: 0.05 }],
  });
  const api = await serve(t, m);
  await connectOverHttp(t, api);

  const liabilities = await api.request('GET', '/v1/vat/liabilities?from=2026-01-01&to=2026-07-15');
  t.equal(liabilities.status, 200, JSON.stringify(liabilities.body));
  // £1,874.67 = 187467p, £874.67 = 87467p, £12.30 = 1230p.
  t.same(liabilities.body.data.liabilities, [
    { type: 'VAT Return Debit Charge', periodFrom: '2026-01-01', periodTo: '2026-03-31', originalAmount: 187467, outstandingAmount: 87467, due: '2026-05-07' },
    { type: 'VAT Interest', periodFrom: null, periodTo: null, originalAmount: 1230, outstandingAmount: null, due: '2026-06-30' },
  ]);
  t.ok(m.standIn.calls.includes('GET /organisations/vat/123456782/liabilities?from=2026-01-01&to=2026-07-15'));

  const payments = await api.request('GET', '/v1/vat/payments?from=2026-01-01&to=2026-07-15');
  t.equal(payments.status, 200);
  // £1,000.00 = 100000p; the payment without a date is outside every range HMRC is asked for.
  t.same(payments.body.data.payments, [{ amount: 100000, received: '2026-05-01' }]);

  // HMRC's 404 NOT_FOUND (nothing in the range) is an empty list.
  t.same((await api.request('GET', '/v1/vat/payments?from=2025-01-01&to=2025-06-30')).body.data, { payments: [] });
  // HMRC's own limits: to after its today.
  expectError(t, await api.request('GET', '/v1/vat/payments?from=2026-01-01&to=2026-08-01'), 422, 'hmrc_rejected', {
    message: 'HMRC refused the request for VAT payments: DATE_TO_INVALID (The provided to date is invalid)',
  });
  expectError(t, await api.request('GET', '/v1/vat/liabilities?from=2026-01-01'), 400, 'validation_error', { field: 'to' });
  expectError(t, await api.request('GET', '/v1/vat/liabilities?from=2026-02-01&to=2026-01-01'), 400, 'validation_error', { field: 'from' });
});

t.test('scopes: reading needs reports:read, submitting transactions:write, connecting every scope', async (t) => {
  const m = await mtdBooks(t);
  const api = await serve(t, m);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
  const reader = await createKey(t, api, { name: 'reader', scopes: ['reports:read'] });
  t.equal((await api.request('GET', '/v1/vat/connection', { key: reader.key })).status, 200);
  expectError(t, await api.request('POST', '/v1/vat/returns/vatr_q1/submit', { key: reader.key }), 403, 'insufficient_scope', {
    message: /transactions:write/,
  });
  const writer = await createKey(t, api, { name: 'writer', scopes: ['transactions:write'] });
  expectError(t, await api.request('GET', '/v1/vat/obligations?status=open', { key: writer.key }), 403, 'insufficient_scope', { message: /reports:read/ });
  expectError(
    t,
    await api.request('GET', '/v1/vat/connection/authorisation-url?redirectUri=https://x.example/cb', { key: reader.key }),
    403,
    'insufficient_scope',
  );
  expectError(
    t,
    await api.request('POST', '/v1/vat/connection', { key: writer.key, body: { code: 'c', redirectUri: 'https://x.example/cb' } }),
    403,
    'insufficient_scope',
  );
  expectError(t, await api.request('GET', '/v1/vat/connection/authorisation-url?redirectUri=ftp://x'), 400, 'validation_error', { field: 'redirectUri' });
  t.same(m.standIn.calls, [], 'HMRC never called');
});

t.test('HMRC failing (503) or unreachable: 503 hmrc_unavailable, logged, the return not submitted, the key free for a retry', async (t) => {
  const m = await mtdBooks(t);
  const api = await serve(t, m);
  await connectOverHttp(t, api);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
  const headers = { 'Idempotency-Key': 'submit-q1' };

  m.standIn.failNext(503, { code: 'SERVICE_UNAVAILABLE', message: 'Internal server error' });
  const failed = await api.request('POST', '/v1/vat/returns/vatr_q1/submit', { headers });
  expectError(t, failed, 503, 'hmrc_unavailable', { message: /HMRC failed to answer the request for VAT obligations: 503 SERVICE_UNAVAILABLE/ });
  t.equal((await returnRow(m.books, 'vatr_q1')).submitted_at, null);
  t.equal(await rowCount(m.books, 'idempotency_keys'), 0, 'no record: the key can be retried');

  await m.standIn.stop();
  const down = await api.request('POST', '/v1/vat/returns/vatr_q1/submit', { headers });
  expectError(t, down, 503, 'hmrc_unavailable', { message: new RegExp(`HMRC did not answer at ${m.standIn.url} \\(.*ECONNREFUSED.*\\); try again later`) });
  t.same(
    api.logged.map((e) => e.code),
    ['hmrc_unavailable', 'hmrc_unavailable'],
    'logged as failures of a service',
  );
  t.equal((await returnRow(m.books, 'vatr_q1')).submitted_at, null, 'still not submitted');
  t.equal(await rowCount(m.books, 'idempotency_keys'), 0);
  expectError(t, await api.request('GET', '/v1/vat/obligations?status=open'), 503, 'hmrc_unavailable');
});

t.test("HMRC's rate limit (429): 429 rate_limited with Retry-After, HMRC's own when it sends one, else 60 s", async (t) => {
  const m = await mtdBooks(t);
  const api = await serve(t, m);
  await connectOverHttp(t, api);
  const throttled = { code: 'MESSAGE_THROTTLED_OUT', message: 'The request for the API is throttled as you have exceeded your quota.' };

  m.standIn.failNext(429, throttled);
  const plain = await api.request('GET', '/v1/vat/obligations?status=open');
  expectError(t, plain, 429, 'rate_limited', { message: /HMRC's rate limit refused .*MESSAGE_THROTTLED_OUT.*try again in 60 s/ });
  t.equal(plain.headers.get('retry-after'), '60', 'a minute when HMRC does not say');

  m.standIn.failNext(429, throttled, { 'Retry-After': '3' });
  const told = await api.request('GET', '/v1/vat/obligations?status=open');
  expectError(t, told, 429, 'rate_limited', { message: /try again in 3 s/ });
  t.equal(told.headers.get('retry-after'), '3', "HMRC's Retry-After passed on");

  m.standIn.failNext(429, throttled, { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' });
  t.equal((await api.request('GET', '/v1/vat/obligations?status=open')).headers.get('retry-after'), '60', 'a date is not read: a minute');
  t.same(api.logged, [], 'a rate limit is not a failure of the server');
});
