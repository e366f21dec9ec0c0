/**
 * A bank import's counts read the file as it was read, before and after
 * confirming; and an import none of whose rows could be read is not
 * confirmed (422 unresolved_conflicts) but kept pending with its
 * file, to be remapped. Starling's March export: 8 rows, counted by hand.
 */
import fs from 'node:fs';
import t from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const starling = fs.readFileSync(projectFile('fixtures/bank-statements/starling.csv'), 'utf8');

async function upload(t: Parameters<typeof newBooks>[0], api: Api) {
  const r = await api.request('POST', '/v1/bank-imports/upload', { body: { file: starling, filename: 'starling.csv' } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  return r.body.data.importId as string;
}

const countsOf = async (api: Api, id: string) => {
  const d = (await api.request('GET', `/v1/bank-imports/${id}`)).body.data;
  return {
    status: d.status,
    totalRows: d.totalRows,
    validRows: d.validRows,
    duplicates: d.duplicates,
    errorRows: d.errorRows,
    createdRows: d.createdRows,
    skippedRows: d.skippedRows,
  };
};

t.test('valid rows and duplicates stay as read once the import is confirmed', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const first = await upload(t, api);
  const rows = (await api.request('GET', `/v1/bank-imports/${first}`)).body.data.rows as { id: number }[];
  const confirmed = await api.request('POST', `/v1/bank-imports/${first}/confirm`, { body: { rows: [rows[0]!.id, rows[1]!.id] } });
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // 8 rows read, all valid; 2 chosen and created, the other 6 skipped: 2 + 6 = 8.
  t.same(await countsOf(api, first), { status: 'completed', totalRows: 8, validRows: 8, duplicates: 0, errorRows: 0, createdRows: 2, skippedRows: 6 });

  // The same file again: its first two rows duplicate the two created, the other six are new; duplicates skipped.
  const second = await upload(t, api);
  t.same(await countsOf(api, second), { status: 'pending', totalRows: 8, validRows: 6, duplicates: 2, errorRows: 0, createdRows: 0, skippedRows: 0 });
  const done = await api.request('POST', `/v1/bank-imports/${second}/confirm`, { body: { duplicates: 'skip' } });
  t.equal(done.status, 200, JSON.stringify(done.body.error ?? ''));
  // 6 created, 2 skipped: 6 + 2 = 8, still 6 valid and 2 duplicates as read.
  t.same(await countsOf(api, second), { status: 'completed', totalRows: 8, validRows: 6, duplicates: 2, errorRows: 0, createdRows: 6, skippedRows: 2 });
});

t.test('an import with no readable row is refused and kept to be remapped', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const id = await upload(t, api);
  // Read as year-first, none of Starling's 02/03/2024 dates is a date: all 8 rows rejected.
  const wrong = await api.request('POST', `/v1/bank-imports/${id}/remap`, { body: { dateFormat: 'YYYY-MM-DD' } });
  t.equal(wrong.status, 200, JSON.stringify(wrong.body.error ?? ''));
  t.equal(wrong.body.data.errorRows, 8);
  const before = (await api.request('GET', '/v1/transactions?limit=100')).body.meta.total;

  const refused = await api.request('POST', `/v1/bank-imports/${id}/confirm`, { body: {} });
  t.equal(refused.status, 422);
  t.equal(refused.body.error.code, 'unresolved_conflicts');
  t.match(refused.body.error.message, /^rows: none of the 8 rows could be read/);
  t.equal((await api.request('GET', '/v1/transactions?limit=100')).body.meta.total, before, 'nothing posted');
  t.equal((await countsOf(api, id)).status, 'pending', 'still pending');

  // The file was kept: read day-first again, every row can be created.
  const right = await api.request('POST', `/v1/bank-imports/${id}/remap`, { body: { dateFormat: 'DD/MM/YYYY' } });
  t.equal(right.status, 200, JSON.stringify(right.body.error ?? ''));
  const done = await api.request('POST', `/v1/bank-imports/${id}/confirm`, { body: {} });
  t.equal(done.status, 200, JSON.stringify(done.body.error ?? ''));
  t.equal(done.body.data.created, 8);
});
