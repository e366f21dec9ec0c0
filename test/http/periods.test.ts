/** Financial periods: listing, one period, closing. Clock 2026-11-21, a limited company (year from 1 April). */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from './support.js';
import { accountIds } from '../ledger-http/support.js';

const clock = '2026-11-21T10:00:00Z';

const fy2026 = {
  id: 'period_20260401',
  name: 'FY 2026/27',
  startDate: '2026-04-01',
  endDate: '2027-03-31',
  isCurrent: true,
  isClosed: false,
};
const fy2025 = {
  id: 'period_20250401',
  name: 'FY 2025/26',
  startDate: '2025-04-01',
  endDate: '2026-03-31',
  isCurrent: false,
  isClosed: false,
};

t.test('GET /reports/periods lists the current and the previous fiscal year, newest first', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/reports/periods');
  t.equal(r.status, 200);
  t.equal(r.body.success, true);
  const periods = r.body.data.periods;
  t.equal(periods.length, 2);
  t.match(periods[0], fy2026);
  t.match(periods[1], fy2025);
  t.same(
    periods.map((p: { id: string }) => p.id),
    ['period_20260401', 'period_20250401'],
    'newest first',
  );
});

t.test('the calendar follows the fiscal year start (a sole trader from 6 April)', async (t) => {
  const books = await newBooks(t, { clock, organisation: { name: 'Jo Bloggs', businessType: 'sole_trader', vatScheme: 'not_registered' } });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/reports/periods');
  t.equal(r.status, 200);
  t.match(r.body.data.periods, [
    { id: 'period_20260406', name: 'FY 2026/27', startDate: '2026-04-06', endDate: '2027-04-05', isCurrent: true, isClosed: false },
    { id: 'period_20250406', name: 'FY 2025/26', startDate: '2025-04-06', endDate: '2026-04-05', isCurrent: false, isClosed: false },
  ]);
  t.equal(r.body.data.periods.length, 2);
});

t.test('GET /reports/periods/{id} shows one period', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const current = await api.request('GET', '/v1/reports/periods/period_20260401');
  t.equal(current.status, 200);
  t.match(current.body.data, fy2026);
  t.equal(current.body.data.closedAt ?? null, null);

  const previous = await api.request('GET', '/v1/reports/periods/period_20250401');
  t.equal(previous.status, 200);
  t.match(previous.body.data, fy2025);
});

t.test('a malformed period id is 400 invalid_id', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  for (const id of ['2026-04-01', 'key_20260401', 'period_2026-04-01', 'period_']) {
    const r = await api.request('GET', `/v1/reports/periods/${id}`);
    t.equal(r.status, 400, `400 for ${id}`);
    t.equal(r.body?.error?.code, 'invalid_id', `invalid_id for ${id}`);
  }
  const close = await api.request('POST', '/v1/reports/periods/FY2025/close');
  expectError(t, close, 400, 'invalid_id');
});

t.test('a well-formed period id that is not on the fiscal calendar is 404', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('GET', '/v1/reports/periods/period_20260402'), 404, 'not_found', { field: null });
  expectError(t, await api.request('GET', '/v1/reports/periods/period_20260101'), 404, 'not_found', { field: null });
  expectError(t, await api.request('POST', '/v1/reports/periods/period_20260402/close'), 404, 'not_found', { field: null });
});

t.test('closing an ended year: 200 closed; again 409; the current year 422', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const close = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  t.equal(close.status, 200);
  t.match(close.body.data, { ...fy2025, isClosed: true });
  t.equal(new Date(close.body.data.closedAt).toISOString(), '2026-11-21T10:00:00.000Z', 'closedAt is the time of closing');

  const one = await api.request('GET', '/v1/reports/periods/period_20250401');
  t.equal(one.body.data.isClosed, true, 'GET shows it closed');
  const list = await api.request('GET', '/v1/reports/periods');
  t.match(list.body.data.periods, [
    { id: 'period_20260401', isClosed: false },
    { id: 'period_20250401', isClosed: true },
  ]);

  const again = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  expectError(t, again, 409, 'conflict', { field: null });

  // The year before is closed with it: a date in it would change FY 2025/26's closing balances (the audit posted 2019-01-01 and moved them).
  t.match((await api.request('GET', '/v1/reports/periods/period_20240401')).body.data, { isClosed: true, closedAt: close.body.data.closedAt });
  expectError(t, await api.request('POST', '/v1/reports/periods/period_20240401/close'), 409, 'conflict');
  const acc = await accountIds(t, api);
  const old = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2019-01-01',
      description: 'Old',
      status: 'posted',
      lines: [
        { accountId: acc['5100'], amount: 100 },
        { accountId: acc['1200'], amount: -100 },
      ],
    },
  });
  expectError(t, old, 422, 'unprocessable_entity', { message: '2019-01-01 is before FY 2025/26, which is closed, and so closes the years before it' });
  t.equal((await api.request('GET', '/v1/transactions')).body.meta.total, 0, 'nothing posted');

  const current = await api.request('POST', '/v1/reports/periods/period_20260401/close');
  expectError(t, current, 422, 'unprocessable_entity');
  const stillOpen = await api.request('GET', '/v1/reports/periods/period_20260401');
  t.equal(stillOpen.body.data.isClosed, false, 'the current year stays open');
});

t.test('a year that has not started yet cannot be closed either', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const future = await api.request('POST', '/v1/reports/periods/period_20270401/close');
  expectError(t, future, 422, 'unprocessable_entity');
});

t.test('the list reaches back to the year of the earliest transaction, so years closed with a later one are shown', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const acc = await accountIds(t, api);
  // History brought in from 1 May 2023 (FY 2023/24), before the year the list starts at (FY 2025/26, the one before creation).
  const old = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2023-05-01',
      description: 'Sale brought in',
      status: 'posted',
      lines: [
        { accountId: acc['1200'], amount: 10_000 },
        { accountId: acc['4000'], amount: -10_000 },
      ],
    },
  });
  t.equal(old.status, 201, JSON.stringify(old.body.error ?? ''));
  const closed = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  t.equal(closed.status, 200, JSON.stringify(closed.body.error ?? ''));
  const periods = (await api.request('GET', '/v1/reports/periods')).body.data.periods as { id: string; isClosed: boolean }[];
  t.same(
    periods.map((p) => [p.id, p.isClosed]),
    [
      ['period_20260401', false],
      ['period_20250401', true],
      ['period_20240401', true],
      ['period_20230401', true],
    ],
    'FY 2024/25 and FY 2023/24, closed with FY 2025/26, are listed',
  );
});
