/**
 * PostgreSQL's fold() folds as the JavaScript one SQLite registers (İ is i,
 * every sigma σ), and a schema made by an earlier acct, at the latest
 * version with the old fold() (lower(normalize(text, NFC))), gets the new
 * one when it is next opened, though no migration is due. Needs
 * ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import { fold } from '../../src/store/fold.js';
import { ensureSchema, quoted } from '../../src/store/postgres/schemas.js';
import { testDatabaseUrl } from '../helpers/test-store.js';

const base = testDatabaseUrl();
const skip = base === undefined ? 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass)' : false;

const samples = ['İstanbul Kebab', 'ΟΔΟΣ Ltd', 'οδος', 'STRAẞE Straße', 'KIRMIZI Kırmızı Çay', 'RÉF-Ü1', 'RE\u0301F', 'ǅemal', 'Ærø', 'plain ascii'];

t.test('fold() on PostgreSQL is the JavaScript fold, and an old schema gets it', { skip }, async (t) => {
  const pool = new pg.Pool({ connectionString: base, max: 2 });
  const schema = `t${randomBytes(6).toString('hex')}_fold`;
  t.teardown(async () => {
    await pool.query(`drop schema if exists ${quoted(schema)} cascade`);
    await pool.end();
  });
  const folded = async (): Promise<string[]> =>
    (
      await pool.query<{ f: string }>(`select ${quoted(schema)}.fold(s) as f from unnest($1::text[]) with ordinality as u(s, n) order by n`, [samples])
    ).rows.map((r) => r.f);

  t.equal(await ensureSchema(pool, schema, 'org', true), true);
  t.same(await folded(), samples.map(fold), 'the same text as JavaScript, sample by sample');
  t.equal((await folded())[0], 'istanbul kebab');

  // As an earlier acct left it: its fold(), without the mark.
  await pool.query(`create or replace function ${quoted(schema)}.fold(text) returns text language sql immutable as $$ select lower(normalize($1, NFC)) $$`);
  await pool.query(`comment on function ${quoted(schema)}.fold(text) is null`);
  t.equal((await folded())[2], 'οδος', 'the old fold() leaves a final sigma');

  t.equal(await ensureSchema(pool, schema, 'org', false), true, 'opened again');
  t.same(await folded(), samples.map(fold), 'the new fold() in place');
});
