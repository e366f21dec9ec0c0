/** Queries compiled once (src/store/precompiled.ts). */
import t from 'tap';
import type { Kysely } from 'kysely';
import { precompiled } from '../../src/store/precompiled.js';
import type { OrgDb } from '../../src/store/tables.js';
import { newBooks } from '../helpers/index.js';

t.test('a precompiled query binds each call its own arguments and keeps its constants', async (t) => {
  const books = await newBooks(t);
  const db = books.store.org(books.organisationId, 'live').db;
  const byCode = precompiled((db: Kysely<OrgDb>, code: string, from: string) =>
    db.selectFrom('accounts').select(['code', 'account_type']).where('code', '=', code).where('code', '>=', from).where('is_active', '=', 1).limit(5),
  );
  // The provisioned chart: 1200 is the bank account (an asset), 4000 sales (revenue).
  t.strictSame(await byCode.all(db, '1200', '1000'), [{ code: '1200', account_type: 'asset' }]);
  t.strictSame(await byCode.all(db, '4000', '1000'), [{ code: '4000', account_type: 'revenue' }]);
  t.strictSame(await byCode.all(db, '4000', '5000'), [], 'the second argument is bound too');
  t.equal(await byCode.first(db, 'no such code', '0'), undefined);

  const page = precompiled((db: Kysely<OrgDb>, limit: number, offset: number) =>
    db.selectFrom('accounts').select('code').orderBy('code').limit(limit).offset(offset),
  );
  const all = (await db.selectFrom('accounts').select('code').orderBy('code').execute()).map((r) => r.code);
  t.strictSame(
    (await page.all(db, 3, 2)).map((r) => r.code),
    all.slice(2, 5),
  );
  t.strictSame(
    (await page.all(db, 2, 0)).map((r) => r.code),
    all.slice(0, 2),
  );
});

t.test('a precompiled query runs inside a write transaction and sees its writes', async (t) => {
  const books = await newBooks(t);
  const handle = books.store.org(books.organisationId, 'live');
  const named = precompiled((db: Kysely<OrgDb>, code: string) => db.selectFrom('accounts').select('name').where('code', '=', code));
  const inside = await handle.write(async (trx) => {
    await trx.updateTable('accounts').set({ name: 'Current account' }).where('code', '=', '1200').execute();
    return named.first(trx, '1200');
  });
  t.strictSame(inside, { name: 'Current account' });
});

t.test('an argument that does not become a parameter, or a list, is refused', async (t) => {
  const books = await newBooks(t);
  const db = books.store.org(books.organisationId, 'live').db;
  const unused = precompiled((db: Kysely<OrgDb>, _code: string) => db.selectFrom('accounts').select('code'));
  await t.rejects(unused.all(db, '1200'), /argument 0 is not a parameter/);
  const listed = precompiled((db: Kysely<OrgDb>, codes: string[]) => db.selectFrom('accounts').select('code').where('code', 'in', codes));
  await t.rejects(listed.all(db, ['1200']), /a list cannot be an argument/, 'a list would need one parameter per element');
});
