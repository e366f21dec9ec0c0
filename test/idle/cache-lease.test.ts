/**
 * The cache of open organisation databases never closes one in use: a long
 * write or a streamed read keeps its file open while more organisations
 * than the cache holds are opened meanwhile, and a handle kept across a
 * request opens its file again when used after the cache closed it. Then
 * the same through a real server whose store holds one file open, under
 * requests to six organisations at once.
 */
import t from 'tap';
import { eventually, newBooks, serveBooks, apiAt, type Books } from '../helpers/index.js';
import { moreOrganisations, storeOver } from './support.js';

const nameOf = async (store: ReturnType<typeof storeOver>, orgId: string) =>
  (await store.org(orgId, 'live').db.selectFrom('organisation').select('name').executeTakeFirstOrThrow()).name;

t.test('a write in progress keeps its file open while other organisations come and go', async (t) => {
  const books = await newBooks(t);
  const others = await moreOrganisations(books, 4);
  const store = storeOver(t, books, 1);
  const opened: string[] = [];
  store.onOpen((orgId) => opened.push(orgId === books.organisationId ? 'ours' : 'other'));
  const ours = store.org(books.organisationId, 'live');

  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let begun!: () => void;
  const inTransaction = new Promise<void>((resolve) => (begun = resolve));
  const long = ours.write(async (trx) => {
    await trx.insertInto('row_counts').values({ table_name: 'probe-before', n: 1 }).execute();
    begun();
    await gate;
    await trx.insertInto('row_counts').values({ table_name: 'probe-after', n: 2 }).execute();
    return 'committed';
  });
  // Once the write is inside its transaction (not after a pause it might overrun on a busy machine), touch four other
  // organisations' books (each opening a file).
  await inTransaction;
  for (const o of others) t.equal(await nameOf(store, o.organisationId), `Neighbour ${others.indexOf(o) + 1} Ltd`);
  t.equal(store.openFiles, 2, 'the cache holds 2 files for now, more than its 1: ours is in use');
  t.same(opened, ['ours', 'other', 'other', 'other', 'other'], 'ours was never closed and opened again');
  release();
  t.equal(await long, 'committed', 'the long write commits');
  const rows = await ours.db.selectFrom('row_counts').select(['table_name', 'n']).where('table_name', 'like', 'probe-%').orderBy('n').execute();
  t.same(rows, [
    { table_name: 'probe-before', n: 1 },
    { table_name: 'probe-after', n: 2 },
  ]);
  await nameOf(store, (others[0] as { organisationId: string }).organisationId);
  t.equal(store.openFiles, 1, 'once idle, the next open brings the cache back to its size');
});

t.test('a streamed read keeps its file open while other organisations come and go', async (t) => {
  const books = await newBooks(t);
  const others = await moreOrganisations(books, 3);
  const store = storeOver(t, books, 1);
  const ours = store.org(books.organisationId, 'live');
  const total = Number(
    (
      await ours.db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const codes: string[] = [];
  for await (const row of ours.db.selectFrom('accounts').select('code').orderBy('code').stream()) {
    codes.push(row.code);
    // Between rows, another organisation's books are opened (the cache holds one file).
    if (codes.length <= others.length) await nameOf(store, (others[codes.length - 1] as { organisationId: string }).organisationId);
  }
  t.ok(total > others.length, `the chart has ${total} accounts: the other books were opened mid-stream`);
  t.equal(codes.length, total, 'every row was read');
  t.equal(codes[0], '1000', 'from the first');
});

t.test('a handle kept across a request opens its file again after the cache closed it', async (t) => {
  const books = await newBooks(t);
  const [other] = await moreOrganisations(books, 1);
  const store = storeOver(t, books, 1);
  const opened: string[] = [];
  store.onOpen((orgId) => opened.push(orgId === books.organisationId ? 'ours' : 'other'));
  const ours = store.org(books.organisationId, 'live');
  t.equal(await nameOf(store, books.organisationId), 'Acme Widgets Ltd');
  t.equal(await nameOf(store, (other as { organisationId: string }).organisationId), 'Neighbour 1 Ltd');
  t.same(opened, ['ours', 'other'], 'ours was closed to make room');
  t.equal(await ours.write(async (trx) => (await trx.insertInto('row_counts').values({ table_name: 'probe-kept', n: 7 }).execute(), 'written')), 'written');
  t.same(opened, ['ours', 'other', 'ours'], 'and opened again by its next use');
  const row = await ours.db.selectFrom('row_counts').select('n').where('table_name', '=', 'probe-kept').executeTakeFirstOrThrow();
  t.equal(row.n, 7);
});

t.test('a server whose store holds one file answers six organisations at once and logs every request', async (t) => {
  const books: Books = await newBooks(t);
  const books0 = books.store;
  const others = await moreOrganisations(books, 5);
  const store = storeOver(t, books, 1);
  const api = await serveBooks(t, { ...books, store });
  const orgs = [{ organisationId: books.organisationId, apiKey: books.apiKey }, ...others];
  const names = ['Acme Widgets Ltd', ...others.map((_o, i) => `Neighbour ${i + 1} Ltd`)];
  const at = apiAt(api.url, null);
  const rounds = [1, 2, 3, 4, 5, 6];
  type Reply = { what: string; status: number; name: unknown };
  // Each organisation's requests one after another, the six organisations at once, for long enough that the
  // request log (written every 250 ms, one set of books after another) is written while requests come in.
  const replies = (
    await Promise.all(
      orgs.map(async ({ apiKey: key }, i) => {
        const mine: Reply[] = [];
        for (const round of rounds) {
          const o = await at.request('GET', '/v1/organisation', { key });
          mine.push({ what: `organisation ${i}`, status: o.status, name: o.body?.data?.name });
          const a = await at.request('GET', '/v1/accounts?flat=true', { key });
          mine.push({ what: `accounts ${i}`, status: a.status, name: names[i] });
          const c = await at.request('POST', '/v1/contacts', {
            key,
            headers: { 'idempotency-key': `c-${i}-${round}` },
            body: { contactType: 'customer', name: `Customer ${i}.${round}` },
          });
          mine.push({ what: `contact ${i}.${round}`, status: c.status, name: names[i] });
        }
        return mine;
      }),
    )
  ).flat();
  t.equal(replies.length, 6 * 6 * 3);
  t.same(
    replies.filter((r) => r.status !== (r.what.startsWith('contact') ? 201 : 200)),
    [],
    'every request answered as it should (none 5xx)',
  );
  t.same(
    replies.filter((r) => r.what.startsWith('organisation')).map((r) => r.name),
    names.flatMap((n) => rounds.map(() => n)),
    'each key saw its own organisation',
  );
  // The request log is written in batches, each set of books in turn, while requests to others come in; its last
  // batch comes some time after the last reply (250 ms unloaded, longer on a busy machine): read once it holds them all.
  for (const [i, { organisationId }] of orgs.entries()) {
    const books = books0.org(organisationId, 'live');
    const logged = await eventually(
      () => books.db.selectFrom('request_log').select(['method', 'path']).execute(),
      (rows) => rows.length >= 18,
    );
    t.equal(logged.length, 18, `organisation ${i}: its 18 requests are in its log`);
    const contacts = await books.db.selectFrom('contacts').select('name').orderBy('name').execute();
    t.same(
      contacts.map((c) => c.name),
      rounds.map((round) => `Customer ${i}.${round}`),
      `organisation ${i}: its 6 contacts`,
    );
  }
});
