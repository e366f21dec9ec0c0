/**
 * Text ignoring case the same way on both stores: a contact search and a
 * document number looked up through the commander program, with letters
 * whose lower case differs between JavaScript and PostgreSQL's lower()
 * (İ, final Σ) or that SQLite's lower() leaves alone (É, Ü). Run with
 * ACCT_TEST_DATABASE_URL set for PostgreSQL.
 */
import t, { type Test } from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { fold } from '../../src/store/fold.js';
import { acctJson, books } from './support.js';

const customer = (name: string) => ['contacts', 'create', '--contact-type', 'customer', '--name', name];
const names = async (t: Test, dir: string, search: string): Promise<string[]> =>
  ((await acctJson(t, dir, ['contacts', 'list', '--search', search])) as { name: string }[]).map((c) => c.name).sort();

t.test('contacts list --search finds a name in any case, whatever the letters', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, customer('İstanbul Kebab'));
  await acctJson(t, dir, customer('ΟΔΟΣ Ltd'));
  await acctJson(t, dir, customer('Straße Bau'));
  await acctJson(t, dir, customer('Kırmızı Çay'));

  t.same(await names(t, dir, 'İstanbul'), ['İstanbul Kebab'], 'the name as spelt, dotted capital I');
  t.same(await names(t, dir, 'istanbul'), ['İstanbul Kebab'], 'a plain i for the dotted capital');
  t.same(await names(t, dir, 'İSTANBUL'), ['İstanbul Kebab']);
  t.same(await names(t, dir, 'ΟΔΟΣ'), ['ΟΔΟΣ Ltd'], 'capital sigma at the end of the search');
  t.same(await names(t, dir, 'οδος'), ['ΟΔΟΣ Ltd'], 'final small sigma');
  t.same(await names(t, dir, 'οδοσ'), ['ΟΔΟΣ Ltd'], 'medial small sigma');
  t.same(await names(t, dir, 'STRASSE'), [], 'ß is not ss (no full case folding on either store)');
  t.same(await names(t, dir, 'STRAẞE'), ['Straße Bau'], 'capital ẞ is ß');
  t.same(await names(t, dir, 'kırmızı'), ['Kırmızı Çay'], 'dotless ı stays ı');
  t.same(await names(t, dir, 'kirmizi'), [], 'and is not i');
  t.same(await names(t, dir, 'çay'), ['Kırmızı Çay']);
});

t.test('a document number with non-ASCII letters is found as spelt and in either case', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Über Holz']);
  const bill = await acctJson(t, dir, [
    'bills',
    'create',
    '--contact-id',
    'Über Holz',
    '--bill-number',
    'RÉF-Ü1',
    '--issue-date',
    '2026-11-05',
    '--item',
    'Glue;7;3.33;standard',
  ]);
  t.equal((await acctJson(t, dir, ['bills', 'get', 'RÉF-Ü1'])).id, bill.id, 'as spelt');
  t.equal((await acctJson(t, dir, ['bills', 'get', 'réf-ü1'])).id, bill.id, 'in lower case');
  const other = await runCliInProcess(['--data', dir, '--json', 'bills', 'get', 'REF-U1']);
  t.equal(other.status, 3, 'accents count: REF-U1 is not RÉF-Ü1');
});

t.test('a contact named by its start, folded as search folds', async (t) => {
  const { dir } = await books(t);
  const kebab = await acctJson(t, dir, customer('İstanbul Kebab'));
  const odos = await acctJson(t, dir, customer('ΟΔΟΣ Ltd'));
  t.equal((await acctJson(t, dir, ['contacts', 'get', 'istanbul'])).id, kebab.id, 'i for İ');
  t.equal((await acctJson(t, dir, ['contacts', 'get', 'İstanbul Kebab'])).id, kebab.id, 'as spelt');
  t.equal((await acctJson(t, dir, ['contacts', 'get', 'οδος ltd'])).id, odos.id, 'a final sigma');
});

t.test('fold: lower case, then one form for letters the stores would lower differently', async (t) => {
  t.equal(fold('İstanbul'), 'istanbul', 'İ is i, without the combining dot');
  t.equal(fold('ΟΔΟΣ ΟΔΟΣ'), 'οδοσ οδοσ', 'every sigma is σ');
  t.equal(fold('οδος'), 'οδοσ');
  t.equal(fold('STRAẞE Straße'), 'straße straße');
  t.equal(fold('KIRMIZI Kırmızı'), 'kirmizi kırmızı', 'I is i, ı stays ı');
  t.equal(fold('RE\u0301F'), 'réf', 'composed (NFC)');
  t.equal(fold('ǅ'), 'ǆ', 'a titlecase digraph lowers');
});
