/**
 * The Transaction state table, row by row, over HTTP: update of a draft,
 * status both ways, reconcile (true and false), delete, and the refusals
 * for posted, reconciled, system-generated and closed-period transactions.
 */
import t from 'tap';
import type { Test } from 'tap';
import { createTransaction } from '../../src/engine/ledger/posting.js';
import type { Books } from '../helpers/index.js';
import { balanceOf, closeFy2025, expectError, ledger, lineCount, outbox, post, postOk, transactionTotal } from './support.js';
import { movingClock } from '../helpers/index.js';

/** A chairs purchase: 5100 +12000, 1200 −12000. */
const chairs = (acc: Readonly<Record<string, string>>, status: 'draft' | 'posted' = 'posted') => ({
  date: '2026-02-05',
  description: 'Office chairs',
  reference: 'INV-778',
  status,
  lines: [
    { accountId: acc['5100']!, amount: 12000 },
    { accountId: acc['1200']!, amount: -12000 },
  ],
});

/** A transaction made by another feature (an invoice), through the posting service in-process. */
async function systemTransaction(books: Books, acc: Readonly<Record<string, string>>, status: 'draft' | 'posted'): Promise<string> {
  const view = await books.store.org(books.organisationId, 'live').write((trx) =>
    createTransaction(
      trx,
      { clock: books.clock, actor: { id: 'usr_system', name: 'Invoicing' } },
      {
        date: '2026-02-10',
        description: 'Invoice INV-0001',
        reference: 'INV-0001',
        status,
        sourceType: 'invoice',
        sourceId: 'inv_0001',
        lines: [
          { accountId: acc['1100']!, amount: 36000 },
          { accountId: acc['4000']!, amount: -30000 },
          { accountId: acc['2200']!, amount: -6000 },
        ],
      },
    ),
  );
  return view.id;
}

async function lineIds(books: Books, transactionId: string): Promise<string[]> {
  const rows = await books.store.org(books.organisationId, 'live').db.selectFrom('lines').select('id').where('transaction_id', '=', transactionId).execute();
  return rows.map((r) => r.id).sort();
}

/** The parts of a transaction a refused change must leave alone. */
async function snapshot(t: Test, api: Awaited<ReturnType<typeof ledger>>['api'], id: string) {
  const r = await api.request('GET', `/v1/transactions/${id}`);
  t.equal(r.status, 200, 'transaction readable');
  const d = r.body.data;
  return {
    date: d.date,
    description: d.description,
    reference: d.reference,
    status: d.status,
    isReconciled: d.isReconciled,
    reconciledAt: d.reconciledAt,
    updatedAt: d.updatedAt,
    lines: d.lines,
  };
}

t.test('PUT of a draft replaces its fields and all its lines: {id, updatedAt}, old line ids gone', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { books, api, acc } = await ledger(t, { clock });
  const created = await post(api, chairs(acc, 'draft'));
  t.equal(created.status, 201);
  const id = created.body.data.id as string;
  const oldIds = created.body.data.lines.map((l: { id: string }) => l.id).sort();
  t.same(await lineIds(books, id), oldIds);

  clock.advance(60_000);
  const r = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      date: '2026-02-06',
      description: 'Office chairs and a desk',
      reference: 'INV-779',
      lines: [
        { accountId: acc['5100']!, amount: 12000 },
        { accountId: acc['1010']!, amount: 30000 },
        { accountId: acc['2150']!, amount: -42000 },
      ],
    },
  });
  t.equal(r.status, 200);
  t.same(r.body.data, { id, updatedAt: '2026-11-21T10:01:00.000Z' }, 'data is id and updatedAt');

  const after = await api.request('GET', `/v1/transactions/${id}`);
  const d = after.body.data;
  t.match(d, {
    id,
    date: '2026-02-06',
    description: 'Office chairs and a desk',
    reference: 'INV-779',
    status: 'draft',
    totalDebit: 42000,
    totalCredit: 42000,
    accountCodes: '5100,1010,2150',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:01:00.000Z',
  });
  t.same(
    d.lines.map((l: { accountCode: string; amount: number }) => [l.accountCode, l.amount]),
    [
      ['5100', 12000],
      ['1010', 30000],
      ['2150', -42000],
    ],
  );
  const newIds = d.lines.map((l: { id: string }) => l.id).sort();
  for (const old of oldIds) t.notOk(newIds.includes(old), `old line ${old} is not among the new lines`);
  t.same(await lineIds(books, id), newIds, 'the lines table holds exactly the new lines');
  t.equal(await lineCount(books), 3, 'no stray lines');
  t.equal(await transactionTotal(api), 1, 'still one transaction');
  t.same((await balanceOf(api, acc['5100']!)).net, 0, 'still a draft: not in balances');
});

t.test('PUT of a draft that changes nothing ({}, or its own fields and lines again): 200, updatedAt and line ids stay, no event', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { books, api, acc } = await ledger(t, { clock });
  const created = await post(api, chairs(acc, 'draft'));
  const id = created.body.data.id as string;
  const before = await api.request('GET', `/v1/transactions/${id}`);
  const events = (await outbox(books)).length;
  clock.advance(60_000);
  for (const body of [{}, { ...chairs(acc, 'draft') }, { description: 'Office chairs', reference: 'INV-778', status: 'draft' }]) {
    const r = await api.request('PUT', `/v1/transactions/${id}`, { body });
    t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
    t.same(r.body.data, { id, updatedAt: '2026-11-21T10:00:00.000Z' }, 'updatedAt still the creation’s');
  }
  t.same((await api.request('GET', `/v1/transactions/${id}`)).body.data, before.body.data, 'the draft as it was, the same lines');
  t.equal((await outbox(books)).length, events, 'no event');
  // A change of one line's amount (5100 +12000 → +12500, 1200 −12000 → −12500) is a change: updatedAt 10:01.
  const changed = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      lines: [
        { accountId: acc['5100']!, amount: 12500 },
        { accountId: acc['1200']!, amount: -12500 },
      ],
    },
  });
  t.same(changed.body.data, { id, updatedAt: '2026-11-21T10:01:00.000Z' });
});

t.test('PUT of a draft with unbalanced lines is 400 and the draft is unchanged', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc, 'draft'));
  const before = await snapshot(t, api, id);
  const r = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      description: 'changed',
      lines: [
        { accountId: acc['5100']!, amount: 100 },
        { accountId: acc['1200']!, amount: -99 },
      ],
    },
  });
  expectError(t, r, 400, 'validation_error', { field: 'lines' });
  t.same(await snapshot(t, api, id), before);
});

t.test('PUT of a posted transaction is 422 and it is unchanged', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  const before = await snapshot(t, api, id);
  const eventsBefore = (await outbox(books)).length;
  const r = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      description: 'rewritten history',
      lines: [
        { accountId: acc['5100']!, amount: 1 },
        { accountId: acc['1200']!, amount: -1 },
      ],
    },
  });
  expectError(t, r, 422, 'unprocessable_entity', { field: null });
  t.same(await snapshot(t, api, id), before);
  t.equal((await balanceOf(api, acc['5100']!)).net, 12000);
  t.equal((await outbox(books)).length, eventsBefore, 'no event');
});

t.test('PATCH status draft → posted: {id, status}; now in the account balance', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc, 'draft'));
  t.same(await balanceOf(api, acc['5100']!), { debit: 0, credit: 0, net: 0 }, 'a draft is not in the balance');
  t.same(await balanceOf(api, acc['1200']!), { debit: 0, credit: 0, net: 0 });
  const r = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } });
  t.equal(r.status, 200);
  t.same(r.body.data, { id, status: 'posted' });
  t.equal((await api.request('GET', `/v1/transactions/${id}`)).body.data.status, 'posted');
  t.same(await balanceOf(api, acc['5100']!), { debit: 12000, credit: 0, net: 12000 });
  t.same(await balanceOf(api, acc['1200']!), { debit: 0, credit: 12000, net: -12000 });
});

t.test('PATCH status posted → draft (not reconciled): excluded from balances again', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  t.same(await balanceOf(api, acc['5100']!), { debit: 12000, credit: 0, net: 12000 });
  const r = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'draft' } });
  t.equal(r.status, 200);
  t.same(r.body.data, { id, status: 'draft' });
  t.equal((await api.request('GET', `/v1/transactions/${id}`)).body.data.status, 'draft');
  t.same(await balanceOf(api, acc['5100']!), { debit: 0, credit: 0, net: 0 });
  t.same(await balanceOf(api, acc['1200']!), { debit: 0, credit: 0, net: 0 });
  // Back to draft, it can be edited and deleted like any draft.
  const put = await api.request('PUT', `/v1/transactions/${id}`, { body: { description: 'Office chairs (returned)' } });
  t.equal(put.status, 200);
  t.equal((await api.request('DELETE', `/v1/transactions/${id}`)).status, 200);
});

t.test('PATCH status posted → draft of a reconciled transaction is 422; it stays posted and reconciled', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } })).status, 200);
  const before = await snapshot(t, api, id);
  const r = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'draft' } });
  expectError(t, r, 422, 'unprocessable_entity', { field: null });
  const after = await snapshot(t, api, id);
  t.same(after, before);
  t.equal(after.status, 'posted');
  t.equal(after.isReconciled, true);
  t.equal((await balanceOf(api, acc['5100']!)).net, 12000, 'still in the balance');
});

t.test('PATCH status: bad bodies and ids', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc, 'draft'));
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'void' } }), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/status`, { body: {} }), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: true } }), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('PATCH', '/v1/transactions/acc_123/status', { body: { status: 'posted' } }), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('PATCH', '/v1/transactions/txn_nothere000000000000/status', { body: { status: 'posted' } }), 404, 'not_found');
  t.equal((await api.request('GET', `/v1/transactions/${id}`)).body.data.status, 'draft');
});

t.test('posting a draft re-checks its accounts: a draft on an account deactivated since is refused', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, {
    status: 'draft',
    lines: [
      { accountId: acc['1200']!, amount: -700 },
      { accountId: acc['5990']!, amount: 700 },
    ],
  });
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { isActive: false } })).status, 200);
  const eventsBefore = (await outbox(books)).length;
  const r = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } });
  expectError(t, r, 400, 'validation_error', { field: 'lines[1].accountId' });
  t.equal((await api.request('GET', `/v1/transactions/${id}`)).body.data.status, 'draft');
  t.equal((await balanceOf(api, acc['1200']!)).net, 0);
  t.equal((await outbox(books)).length, eventsBefore, 'no transaction.posted');
});

t.test('PATCH reconcile true on a posted transaction: isReconciled true, reconciledAt set', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api, acc } = await ledger(t, { clock });
  const id = await postOk(t, api, chairs(acc));
  clock.advance(5 * 60_000);
  const r = await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } });
  t.equal(r.status, 200);
  t.same(r.body.data, { id, isReconciled: true, reconciledAt: '2026-11-21T10:05:00.000Z' });
  const d = (await api.request('GET', `/v1/transactions/${id}`)).body.data;
  t.equal(d.status, 'posted');
  t.equal(d.isReconciled, true);
  t.equal(d.reconciledAt, '2026-11-21T10:05:00.000Z');
  t.same(await balanceOf(api, acc['5100']!), { debit: 12000, credit: 0, net: 12000 }, 'reconciling changes no amount');
});

t.test('reconciling again keeps the first reconciledAt; setting the status a transaction already has answers 200 and changes nothing', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { books, api, acc } = await ledger(t, { clock });
  const id = await postOk(t, api, chairs(acc));
  clock.advance(5 * 60_000);
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } })).body.data.reconciledAt, '2026-11-21T10:05:00.000Z');
  clock.advance(5 * 60_000);
  const again = await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } });
  t.equal(again.status, 200);
  t.same(again.body.data, { id, isReconciled: true, reconciledAt: '2026-11-21T10:05:00.000Z' });
  const before = await snapshot(t, api, id);
  const events = (await outbox(books)).length;
  const same = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } });
  t.equal(same.status, 200);
  t.same(same.body.data, { id, status: 'posted' });
  t.same(await snapshot(t, api, id), before, 'updatedAt included');
  t.equal((await outbox(books)).length, events, 'no second transaction.posted');
});

t.test('PATCH reconcile on a draft is 422 (only posted transactions may be reconciled)', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc, 'draft'));
  const before = await snapshot(t, api, id);
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } }), 422, 'unprocessable_entity', { field: null });
  const after = await snapshot(t, api, id);
  t.same(after, before);
  t.equal(after.isReconciled, false);
  t.equal(after.reconciledAt, null);
});

t.test('PATCH reconcile false undoes a reconciliation: reconciledAt null, and the transaction can be reverted again', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } })).body.data.isReconciled, true);
  const r = await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: false } });
  t.equal(r.status, 200);
  t.same(r.body.data, { id, isReconciled: false, reconciledAt: null });
  const d = (await api.request('GET', `/v1/transactions/${id}`)).body.data;
  t.equal(d.isReconciled, false);
  t.equal(d.reconciledAt, null);
  t.equal(d.status, 'posted', 'still posted');
  const revert = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'draft' } });
  t.equal(revert.status, 200, 'no longer reconciled: may go back to draft');
  t.equal(revert.body.data.status, 'draft');
});

t.test('PATCH reconcile: reconciled must be a boolean', async (t) => {
  const { api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: 'yes' } }), 400, 'invalid_type', { field: 'reconciled' });
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: {} }), 400, 'validation_error', { field: 'reconciled' });
  t.equal((await api.request('GET', `/v1/transactions/${id}`)).body.data.isReconciled, false);
});

t.test('DELETE of a draft manual transaction: {deleted: true}, then 404; its lines are gone', async (t) => {
  const { books, api, acc } = await ledger(t);
  const keep = await postOk(t, api, chairs(acc, 'draft'));
  const id = await postOk(t, api, chairs(acc, 'draft'));
  t.equal(await lineCount(books, id), 2);
  const r = await api.request('DELETE', `/v1/transactions/${id}`);
  t.equal(r.status, 200);
  t.equal(r.body.data.deleted, true);
  t.equal(r.body.data.id, id);
  expectError(t, await api.request('GET', `/v1/transactions/${id}`), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 404, 'not_found', { field: null });
  t.equal(await lineCount(books, id), 0, 'its lines are deleted with it');
  t.equal(await transactionTotal(api), 1);
  t.equal((await api.request('GET', `/v1/transactions/${keep}`)).status, 200, 'the other draft stays');
  t.equal(await lineCount(books, keep), 2);
});

t.test('DELETE of a posted transaction is 422 and it stays', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 422, 'unprocessable_entity', { field: null });
  t.equal((await api.request('GET', `/v1/transactions/${id}`)).status, 200);
  t.equal(await lineCount(books, id), 2);
  t.equal((await balanceOf(api, acc['5100']!)).net, 12000);
});

t.test('a reconciled transaction: DELETE and PUT are 409 already_reconciled, and it is unchanged', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, chairs(acc));
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } })).status, 200);
  const before = await snapshot(t, api, id);
  expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 409, 'already_reconciled', { field: null });
  const put = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      description: 'changed',
      lines: [
        { accountId: acc['5100']!, amount: 5 },
        { accountId: acc['1200']!, amount: -5 },
      ],
    },
  });
  expectError(t, put, 409, 'already_reconciled', { field: null });
  t.same(await snapshot(t, api, id), before);
  t.equal(await lineCount(books, id), 2);
});

t.test('a system-generated posted transaction: DELETE, PUT and PATCH status are 422; it is unchanged', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await systemTransaction(books, acc, 'posted');
  const got = await api.request('GET', `/v1/transactions/${id}`);
  t.equal(got.status, 200, 'visible through the API');
  t.equal(got.body.data.sourceType, 'invoice');
  t.equal(got.body.data.sourceId, 'inv_0001');
  const before = await snapshot(t, api, id);
  expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 422, 'unprocessable_entity', { field: null });
  const put = await api.request('PUT', `/v1/transactions/${id}`, { body: { description: 'edited by hand' } });
  expectError(t, put, 422, 'unprocessable_entity', { field: null });
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'draft' } }), 422, 'unprocessable_entity', { field: null });
  t.same(await snapshot(t, api, id), before);
  t.equal((await balanceOf(api, acc['4000']!)).net, -30000, 'still in the balance');
});

t.test('a system-generated draft: DELETE, PUT and PATCH status are 422 too; it is unchanged', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await systemTransaction(books, acc, 'draft');
  const before = await snapshot(t, api, id);
  t.equal(before.status, 'draft');
  expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 422, 'unprocessable_entity', { field: null });
  const put = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      lines: [
        { accountId: acc['1100']!, amount: 1 },
        { accountId: acc['4000']!, amount: -1 },
      ],
    },
  });
  expectError(t, put, 422, 'unprocessable_entity', { field: null });
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } }), 422, 'unprocessable_entity', { field: null });
  t.same(await snapshot(t, api, id), before);
  t.equal(await lineCount(books, id), 3);
  t.equal((await balanceOf(api, acc['4000']!)).net, 0, 'still a draft');
});

t.test('PUT and DELETE: malformed id 400 invalid_id, unknown 404', async (t) => {
  const { api, acc } = await ledger(t);
  const body = chairs(acc, 'draft');
  for (const id of ['42', 'inv_123', 'txn_']) {
    expectError(t, await api.request('PUT', `/v1/transactions/${id}`, { body }), 400, 'invalid_id', { field: 'id' });
    expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 400, 'invalid_id', { field: 'id' });
    expectError(t, await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } }), 400, 'invalid_id', { field: 'id' });
  }
  const unknown = 'txn_nothere000000000000';
  expectError(t, await api.request('PUT', `/v1/transactions/${unknown}`, { body }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/transactions/${unknown}`), 404, 'not_found');
  expectError(t, await api.request('PATCH', `/v1/transactions/${unknown}/reconcile`, { body: { reconciled: true } }), 404, 'not_found');
  t.equal(await transactionTotal(api), 0, 'PUT to an unknown id creates nothing');
});

t.test('a closed period is read-only: its transactions cannot be reverted, reconciled or changed, and no draft moves into it', async (t) => {
  const { api, acc } = await ledger(t);
  const oldDraft = await postOk(t, api, { ...chairs(acc, 'draft'), date: '2026-03-10' });
  const oldPosted = await postOk(t, api, { ...chairs(acc), date: '2026-03-11' });
  const open = await postOk(t, api, { ...chairs(acc, 'draft'), date: '2026-04-10' });
  // A draft journal in the year would be stuck there for ever (no posting, change or delete): the close waits for it.
  expectError(t, await api.request('POST', '/v1/reports/periods/period_20250401/close'), 422, 'unprocessable_entity', { message: /1 draft journal/ });
  t.equal((await api.request('DELETE', `/v1/transactions/${oldDraft}`)).status, 200);
  await closeFy2025(t, api);

  const postedBefore = await snapshot(t, api, oldPosted);
  expectError(t, await api.request('PATCH', `/v1/transactions/${oldPosted}/status`, { body: { status: 'draft' } }), 422, 'unprocessable_entity');
  expectError(t, await api.request('PATCH', `/v1/transactions/${oldPosted}/reconcile`, { body: { reconciled: true } }), 422, 'unprocessable_entity');
  t.same(await snapshot(t, api, oldPosted), postedBefore);
  t.same(await balanceOf(api, acc['5100']!), { debit: 12000, credit: 0, net: 12000 }, 'only the posted one counts, as before');

  const openBefore = await snapshot(t, api, open);
  expectError(t, await api.request('PUT', `/v1/transactions/${open}`, { body: { date: '2026-03-31' } }), 422, 'unprocessable_entity');
  t.same(await snapshot(t, api, open), openBefore, 'the open draft keeps its date');
});
