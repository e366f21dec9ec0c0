/**
 * A transfer between two bank accounts, seen on both statements, over
 * HTTP: the current account's statement (1200) shows £500.00 out on 10
 * March 2024, categorised to the savings account's ledger account; the
 * savings statement shows the same £500.00 in on 11 March. Its row is
 * suggested the transfer entry, and confirmed with acceptMatches it is
 * matched to it: the savings account holds £500.00, not £1,000.00. The
 * current account's import cannot be undone while the savings statement
 * holds its entry (409, nothing changed); undone in turn, both go.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from '../http/support.js';

async function ok(t: Test, api: Api, method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) {
  const r = await api.request(method, path, body === undefined ? {} : { body });
  t.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

const current = ['Date,Description,Amount', '10/03/2024,Transfer to savings,-500.00', '12/03/2024,Client payment,1500.00', ''].join('\n');
const savings = ['Date,Description,Amount', '11/03/2024,Transfer from current account,500.00', ''].join('\n');

async function balances(api: Api): Promise<Record<string, number>> {
  const r = await api.request('GET', '/v1/reports/trial-balance?asOf=2024-03-31');
  return Object.fromEntries(r.body.data.accounts.map((a: { code: string; debit: number; credit: number }) => [a.code, a.debit - a.credit]));
}

t.test('a transfer on both statements is posted once: the second statement’s line is matched to the first’s entry', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { name: 'Harbour Design Ltd' } });
  const api = await serveBooks(t, books);
  const saver = await ok(t, api, 'POST', '/v1/bank-accounts', { accountName: 'Savings' });
  t.equal(saver.accountCode, '1201', 'the savings account on 1201');
  const up = await ok(t, api, 'POST', '/v1/bank-imports/upload', { file: current, filename: 'current.csv' });
  const first = await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/confirm`, {}, 200);
  t.match(first, { created: 2, matched: 0 });
  const rows = (await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`)).rows as { transactionId: string }[];
  const transfer = rows[0]!.transactionId;
  await ok(t, api, 'PATCH', `/v1/transactions/${transfer}/categorise`, { accountId: saver.accountId }, 200);

  const second = await ok(t, api, 'POST', '/v1/bank-imports/upload', { file: savings, filename: 'savings.csv', bankAccountId: saver.id });
  t.match(
    second.preview[0].suggestedMatch,
    { kind: 'transaction', id: transfer, amount: 50_000, date: '2024-03-10' },
    'the transfer the current account’s statement made',
  );
  const done = await ok(t, api, 'POST', `/v1/bank-imports/${second.importId}/confirm`, { acceptMatches: true }, 200);
  t.match(done, { created: 0, matched: 1, total: 1 });
  // 1200: −500.00 + 1,500.00 = 1,000.00; 1201: +500.00 once; suspense: the client's 1,500.00 on its other side.
  t.match(await balances(api), { '1200': 100_000, '1201': 50_000, '9999': -150_000 });

  const refused = await api.request('POST', `/v1/bank-imports/${up.importId}/undo`);
  expectError(t, refused, 409, 'conflict', { message: new RegExp(`transaction ${transfer} .*row 1 of bank import ${second.importId}`) });
  t.match(await balances(api), { '1200': 100_000, '1201': 50_000 }, 'the refusal changed nothing');
  await ok(t, api, 'POST', `/v1/bank-imports/${second.importId}/undo`, undefined, 200);
  t.match(await balances(api), { '1200': 100_000, '1201': 50_000 }, 'undoing the savings statement leaves the transfer: that statement made nothing');
  await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/undo`, undefined, 200);
  t.same(await balances(api), {}, 'both undone: nothing left');
});
