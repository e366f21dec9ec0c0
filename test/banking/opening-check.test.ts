/**
 * A statement's opening balance against the books: Starling's March 2024
 * export opens at £2,250.25 (its first balance 3,450.25 less its first
 * amount 1,200.00). On new books that money is not in 1200, so the import
 * says so (and reconciling to the statement's closing balance would fail by
 * it); with the opening balance posted the day before, nothing is said and
 * the statement reconciles. Over HTTP the upload's preview and the import's
 * detail carry the figures.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { newBooks, runCliInProcess, serveBooks } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const starling = fileURLToPath(projectFile('fixtures/bank-statements/starling.csv'));

t.test('acct bank import says when the statement opens at a balance the books do not hold', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const acct = (...args: string[]) => runCliInProcess(['--data', books.dataDir, ...args]);

  const first = await acct('bank', 'import', starling);
  t.equal(first.status, 0, first.stderr);
  // Opens at 3,450.25 − 1,200.00 = 2,250.25; the books hold nothing in 1200 on 2024-03-01.
  t.match(
    first.stdout,
    'the statement opens at 2,250.25 (the end of 2024-03-01) where the books hold 0.00: 2,250.25 before this statement is not in the books (an opening balance or an earlier statement)',
  );
});

t.test('with the opening balance in the books the import is silent and the statement reconciles', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const acct = (...args: string[]) => runCliInProcess(['--data', books.dataDir, ...args]);
  const opening = await acct('post', '2024-03-01', 'Opening balance', '1200=2,250.25', '3000=-2,250.25');
  t.equal(opening.status, 0, opening.stderr);

  const imported = await acct('bank', 'import', starling);
  t.equal(imported.status, 0, imported.stderr);
  t.notMatch(imported.stdout, 'the statement opens at', 'no word about the opening balance');

  // Two entries after March in 1200 that April's statement does not hold: a receipt of £80.00 on 2024-04-01 the bank
  // never had, and a payment of £50.00 on 2024-04-02 it had not yet taken. The books are 80.00 − 50.00 = 30.00 over.
  t.equal((await acct('post', '2024-04-01', 'Receipt', '1200=80.00', '4000=-80.00')).status, 0);
  t.equal((await acct('post', '2024-04-02', 'Purchase', '5100=50.00', '1200=-50.00')).status, 0);
  const april = path.join(books.dataDir, 'april.csv');
  fs.writeFileSync(april, 'Date,Description,Amount,Balance\n03/04/2024,COFFEE,-3.50,3747.14\n');
  const more = await acct('bank', 'import', april);
  t.equal(more.status, 0, more.stderr);
  // Opens at 3,747.14 + 3.50 = 3,750.64; the books at the end of 2024-04-02: 3,750.64 + 80.00 − 50.00 = 3,780.64.
  t.match(
    more.stdout,
    'the statement opens at 3,750.64 (the end of 2024-04-02) where the books hold 3,780.64: the books hold 30.00 more than the bank did (an entry the bank has not got, or one entered twice)',
  );
  // 2,250.25 + the statement's 8 lines (closing 3,750.64, so lines net 1,500.39) = 3,750.64.
  const reconciled = await acct('bank', 'reconcile', '1200', '--statement-balance', '3,750.64', '--as-of', '2024-03-31');
  t.equal(reconciled.status, 0, reconciled.stderr);
});

t.test('the upload preview and the import carry openingCheck', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const api = await serveBooks(t, books);
  const file = fs.readFileSync(starling, 'utf8');
  const upload = await api.request('POST', '/v1/bank-imports/upload', { body: { file, filename: 'starling.csv' } });
  t.equal(upload.status, 201);
  // 225,025p on the statement, 0 in the books: 225,025p missing.
  t.same(upload.body.data.openingCheck, { date: '2024-03-01', statementBalance: 225_025, booksBalance: 0, difference: 225_025 });
  const confirmed = await api.request('POST', `/v1/bank-imports/${upload.body.data.importId}/confirm`, { body: {} });
  t.equal(confirmed.status, 200);
  // Still the day before the statement: its own lines are not counted against it.
  const detail = await api.request('GET', `/v1/bank-imports/${upload.body.data.importId}`);
  t.same(detail.body.data.openingCheck, { date: '2024-03-01', statementBalance: 225_025, booksBalance: 0, difference: 225_025 });

  // A statement without balances (Monzo's export has none) has nothing to compare.
  const monzo = fs.readFileSync(projectFile('fixtures/bank-statements/monzo.csv'), 'utf8');
  const second = await api.request('POST', '/v1/bank-imports/upload', { body: { file: monzo, filename: 'monzo.csv' } });
  t.equal(second.status, 201);
  t.equal(second.body.data.openingCheck, null);
});
