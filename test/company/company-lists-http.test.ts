/**
 * The company lists page as every list does (page and limit, meta {total,
 * page, limit, hasMore}): directors, dividends, board minutes, loan
 * movements and year-end snapshots over HTTP; the CLI still prints each
 * whole. Today is 3 December 2026.
 */
import t from 'tap';
import { company } from './http-support.js';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';

t.test('the company lists take page and limit, with meta', async (t) => {
  const { api, director, movement, journal } = await company(t);
  const alice = await director({ fullName: 'Alice Able', sharesHeld: 50, appointedDate: '2025-04-01' });
  const bob = await director({ fullName: 'Bob Baker', sharesHeld: 50, appointedDate: '2025-04-01' });
  await director({ fullName: 'Carol Able', connectedToDirectorId: alice, relationship: 'spouse' });
  // £10,000.00 of sales: profit for the minutes. Two sets of minutes, each £2,000.00 over 100 shares (£20.00 a share): £1,000.00 each.
  await journal('2025-06-01', 'Sales', [
    ['1200', 1_000_000],
    ['4000', -1_000_000],
  ]);
  for (const date of ['2026-03-01', '2026-03-02']) {
    const bm = await api.request('POST', '/v1/dividends/board-minutes', {
      body: { attendees: [alice, bob], date, financialYearEnd: '2026-03-31', totalDividendPence: 200_000 },
    });
    t.equal(bm.status, 201, JSON.stringify(bm.body.error ?? ''));
    for (const who of [alice, bob]) {
      const d = await api.request('POST', '/v1/dividends', { body: { directorId: who, boardMinutesId: bm.body.data.id, amountPence: 100_000, date } });
      t.equal(d.status, 201, JSON.stringify(d.body.error ?? ''));
    }
  }
  await movement(bob, '2025-06-01', 100_000);
  await movement(bob, '2025-07-01', 50_000);
  await movement(bob, '2025-08-01', 25_000);
  for (const who of [alice, bob]) {
    const s = await api.request('POST', '/v1/director-loans/snapshot', { body: { directorId: who, periodEndDate: '2026-03-31' } });
    t.equal(s.status, 201, JSON.stringify(s.body.error ?? ''));
  }

  for (const [path, total] of [
    ['/v1/directors', 3],
    ['/v1/dividends', 4],
    ['/v1/dividends/board-minutes', 2],
    [`/v1/director-loans?directorId=${bob}`, 3],
    ['/v1/director-loans/snapshots', 2],
  ] as const) {
    const sep = path.includes('?') ? '&' : '?';
    const all = await api.request('GET', path);
    t.equal(all.status, 200, `${path}: ${JSON.stringify(all.body.error ?? '')}`);
    t.equal(all.body.data.length, total, `${path}: every row on the first page`);
    t.same(all.body.meta, { total, page: 1, limit: 20, hasMore: false }, `${path}: meta`);
    const first = await api.request('GET', `${path}${sep}limit=1`);
    t.equal(first.status, 200, `${path}?limit=1: ${JSON.stringify(first.body.error ?? '')}`);
    t.same(first.body.meta, { total, page: 1, limit: 1, hasMore: true });
    t.same(first.body.data, all.body.data.slice(0, 1), `${path}: page 1 of 1 row`);
    const last = await api.request('GET', `${path}${sep}limit=1&page=${total}`);
    t.same(last.body.meta, { total, page: total, limit: 1, hasMore: false });
    t.same(last.body.data, all.body.data.slice(-1), `${path}: the last page`);
    const bad = await api.request('GET', `${path}${sep}limit=101`);
    t.equal(bad.status, 400);
    t.equal(bad.body.error.field, 'limit');
  }
});

t.test('the CLI prints a paged company list whole, or one page when asked', async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'Acme Widgets Ltd', '--business-type', 'limited_company', '--vat-scheme', 'not_registered']);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data;
  };
  const names = ['Ann', 'Ben', 'Cat'];
  for (const n of names) await json('directors', 'add', '--full-name', n);
  t.same(
    ((await json('directors', 'list')) as { fullName: string }[]).map((d) => d.fullName),
    names,
    'every director',
  );
  t.match(await json('directors', 'list', '--limit', '2'), { data: [{ fullName: 'Ann' }, { fullName: 'Ben' }], meta: { total: 3, hasMore: true } });
  const text = await runCliInProcess(['--data', dir, 'directors', 'list']);
  t.equal(text.status, 0, text.stderr);
  for (const n of names) t.match(text.stdout, n);
});
