/**
 * Idempotency keys are recorded against the operation's route, not the raw
 * path: the router answers /v1 and /api/v1 in any letter case, with or
 * without a trailing slash, and with percent-encoded parameters, and a
 * retry through any of those spellings replays the first response.
 */
import t, { type Test } from 'tap';
import { newBooks, type Api, type Reply } from '../helpers/index.js';
import { expectError, rowCount, serveWith } from '../integration/support.js';

const contact = { contactType: 'customer', name: 'Client One Ltd' };

async function setup(t: Test) {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const api = await serveWith(t, books, { rateLimits: false });
  return { books, api };
}

function expectReplay(t: Test, first: Reply, again: Reply, how: string): void {
  t.equal(again.status, first.status, `${how}: same status`);
  t.equal(again.text, first.text, `${how}: the first response, byte for byte`);
  t.equal(again.headers.get('idempotent-replayed'), 'true', `${how}: marked replayed`);
}

const post = (api: Api, path: string, key: string, body: unknown = contact) => api.request('POST', path, { body, headers: { 'Idempotency-Key': key } });

t.test('the router accepts other spellings of /v1/contacts, and so does the key', async (t) => {
  const { books, api } = await setup(t);
  // What the router answers: any case, a trailing slash, /api/v1; not a doubled slash.
  t.equal((await api.request('GET', '/V1/CONTACTS/')).status, 200);
  t.equal((await api.request('GET', '/Api/V1/contacts/')).status, 200);
  t.equal((await api.request('GET', '/v1//contacts')).status, 404);

  const first = await post(api, '/v1/contacts', 'k-route');
  t.equal(first.status, 201);
  for (const path of ['/V1/contacts', '/v1/contacts/', '/v1/Contacts', '/api/v1/contacts/', '/API/V1/CONTACTS/']) {
    expectReplay(t, first, await post(api, path, 'k-route'), path);
  }
  t.equal(await rowCount(books, 'contacts'), 1, 'one contact, however the retry was spelled');
  t.equal(await rowCount(books, 'idempotency_keys'), 1);

  // The same key on another body is still another request.
  expectError(t, await post(api, '/V1/contacts/', 'k-route', { ...contact, name: 'Someone Else Ltd' }), 409, 'conflict', {
    message: /k-route was first used for POST \/v1\/contacts with another query or body/,
  });
});

t.test('a route with a parameter: the decoded parameter is the key, however it is written', async (t) => {
  const { books, api } = await setup(t);
  const a = (await post(api, '/v1/contacts', 'make-a')).body.data.id as string;
  const b = (await post(api, '/v1/contacts', 'make-b', { ...contact, name: 'Client Two Ltd' })).body.data.id as string;
  const put = (path: string) => api.request('PUT', path, { body: { email: 'ap@client.test' }, headers: { 'Idempotency-Key': 'k-put' } });

  const first = await put(`/v1/contacts/${a}`);
  t.equal(first.status, 200);
  t.equal((await api.request('GET', `/v1/contacts/${a}`)).body.data.email, 'ap@client.test');
  // Ids are cont_…: %5F is the underscore percent-encoded.
  for (const path of [`/v1/contacts/${a}/`, `/API/v1/Contacts/${a}`, `/v1/contacts/${a.replace('_', '%5F')}`]) {
    expectReplay(t, first, await put(path), path);
  }
  // The same key and body on another contact is another request: refused, and contact b is untouched.
  const other = await put(`/v1/contacts/${b}/`);
  expectError(t, other, 409, 'conflict', { message: `k-put was first used for PUT /v1/contacts/${a}; use a new key for a different request` });
  t.equal((await api.request('GET', `/v1/contacts/${b}`)).body.data.email, null);
  t.equal(await rowCount(books, 'idempotency_keys'), 3, 'make-a, make-b and k-put');
});
