/**
 * Idempotency-Key end to end over a real server: a repeat within 24 hours
 * replays the first 2xx or 4xx response byte for byte and does nothing
 * more; a 5xx releases the key; a key reused for another request is 409;
 * the record is written in the same transaction as the change.
 */
import t from 'tap';
import type { Test } from 'tap';
import { z } from 'zod';
import { movingClock, newBooks, type Api, type Books, type MovingClock, type Reply } from '../helpers/index.js';
import { accountIds, balanceOf, outbox } from '../ledger-http/support.js';
import { item } from '../sales-http/invoice-support.js';
import { newId } from '../../src/engine/ids.js';
import { defineOperation, orgOf } from '../../src/engine/operation.js';
import { operations } from '../../src/engine/registry.js';
import { timestamp } from '../../src/engine/clock.js';
import { expectError, rowCount, serveWith } from './support.js';

const start = '2026-11-21T10:00:00Z';
const hour = 60 * 60 * 1000;

async function setup(t: Test): Promise<{ books: Books; api: Api; clock: MovingClock }> {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveWith(t, books, { rateLimits: false });
  return { books, api, clock };
}

const withKey = (key: string, extra: Record<string, string> = {}) => ({ 'Idempotency-Key': key, ...extra });

const contactBody = { contactType: 'customer', name: 'Client One Ltd' };

function postContact(api: Api, key: string | undefined, body: Record<string, unknown> = contactBody, prefix = '/v1'): Promise<Reply> {
  return api.request('POST', `${prefix}/contacts`, { body, ...(key === undefined ? {} : { headers: withKey(key) }) });
}

async function contactTotal(api: Api): Promise<number> {
  const r = await api.request('GET', '/v1/contacts');
  if (r.status !== 200) throw new Error(`GET /v1/contacts gave ${r.status}`);
  return r.body.meta.total as number;
}

async function invoiceTotal(api: Api): Promise<number> {
  const r = await api.request('GET', '/v1/invoices');
  if (r.status !== 200) throw new Error(`GET /v1/invoices gave ${r.status}`);
  return r.body.meta.total as number;
}

async function contactOf(t: Test, api: Api, body: Record<string, unknown> = contactBody): Promise<string> {
  const r = await postContact(api, undefined, body);
  t.equal(r.status, 201, 'contact created');
  return r.body.data.id as string;
}

/** The second reply is a replay of the first: same status and bytes, marked idempotent-replayed. */
function expectReplay(t: Test, first: Reply, second: Reply): void {
  t.equal(second.status, first.status, `replayed status ${first.status}`);
  t.equal(second.text, first.text, 'replayed body is byte for byte the first');
  t.equal(first.headers.get('idempotent-replayed'), null, 'the first response is not marked replayed');
  t.equal(second.headers.get('idempotent-replayed'), 'true', 'the repeat carries idempotent-replayed: true');
}

t.test('POST /v1/contacts twice with one key: one contact, the second response replayed byte for byte', async (t) => {
  const { books, api } = await setup(t);
  const first = await postContact(api, 'k1');
  t.equal(first.status, 201);
  t.match(first.body.data, { name: 'Client One Ltd', contactType: 'customer' });
  const second = await postContact(api, 'k1');
  expectReplay(t, first, second);
  t.equal(second.body.data.id, first.body.data.id, 'the same contact id');
  t.equal(await contactTotal(api), 1, 'only one contact exists');
  t.equal((await outbox(books)).filter((e) => e.event === 'contact.created').length, 1, 'one contact.created event');

  // The record was written with the change and is read back, not repeated.
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'one idempotency record in the live database');
  t.equal(await rowCount(books, 'contacts'), 1);

  // /api/v1 is the same API: the key is the same key.
  const viaApi = await postContact(api, 'k1', contactBody, '/api/v1');
  expectReplay(t, first, viaApi);
  t.equal(await contactTotal(api), 1, 'still one contact after the /api/v1 repeat');
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'still one idempotency record');
});

t.test('a key first used under /api/v1 replays under /v1', async (t) => {
  const { api } = await setup(t);
  const first = await postContact(api, 'k-api', contactBody, '/api/v1');
  t.equal(first.status, 201);
  expectReplay(t, first, await postContact(api, 'k-api'));
  t.equal(await contactTotal(api), 1);
});

t.test('a 400 refused by the operation is stored and replayed; nothing is created', async (t) => {
  const { books, api } = await setup(t);
  const unknown = 'cont_01m7yrrt804cb3z1c4w9b5twjz';
  const body = { contactId: unknown, items: [item()] };
  const first = await api.request('POST', '/v1/invoices', { body, headers: withKey('k2') });
  expectError(t, first, 400, 'validation_error', { field: 'contactId' });
  t.equal(first.headers.get('idempotent-replayed'), null);

  // Fix nothing and repeat: the same 400, replayed.
  const second = await api.request('POST', '/v1/invoices', { body, headers: withKey('k2') });
  expectReplay(t, first, second);
  t.equal(await invoiceTotal(api), 0, 'no invoice');
  t.equal(await rowCount(books, 'invoices'), 0);
  t.same(await outbox(books), [], 'no event');
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'the refusal is recorded');
  const settings = await api.request('GET', '/v1/organisation/settings');
  t.equal(settings.body.data.invoiceNextNumber, 1, 'no invoice number used');
});

t.test('a 400 refused by input validation is stored too: replayed, and the key cannot then carry another body', async (t) => {
  const { books, api } = await setup(t);
  // The spec: "A first result of 2xx or 4xx is stored and replayed on repeats."
  const empty = { name: '', contactType: 'customer' };
  const first = await postContact(api, 'k400', empty);
  expectError(t, first, 400, 'validation_error', { field: 'name' });
  expectReplay(t, first, await postContact(api, 'k400', empty));
  // The body corrected under the same key is another request: 409, and no contact.
  expectError(t, await postContact(api, 'k400', { name: 'Now Valid Ltd', contactType: 'customer' }), 409, 'conflict');
  t.equal(await contactTotal(api), 0, 'no contact');
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'the refusal is recorded');
  // A new key runs the corrected body.
  t.equal((await postContact(api, 'k400-2', { name: 'Now Valid Ltd', contactType: 'customer' })).status, 201);
});

t.test('a 422 is stored and replayed, and the refused payment leaves no trace', async (t) => {
  const { books, api } = await setup(t);
  const acc = await accountIds(t, api);
  const contactId = await contactOf(t, api);
  const inv = await api.request('POST', '/v1/invoices', { body: { contactId, items: [item()] } });
  t.equal(inv.status, 201);
  const id = inv.body.data.id as string;
  // 1 × £100.00 at 20%: total 12000 pence.
  t.equal(inv.body.data.total, 12000);
  t.equal((await api.request('POST', `/v1/invoices/${id}/send`, { body: {} })).status, 200);
  t.same(await balanceOf(api, acc['1100']!), { debit: 12000, credit: 0, net: 12000 }, 'receivable before');
  t.same(await balanceOf(api, acc['1200']!), { debit: 0, credit: 0, net: 0 }, 'bank before');
  const events = (await outbox(books)).length;
  const transactions = await rowCount(books, 'transactions');

  const pay = { amount: 12001, date: '2026-11-21', method: 'bank_transfer' };
  const first = await api.request('POST', `/v1/invoices/${id}/payments`, { body: pay, headers: withKey('k3') });
  expectError(t, first, 422, 'unprocessable_entity');
  const second = await api.request('POST', `/v1/invoices/${id}/payments`, { body: pay, headers: withKey('k3') });
  expectReplay(t, first, second);

  t.equal(await rowCount(books, 'payments'), 0, 'no payment row');
  t.equal(await rowCount(books, 'transactions'), transactions, 'no transaction posted');
  t.equal((await outbox(books)).length, events, 'no event');
  t.same(await balanceOf(api, acc['1100']!), { debit: 12000, credit: 0, net: 12000 }, 'receivable unchanged');
  t.same(await balanceOf(api, acc['1200']!), { debit: 0, credit: 0, net: 0 }, 'bank unchanged');
  const got = await api.request('GET', `/v1/invoices/${id}`);
  t.match(got.body.data, { status: 'sent', amountPaid: 0, amountDue: 12000 });
});

t.test('a key reused for another body or another path is 409 conflict, and nothing is done', async (t) => {
  const { books, api } = await setup(t);
  const first = await postContact(api, 'k4');
  t.equal(first.status, 201);

  const otherBody = await postContact(api, 'k4', { contactType: 'supplier', name: 'Paper Supplies Ltd' });
  expectError(t, otherBody, 409, 'conflict', { field: null });
  t.equal(otherBody.headers.get('idempotent-replayed'), null);
  t.equal(await contactTotal(api), 1, 'the supplier was not created');

  const contactId = first.body.data.id as string;
  const otherPath = await api.request('POST', '/v1/invoices', { body: { contactId, items: [item()] }, headers: withKey('k4') });
  expectError(t, otherPath, 409, 'conflict');
  t.equal(await invoiceTotal(api), 0, 'no invoice created');
  const settings = await api.request('GET', '/v1/organisation/settings');
  t.equal(settings.body.data.invoiceNextNumber, 1, 'no invoice number used');

  // Another method and path with the same key: a PUT of the contact.
  const otherMethod = await api.request('PUT', `/v1/contacts/${contactId}`, { body: { name: 'Renamed Ltd' }, headers: withKey('k4') });
  expectError(t, otherMethod, 409, 'conflict');
  t.equal((await api.request('GET', `/v1/contacts/${contactId}`)).body.data.name, 'Client One Ltd', 'contact not renamed');
  t.equal((await outbox(books)).length, 1, 'only the first contact.created event');
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'the conflicts recorded nothing');

  // The original request still replays.
  expectReplay(t, first, await postContact(api, 'k4'));
});

t.test('key length: 255 characters accepted, 256 and empty refused with 400 naming Idempotency-Key', async (t) => {
  const { books, api } = await setup(t);
  const long = 'a'.repeat(256);
  const refused = await postContact(api, long);
  expectError(t, refused, 400, 'validation_error', { field: 'Idempotency-Key' });
  t.equal(await contactTotal(api), 0, 'nothing created by the refused request');

  const empty = await postContact(api, '');
  expectError(t, empty, 400, 'validation_error', { field: 'Idempotency-Key' });
  t.equal(await contactTotal(api), 0);
  t.equal(await rowCount(books, 'idempotency_keys'), 0);

  const longest = 'b'.repeat(255);
  const ok = await postContact(api, longest);
  t.equal(ok.status, 201, '255 characters are accepted');
  expectReplay(t, ok, await postContact(api, longest));
  t.equal(await contactTotal(api), 1);
});

t.test('after 24 hours the same key runs the operation again', async (t) => {
  const { books, api, clock } = await setup(t);
  const first = await postContact(api, 'k6');
  t.equal(first.status, 201);

  clock.advance(24 * hour - 60_000); // 23:59 later: still inside the window
  expectReplay(t, first, await postContact(api, 'k6'));
  t.equal(await contactTotal(api), 1);

  clock.advance(2 * 60_000); // 24:01 after the first use
  const again = await postContact(api, 'k6');
  t.equal(again.status, 201, 'created again');
  t.equal(again.headers.get('idempotent-replayed'), null, 'not a replay');
  t.not(again.body.data.id, first.body.data.id, 'a second contact');
  t.equal(again.body.data.createdAt, '2026-11-22T10:01:00.000Z', 'made now');
  t.equal(await contactTotal(api), 2);
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'the expired record gave way to the new one');

  // And the new record is replayed in turn.
  expectReplay(t, again, await postContact(api, 'k6'));
  t.equal(await contactTotal(api), 2);
});

t.test('a 5xx releases the key: the writes are rolled back and the same key runs again', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  let calls = 0;
  const flaky = defineOperation({
    name: 'test.flaky',
    summary: 'Insert a contact, failing unexpectedly on the first call',
    access: 'contacts:write',
    method: 'POST',
    path: '/test/flaky',
    status: 201,
    body: { name: z.string() },
    output: z.strictObject({ id: z.string(), call: z.number().int() }),
    async run(ctx, input) {
      calls++;
      const id = await orgOf(ctx).write(async (trx) => {
        const now = timestamp(ctx.clock);
        const id = newId('cont', ctx.clock.now());
        await trx
          .insertInto('contacts')
          .values({
            id,
            contact_type: 'customer',
            name: input.name,
            company: null,
            email: null,
            email_key: null,
            phone: null,
            address_line1: null,
            address_line2: null,
            city: null,
            region: null,
            postal_code: null,
            country: 'United Kingdom',
            vat_number: null,
            payment_terms: null,
            currency: 'GBP',
            bank_name: null,
            bank_sort_code: null,
            bank_account: null,
            bank_iban: null,
            is_active: 1,
            notes: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        return id;
      });
      if (calls === 1) throw new Error('the disk is on fire');
      return { data: { id, call: calls } };
    },
  });
  const api = await serveWith(t, books, { operations: [...operations, flaky], rateLimits: false });
  const body = { name: 'Flaky Ltd' };

  const failed = await api.request('POST', '/v1/test/flaky', { body, headers: withKey('k5') });
  expectError(t, failed, 500, 'internal_error');
  t.equal(calls, 1);
  t.equal(api.logged.length, 1, 'the failure was reported');
  t.equal(await rowCount(books, 'contacts'), 0, 'the contact row was rolled back');
  t.equal(await rowCount(books, 'idempotency_keys'), 0, 'no record kept for a 5xx');

  const retried = await api.request('POST', '/v1/test/flaky', { body, headers: withKey('k5') });
  t.equal(retried.status, 201, 'the retry ran');
  t.equal(retried.headers.get('idempotent-replayed'), null, 'not a replay');
  t.equal(retried.body.data.call, 2, 'the operation ran a second time');
  t.equal(calls, 2);
  t.equal(await rowCount(books, 'contacts'), 1, 'one contact, from the retry');

  // Now the success is stored: a third call replays it without running.
  expectReplay(t, retried, await api.request('POST', '/v1/test/flaky', { body, headers: withKey('k5') }));
  t.equal(calls, 2, 'not run a third time');
  t.equal(await rowCount(books, 'contacts'), 1);
});

t.test('10 identical POST /v1/invoices at once with one key: one invoice, one number, ten identical 201s', async (t) => {
  const { books, api } = await setup(t);
  const contactId = await contactOf(t, api);
  const body = { contactId, items: [item()] };
  const replies = await Promise.all(Array.from({ length: 10 }, () => api.request('POST', '/v1/invoices', { body, headers: withKey('k-burst') })));
  t.same(
    replies.map((r) => r.status),
    Array(10).fill(201),
    'all 201',
  );
  const texts = new Set(replies.map((r) => r.text));
  t.equal(texts.size, 1, 'all ten bodies are the same bytes');
  t.equal(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 9, 'nine replays');
  t.equal(replies[0]!.body.data.invoiceNumber, 'INV-0001');
  t.equal(await invoiceTotal(api), 1, 'exactly one invoice');
  t.equal(await rowCount(books, 'invoices'), 1);
  const settings = await api.request('GET', '/v1/organisation/settings');
  t.equal(settings.body.data.invoiceNextNumber, 2, 'one INV number used');
  t.equal((await outbox(books)).filter((e) => e.event === 'invoice.created').length, 1, 'one invoice.created event');
});

t.test('GET ignores the header; PUT, PATCH and DELETE honour it', async (t) => {
  const { books, api } = await setup(t);
  const contactId = await contactOf(t, api);

  // GET: no error even for a value that would be refused on a POST.
  for (const value of ['k7', '', 'x'.repeat(300)]) {
    const r = await api.request('GET', '/v1/contacts', { headers: withKey(value) });
    t.equal(r.status, 200, `GET with Idempotency-Key of ${value.length} characters`);
    t.equal(r.headers.get('idempotent-replayed'), null);
  }
  const got = await api.request('GET', `/v1/contacts/${contactId}`, { headers: withKey('k7') });
  t.equal(got.status, 200);
  t.equal(await rowCount(books, 'idempotency_keys'), 0, 'GETs record nothing');

  // PUT.
  const put1 = await api.request('PUT', `/v1/contacts/${contactId}`, { body: { name: 'Renamed Ltd' }, headers: withKey('k-put') });
  t.equal(put1.status, 200);
  t.equal(put1.body.data.id, contactId);
  expectReplay(t, put1, await api.request('PUT', `/v1/contacts/${contactId}`, { body: { name: 'Renamed Ltd' }, headers: withKey('k-put') }));
  t.equal((await api.request('GET', `/v1/contacts/${contactId}`)).body.data.name, 'Renamed Ltd', 'the PUT took effect');
  t.equal((await outbox(books)).filter((e) => e.event === 'contact.updated').length, 1, 'one contact.updated event');

  // PATCH: post a draft transaction; the repeat is a replay, not a second posting.
  const acc = await accountIds(t, api);
  const draft = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2026-02-05',
      description: 'Stationery',
      status: 'draft',
      lines: [
        { accountId: acc['5100']!, amount: 100 },
        { accountId: acc['1200']!, amount: -100 },
      ],
    },
  });
  t.equal(draft.status, 201);
  const txn = draft.body.data.id as string;
  const patch1 = await api.request('PATCH', `/v1/transactions/${txn}/status`, { body: { status: 'posted' }, headers: withKey('k-patch') });
  t.equal(patch1.status, 200);
  t.same(patch1.body.data, { id: txn, status: 'posted' });
  const postedEvents = (await outbox(books)).filter((e) => e.event === 'transaction.posted').length;
  t.equal(postedEvents, 1);
  expectReplay(t, patch1, await api.request('PATCH', `/v1/transactions/${txn}/status`, { body: { status: 'posted' }, headers: withKey('k-patch') }));
  t.equal((await outbox(books)).filter((e) => e.event === 'transaction.posted').length, 1, 'posted once');

  // DELETE of a draft invoice: with the key both answers are the same 200.
  const inv1 = await api.request('POST', '/v1/invoices', { body: { contactId, items: [item()] } });
  const inv2 = await api.request('POST', '/v1/invoices', { body: { contactId, items: [item()] } });
  t.equal(inv1.status, 201);
  t.equal(inv2.status, 201);
  const del1 = await api.request('DELETE', `/v1/invoices/${inv1.body.data.id}`, { headers: withKey('k-del') });
  t.equal(del1.status, 200);
  expectReplay(t, del1, await api.request('DELETE', `/v1/invoices/${inv1.body.data.id}`, { headers: withKey('k-del') }));
  // Without a key, the second DELETE finds nothing.
  t.equal((await api.request('DELETE', `/v1/invoices/${inv2.body.data.id}`)).status, 200);
  expectError(t, await api.request('DELETE', `/v1/invoices/${inv2.body.data.id}`), 404, 'not_found');
  t.equal(await invoiceTotal(api), 0);
});

t.test("the record is written in the transaction of the change, in the caller's own dataset", async (t) => {
  const { books, api } = await setup(t);
  const first = await postContact(api, 'k8');
  const second = await postContact(api, 'k8');
  expectReplay(t, first, second);
  t.equal(await rowCount(books, 'idempotency_keys'), 1, 'one row in the live idempotency_keys');
  const row = await books.store.org(books.organisationId, 'live').db.selectFrom('idempotency_keys').selectAll().executeTakeFirstOrThrow();
  t.match(row, { key: 'k8', method: 'POST', path: '/v1/contacts', status: 201, created_at: '2026-11-21T10:00:00.000Z' });
  t.equal(row.response, first.text, 'the stored response is what was sent');
  t.equal(await rowCount(books, 'idempotency_keys', books.organisationId, 'test'), 0, 'nothing in the test dataset');

  // The test dataset keeps its own keys: k8 there is a new request.
  const testFirst = await api.request('POST', '/v1/contacts', { key: books.testApiKey, body: contactBody, headers: withKey('k8') });
  t.equal(testFirst.status, 201);
  t.equal(testFirst.headers.get('idempotent-replayed'), null, 'k8 of the live dataset is not k8 of the test one');
  t.not(testFirst.body.data.id, first.body.data.id);
  t.equal(await rowCount(books, 'idempotency_keys', books.organisationId, 'test'), 1);
});

t.test('a key created with an Idempotency-Key: the full key is never stored in plain text', async (t) => {
  // api-keys.ts: "Only a SHA-256 hash is stored"; the spec: the full key is shown once at creation.
  const { books, api } = await setup(t);
  const created = await api.request('POST', '/v1/api-keys', { body: { name: 'CI key', scopes: ['contacts:read'] }, headers: withKey('k-key') });
  t.equal(created.status, 201);
  const secret = created.body.data.key as string;
  t.match(secret, /^sk_live_[0-9A-Za-z]{32}$/);
  t.equal((await api.request('GET', '/v1/contacts', { key: secret })).status, 200, 'the new key works');

  const rows = await books.store.org(books.organisationId, 'live').db.selectFrom('idempotency_keys').selectAll().execute();
  t.notOk(
    rows.some((r) => r.response.includes(secret)),
    'the idempotency record does not hold the full API key',
  );
  const again = await api.request('POST', '/v1/api-keys', { body: { name: 'CI key', scopes: ['contacts:read'] }, headers: withKey('k-key') });
  t.equal(again.status, 201, 'the repeat answers 201');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal(again.body.data.key, null, 'the replay shows the secret as null: it is shown once only');
  t.equal(again.body.data.id, created.body.data.id, 'the same key record');
  const list = await api.request('GET', '/v1/api-keys');
  t.equal(list.body.data.filter((k: { name: string }) => k.name === 'CI key').length, 1, 'the repeat made no second key');
});

t.test('the fingerprint ignores the order of fields: the same body written in another order replays', async (t) => {
  const { api } = await setup(t);
  const a = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Order Ltd' }, headers: withKey('k-order') });
  const b = await api.request('POST', '/v1/contacts', { body: { name: 'Order Ltd', contactType: 'customer' }, headers: withKey('k-order') });
  t.equal(a.status, 201);
  t.equal(b.status, 201);
  t.equal(b.headers.get('idempotent-replayed'), 'true');
  t.equal(b.body.data.id, a.body.data.id);
});

t.test('a key reused with another query string is 409: DELETE /directors/{id}?resignedDate= is another request', async (t) => {
  const { api } = await setup(t);
  const director = await api.request('POST', '/v1/directors', { body: { fullName: 'Jo Bloggs', sharesHeld: 100, appointedDate: '2020-01-06' } });
  t.equal(director.status, 201);
  const id = director.body.data.id as string;
  const first = await api.request('DELETE', `/v1/directors/${id}?resignedDate=2026-11-20`, { headers: withKey('k-resign') });
  t.equal(first.status, 200, JSON.stringify(first.body.error ?? ''));
  // The same key and query again replays; another resignation date is another request, refused and not applied.
  expectReplay(t, first, await api.request('DELETE', `/v1/directors/${id}?resignedDate=2026-11-20`, { headers: withKey('k-resign') }));
  const other = await api.request('DELETE', `/v1/directors/${id}?resignedDate=2026-06-15`, { headers: withKey('k-resign') });
  expectError(t, other, 409, 'conflict');
  t.equal(other.headers.get('idempotent-replayed'), null);
  t.equal((await api.request('GET', `/v1/directors/${id}`)).body.data.resignedDate, '2026-11-20', 'still resigned on the first date');
});

t.test('a body nested 5,000 deep with a key is the 400 it is without one, never a 500', async (t) => {
  const { api } = await setup(t);
  const raw = `{"contactType":"customer","name":"Deep Ltd","notes":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const headers = { 'content-type': 'application/json' };
  const without = await api.request('POST', '/v1/contacts', { raw, headers });
  t.equal(without.status, 400, 'notes must be text');
  const withIt = await api.request('POST', '/v1/contacts', { raw, headers: { ...headers, ...withKey('k-deep') } });
  t.equal(withIt.status, 400, JSON.stringify(withIt.body.error ?? ''));
  t.equal(withIt.body.error.code, without.body.error.code);
  t.equal(await contactTotal(api), 0);
});
