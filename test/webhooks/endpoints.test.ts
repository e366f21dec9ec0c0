/**
 * Webhook endpoints over HTTP: registration and its URL rules under the
 * strict default policy, the list with availableEvents, changes, removal,
 * rotation, the delivery log's 404, all-scopes access, and which addresses
 * count as global unicast (the only ones webhooks go to).
 */
import t, { type Test } from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { allScopes, createKey, expectError } from '../http/support.js';
import { isGlobalUnicast } from '../../src/engine/integration/webhook-url.js';
import { secretShape } from './support.js';

const now = '2026-11-21T10:00:00.000Z';
/** A public address written as an IP literal: the strict policy accepts it without DNS. */
const publicUrl = 'https://93.184.215.14/acct/hooks';

/** The 13 event kinds of the spec's table that the engine raises (vat.submitted is not one of them). */
const kinds = [
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
  'invoice.cancelled',
  'quote.created',
  'quote.accepted',
  'quote.rejected',
  'contact.created',
  'contact.updated',
  'transaction.created',
  'transaction.posted',
  'payment.received',
  'vat.submitted',
  // acct's corrections, beyond the spec's list.
  'payment.removed',
  'credit_note.created',
  'credit_note.voided',
];

async function setup(t: Test) {
  const books = await newBooks(t, { clock: now });
  const api = await serveBooks(t, books);
  return { books, api };
}

t.test('create answers 201 with the whole secret once; the list shows only its prefix', async (t) => {
  const { api } = await setup(t);
  const r = await api.request('POST', '/v1/webhooks', {
    body: { url: publicUrl, events: ['invoice.paid', 'contact.created', 'invoice.paid'], description: 'Accounts system' },
  });
  t.equal(r.status, 201);
  t.equal(r.body.success, true);
  const e = r.body.data;
  t.match(e.id, /^whe_[0-9a-z]{26}$/);
  t.equal(e.url, publicUrl);
  t.same(e.events, ['invoice.paid', 'contact.created'], 'events deduplicated, in the order given');
  t.equal(e.description, 'Accounts system');
  t.equal(e.isActive, true);
  t.match(e.secret, secretShape, 'the secret starts whsec_');
  t.ok(e.secret.length >= 32, 'the secret is long');
  t.notOk('secretPrefix' in e);
  t.same(e.stats24h, { total: 0, succeeded: 0, failed: 0, pending: 0 });
  t.equal(e.createdAt, now);
  t.equal(e.updatedAt, now);

  const list = await api.request('GET', '/v1/webhooks');
  t.equal(list.status, 200);
  t.equal(list.body.data.endpoints.length, 1);
  const shown = list.body.data.endpoints[0];
  t.equal(shown.id, e.id);
  t.notOk('secret' in shown, 'the list never shows the secret');
  t.equal(shown.secretPrefix, e.secret.slice(0, shown.secretPrefix.length));
  t.match(shown.secretPrefix, /^whsec_/);
  t.ok(shown.secretPrefix.length < e.secret.length, 'only a prefix');
  t.notOk(JSON.stringify(list.body).includes(e.secret), 'the secret appears nowhere in the list');
  t.same(list.body.data.availableEvents, kinds, "availableEvents: the spec's 14 event kinds and acct's 3");

  const second = await api.request('POST', '/v1/webhooks', { body: { url: `${publicUrl}/2`, events: ['contact.created'] } });
  t.equal(second.status, 201);
  t.equal(second.body.data.description, null, 'no description: null');
  t.not(second.body.data.secret, e.secret, 'each endpoint has its own secret');
});

t.test('events must be known kinds and at least one', async (t) => {
  const { api } = await setup(t);
  const unknown = await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created', 'invoice.exploded'] } });
  t.equal(unknown.status, 400);
  t.equal(unknown.body.success, false);
  t.match(unknown.body.error.field, /^events/, 'field events');
  const empty = await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: [] } });
  t.equal(empty.status, 400);
  t.match(empty.body.error.field, /^events/);
  const missing = await api.request('POST', '/v1/webhooks', { body: { url: publicUrl } });
  t.equal(missing.status, 400);
  t.match(missing.body.error.field, /^events/);
  const noUrl = await api.request('POST', '/v1/webhooks', { body: { events: ['contact.created'] } });
  t.equal(noUrl.status, 400);
  t.equal(noUrl.body.error.field, 'url');
  t.same((await api.request('GET', '/v1/webhooks')).body.data.endpoints, [], 'nothing registered');
});

t.test('the strict policy refuses http and every non-public address', async (t) => {
  const { api } = await setup(t);
  for (const url of [
    'http://93.184.215.14/hooks',
    'ftp://93.184.215.14/hooks',
    'not a url',
    'https://user:pass@93.184.215.14/hooks',
    'https://127.0.0.1/x',
    'https://127.1/x',
    'https://2130706433/x',
    'https://localhost/x',
    'https://10.1.2.3/',
    'https://172.16.5.4/',
    'https://192.168.0.1/',
    'https://169.254.169.254/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://[::1]/',
    'https://[::]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://host.invalid/',
    // IPv4-compatible (deprecated) and IPv4-translated forms of loopback.
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]/',
    'https://[::ffff:0:127.0.0.1]/',
    'https://[::ffff:0:7f00:1]/',
    'https://[::ffff:7f00:1]/',
    // 6to4 around 127.0.0.1, 10.0.0.1 and even a public IPv4: 6to4 is refused whatever it embeds.
    'https://[2002:7f00:1::1]/',
    'https://[2002:a00:1::1]/',
    'https://[2002:5db8:d70e::1]/',
    // Teredo.
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'https://[2001::1]/',
    // NAT64 in front of loopback, a private and a link-local IPv4; the local-use NAT64 prefix.
    'https://[64:ff9b::7f00:1]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[64:ff9b::169.254.169.254]/',
    'https://[64:ff9b:1::5db8:d70e]/',
    // Documentation ranges.
    'https://192.0.2.1/',
    'https://198.51.100.7/',
    'https://203.0.113.255/',
    'https://[2001:db8::1]/',
    'https://[3fff::1]/',
    // Benchmarking, shared address space (CGNAT), IETF protocol assignments, 6to4 relay anycast.
    'https://198.18.0.1/',
    'https://198.19.255.254/',
    'https://[2001:2::1]/',
    'https://100.127.255.254/',
    'https://192.0.0.8/',
    'https://192.88.99.1/',
    // Multicast, reserved, broadcast, "this network".
    'https://239.255.255.250/',
    'https://[ff02::1]/',
    'https://[ff0e::1]/',
    'https://240.0.0.1/',
    'https://255.255.255.255/',
    'https://0.1.2.3/',
    'https://[100::1]/',
    'https://[fec0::1]/',
    'https://[5f00::1]/',
  ]) {
    const r = await api.request('POST', '/v1/webhooks', { body: { url, events: ['contact.created'] } });
    t.equal(r.status, 400, `${url}: 400`);
    t.equal(r.body.error?.code, 'validation_error', `${url}: validation_error`);
    t.equal(r.body.error?.field, 'url', `${url}: field url`);
  }
  t.same((await api.request('GET', '/v1/webhooks')).body.data.endpoints, [], 'nothing registered');

  // The same rules when an endpoint's URL is changed.
  const ok = await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'] } });
  t.equal(ok.status, 201);
  for (const url of ['http://93.184.215.14/x', 'https://127.0.0.1/x', 'https://[::1]/']) {
    const r = await api.request('PATCH', `/v1/webhooks/${ok.body.data.id}`, { body: { url } });
    expectError(t, r, 400, 'validation_error', { field: 'url' });
  }
  t.equal((await api.request('GET', '/v1/webhooks')).body.data.endpoints[0].url, publicUrl, 'the URL is unchanged');
});

t.test("a host name is looked up outside any write, with an Idempotency-Key too (no DNS inside the books' lock)", async (t) => {
  const { api } = await setup(t);
  // localhost resolves (to loopback, refused): the lookup runs, and a lookup inside a write transaction fails as a bug (500).
  const created = await api.request('POST', '/v1/webhooks', {
    body: { url: 'https://localhost/hooks', events: ['contact.created'] },
    headers: { 'Idempotency-Key': 'hook-1' },
  });
  expectError(t, created, 400, 'validation_error', { field: 'url' });
  const ok = await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'] }, headers: { 'Idempotency-Key': 'hook-2' } });
  t.equal(ok.status, 201);
  const changed = await api.request('PATCH', `/v1/webhooks/${ok.body.data.id as string}`, {
    body: { url: 'https://localhost/hooks' },
    headers: { 'Idempotency-Key': 'hook-3' },
  });
  expectError(t, changed, 400, 'validation_error', { field: 'url' });
  t.equal((await api.request('GET', '/v1/webhooks')).body.data.endpoints.length, 1);
});

t.test('port 0 is refused: nothing can be delivered there', async (t) => {
  const { api } = await setup(t);
  const r = await api.request('POST', '/v1/webhooks', { body: { url: 'https://93.184.215.14:0/hooks', events: ['contact.created'] } });
  expectError(t, r, 400, 'validation_error', { field: 'url' });
});

t.test('at most 5 endpoints: the 6th is 422, and removing one makes room', async (t) => {
  const { api } = await setup(t);
  const ids: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const r = await api.request('POST', '/v1/webhooks', { body: { url: `${publicUrl}/${i}`, events: ['contact.created'] } });
    t.equal(r.status, 201, `endpoint ${i}`);
    ids.push(r.body.data.id);
  }
  const sixth = await api.request('POST', '/v1/webhooks', { body: { url: `${publicUrl}/6`, events: ['contact.created'] } });
  expectError(t, sixth, 422, 'unprocessable_entity');
  t.equal((await api.request('GET', '/v1/webhooks')).body.data.endpoints.length, 5);
  t.equal((await api.request('DELETE', `/v1/webhooks/${ids[0]}`)).status, 200);
  const again = await api.request('POST', '/v1/webhooks', { body: { url: `${publicUrl}/6`, events: ['contact.created'] } });
  t.equal(again.status, 201, 'room for one again');
});

t.test('the limit is per books: test mode has its own 5', async (t) => {
  const { books, api } = await setup(t);
  for (let i = 1; i <= 5; i++)
    t.equal((await api.request('POST', '/v1/webhooks', { body: { url: `${publicUrl}/${i}`, events: ['contact.created'] } })).status, 201);
  const test = await api.request('POST', '/v1/webhooks', { key: books.testApiKey, body: { url: `${publicUrl}/t`, events: ['contact.created'] } });
  t.equal(test.status, 201);
  t.equal((await api.request('GET', '/v1/webhooks', { key: books.testApiKey })).body.data.endpoints.length, 1, 'test mode sees only its own');
});

t.test('PATCH changes url, events, description and isActive, each alone', async (t) => {
  const { api } = await setup(t);
  const created = (await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'], description: 'first' } })).body.data;
  const path = `/v1/webhooks/${created.id}`;

  const url = await api.request('PATCH', path, { body: { url: 'https://93.184.215.15/other' } });
  t.equal(url.status, 200);
  t.match(url.body.data, { url: 'https://93.184.215.15/other', events: ['contact.created'], description: 'first', isActive: true });
  t.notOk('secret' in url.body.data, 'no secret on update');
  t.equal(url.body.data.secretPrefix, created.secret.slice(0, url.body.data.secretPrefix.length), 'the secret is unchanged');

  const events = await api.request('PATCH', path, { body: { events: ['invoice.paid', 'invoice.paid', 'quote.accepted'] } });
  t.equal(events.status, 200);
  t.same(events.body.data.events, ['invoice.paid', 'quote.accepted']);
  t.equal(events.body.data.url, 'https://93.184.215.15/other');

  const description = await api.request('PATCH', path, { body: { description: null } });
  t.equal(description.body.data.description, null);
  const off = await api.request('PATCH', path, { body: { isActive: false } });
  t.equal(off.body.data.isActive, false);
  t.same(off.body.data.events, ['invoice.paid', 'quote.accepted'], 'other fields kept');

  const noEvents = await api.request('PATCH', path, { body: { events: [] } });
  t.equal(noEvents.status, 400, 'events may not become empty');
  t.match(noEvents.body.error.field, /^events/);
  t.equal((await api.request('PATCH', path, { body: { events: ['nope'] } })).status, 400);
  t.equal((await api.request('PATCH', path, { body: { isActive: 'yes' } })).status, 400);

  const listed = (await api.request('GET', '/v1/webhooks')).body.data.endpoints[0];
  t.match(listed, { id: created.id, url: 'https://93.184.215.15/other', events: ['invoice.paid', 'quote.accepted'], description: null, isActive: false });
});

t.test('DELETE removes the endpoint; unknown ids are 404', async (t) => {
  const { api } = await setup(t);
  const created = (await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'] } })).body.data;
  const del = await api.request('DELETE', `/v1/webhooks/${created.id}`);
  t.equal(del.status, 200);
  t.same((await api.request('GET', '/v1/webhooks')).body.data.endpoints, []);
  expectError(t, await api.request('DELETE', `/v1/webhooks/${created.id}`), 404, 'not_found');
  expectError(t, await api.request('PATCH', `/v1/webhooks/${created.id}`, { body: { isActive: false } }), 404, 'not_found');
  expectError(t, await api.request('POST', `/v1/webhooks/${created.id}/rotate`), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/webhook-endpoints/${created.id}/deliveries`), 404, 'not_found');
});

t.test('rotate gives a new secret, once; the list shows the new prefix', async (t) => {
  const { api } = await setup(t);
  const created = (await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'] } })).body.data;
  const r = await api.request('POST', `/v1/webhooks/${created.id}/rotate`);
  t.equal(r.status, 200);
  t.match(r.body.data.secret, secretShape);
  t.not(r.body.data.secret, created.secret, 'a new secret');
  t.equal(r.body.data.id, created.id);
  const shown = (await api.request('GET', '/v1/webhooks')).body.data.endpoints[0];
  t.equal(shown.secretPrefix, r.body.data.secret.slice(0, shown.secretPrefix.length), "the prefix is the new secret's");
  t.notOk(JSON.stringify(shown).includes(r.body.data.secret));
});

t.test('the delivery log: 404 for an unknown endpoint, empty for a new one', async (t) => {
  const { api } = await setup(t);
  expectError(t, await api.request('GET', '/v1/webhook-endpoints/whe_0000000000000000000000000a/deliveries'), 404, 'not_found');
  t.equal((await api.request('GET', '/v1/webhook-endpoints/cont_x/deliveries')).status, 400, 'a malformed id is 400');
  const created = (await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'] } })).body.data;
  const log = await api.request('GET', `/v1/webhook-endpoints/${created.id}/deliveries`);
  t.equal(log.status, 200);
  t.same(log.body.data, []);
  t.equal(log.body.meta.total, 0);
  t.equal((await api.request('GET', `/v1/webhook-endpoints/${created.id}/deliveries?status=bogus`)).status, 400);
});

t.test('every webhook operation needs a key with all scopes', async (t) => {
  const { api } = await setup(t);
  const created = (await api.request('POST', '/v1/webhooks', { body: { url: publicUrl, events: ['contact.created'] } })).body.data;
  const { key } = await createKey(t, api, { name: 'almost all', scopes: allScopes.filter((s) => s !== 'dividends:write') });
  const calls: [string, string, unknown?][] = [
    ['POST', '/v1/webhooks', { url: `${publicUrl}/2`, events: ['contact.created'] }],
    ['GET', '/v1/webhooks'],
    ['PATCH', `/v1/webhooks/${created.id}`, { isActive: false }],
    ['POST', `/v1/webhooks/${created.id}/rotate`],
    ['GET', `/v1/webhook-endpoints/${created.id}/deliveries`],
    ['DELETE', `/v1/webhooks/${created.id}`],
  ];
  for (const [method, path, body] of calls) {
    const r = await api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    t.equal(r.status, 403, `${method} ${path}: 403`);
    t.equal(r.body.error?.code, 'insufficient_scope');
    t.equal((await api.request(method, path, { key: null, ...(body === undefined ? {} : { body }) })).status, 401, `${method} ${path} without a key: 401`);
  }
  const after = (await api.request('GET', '/v1/webhooks')).body.data.endpoints;
  t.equal(after.length, 1, 'nothing was created or removed');
  t.equal(after[0].isActive, true, 'nothing was changed');
  t.equal(after[0].secretPrefix, created.secret.slice(0, after[0].secretPrefix.length), 'not rotated');
});

t.test('the strict policy accepts global unicast literals, NAT64 in front of a public IPv4 included', async (t) => {
  const { api } = await setup(t);
  // 93.184.215.14 = 0x5d.0xb8.0xd7.0x0e, so 64:ff9b::5db8:d70e is NAT64 for it.
  for (const url of ['https://93.184.215.14/x', 'https://[2606:4700:4700::1111]/x', 'https://[64:ff9b::5db8:d70e]/x', 'https://[::ffff:5db8:d70e]/x']) {
    const r = await api.request('POST', '/v1/webhooks', { body: { url, events: ['contact.created'] } });
    t.equal(r.status, 201, `${url}: 201`);
  }
});

t.test('isGlobalUnicast', async (t) => {
  for (const a of [
    '127.0.0.1',
    '127.255.0.9',
    '::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '::ffff:0:127.0.0.1',
    '::ffff:0:8.8.8.8',
    '2002:7f00:1::1',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b::c0a8:101',
    '64:ff9b:1::808:808',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '0.255.255.255',
    '192.0.0.1',
    '192.0.2.1',
    '198.51.100.1',
    '203.0.113.1',
    '198.18.0.1',
    '198.19.255.255',
    '224.0.0.1',
    '239.255.255.255',
    '240.0.0.1',
    '255.255.255.255',
    '2001:db8::1',
    '2001:db8:ffff::1',
    '3fff::1',
    '2001:2::1',
    '100::1',
    '::',
    'fd12:3456::1',
    'fc00::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    'not an address',
    '',
  ]) {
    t.equal(isGlobalUnicast(a), false, `${a} is not global unicast`);
  }
  for (const a of [
    '8.8.8.8',
    '2a00:1450::1',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '100.63.255.255',
    '11.0.0.1',
    '192.169.0.1',
    '192.0.3.1',
    '198.20.0.1',
    '203.0.114.1',
    '223.255.255.254',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b::808:808',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
  ]) {
    t.equal(isGlobalUnicast(a), true, `${a} is global unicast`);
  }
});
