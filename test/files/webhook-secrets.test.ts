/**
 * Webhook signing secrets are sealed at rest (AES-256-GCM) with the data
 * directory's own secret.key (0600): the database file holds no secret,
 * a secret an older acct wrote in plain text is sealed when its books are
 * opened and keeps signing, and a database copied without the key cannot
 * sign: its deliveries fail, sending nothing, until the secret is rotated.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { movingClock, newBooks, type Books, type MovingClock } from '../helpers/index.js';
import { contactOk } from '../ledger-http/support.js';
import { deliverDue, sendWebhooks, type SenderOptions } from '../../src/engine/integration/webhook-sender.js';
import { listEndpoints, rotateSecret } from '../../src/engine/integration/webhooks.js';
import { orgDir, orgFile } from '../../src/store/data-dir.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { loopbackPolicy, opensslSignature, secretShape, selfSigned, serveWebhooks, startReceiver, type Hit, type Receiver } from '../webhooks/support.js';
import type { Api } from '../helpers/index.js';

const tls = selfSigned(t.testdir());

interface World {
  readonly clock: MovingClock;
  readonly books: Books;
  readonly api: Api;
  readonly receiver: Receiver;
  readonly options: SenderOptions;
  /** The endpoint registered at the receiver for contact.created, and its secret as shown. */
  readonly id: string;
  readonly secret: string;
}

async function world(t: Test): Promise<World> {
  const clock = movingClock('2026-11-21T10:00:00.000Z');
  const books = await newBooks(t, { clock });
  const api = await serveWebhooks(t, books);
  const receiver = await startReceiver(t, tls);
  const r = await api.request('POST', '/v1/webhooks', { body: { url: receiver.url('/hook'), events: ['contact.created'] } });
  t.equal(r.status, 201, JSON.stringify(r.body?.error ?? ''));
  t.match(r.body.data.secret, secretShape, 'the secret is shown once, whole');
  return { clock, books, api, receiver, options: { clock, policy: loopbackPolicy, ca: tls.cert }, id: r.body.data.id, secret: r.body.data.secret };
}

/** The secret column and its prefix as they lie in the database file. */
function rawRow(file: string, id: string): { secret: string; secret_prefix: string } {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('select secret, secret_prefix from webhook_endpoints where id = ?').get(id) as { secret: string; secret_prefix: string };
  } finally {
    db.close();
  }
}

/** Whether `text` appears anywhere in the database file or its WAL. */
function onDisk(file: string, text: string): boolean {
  return [file, `${file}-wal`].some((f) => fs.existsSync(f) && fs.readFileSync(f).includes(text));
}

async function signedWith(t: Test, secret: string, hit: Hit | undefined, what: string): Promise<void> {
  if (!hit) return void t.fail(`${what}: no request arrived`);
  t.equal(await opensslSignature(secret, String(hit.headers['x-service-timestamp']), hit.raw), hit.headers['x-service-signature'], what);
}

t.test('the database holds the secret sealed; the key is 0600 in the data directory; deliveries are signed with the secret', async (t) => {
  const w = await world(t);
  const file = orgFile(w.books.dataDir, w.books.organisationId, 'live');
  const row = rawRow(file, w.id);
  t.match(row.secret, /^enc1:[A-Za-z0-9_-]+$/, 'sealed, with its marker');
  t.notOk(row.secret.includes(w.secret.slice(6)), 'the column does not hold the secret');
  t.equal(row.secret_prefix, w.secret.slice(0, 10), 'only the 10 characters the list shows are in the clear');
  t.notOk(onDisk(file, w.secret.slice(6)), 'the secret is nowhere in the database file or its WAL');
  const key = path.join(w.books.dataDir, 'secret.key');
  t.equal((fs.statSync(key).mode & 0o777).toString(8), '600', 'secret.key is 0600');
  t.equal(Buffer.from(fs.readFileSync(key, 'utf8').trim(), 'base64').length, 32, 'a 256-bit key');

  await contactOk(t, w.api, { name: 'Sealed Ltd' });
  t.equal(await sendWebhooks(w.books.store.org(w.books.organisationId, 'live'), w.options), 1);
  await signedWith(t, w.secret, w.receiver.hits[0], 'signed with the secret shown at creation');
  const listed = (await w.api.request('GET', '/v1/webhooks')).body.data.endpoints[0];
  t.equal(listed.secretPrefix, w.secret.slice(0, 10), 'the list shows the prefix');
});

t.test('a plain-text secret of an older acct is sealed when its books are opened, and keeps signing', async (t) => {
  const w = await world(t);
  const file = orgFile(w.books.dataDir, w.books.organisationId, 'live');
  const plain = 'whsec_OlderAcctWroteThisInPlainText0123456789abcde';
  const older = new Database(file);
  older.prepare('update webhook_endpoints set secret = ?, secret_prefix = ? where id = ?').run(plain, plain.slice(0, 10), w.id);
  older.close();
  t.ok(onDisk(file, plain), 'the plain secret is on disk to begin with');

  const reopened = SqliteStore.open(w.books.dataDir);
  t.teardown(() => reopened.close());
  const books = reopened.org(w.books.organisationId, 'live');
  t.match(rawRow(file, w.id).secret, /^enc1:/, 'sealed on open');
  t.notOk(onDisk(file, plain), 'and the plain text is gone from the file and its WAL');

  await contactOk(t, w.api, { name: 'Older Ltd' });
  t.equal(await sendWebhooks(books, w.options), 1);
  await signedWith(t, plain, w.receiver.hits[0], 'signed with the secret the older acct made');
});

/** The organisation's live database copied (consistently, with VACUUM INTO) into another data directory. */
function copyBooks(t: Test, w: World, name: string): SqliteStore {
  // Not under t.testdir(): that is the books' own data directory.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `acct-${name}-`));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const store = SqliteStore.open(dataDir);
  t.teardown(() => store.close());
  fs.mkdirSync(orgDir(dataDir, w.books.organisationId), { recursive: true });
  const source = new Database(orgFile(w.books.dataDir, w.books.organisationId, 'live'), { readonly: true });
  source.exec(`vacuum into '${orgFile(dataDir, w.books.organisationId, 'live')}'`);
  source.close();
  return store;
}

t.test('a database copied without its key cannot sign: deliveries fail sending nothing, until the secret is rotated', async (t) => {
  const w = await world(t);
  await contactOk(t, w.api, { name: 'Copied Ltd' });

  const copy = copyBooks(t, w, 'copy');
  const books = copy.org(w.books.organisationId, 'live');
  t.same(
    (await listEndpoints(books.db, w.clock)).map((e) => e.secretPrefix),
    [w.secret.slice(0, 10)],
    'the copy still lists the endpoint',
  );
  t.equal(await sendWebhooks(books, w.options), 1, 'one delivery attempted');
  t.equal(w.receiver.hits.length, 0, 'nothing was sent');
  const failed = await books.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
  t.match(failed, { status: 'pending', attempts: 1, response_status: null });
  t.match(failed.error, /^not sent: the secret was sealed with a key this data directory does not have .*; rotate the endpoint's secret$/);
  t.notOk(failed.error?.includes(w.books.dataDir), 'the message names no path');
  t.notOk(fs.existsSync(path.join(copy.dataDir, 'secret.key')), 'no key was made for it');

  // A data directory with a key of its own opens it no better.
  const other = copyBooks(t, w, 'other');
  other.secrets.seal('makes this directory its key');
  const otherBooks = other.org(w.books.organisationId, 'live');
  t.equal(await sendWebhooks(otherBooks, w.options), 1);
  t.equal(w.receiver.hits.length, 0, 'nothing was sent from there either');
  const refused = await otherBooks.db.selectFrom('webhook_deliveries').select('error').executeTakeFirstOrThrow();
  t.match(refused.error, /the secret was sealed with another data directory's secret\.key/);

  const rotated = await books.write((trx) => rotateSecret(trx, w.clock, books.secrets, w.id));
  t.match(rotated.secret, secretShape);
  t.equal((fs.statSync(path.join(copy.dataDir, 'secret.key')).mode & 0o777).toString(8), '600', 'rotation made the key, 0600');
  w.clock.advance(60_000);
  t.equal(await deliverDue(books, w.options), 1, 'the retry, a minute later');
  await signedWith(t, rotated.secret ?? '', w.receiver.hits[0], 'signed with the rotated secret');
});
