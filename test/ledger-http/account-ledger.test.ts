/** GET /transactions/account/{accountId}: opening balance, entries in date order with a running balance, closing balance. */
import t from 'tap';
import type { Test } from 'tap';
import { expectError, ledger, postOk } from './support.js';
import { movingClock } from '../helpers/index.js';

/**
 * Bank (1200), made out of date order on purpose:
 *   2026-03-15 +50000 Consultancy
 *   2026-01-10 +100000 Capital introduced
 *   2026-04-20 −3000 Bank charges
 *   2026-02-05 −12000 Office chairs
 *   2026-03-01 −99999 Big purchase (draft)
 *   2026-06-01 +7000 Late sale
 */
async function bank(t: Test) {
  const { api, acc } = await ledger(t);
  const two = (date: string, description: string, reference: string | null, other: string, bankAmount: number, status: 'draft' | 'posted' = 'posted') =>
    postOk(t, api, {
      date,
      description,
      reference,
      status,
      lines: [
        { accountId: acc['1200']!, amount: bankAmount },
        { accountId: acc[other]!, amount: -bankAmount },
      ],
    });
  const consultancy = await two('2026-03-15', 'Consultancy', 'S-1', '4000', 50000);
  const capital = await two('2026-01-10', 'Capital introduced', 'SH-1', '3000', 100000);
  const charges = await two('2026-04-20', 'Bank charges', null, '5800', -3000);
  const chairs = await two('2026-02-05', 'Office chairs', 'INV-778', '5100', -12000);
  const draft = await two('2026-03-01', 'Big purchase', null, '5100', -99999, 'draft');
  const late = await two('2026-06-01', 'Late sale', null, '4000', 7000);
  return { api, acc, ids: { consultancy, capital, charges, chairs, draft, late } };
}

t.test('a date range: opening balance before from, entries in date order, running and closing balances; drafts excluded', async (t) => {
  const { api, acc, ids } = await bank(t);
  const r = await api.request('GET', `/v1/transactions/account/${acc['1200']}?from=2026-02-01&to=2026-05-31`);
  t.equal(r.status, 200);
  const d = r.body.data;
  t.same(d.account, { id: acc['1200'], code: '1200', name: 'Bank Account', accountType: 'asset' });
  t.equal(d.openingBalance, 100000, 'the capital before 1 February');
  t.same(
    d.entries.map(
      (e: { transactionId: string; date: string; description: string; reference: string | null; debit: number; credit: number; runningBalance: number }) => [
        e.transactionId,
        e.date,
        e.description,
        e.reference,
        e.debit,
        e.credit,
        e.runningBalance,
      ],
    ),
    [
      [ids.chairs, '2026-02-05', 'Office chairs', 'INV-778', 0, 12000, 88000],
      [ids.consultancy, '2026-03-15', 'Consultancy', 'S-1', 50000, 0, 138000],
      [ids.charges, '2026-04-20', 'Bank charges', null, 0, 3000, 135000],
    ],
  );
  t.equal(d.closingBalance, 135000);
  t.equal(d.totalDebit, 50000);
  t.equal(d.totalCredit, 15000);
  t.same(r.body.meta, { total: 3, page: 1, limit: 50, hasMore: false });
});

t.test('without a range: opening 0 and every posted line', async (t) => {
  const { api, acc } = await bank(t);
  const r = await api.request('GET', `/v1/transactions/account/${acc['1200']}`);
  t.equal(r.status, 200);
  t.equal(r.body.data.openingBalance, 0);
  t.same(
    r.body.data.entries.map((e: { date: string; runningBalance: number }) => [e.date, e.runningBalance]),
    [
      ['2026-01-10', 100000],
      ['2026-02-05', 88000],
      ['2026-03-15', 138000],
      ['2026-04-20', 135000],
      ['2026-06-01', 142000],
    ],
  );
  t.equal(r.body.data.closingBalance, 142000);
  t.equal(r.body.meta.total, 5);
});

t.test('a credit-normal account runs negative', async (t) => {
  const { api, acc } = await bank(t);
  const r = await api.request('GET', `/v1/transactions/account/${acc['4000']}?from=2026-03-01`);
  t.equal(r.body.data.openingBalance, 0);
  // FY 2026/27 begins on 2026-04-01, inside the range: its year end row brings FY 2025/26's 50,000 of sales to nothing.
  t.same(
    r.body.data.entries.map((e: { kind: string; date: string; debit: number; credit: number; runningBalance: number }) => [
      e.kind,
      e.date,
      e.debit,
      e.credit,
      e.runningBalance,
    ]),
    [
      ['line', '2026-03-15', 0, 50000, -50000],
      ['year_end', '2026-04-01', 50000, 0, 0],
      ['line', '2026-06-01', 0, 7000, -7000],
    ],
  );
  t.equal(r.body.data.closingBalance, -7000, "this year's sales only, as the trial balance");
});

t.test('posting the draft brings it into the ledger, and the running balance follows', async (t) => {
  const { api, acc, ids } = await bank(t);
  t.equal((await api.request('PATCH', `/v1/transactions/${ids.draft}/status`, { body: { status: 'posted' } })).status, 200);
  const r = await api.request('GET', `/v1/transactions/account/${acc['1200']}?from=2026-02-01&to=2026-05-31`);
  t.same(
    r.body.data.entries.map((e: { transactionId: string; runningBalance: number }) => [e.transactionId, e.runningBalance]),
    [
      [ids.chairs, 88000],
      [ids.draft, -11999],
      [ids.consultancy, 38001],
      [ids.charges, 35001],
    ],
  );
  t.equal(r.body.data.closingBalance, 35001);
  t.equal(r.body.data.totalCredit, 114999);
});

t.test('pagination keeps the running balance right on page 2', async (t) => {
  const { api, acc, ids } = await bank(t);
  const page1 = await api.request('GET', `/v1/transactions/account/${acc['1200']}?from=2026-02-01&to=2026-05-31&limit=2`);
  t.same(
    page1.body.data.entries.map((e: { transactionId: string; runningBalance: number }) => [e.transactionId, e.runningBalance]),
    [
      [ids.chairs, 88000],
      [ids.consultancy, 138000],
    ],
  );
  t.same(page1.body.meta, { total: 3, page: 1, limit: 2, hasMore: true });
  const page2 = await api.request('GET', `/v1/transactions/account/${acc['1200']}?from=2026-02-01&to=2026-05-31&limit=2&page=2`);
  t.same(
    page2.body.data.entries.map((e: { transactionId: string; credit: number; runningBalance: number }) => [e.transactionId, e.credit, e.runningBalance]),
    [[ids.charges, 3000, 135000]],
    'the third entry runs on from the first two',
  );
  t.same(page2.body.meta, { total: 3, page: 2, limit: 2, hasMore: false });
  t.equal(page2.body.data.openingBalance, 100000, 'opening is the range opening on every page');
  t.equal(page2.body.data.closingBalance, 135000, 'closing is the range closing on every page');
  const whole = await api.request('GET', `/v1/transactions/account/${acc['1200']}?limit=1&page=5`);
  t.same(
    whole.body.data.entries.map((e: { date: string; runningBalance: number }) => [e.date, e.runningBalance]),
    [['2026-06-01', 142000]],
  );
});

t.test('entries on the same date keep the order in which they were made', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api, acc } = await ledger(t, { clock });
  const made: string[] = [];
  for (const amount of [500, -200, 300]) {
    made.push(
      await postOk(t, api, {
        date: '2026-05-01',
        lines: [
          { accountId: acc['1250']!, amount },
          { accountId: acc['1200']!, amount: -amount },
        ],
      }),
    );
    clock.advance(1000);
  }
  const r = await api.request('GET', `/v1/transactions/account/${acc['1250']}`);
  t.same(
    r.body.data.entries.map((e: { transactionId: string; runningBalance: number }) => [e.transactionId, e.runningBalance]),
    [
      [made[0], 500],
      [made[1], 300],
      [made[2], 600],
    ],
  );
});

t.test('account ledger refusals: from after to, bad dates, bad or unknown account, bad limit', async (t) => {
  const { api, acc } = await ledger(t);
  expectError(t, await api.request('GET', `/v1/transactions/account/${acc['1200']}?from=2026-05-01&to=2026-04-30`), 400, 'validation_error');
  expectError(t, await api.request('GET', `/v1/transactions/account/${acc['1200']}?from=2026-04-31`), 400, 'invalid_date', { field: 'from' });
  expectError(t, await api.request('GET', '/v1/transactions/account/1200'), 400, 'invalid_id', { field: 'accountId' });
  expectError(t, await api.request('GET', '/v1/transactions/account/acc_nothere000000000000'), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/transactions/account/${acc['1200']}?limit=101`), 400, 'validation_error', { field: 'limit' });
  const empty = await api.request('GET', `/v1/transactions/account/${acc['1200']}`);
  t.equal(empty.status, 200);
  t.same(empty.body.data.entries, []);
  t.equal(empty.body.data.openingBalance, 0);
  t.equal(empty.body.data.closingBalance, 0);
  t.same(empty.body.meta, { total: 0, page: 1, limit: 50, hasMore: false });
});
