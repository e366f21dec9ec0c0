/**
 * POST /v1/bank-imports/{id}/undo over HTTP: a completed Starling import
 * (one line categorised since) undone puts the trial balance back as it was
 * before the import, keeps the import on record as undone with its rows'
 * transaction ids cleared, lets a pending import of the same statement see
 * its rows as new again, and lets the statement be imported again without
 * duplicates. Refusals leave everything in place: a reconciled line (409
 * already_reconciled), a line dated before a closed period (422), a line
 * counted in a filed VAT return (422 vat_return_filed), a pending
 * import (409: delete it), undoing twice (409 already_voided), another
 * organisation's import (404). Figures worked by hand from
 * fixtures/bank-statements/starling.csv.
 */
import fs from 'node:fs';
import t from 'tap';
import type { Test } from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { projectFile } from '../../src/paths.js';

const starling = fs.readFileSync(projectFile('fixtures/bank-statements/starling.csv'), 'utf8');

/** Books on 21 November 2026 holding £1,000.00 of share capital paid in on 1 February 2024. */
async function world(t: Test) {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const capital = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2024-02-01',
      description: 'Share capital',
      lines: [
        { accountId: id('1200'), amount: 100_000 },
        { accountId: id('3000'), amount: -100_000 },
      ],
    },
  });
  t.equal(capital.status, 201, JSON.stringify(capital.body.error ?? ''));
  return { books, api, id };
}

async function importStarling(t: Test, api: Api): Promise<string> {
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file: starling, filename: 'starling.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const done = await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/confirm`, { body: { duplicates: 'skip' } });
  t.equal(done.status, 200, JSON.stringify(done.body.error ?? ''));
  return up.body.data.importId as string;
}

async function trialBalance(api: Api): Promise<[string, number, number][]> {
  const r = await api.request('GET', '/v1/reports/trial-balance?asOf=2024-03-31');
  return r.body.data.accounts.map((a: { code: string; debit: number; credit: number }) => [a.code, a.debit, a.credit]);
}

/** Before the import: the capital alone. */
const before: [string, number, number][] = [
  ['1200', 100_000, 0],
  ['3000', 0, 100_000],
];

/**
 * After the import, with one £4.35 Pret line categorised to 5000: the eight rows sum to
 * +1,200.00 − 850.00 − 4.35 − 1,234.56 − 4.35 − 4.35 − 2.00 + 2,400.00 = +1,500.39, so 1200 holds
 * 1,000.00 + 1,500.39 = 2,500.39; HMRC VAT's 1,234.56 is on 2202 by the seed rule; suspense holds the
 * other side of the other seven, −(1,500.39 + 1,234.56) = −2,734.95, less the Pret line's 4.35 moved
 * to 5000: a credit of 2,739.30.
 */
const imported: [string, number, number][] = [
  ['1200', 250_039, 0],
  ['2202', 123_456, 0],
  ['3000', 0, 100_000],
  ['5000', 435, 0],
  ['9999', 0, 273_930],
];

async function categorisePret(t: Test, api: Api, importId: string, account: string): Promise<void> {
  const rows = (await api.request('GET', `/v1/bank-imports/${importId}`)).body.data.rows as { description: string; transactionId: string }[];
  const pret = rows.find((r) => r.description.startsWith('Pret'))!;
  const r = await api.request('PATCH', `/v1/transactions/${pret.transactionId}/categorise`, { body: { accountId: account } });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
}

const bankImportTransactions = async (api: Api) =>
  ((await api.request('GET', '/v1/transactions?limit=100')).body.data as { sourceType: string }[]).filter((x) => x.sourceType === 'bank_import').length;

t.test('undo removes every transaction, categorised ones too; the statement imports again without duplicates', async (t) => {
  const { api, id } = await world(t);
  t.same(await trialBalance(api), before);
  const first = await importStarling(t, api);
  await categorisePret(t, api, first, id('5000'));
  t.same(await trialBalance(api), imported);

  // A second upload of the statement, still pending, sees all 8 rows as duplicates of the first import's.
  const pending = await api.request('POST', '/v1/bank-imports/upload', { body: { file: starling, filename: 'starling.csv' } });
  t.match(pending.body.data, { duplicates: 8, validRows: 0 });

  const r = await api.request('POST', `/v1/bank-imports/${first}/undo`);
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  // The server's clock: 21 November 2026, 10:00 UTC.
  t.match(r.body.data, { id: first, status: 'undone', transactionsRemoved: 8, createdRows: 8, undoneAt: '2026-11-21T10:00:00.000Z' });
  t.same(await trialBalance(api), before, 'the trial balance is as before the import');
  t.equal(await bankImportTransactions(api), 0);

  const detail = (await api.request('GET', `/v1/bank-imports/${first}`)).body.data;
  t.equal(detail.status, 'undone');
  t.equal(detail.rows.length, 8, 'the rows stay on record');
  t.ok(
    detail.rows.every((row: { status: string; transactionId: string | null }) => row.status === 'created' && row.transactionId === null),
    'created once, their transactions gone',
  );
  t.equal((await api.request('GET', '/v1/bank-imports')).body.data.find((i: { id: string }) => i.id === first).status, 'undone');

  const fresh = (await api.request('GET', `/v1/bank-imports/${pending.body.data.importId}`)).body.data;
  t.match(fresh, { duplicates: 0, validRows: 8 }, 'the pending upload no longer sees duplicates');
  const again = await api.request('POST', `/v1/bank-imports/${pending.body.data.importId}/confirm`, { body: {} });
  t.equal(again.status, 200, JSON.stringify(again.body.error ?? ''));
  t.match(again.body.data, { created: 8, skipped: 0 });
  t.equal(await bankImportTransactions(api), 8, 'imported once more, once');
  // As `imported`, less the Pret line's categorisation: 9999 credit 2,734.95.
  t.same(await trialBalance(api), [
    ['1200', 250_039, 0],
    ['2202', 123_456, 0],
    ['3000', 0, 100_000],
    ['9999', 0, 273_495],
  ]);

  expectError(t, await api.request('POST', `/v1/bank-imports/${first}/undo`), 409, 'already_voided', { message: /already undone at 2026-11-21T10:00:00.000Z/ });
  expectError(t, await api.request('DELETE', `/v1/bank-imports/${first}`), 409, 'conflict', { message: /is undone and cannot be deleted/ });
});

t.test('undo refused: a reconciled line is 409, a line before a closed period 422; nothing moves', async (t) => {
  const { api, id } = await world(t);
  const importId = await importStarling(t, api);
  await categorisePret(t, api, importId, id('5000'));
  const rows = (await api.request('GET', `/v1/bank-imports/${importId}`)).body.data.rows as { description: string; transactionId: string }[];
  const fee = rows.find((r) => r.description.startsWith('Starling Bank'))!.transactionId;
  const acme = rows.find((r) => r.description.startsWith('Acme'))!.transactionId;
  t.equal((await api.request('PATCH', `/v1/transactions/${fee}/reconcile`, { body: { reconciled: true } })).status, 200);

  const unmoved = async (what: string, balances = imported) => {
    t.same(await trialBalance(api), balances, `${what}: the trial balance is unchanged`);
    t.equal(await bankImportTransactions(api), 8, `${what}: every transaction stays`);
    const detail = (await api.request('GET', `/v1/bank-imports/${importId}`)).body.data;
    t.match(detail, { status: 'completed', undoneAt: null }, `${what}: still completed`);
    t.ok(
      detail.rows.every((r: { transactionId: string | null }) => r.transactionId !== null),
      `${what}: the rows keep their transactions`,
    );
  };
  expectError(t, await api.request('POST', `/v1/bank-imports/${importId}/undo`), 409, 'already_reconciled', {
    message: `transaction ${fee} of bank_import ${importId} is reconciled`,
  });
  await unmoved('reconciled');

  t.equal((await api.request('PATCH', `/v1/transactions/${fee}/reconcile`, { body: { reconciled: false } })).status, 200);
  // A year with lines on suspense cannot be closed: every line still there is categorised first, money in to 4000 Sales
  // and out to 5000 (no VAT, so there is no VAT return to file first).
  for (const { transactionId } of rows) {
    const txn = (await api.request('GET', `/v1/transactions/${transactionId}`)).body.data as { lines: { accountId: string; amount: number }[] };
    const held = txn.lines.find((l) => l.accountId === id('9999'));
    if (held === undefined) continue;
    const r = await api.request('PATCH', `/v1/transactions/${transactionId}/categorise`, { body: { accountId: id(held.amount < 0 ? '4000' : '5000') } });
    t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  }
  // On suspense were Acme's 1,200.00 and Client Two's 2,400.00 in (4000: 360,000), and out the rent 850.00, two Pret
  // 4.35s and the 2.00 fee (5000: 435 + 85,000 + 435 + 435 + 200 = 86,505). Debits 250,039 + 123,456 + 86,505 = 460,000
  // = credits 100,000 + 360,000.
  const categorised: [string, number, number][] = [
    ['1200', 250_039, 0],
    ['2202', 123_456, 0],
    ['3000', 0, 100_000],
    ['4000', 0, 360_000],
    ['5000', 86_505, 0],
  ];
  t.same(await trialBalance(api), categorised, 'nothing left on suspense');
  t.equal((await api.request('POST', '/v1/reports/periods/period_20250401/close')).status, 200, 'FY 2025/26 closed');
  // The statement's lines (March 2024) are before FY 2025/26; Acme's (2 March) is the first by date.
  expectError(t, await api.request('POST', `/v1/bank-imports/${importId}/undo`), 422, 'unprocessable_entity', {
    message: `transaction ${acme} of bank_import ${importId}: 2024-03-02 is before FY 2025/26, which is closed`,
  });
  await unmoved('closed', categorised);
});

t.test('a pending import is deleted, not undone; another organisation’s import is 404', async (t) => {
  const { books, api } = await world(t);
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file: starling, filename: 'starling.csv' } });
  expectError(t, await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/undo`), 409, 'conflict', { message: /is pending.*delete it instead/ });
  t.equal((await api.request('GET', `/v1/bank-imports/${up.body.data.importId}`)).body.data.status, 'pending');

  const importId = await importStarling(t, api);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  expectError(t, await api.request('POST', `/v1/bank-imports/${importId}/undo`, { key: other.apiKey }), 404, 'not_found');
  t.equal(await bankImportTransactions(api), 8);
  expectError(t, await api.request('POST', '/v1/bank-imports/dimp_nothing/undo'), 400, 'invalid_id');
});

t.test('undo refused while a line is counted in a filed VAT return: 422 vat_return_filed; nothing moves', async (t) => {
  // 10 April 2026: the quarter January to March 2026 (period 2026-03) has ended and can be filed.
  const books = await newBooks(t, { clock: '2026-04-10T10:00:00Z', organisation: { vatScheme: 'standard' } });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const file = 'Date,Description,Amount\n05/02/2026,OFFICE CHAIRS LTD,-144.00\n';
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file, filename: 'february.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  const importId = up.body.data.importId as string;
  t.equal((await api.request('POST', `/v1/bank-imports/${importId}/confirm`, { body: {} })).status, 200);
  const chairs = (await api.request('GET', `/v1/bank-imports/${importId}`)).body.data.rows[0].transactionId as string;
  const categorised = await api.request('PATCH', `/v1/transactions/${chairs}/categorise`, {
    body: { accountId: accounts.find((a) => a.code === '5100')!.id, vatRate: 20, vatTreatment: 'inclusive' },
  });
  t.equal(categorised.status, 200, JSON.stringify(categorised.body.error ?? ''));
  const filed = await api.request('POST', '/v1/vat/periods/2026-03/file');
  t.equal(filed.status, 201, JSON.stringify(filed.body.error ?? ''));

  expectError(t, await api.request('POST', `/v1/bank-imports/${importId}/undo`), 422, 'vat_return_filed', {
    message: new RegExp(`transaction ${chairs} is counted in the VAT return filed for 2026-01-01 to 2026-03-31`),
  });
  t.equal((await api.request('GET', `/v1/transactions/${chairs}`)).status, 200, 'the line stays');
  const detail = (await api.request('GET', `/v1/bank-imports/${importId}`)).body.data;
  t.match(detail, { status: 'completed', undoneAt: null, rows: [{ transactionId: chairs }] });
  // £144.00 out of 1200, on 5100 since categorised: nothing moved.
  t.match((await api.request('GET', `/v1/accounts/${accounts.find((a) => a.code === '1200')!.id}/balance`)).body.data.balance, { net: -14_400 });
});
