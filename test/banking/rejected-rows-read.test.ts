/**
 * A rejected row keeps what of it was read. Starling's "Opening Balance"
 * line of £0.00 was shown with date, description and amount null in
 * GET /bank-imports/{id} and `acct bank-imports get`, so nobody could tell
 * which line of the file it was; now its date, description, amount (and
 * balance) are there beside the reason, as are those of a row with an
 * impossible date (its description and amount) or a pending one. A row whose
 * columns are shifted reads as nothing (null), its cells being in the wrong
 * places. Rejected rows are still never created, nor taken for duplicates.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { books, cliOn } from '../cli/support.js';

// Starling's layout: the Opening Balance row of 0.00 (row 1), an impossible date (row 3), a row of 8 cells for 7 (row 4).
const starling = [
  'Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category',
  '01/11/2026,Opening Balance,,,0.00,"1,000.00",',
  '02/11/2026,"Smith, Jones & Co",INV-1001,FASTER PAYMENT,"1,234.56","2,234.56",INCOME',
  '31/02/2026,Amazon,Order 123,CARD,-12.50,"2,222.06",SHOPPING',
  '03/11/2026,HMRC,VAT,FASTER PAYMENT,-222.06,2000.00,TAX,EXTRA',
  '',
].join('\n');

interface Row {
  rowIndex: number;
  status: string;
  date: string | null;
  description: string | null;
  reference: string | null;
  amount: number | null;
  balance: number | null;
  error: string | null;
}
const shown = (rows: readonly Row[]) => rows.map((r) => [r.rowIndex, r.status, r.date, r.description, r.reference, r.amount, r.balance, r.error]);

t.test('GET /bank-imports/{id} shows a rejected row’s date, description and amount where they were read', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file: starling, filename: 'starling.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.match(up.body.data, { totalRows: 4, validRows: 1, errorRows: 3 });
  const expected = [
    // £0.00 posts nothing; the balance £1,000.00 is 100,000 pence.
    [1, 'error', '2026-11-01', 'Opening Balance', null, 0, 100_000, 'line 2: a zero amount posts nothing'],
    [2, 'valid', '2026-11-02', 'Smith, Jones & Co', 'INV-1001', 123_456, 223_456, null],
    // No 31 February: the date is null, the rest read (−£12.50 = −1,250 pence; £2,222.06 = 222,206 pence).
    [3, 'error', null, 'Amazon', 'Order 123', -1_250, 222_206, 'line 4: "31/02/2026" is not a date in the format DD/MM/YYYY'],
    [4, 'error', null, null, null, null, null, "line 5: the row has 8 columns where the file's rows have 7"],
  ];
  t.same(shown(up.body.data.preview), expected, 'the upload’s preview');
  const got = await api.request('GET', `/v1/bank-imports/${up.body.data.importId}`);
  t.same(shown(got.body.data.rows), expected, 'the import’s rows');

  // Confirming creates the one valid row; the rejected ones stay rejected, with what was read.
  const done = await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/confirm`, { body: {} });
  t.match(done.body.data, { created: 1, rejected: 3, total: 4 });
  const after = (await api.request('GET', `/v1/bank-imports/${up.body.data.importId}`)).body.data.rows as Row[];
  t.same(
    shown(after).map((r) => r.slice(0, 4)),
    [
      [1, 'error', '2026-11-01', 'Opening Balance'],
      [2, 'created', '2026-11-02', 'Smith, Jones & Co'],
      [3, 'error', null, 'Amazon'],
      [4, 'error', null, null],
    ],
  );
  // The same statement again: the Opening Balance row is rejected again, not a duplicate of anything.
  const again = await api.request('POST', '/v1/bank-imports/upload', { body: { file: starling } });
  t.match(again.body.data, { validRows: 0, duplicates: 1, errorRows: 3 });
});

t.test('acct bank-imports get and acct bank import name the rejected line by what was read', async (t) => {
  const { dir } = await books(t);
  const { ok, json } = cliOn(t, dir);
  const file = path.join(dir, 'starling.csv');
  fs.writeFileSync(file, starling);
  const up = (await json('bank-imports', 'upload', '--file', file)) as { importId: string };
  const table = await ok('bank-imports', 'get', up.importId, '--wide');
  t.match(table, /\n1\s+1\s+2026-11-01\s+Opening Balance\s+—\s+—\s+0\.00\s+1,000\.00\s+error\s+line 2: a zero amount posts nothing/);
  t.match(table, /\n3\s+3\s+—\s+Amazon\s+Order 123\s+—\s+-12\.50\s+2,222\.06\s+error/);
  const rows = ((await json('bank-imports', 'get', up.importId)) as { rows: Row[] }).rows;
  t.match(rows[0], { date: '2026-11-01', description: 'Opening Balance', amount: 0 });
  t.ok(await ok('bank-imports', 'delete', up.importId));

  const imported = await ok('bank', 'import', file);
  t.match(imported, 'rejected row 1 (2026-11-01 Opening Balance 0.00): line 2: a zero amount posts nothing');
  t.match(imported, 'rejected row 3 (Amazon -12.50): line 4: "31/02/2026" is not a date in the format DD/MM/YYYY');
  t.match(imported, "rejected row 4: line 5: the row has 8 columns where the file's rows have 7");
});
