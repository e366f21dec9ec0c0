/** GET /transactions: summaries without lines, every filter, sorting and pagination A (default limit 50). */
import t, { type Test } from 'tap';
import type { Api } from '../helpers/index.js';
import { contactOk, expectError, ledger, postOk } from './support.js';
import { movingClock } from '../helpers/index.js';

interface Five {
  api: Api;
  acc: Readonly<Record<string, string>>;
  ids: { t1: string; t2: string; t3: string; t4: string; t5: string; client: string };
}

/** Five transactions made a second apart (so newest first is a known order). */
async function five(t: Test): Promise<Five> {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api, acc } = await ledger(t, { clock });
  const client = await contactOk(t, api);
  const t1 = await postOk(t, api, {
    date: '2026-01-10',
    description: 'Capital introduced',
    reference: 'SH-1',
    lines: [
      { accountId: acc['1200']!, amount: 100000 },
      { accountId: acc['3000']!, amount: -100000 },
    ],
  });
  clock.advance(1000);
  const t2 = await postOk(t, api, {
    date: '2026-02-05',
    description: 'Office chairs',
    reference: 'INV-778',
    lines: [
      { accountId: acc['5100']!, amount: 12000 },
      { accountId: acc['2201']!, amount: 2400 },
      { accountId: acc['1200']!, amount: -14400 },
    ],
  });
  clock.advance(1000);
  const t3 = await postOk(t, api, {
    date: '2026-02-20',
    description: 'Consultancy',
    reference: 'S_1',
    lines: [
      { accountId: acc['1150']!, amount: 60000, contactId: client },
      { accountId: acc['4000']!, amount: -50000 },
      { accountId: acc['2200']!, amount: -10000 },
    ],
  });
  clock.advance(1000);
  const t4 = await postOk(t, api, {
    date: '2026-03-15',
    description: 'Printer paper',
    reference: 'chairs-return',
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 800 },
      { accountId: acc['1200']!, amount: -800 },
    ],
  });
  clock.advance(1000);
  const t5 = await postOk(t, api, {
    date: '2026-04-02',
    description: 'Bank fee 50% off',
    lines: [
      { accountId: acc['5800']!, amount: 500 },
      { accountId: acc['1200']!, amount: -500 },
    ],
  });
  clock.advance(1000);
  const rec = await api.request('PATCH', `/v1/transactions/${t5}/reconcile`, { body: { reconciled: true } });
  t.equal(rec.status, 200, 't5 reconciled');
  return { api, acc, ids: { t1, t2, t3, t4, t5, client } };
}

const idsOf = (body: { data: { id: string }[] }): string[] => body.data.map((x) => x.id);

t.test('the list shows summaries without lines, newest first, with meta', async (t) => {
  const { api, ids } = await five(t);
  const r = await api.request('GET', '/v1/transactions');
  t.equal(r.status, 200);
  t.same(idsOf(r.body), [ids.t5, ids.t4, ids.t3, ids.t2, ids.t1], '-createdAt by default');
  t.same(r.body.meta, { total: 5, page: 1, limit: 50, hasMore: false });
  for (const x of r.body.data) t.notOk('lines' in x, `no lines on ${x.id}`);
  t.match(r.body.data[3], {
    id: ids.t2,
    date: '2026-02-05',
    description: 'Office chairs',
    reference: 'INV-778',
    status: 'posted',
    isReconciled: false,
    totalDebit: 14400,
    totalCredit: 14400,
    accountCodes: '5100,2201,1200',
  });
  t.match(r.body.data[0], { id: ids.t5, reference: null, status: 'posted', isReconciled: true, totalDebit: 500, totalCredit: 500, accountCodes: '5800,1200' });
  t.match(r.body.data[1], { id: ids.t4, status: 'draft', isReconciled: false, totalDebit: 800, totalCredit: 800 });

  const byDate = await api.request('GET', '/v1/transactions?sort=date');
  t.same(idsOf(byDate.body), [ids.t1, ids.t2, ids.t3, ids.t4, ids.t5], 'sort=date ascending');
  const byDateDesc = await api.request('GET', '/v1/transactions?sort=-date');
  t.same(idsOf(byDateDesc.body), [ids.t5, ids.t4, ids.t3, ids.t2, ids.t1], 'sort=-date descending');
  expectError(t, await api.request('GET', '/v1/transactions?sort=amount'), 400, 'validation_error', { field: 'sort' });
});

t.test('filters from and to (both inclusive), alone and together', async (t) => {
  const { api, ids } = await five(t);
  const from = await api.request('GET', '/v1/transactions?from=2026-02-05');
  t.same(idsOf(from.body), [ids.t5, ids.t4, ids.t3, ids.t2]);
  t.equal(from.body.meta.total, 4);
  const to = await api.request('GET', '/v1/transactions?to=2026-02-20');
  t.same(idsOf(to.body), [ids.t3, ids.t2, ids.t1]);
  t.equal(to.body.meta.total, 3);
  const both = await api.request('GET', '/v1/transactions?from=2026-02-05&to=2026-02-20');
  t.same(idsOf(both.body), [ids.t3, ids.t2]);
  const oneDay = await api.request('GET', '/v1/transactions?from=2026-03-15&to=2026-03-15');
  t.same(idsOf(oneDay.body), [ids.t4]);
  const none = await api.request('GET', '/v1/transactions?from=2027-01-01');
  t.same(none.body.data, [], 'an empty result is an empty array');
  t.same(none.body.meta, { total: 0, page: 1, limit: 50, hasMore: false });
});

t.test('filters accountId, contactId, status, reconciled', async (t) => {
  const { api, acc, ids } = await five(t);
  t.same(idsOf((await api.request('GET', `/v1/transactions?accountId=${acc['5100']}`)).body), [ids.t4, ids.t2]);
  t.same(idsOf((await api.request('GET', `/v1/transactions?accountId=${acc['1200']}`)).body), [ids.t5, ids.t4, ids.t2, ids.t1]);
  const unused = await api.request('GET', `/v1/transactions?accountId=${acc['5920']}`);
  t.same(unused.body.data, []);
  t.equal(unused.body.meta.total, 0);
  t.same(idsOf((await api.request('GET', `/v1/transactions?contactId=${ids.client}`)).body), [ids.t3]);
  t.same((await api.request('GET', '/v1/transactions?contactId=cont_nobody')).body.data, []);
  t.same(idsOf((await api.request('GET', '/v1/transactions?status=draft')).body), [ids.t4]);
  t.same(idsOf((await api.request('GET', '/v1/transactions?status=posted')).body), [ids.t5, ids.t3, ids.t2, ids.t1]);
  t.same(idsOf((await api.request('GET', '/v1/transactions?reconciled=true')).body), [ids.t5]);
  t.same(idsOf((await api.request('GET', '/v1/transactions?reconciled=false')).body), [ids.t4, ids.t3, ids.t2, ids.t1]);
  const combined = await api.request('GET', `/v1/transactions?status=posted&accountId=${acc['1200']}&from=2026-02-01`);
  t.same(idsOf(combined.body), [ids.t5, ids.t2]);
  t.equal(combined.body.meta.total, 2, 'total counts the filtered set');
});

t.test('search looks in description and reference, case-insensitively', async (t) => {
  const { api, ids } = await five(t);
  t.same(idsOf((await api.request('GET', '/v1/transactions?search=chairs')).body), [ids.t4, ids.t2], 'description of t2, reference of t4');
  t.same(idsOf((await api.request('GET', '/v1/transactions?search=CHAIRS')).body), [ids.t4, ids.t2]);
  t.same(idsOf((await api.request('GET', '/v1/transactions?search=INV-778')).body), [ids.t2], 'reference');
  t.same(idsOf((await api.request('GET', '/v1/transactions?search=sultan')).body), [ids.t3], 'part of a description');
  const nothing = await api.request('GET', '/v1/transactions?search=zebra');
  t.same(nothing.body.data, []);
  t.equal(nothing.body.meta.total, 0);
});

t.test('search takes % and _ literally (text that contains them is found, and they match nothing else)', async (t) => {
  const { api, ids } = await five(t);
  t.same(idsOf((await api.request('GET', `/v1/transactions?search=${encodeURIComponent('50%')}`)).body), [ids.t5], '50% finds "Bank fee 50% off"');
  t.same(idsOf((await api.request('GET', `/v1/transactions?search=${encodeURIComponent('%')}`)).body), [ids.t5], '% is not a wildcard');
  t.same(idsOf((await api.request('GET', '/v1/transactions?search=_')).body), [ids.t3], '_ is not a wildcard: only the reference S_1 has one');
  t.same(idsOf((await api.request('GET', '/v1/transactions?search=S_1')).body), [ids.t3], 'S_1 finds S_1 and not SH-1');
});

t.test('bad list parameters are 400: from after to, bad dates, ids, status, reconciled', async (t) => {
  const { api } = await ledger(t);
  expectError(t, await api.request('GET', '/v1/transactions?from=2026-03-01&to=2026-02-01'), 400, 'validation_error');
  expectError(t, await api.request('GET', '/v1/transactions?from=2026-02-30'), 400, 'invalid_date', { field: 'from' });
  expectError(t, await api.request('GET', '/v1/transactions?to=yesterday'), 400, 'invalid_date', { field: 'to' });
  expectError(t, await api.request('GET', '/v1/transactions?accountId=1200'), 400, 'invalid_id', { field: 'accountId' });
  expectError(t, await api.request('GET', '/v1/transactions?contactId=acc_123'), 400, 'invalid_id', { field: 'contactId' });
  expectError(t, await api.request('GET', '/v1/transactions?status=void'), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('GET', '/v1/transactions?reconciled=maybe'), 400, 'invalid_type', { field: 'reconciled' });
});

t.test('pagination: default limit 50, page 2, limit 1..100, 101 refused', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api, acc } = await ledger(t, { clock });
  const made: string[] = [];
  for (let i = 1; i <= 51; i++) {
    made.push(
      await postOk(t, api, {
        date: '2026-05-01',
        description: `Sale ${i}`,
        lines: [
          { accountId: acc['1200']!, amount: i },
          { accountId: acc['4000']!, amount: -i },
        ],
      }),
    );
    clock.advance(1000);
  }
  const first = await api.request('GET', '/v1/transactions');
  t.equal(first.status, 200);
  t.equal(first.body.data.length, 50, 'default limit 50');
  t.same(first.body.meta, { total: 51, page: 1, limit: 50, hasMore: true });
  t.equal(first.body.data[0].id, made[50], 'newest first');
  t.equal(first.body.data[0].description, 'Sale 51');

  const second = await api.request('GET', '/v1/transactions?page=2');
  t.same(second.body.meta, { total: 51, page: 2, limit: 50, hasMore: false });
  t.same(idsOf(second.body), [made[0]], 'the oldest is alone on page 2');
  t.equal(second.body.data[0].description, 'Sale 1');

  const third = await api.request('GET', '/v1/transactions?limit=20&page=3');
  t.same(third.body.meta, { total: 51, page: 3, limit: 20, hasMore: false });
  t.same(
    third.body.data.map((x: { description: string }) => x.description),
    ['Sale 11', 'Sale 10', 'Sale 9', 'Sale 8', 'Sale 7', 'Sale 6', 'Sale 5', 'Sale 4', 'Sale 3', 'Sale 2', 'Sale 1'],
  );
  const exact = await api.request('GET', '/v1/transactions?limit=17&page=3');
  t.same(exact.body.meta, { total: 51, page: 3, limit: 17, hasMore: false }, '3 × 17 = 51: no more');
  t.equal(exact.body.data.length, 17);
  const beyond = await api.request('GET', '/v1/transactions?page=9');
  t.same(beyond.body.data, []);
  t.same(beyond.body.meta, { total: 51, page: 9, limit: 50, hasMore: false });

  const hundred = await api.request('GET', '/v1/transactions?limit=100');
  t.equal(hundred.body.data.length, 51);
  t.equal(hundred.body.meta.limit, 100);
  const one = await api.request('GET', '/v1/transactions?limit=1');
  t.same(one.body.meta, { total: 51, page: 1, limit: 1, hasMore: true });

  expectError(t, await api.request('GET', '/v1/transactions?limit=101'), 400, 'validation_error', { field: 'limit' });
  expectError(t, await api.request('GET', '/v1/transactions?limit=0'), 400, 'validation_error', { field: 'limit' });
  expectError(t, await api.request('GET', '/v1/transactions?page=0'), 400, 'validation_error', { field: 'page' });
  expectError(t, await api.request('GET', '/v1/transactions?limit=ten'), 400, 'invalid_type', { field: 'limit' });
});

t.test('the unfiltered total (kept by triggers) follows creates and deletes, and agrees with a filtered count', async (t) => {
  const { api, acc } = await ledger(t);
  const lines = [
    { accountId: acc['1200']!, amount: 500 },
    { accountId: acc['4000']!, amount: -500 },
  ];
  const totals = async () => {
    const all = await api.request('GET', '/v1/transactions?limit=1');
    const counted = await api.request('GET', '/v1/transactions?limit=1&from=1900-01-01');
    return [all.body.meta.total, counted.body.meta.total];
  };
  t.same(await totals(), [0, 0], 'a new ledger has none');
  await postOk(t, api, { date: '2026-03-01', description: 'One', lines });
  const draft = await postOk(t, api, { date: '2026-03-02', description: 'Two', status: 'draft', lines });
  await postOk(t, api, { date: '2026-03-03', description: 'Three', lines });
  t.same(await totals(), [3, 3]);
  t.equal((await api.request('DELETE', `/v1/transactions/${draft}`)).status, 200);
  t.same(await totals(), [2, 2], 'a deleted draft leaves the count');
  const refused = await api.request('POST', '/v1/transactions', {
    body: { date: '2026-03-04', description: 'Unbalanced', lines: [lines[0]!, { ...lines[1]!, amount: -499 }] },
  });
  t.equal(refused.status, 400);
  t.same(await totals(), [2, 2], 'a refused transaction leaves no trace in the count');
});
