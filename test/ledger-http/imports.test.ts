/**
 * Import batches over HTTP: GET /v1/imports and /v1/imports/{id}, POST
 * /v1/imports/{id}/undo with its refusals (reconciled 409, in or before a
 * closed period 422, undone twice 409), another organisation's batch (404), malformed ids
 * (invalid_id), and imported transactions changed through the transactions
 * API like manual ones. The journals are imported by the CLI (in-process).
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { runCliInProcessJson, type Books } from '../helpers/index.js';
import { accountIds, balanceOf, closeFy2025, createKey, expectError, ledger, lineCount, transactionTotal } from './support.js';

const entry = (date: string, description: string, lines: [string, number][], status?: 'draft') =>
  JSON.stringify({ date, description, ...(status ? { status } : {}), lines: lines.map(([accountCode, amount]) => ({ accountCode, amount })) });

/** Two entries in FY 2025/26, one in FY 2026/27; 6 lines; total debit 30000 + 6000 + 1500 = 37500p. */
const journal = [
  entry('2026-01-10', 'Consulting', [
    ['1200', 30000],
    ['4000', -30000],
  ]),
  entry('2026-03-31', 'Software', [
    ['5100', 6000],
    ['1200', -6000],
  ]),
  entry('2026-04-01', 'Train fare', [
    ['5100', 1500],
    ['1200', -1500],
  ]),
].join('\n');

/** Import a journal with the CLI into the books' organisation; the batch id. */
async function importJournal(t: Test, books: Books, text: string, name = 'journal.jsonl'): Promise<string> {
  const file = path.join(books.dataDir, name);
  fs.writeFileSync(file, text);
  const r = await runCliInProcessJson(['--data', books.dataDir, '--org', books.organisationId, '--json', 'import', 'journal', file]);
  t.equal(r.status, 0, r.stderr);
  return (r.data as { importId: string }).importId;
}

async function transactionsOf(t: Test, api: Awaited<ReturnType<typeof ledger>>['api'], search: string): Promise<string> {
  const r = await api.request('GET', `/v1/transactions?search=${encodeURIComponent(search)}`);
  t.equal(r.status, 200);
  return r.body.data[0].id as string;
}

t.test('GET /v1/imports lists batches newest first with pagination; GET /v1/imports/{id} shows one; status filters', async (t) => {
  const { books, api } = await ledger(t);
  const first = await importJournal(t, books, journal);
  const second = await importJournal(t, books, journal.split('\n')[0]!, 'one.jsonl');
  const list = await api.request('GET', '/v1/imports');
  t.equal(list.status, 200);
  t.equal(list.body.success, true);
  t.match(list.body.data, [
    // one entry: total debit 30000
    {
      id: second,
      source: 'one.jsonl',
      status: 'imported',
      transactionCount: 1,
      lineCount: 2,
      totalDebit: 30000,
      firstDate: '2026-01-10',
      lastDate: '2026-01-10',
    },
    {
      id: first,
      source: 'journal.jsonl',
      status: 'imported',
      transactionCount: 3,
      lineCount: 6,
      totalDebit: 37500,
      firstDate: '2026-01-10',
      lastDate: '2026-04-01',
    },
  ]);
  t.same(list.body.meta, { total: 2, page: 1, limit: 20, hasMore: false });

  const page2 = await api.request('GET', '/v1/imports?limit=1&page=2');
  t.same(
    page2.body.data.map((b: { id: string }) => b.id),
    [first],
  );
  t.same(page2.body.meta, { total: 2, page: 2, limit: 1, hasMore: false });
  const oldest = await api.request('GET', '/v1/imports?sort=createdAt');
  t.same(
    oldest.body.data.map((b: { id: string }) => b.id),
    [first, second],
  );

  const one = await api.request('GET', `/v1/imports/${first}`);
  t.equal(one.status, 200);
  t.match(one.body.data, { id: first, contentHash: /^[0-9a-f]{64}$/, createdBy: 'cli', undoneAt: null, undoneBy: null, undoneByName: null });

  t.equal((await api.request('POST', `/v1/imports/${second}/undo`)).status, 200);
  const undone = await api.request('GET', '/v1/imports?status=undone');
  t.same(
    undone.body.data.map((b: { id: string }) => b.id),
    [second],
  );
  t.equal(undone.body.meta.total, 1);
  const imported = await api.request('GET', '/v1/imports?status=imported');
  t.same(
    imported.body.data.map((b: { id: string }) => b.id),
    [first],
  );
  expectError(t, await api.request('GET', '/v1/imports?status=gone'), 400, 'validation_error', { field: 'status' });
});

t.test('POST /v1/imports/{id}/undo removes every transaction of the batch and marks it undone; again is 409 already_voided', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await importJournal(t, books, journal);
  t.equal(await transactionTotal(api), 3);
  // 1200: +30000 − 6000 − 1500 = 22500; 5100: 6000 + 1500 = 7500.
  t.equal((await balanceOf(api, acc['1200']!)).net, 22500);
  t.equal((await balanceOf(api, acc['5100']!)).net, 7500);

  const r = await api.request('POST', `/v1/imports/${id}/undo`);
  t.equal(r.status, 200);
  // The server's clock: 21 November 2026, 10:00 UTC.
  t.match(r.body.data, { id, status: 'undone', transactionsRemoved: 3, undoneAt: '2026-11-21T10:00:00.000Z', undoneBy: /^key_/ });
  t.equal(await transactionTotal(api), 0);
  t.equal(await lineCount(books), 0, 'their lines are gone with them');
  t.same(await balanceOf(api, acc['1200']!), { debit: 0, credit: 0, net: 0 });
  t.same(await balanceOf(api, acc['5100']!), { debit: 0, credit: 0, net: 0 });

  expectError(t, await api.request('POST', `/v1/imports/${id}/undo`), 409, 'already_voided', { message: /already undone at 2026-11-21T10:00:00.000Z/ });
  t.match((await api.request('GET', `/v1/imports/${id}`)).body.data, { status: 'undone', undoneAt: '2026-11-21T10:00:00.000Z' });
});

t.test('undo refused: a reconciled transaction is 409 already_reconciled, one in a closed period 422; nothing is removed', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await importJournal(t, books, journal);
  const consulting = await transactionsOf(t, api, 'Consulting');
  t.equal((await api.request('PATCH', `/v1/transactions/${consulting}/reconcile`, { body: { reconciled: true } })).status, 200);

  expectError(t, await api.request('POST', `/v1/imports/${id}/undo`), 409, 'already_reconciled', {
    field: null,
    message: `transaction ${consulting} of import ${id} is reconciled`,
  });
  t.equal(await transactionTotal(api), 3, 'nothing removed');
  t.equal(await lineCount(books), 6);
  t.equal((await balanceOf(api, acc['1200']!)).net, 22500);
  t.match((await api.request('GET', `/v1/imports/${id}`)).body.data, { status: 'imported', undoneAt: null });

  t.equal((await api.request('PATCH', `/v1/transactions/${consulting}/reconcile`, { body: { reconciled: false } })).status, 200);
  await closeFy2025(t, api);
  const software = await transactionsOf(t, api, 'Software');
  // Consulting (2026-01-10) is the first of the batch in FY 2025/26, Software (2026-03-31) the last.
  expectError(t, await api.request('POST', `/v1/imports/${id}/undo`), 422, 'unprocessable_entity', {
    message: `transaction ${consulting} of import ${id}: 2026-01-10 falls in FY 2025/26, which is closed`,
  });
  t.equal(await transactionTotal(api), 3, 'nothing removed');
  t.equal(await lineCount(books), 6);
  t.equal((await api.request('GET', `/v1/transactions/${software}`)).status, 200);
  t.equal((await balanceOf(api, acc['1200']!)).net, 22500);
  t.match((await api.request('GET', `/v1/imports/${id}`)).body.data, { status: 'imported', undoneAt: null });

  // A batch wholly after the closed year still undoes.
  const later = await importJournal(t, books, journal.split('\n')[2]!, 'later.jsonl');
  const r = await api.request('POST', `/v1/imports/${later}/undo`);
  t.equal(r.status, 200);
  t.equal(r.body.data.transactionsRemoved, 1);
  t.equal(await transactionTotal(api), 3, 'the first batch is still all there');
});

t.test('undo refused for a batch dated before a closed period (closed too): 422 naming its first transaction', async (t) => {
  const { books, api, acc } = await ledger(t);
  // 2025-03-01 is in FY 2024/25, before FY 2025/26; 1200: +20000.
  const id = await importJournal(
    t,
    books,
    entry('2025-03-01', 'Old sale', [
      ['1200', 20000],
      ['4000', -20000],
    ]),
    'old.jsonl',
  );
  const old = await transactionsOf(t, api, 'Old sale');
  await closeFy2025(t, api);
  expectError(t, await api.request('POST', `/v1/imports/${id}/undo`), 422, 'unprocessable_entity', {
    message: `transaction ${old} of import ${id}: 2025-03-01 is before FY 2025/26, which is closed`,
  });
  t.equal(await transactionTotal(api), 1, 'nothing removed');
  t.equal((await balanceOf(api, acc['1200']!)).net, 20000);
  t.match((await api.request('GET', `/v1/imports/${id}`)).body.data, { status: 'imported', undoneAt: null });
});

t.test("another organisation's batch behaves as nonexistent (404) and stays; malformed ids are 400 invalid_id", async (t) => {
  const { books, api } = await ledger(t);
  const id = await importJournal(t, books, journal);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  await accountIds(t, api, other.apiKey);
  expectError(t, await api.request('GET', `/v1/imports/${id}`, { key: other.apiKey }), 404, 'not_found');
  expectError(t, await api.request('POST', `/v1/imports/${id}/undo`, { key: other.apiKey }), 404, 'not_found');
  t.same((await api.request('GET', '/v1/imports', { key: other.apiKey })).body.data, [], 'not listed there');
  expectError(t, await api.request('GET', `/v1/imports/${id}`, { key: books.testApiKey }), 404, 'not_found', { message: 'not found' });
  t.equal(await transactionTotal(api), 3, 'its transactions stay');
  t.match((await api.request('GET', `/v1/imports/${id}`)).body.data, { status: 'imported' });

  for (const bad of ['dimp_', 'txn_01kaz3v0xk7q2m9d4c8f6h1j5n', 'dimp-01kaz3v0', '42']) {
    expectError(t, await api.request('GET', `/v1/imports/${bad}`), 400, 'invalid_id', { field: 'id' });
    expectError(t, await api.request('POST', `/v1/imports/${bad}/undo`), 400, 'invalid_id', { field: 'id' });
  }
  expectError(t, await api.request('GET', '/v1/imports/dimp_nothere0000000000000'), 404, 'not_found');
  expectError(t, await api.request('POST', '/v1/imports/dimp_nothere0000000000000/undo'), 404, 'not_found');
});

t.test('scopes: transactions:read lists and shows imports, undo needs transactions:write', async (t) => {
  const { books, api } = await ledger(t);
  const id = await importJournal(t, books, journal);
  const reader = await createKey(t, api, { name: 'reader', scopes: ['transactions:read'] });
  const writer = await createKey(t, api, { name: 'writer', scopes: ['transactions:write'] });
  t.equal((await api.request('GET', '/v1/imports', { key: reader.key })).status, 200);
  t.equal((await api.request('GET', `/v1/imports/${id}`, { key: reader.key })).status, 200);
  expectError(t, await api.request('POST', `/v1/imports/${id}/undo`, { key: reader.key }), 403, 'insufficient_scope', { message: /transactions:write/ });
  t.equal(await transactionTotal(api), 3);
  t.equal((await api.request('POST', `/v1/imports/${id}/undo`, { key: writer.key })).status, 200);
});

t.test('an imported transaction is a journal: reverted to draft, edited (PUT) and deleted over HTTP under the rules of a manual one', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await importJournal(t, books, journal);
  const software = await transactionsOf(t, api, 'Software');
  const train = await transactionsOf(t, api, 'Train fare');

  expectError(t, await api.request('PUT', `/v1/transactions/${software}`, { body: { description: 'edited' } }), 422, 'unprocessable_entity', {
    message: 'revert it to draft first',
  });
  expectError(t, await api.request('DELETE', `/v1/transactions/${software}`), 422, 'unprocessable_entity', { message: 'revert it to draft first' });

  t.equal((await api.request('PATCH', `/v1/transactions/${software}/status`, { body: { status: 'draft' } })).status, 200);
  const put = await api.request('PUT', `/v1/transactions/${software}`, {
    body: {
      description: 'Software, corrected',
      status: 'posted',
      lines: [
        { accountId: acc['5100']!, amount: 5000 },
        { accountId: acc['1200']!, amount: -5000 },
      ],
    },
  });
  t.equal(put.status, 200, JSON.stringify(put.body));
  const edited = await api.request('GET', `/v1/transactions/${software}`);
  t.match(edited.body.data, { description: 'Software, corrected', status: 'posted', totalDebit: 5000, sourceType: 'import', sourceId: id });

  t.equal((await api.request('PATCH', `/v1/transactions/${train}/status`, { body: { status: 'draft' } })).status, 200);
  const del = await api.request('DELETE', `/v1/transactions/${train}`);
  t.equal(del.status, 200);
  t.same(del.body.data, { id: train, deleted: true });
  // 1200: +30000 − 5000 = 25000; 5100: 5000.
  t.equal((await balanceOf(api, acc['1200']!)).net, 25000);
  t.equal((await balanceOf(api, acc['5100']!)).net, 5000);

  // A reconciled import is held as a reconciled manual one is.
  const consulting = await transactionsOf(t, api, 'Consulting');
  t.equal((await api.request('PATCH', `/v1/transactions/${consulting}/reconcile`, { body: { reconciled: true } })).status, 200);
  expectError(t, await api.request('DELETE', `/v1/transactions/${consulting}`), 409, 'already_reconciled');
  t.equal((await api.request('PATCH', `/v1/transactions/${consulting}/reconcile`, { body: { reconciled: false } })).status, 200);

  const undo = await api.request('POST', `/v1/imports/${id}/undo`);
  t.equal(undo.status, 200);
  t.equal(undo.body.data.transactionsRemoved, 2, 'the edited one and the untouched one; the deleted one was gone');
  t.equal(await transactionTotal(api), 0);
});
