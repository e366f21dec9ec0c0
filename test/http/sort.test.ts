import t from 'tap';
import { movingClock, newBooks, serveBooks } from '../helpers/index.js';

t.test('GET /api-keys sorts by -createdAt by default, and by any listed field either way', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  for (const name of ['Zebra', 'alpha', 'Mango']) {
    clock.advance(60_000);
    t.equal((await api.request('POST', '/v1/api-keys', { body: { name } })).status, 201);
  }
  const names = async (query: string) => (await api.request('GET', `/v1/api-keys${query}`)).body.data.map((k: { name: string }) => k.name);
  t.same(await names(''), ['Mango', 'alpha', 'Zebra', 'Default live key']);
  t.same(await names('?sort=-createdAt'), ['Mango', 'alpha', 'Zebra', 'Default live key']);
  t.same(await names('?sort=createdAt'), ['Default live key', 'Zebra', 'alpha', 'Mango']);
  t.same(await names('?sort=name'), ['Default live key', 'Mango', 'Zebra', 'alpha']);
  t.same(await names('?sort=-name&limit=2'), ['alpha', 'Zebra']);
  const bad = await api.request('GET', '/v1/api-keys?sort=secret');
  t.equal(bad.status, 400);
  t.same(bad.body.error, {
    code: 'validation_error',
    message: 'sort must be one of createdAt, name, optionally prefixed by - for descending',
    field: 'sort',
  });
});
