/**
 * The server's cache of authenticated keys: a key it has seen costs no
 * lookup, and a key revoked or renamed, by this server or by another
 * process on the same data directory (`acct keys revoke`), is seen as such
 * on the very next request.
 */
import t from 'tap';
import { KeyCache, revokeOwnKey, renameOwnKey } from '../../src/engine/integration/api-keys.js';
import type { Principal } from '../../src/engine/operation.js';
import type { DbHandle } from '../../src/store/store.js';
import type { PlatformDb } from '../../src/store/tables.js';
import { anotherStore, newBooks, runCliAsync, serveBooks, type Books } from '../helpers/index.js';
import { createKey, expectError } from '../http/support.js';

const clock = '2026-11-21T10:00:00Z';

/** The platform handle, counting how often its query builder is reached for (each time: one lookup). */
function countingHandle(platform: DbHandle<PlatformDb>): { handle: DbHandle<PlatformDb>; lookups: () => number } {
  let lookups = 0;
  const handle: DbHandle<PlatformDb> = {
    get db() {
      lookups++;
      return platform.db;
    },
    write: (work) => platform.write(work),
    secrets: platform.secrets,
    changeStamp: () => platform.changeStamp(),
    close: () => platform.close(),
  };
  return { handle, lookups: () => lookups };
}

/** The caller that owns every key of the books (as the CLI is). */
const owner = (books: Books): Principal => books.ctx().principal as Principal;

/** The id of the books' default live key. */
async function keyIdOf(books: Books): Promise<string> {
  const row = await books.store.platform.db
    .selectFrom('api_keys')
    .select('id')
    .where('organisation_id', '=', books.organisationId)
    .where('mode', '=', 'live')
    .executeTakeFirstOrThrow();
  return row.id;
}

t.test('a key seen once is answered from memory until the platform database changes (SQLite); read every time on PostgreSQL', async (t) => {
  const books = await newBooks(t, { clock });
  const { handle, lookups } = countingHandle(books.store.platform);
  const keys = new KeyCache(handle);
  const first = await keys.authenticate(books.apiKey);
  t.equal(first.organisationId, books.organisationId);
  t.equal(lookups(), 1, 'the first request looks the key up');
  if (books.store.kind === 'postgres') {
    // Another process may revoke it at any moment, and nothing would tell this one at once: every request reads it.
    for (let i = 0; i < 5; i++) t.same(await keys.authenticate(books.apiKey), first, 'the same principal');
    t.equal(lookups(), 6, 'PostgreSQL: each request looks the key up');
    return;
  }
  for (let i = 0; i < 5; i++) t.equal(await keys.authenticate(books.apiKey), first, 'the same principal');
  t.equal(lookups(), 1, 'later requests do not');

  await books.store.platform.write((trx) => trx.updateTable('platform_settings').set({ value: 'x' }).where('key', '=', 'nothing').execute());
  await keys.authenticate(books.apiKey);
  t.equal(lookups(), 1, 'a write that changes no row leaves the cache be');
  await books.store.platform.write((trx) => trx.insertInto('platform_settings').values({ key: 'unrelated', value: '1' }).execute());
  await keys.authenticate(books.apiKey);
  t.equal(lookups(), 2, 'any change to the platform database looks the key up again');
});

t.test('unknown and malformed keys are refused every time, and not kept', async (t) => {
  const books = await newBooks(t, { clock });
  const { handle, lookups } = countingHandle(books.store.platform);
  const keys = new KeyCache(handle);
  const unknown = `sk_live_${'A'.repeat(32)}`;
  for (let i = 0; i < 2; i++) await t.rejects(keys.authenticate(unknown), { code: 'unauthorized', message: 'invalid API key' });
  t.equal(lookups(), 2, 'an unknown key is looked up each time');
  await t.rejects(keys.authenticate('sk_live_short'), { code: 'unauthorized', message: /malformed/ });
  t.equal(lookups(), 2, 'a malformed key is refused without a lookup');
});

t.test('a key revoked through the same database connection is refused on the next call', async (t) => {
  const books = await newBooks(t, { clock });
  const keys = new KeyCache(books.store.platform);
  await keys.authenticate(books.apiKey);
  const id = await keyIdOf(books);
  await books.store.platform.write((trx) => revokeOwnKey(trx, books.clock, owner(books), id));
  await t.rejects(keys.authenticate(books.apiKey), { code: 'unauthorized', message: 'this API key has been revoked' });
});

t.test('a key revoked by another connection to the same files is refused on the next call', async (t) => {
  const books = await newBooks(t, { clock });
  const keys = new KeyCache(books.store.platform);
  const id = await keyIdOf(books);
  t.equal((await keys.authenticate(books.apiKey)).keyId, id);
  // Another Store is another connection, as `acct keys revoke` in another process would open.
  const other = await anotherStore(t, books.dataDir);
  await other.platform.write((trx) => revokeOwnKey(trx, books.clock, owner(books), id));
  await t.rejects(keys.authenticate(books.apiKey), { code: 'unauthorized', message: 'this API key has been revoked' });
});

t.test('a key renamed elsewhere is seen with its new name on the next call', async (t) => {
  const books = await newBooks(t, { clock });
  const keys = new KeyCache(books.store.platform);
  t.equal((await keys.authenticate(books.apiKey)).actor.name, 'Default live key');
  const other = await anotherStore(t, books.dataDir);
  await other.platform.write(async (trx) => renameOwnKey(trx, owner(books), await keyIdOf(books), 'Renamed'));
  t.equal((await keys.authenticate(books.apiKey)).actor.name, 'Renamed');
});

t.test('a running server refuses a key on the request after `acct keys revoke` in another process', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { key, id } = await createKey(t, api, { name: 'CI', scopes: ['transactions:read'] });
  for (let i = 0; i < 3; i++) t.equal((await api.request('GET', '/v1/transactions', { key })).status, 200, 'the key answers (and is kept)');

  const revoked = await runCliAsync(['--data', books.dataDir, '--json', 'keys', 'revoke', id]);
  t.equal(revoked.status, 0, revoked.stderr);
  expectError(t, await api.request('GET', '/v1/transactions', { key }), 401, 'unauthorized', { message: /revoked/ });
  t.equal((await api.request('GET', '/v1/transactions')).status, 200, 'the other key still answers');

  // And the other way round: a key made by another process answers at once, and one rotated there is refused.
  const made = await runCliAsync(['--data', books.dataDir, '--json', 'keys', 'create', '--name', 'Made by the CLI', '--scopes', 'transactions:read']);
  t.equal(made.status, 0, made.stderr);
  const fresh = JSON.parse(made.stdout) as { key: string; id: string };
  t.equal((await api.request('GET', '/v1/transactions', { key: fresh.key })).status, 200, 'the new key answers');
  const rotated = await runCliAsync(['--data', books.dataDir, '--json', 'keys', 'rotate', fresh.id]);
  t.equal(rotated.status, 0, rotated.stderr);
  expectError(t, await api.request('GET', '/v1/transactions', { key: fresh.key }), 401, 'unauthorized', { message: /revoked/ });
  const replacement = (JSON.parse(rotated.stdout) as { key: string }).key;
  t.equal((await api.request('GET', '/v1/transactions', { key: replacement })).status, 200, 'its replacement answers');
});
