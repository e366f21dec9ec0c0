/**
 * Secrets shown once (a new API key, a webhook signing secret) are never
 * stored for an Idempotency-Key replay: the repeat answers the same record
 * with the secret null, and that reply is within the operation's declared
 * output (the server of serveWebhooks checks every reply's contract).
 */
import t from 'tap';
import { newBooks } from '../helpers/index.js';
import { secretShape, serveWebhooks } from '../webhooks/support.js';

const clock = '2026-11-21T10:00:00Z';
const once = (key: string) => ({ headers: { 'Idempotency-Key': key } });

t.test('keys create and rotate: the replay carries the same key record with key null', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveWebhooks(t, books);

  const first = await api.request('POST', '/v1/api-keys', { body: { name: 'CI', scopes: ['reports:read'] }, ...once('create-ci') });
  t.equal(first.status, 201);
  t.match(first.body.data.key, /^sk_live_[0-9A-Za-z]{32}$/);
  const replay = await api.request('POST', '/v1/api-keys', { body: { name: 'CI', scopes: ['reports:read'] }, ...once('create-ci') });
  t.equal(replay.status, 201);
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.equal(replay.body.data.key, null, 'the key is not replayed');
  t.strictSame({ ...replay.body.data, key: first.body.data.key }, first.body.data, 'the rest of the record is the first response');
  const listed = await api.request('GET', '/v1/api-keys');
  t.equal(listed.body.data.filter((k: { name: string }) => k.name === 'CI').length, 1, 'one key made, not two');
  t.equal((await api.request('GET', '/v1/reports/trial-balance', { key: first.body.data.key })).status, 200, 'the key shown once works');

  const rotated = await api.request('POST', `/v1/api-keys/${first.body.data.id}/rotate`, { body: {}, ...once('rotate-ci') });
  t.equal(rotated.status, 201);
  t.match(rotated.body.data.key, /^sk_live_[0-9A-Za-z]{32}$/);
  const again = await api.request('POST', `/v1/api-keys/${first.body.data.id}/rotate`, { body: {}, ...once('rotate-ci') });
  t.equal(again.status, 201);
  t.equal(again.body.data.key, null);
  t.equal(again.body.data.replaces, first.body.data.id);
  t.equal(again.body.data.id, rotated.body.data.id, 'the same new key, not a third');
});

t.test('webhooks create and rotate: the replay carries the endpoint with secret null', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveWebhooks(t, books);
  const body = { url: 'https://127.0.0.1:9/hooks', events: ['invoice.paid'] };

  const first = await api.request('POST', '/v1/webhooks', { body, ...once('hook-1') });
  t.equal(first.status, 201);
  t.match(first.body.data.secret, secretShape);
  const replay = await api.request('POST', '/v1/webhooks', { body, ...once('hook-1') });
  t.equal(replay.status, 201);
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.equal(replay.body.data.secret, null, 'the secret is not replayed');
  t.equal(replay.body.data.id, first.body.data.id);
  t.equal((await api.request('GET', '/v1/webhooks')).body.data.endpoints.length, 1, 'one endpoint registered, not two');

  const rotated = await api.request('POST', `/v1/webhooks/${first.body.data.id}/rotate`, { body: {}, ...once('rotate-hook') });
  t.equal(rotated.status, 200);
  t.match(rotated.body.data.secret, secretShape);
  t.not(rotated.body.data.secret, first.body.data.secret);
  const again = await api.request('POST', `/v1/webhooks/${first.body.data.id}/rotate`, { body: {}, ...once('rotate-hook') });
  t.equal(again.status, 200);
  t.equal(again.body.data.secret, null);
  const shown = (await api.request('GET', '/v1/webhooks')).body.data.endpoints[0];
  t.equal(shown.secretPrefix, rotated.body.data.secret.slice(0, 10), 'the replay rotated nothing: the first rotation stands');
});
