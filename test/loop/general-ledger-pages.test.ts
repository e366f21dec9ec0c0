/**
 * Issue 15, finding 3: the general ledger pages by cursor (limit, cursor →
 * meta limit, hasMore, nextCursor). An account split between pages is on
 * each with the same balances and totals, its running balance carried on;
 * the pages joined are the ledger in one page; the CLI prints every page.
 */
import t from 'tap';
import type { Test } from 'tap';
import { runCliInProcess, runCliInProcessJson, type Api } from '../helpers/index.js';
import { expectError, ledger, postOk } from '../ledger-http/support.js';
import { joinLedgerPages, type GeneralLedger } from '../../src/engine/reports/general-ledger.js';

/**
 * Before the period: share capital of £1,000.00 paid into the bank.
 * In April 2026, on five days: receipts of £100, £200, £300 and £400 from
 * sales, and £50.00 of office costs paid from the bank on the 3rd.
 */
async function books(t: Test): Promise<{ api: Api; acc: Readonly<Record<string, string>>; dataDir: string }> {
  const { api, acc, books } = await ledger(t);
  const pair = (date: string, description: string, debit: string, credit: string, pence: number) =>
    postOk(t, api, {
      date,
      description,
      lines: [
        { accountId: acc[debit] as string, amount: pence },
        { accountId: acc[credit] as string, amount: -pence },
      ],
    });
  await pair('2026-03-31', 'Share capital', '1200', '3000', 100_000);
  await pair('2026-04-01', 'Sale one', '1200', '4000', 10_000);
  await pair('2026-04-02', 'Sale two', '1200', '4000', 20_000);
  await pair('2026-04-03', 'Stationery', '5100', '1200', 5_000);
  await pair('2026-04-04', 'Sale three', '1200', '4000', 30_000);
  await pair('2026-04-05', 'Sale four', '1200', '4000', 40_000);
  return { api, acc, dataDir: books.dataDir };
}

const april = 'from=2026-04-01&to=2026-04-30';

type Line = GeneralLedger['accounts'][number]['transactions'][number];
const lines = (xs: readonly Line[]) => xs.map((x) => [x.date, x.debit, x.credit, x.runningBalance]);

t.test('one account, two lines a page: first page, next cursor, last page; balances and totals the same on every page', async (t) => {
  const { api, acc } = await books(t);
  const path = `/v1/reports/general-ledger?${april}&accountId=${acc['1200']}&limit=2`;
  // Bank: opening £1,000.00 (100000). Running: +10000 → 110000; +20000 → 130000; −5000 → 125000; +30000 → 155000; +40000 → 195000.
  // Debits 10000 + 20000 + 30000 + 40000 = 100000; credits 5000; closing 100000 + 100000 − 5000 = 195000.
  const whole = { code: '1200', openingBalance: 100_000, totalDebit: 100_000, totalCredit: 5_000, closingBalance: 195_000 };

  const first = await api.request('GET', path);
  t.equal(first.status, 200);
  t.equal(first.body.meta.limit, 2);
  t.equal(first.body.meta.hasMore, true);
  t.type(first.body.meta.nextCursor, 'string');
  t.equal(first.body.data.accounts.length, 1);
  t.match(first.body.data.accounts[0], whole);
  t.same(lines(first.body.data.accounts[0].transactions), [
    ['2026-04-01', 10_000, 0, 110_000],
    ['2026-04-02', 20_000, 0, 130_000],
  ]);

  const second = await api.request('GET', `${path}&cursor=${first.body.meta.nextCursor}`);
  t.equal(second.body.meta.hasMore, true);
  t.match(second.body.data.accounts[0], whole, 'the same balances and totals on the second page');
  t.same(lines(second.body.data.accounts[0].transactions), [
    ['2026-04-03', 0, 5_000, 125_000],
    ['2026-04-04', 30_000, 0, 155_000],
  ]);

  const last = await api.request('GET', `${path}&cursor=${second.body.meta.nextCursor}`);
  t.same(last.body.meta, { limit: 2, hasMore: false, nextCursor: null });
  t.match(last.body.data.accounts[0], whole);
  t.same(lines(last.body.data.accounts[0].transactions), [['2026-04-05', 40_000, 0, 195_000]], 'the last line ends on the closing balance');
});

t.test('every account, three lines a page: accounts split across pages join back into the ledger in one page', async (t) => {
  const { api } = await books(t);
  const pages: GeneralLedger[] = [];
  const shapes: [string, number][][] = [];
  let cursor: string | null = null;
  do {
    const r = await api.request('GET', `/v1/reports/general-ledger?${april}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
    t.equal(r.status, 200);
    const page = r.body.data as GeneralLedger;
    pages.push(page);
    shapes.push(page.accounts.map((a) => [a.code, a.transactions.length]));
    cursor = r.body.meta.nextCursor as string | null;
    t.equal(r.body.meta.hasMore, cursor !== null);
  } while (cursor !== null && pages.length < 10);
  // In code order: 1200 (5 lines), 3000 (no lines: opening −100000), 4000 (4 lines), 5100 (1 line).
  t.same(shapes, [
    [['1200', 3]],
    [
      ['1200', 2],
      ['3000', 0],
      ['4000', 1],
    ],
    [['4000', 3]],
    [['5100', 1]],
  ]);
  const sales = pages.flatMap((p) => p.accounts.filter((a) => a.code === '4000'));
  // Sales: opening 0; −10000 → −10000; −20000 → −30000; −30000 → −60000; −40000 → −100000; credits 100000.
  for (const s of sales) t.match(s, { openingBalance: 0, totalDebit: 0, totalCredit: 100_000, closingBalance: -100_000 });
  t.same(
    sales.flatMap((s) => s.transactions.map((x) => x.runningBalance)),
    [-10_000, -30_000, -60_000, -100_000],
  );
  t.match(pages[1]?.accounts[1], { code: '3000', openingBalance: -100_000, closingBalance: -100_000, totalDebit: 0, totalCredit: 0 });

  const one = await api.request('GET', `/v1/reports/general-ledger?${april}&limit=2000`);
  t.same(one.body.meta, { limit: 2000, hasMore: false, nextCursor: null });
  t.same(joinLedgerPages(pages), one.body.data, 'the pages joined are the ledger in one page');
});

t.test('the CLI prints every page; --cursor prints one and names the next', async (t) => {
  const { api, acc, dataDir } = await books(t);
  const one = await api.request('GET', `/v1/reports/general-ledger?${april}&limit=2000`);
  const json = await runCliInProcessJson([
    '--data',
    dataDir,
    '--json',
    'report',
    'general-ledger',
    '--from',
    '2026-04-01',
    '--to',
    '2026-04-30',
    '--limit',
    '2',
  ]);
  t.equal(json.status, 0, json.stderr);
  t.same(json.data, one.body.data, '--json: the whole ledger, fetched two lines at a time');

  const table = await runCliInProcess([
    '--data',
    dataDir,
    'report',
    'general-ledger',
    '--from',
    '2026-04-01',
    '--to',
    '2026-04-30',
    '--account-id',
    acc['1200'] as string,
  ]);
  t.equal(table.status, 0, table.stderr);
  t.same(
    table.stdout.split('\n').map((l) => l.trim().split(/ {2,}/)),
    [
      ['General ledger 2026-04-01 to 2026-04-30'],
      ['account', 'date', 'description', 'reference', 'debit', 'credit', 'balance', 'Dr/Cr'],
      ['1200 Bank Account', '2026-04-01', 'Opening balance', '1,000.00', 'Dr'],
      ['1200 Bank Account', '2026-04-01', 'Sale one', '100.00', '0.00', '1,100.00', 'Dr'],
      ['1200 Bank Account', '2026-04-02', 'Sale two', '200.00', '0.00', '1,300.00', 'Dr'],
      ['1200 Bank Account', '2026-04-03', 'Stationery', '0.00', '50.00', '1,250.00', 'Dr'],
      ['1200 Bank Account', '2026-04-04', 'Sale three', '300.00', '0.00', '1,550.00', 'Dr'],
      ['1200 Bank Account', '2026-04-05', 'Sale four', '400.00', '0.00', '1,950.00', 'Dr'],
      ['1200 Bank Account', '2026-04-30', 'Closing balance', '1,000.00', '50.00', '1,950.00', 'Dr'],
      [''],
    ],
    'the whole ledger of the bank account, as hand-worked above',
  );

  const first = await api.request('GET', `/v1/reports/general-ledger?${april}&accountId=${acc['1200']}&limit=2`);
  const paged = await runCliInProcess([
    '--data',
    dataDir,
    'report',
    'general-ledger',
    '--from',
    '2026-04-01',
    '--to',
    '2026-04-30',
    '--account-id',
    acc['1200'] as string,
    '--limit',
    '2',
    '--cursor',
    first.body.meta.nextCursor as string,
  ]);
  t.equal(paged.status, 0, paged.stderr);
  t.match(paged.stdout, /Stationery/);
  t.notMatch(paged.stdout, /Sale one/, 'only the page asked for');
  t.match(paged.stdout, /more: --cursor \S+/);
});

t.test('a bad cursor or limit: 400 with its field', async (t) => {
  const { api, acc } = await books(t);
  const base = `/v1/reports/general-ledger?${april}&accountId=${acc['1200']}`;
  expectError(t, await api.request('GET', `${base}&cursor=not-a-cursor`), 400, 'validation_error', { field: 'cursor' });
  const forged = Buffer.from(JSON.stringify(['acc_x', '1200', '2026-04-01'])).toString('base64url');
  expectError(t, await api.request('GET', `${base}&cursor=${forged}`), 400, 'validation_error', { field: 'cursor' });
  // A cursor from one query sent with another: the page after April 2's line of 1200 from 1 April, asked from 3 April,
  // would carry on a running balance counted from the wrong day (−4,008 for −3,006 in the case found); refused.
  const first = await api.request('GET', `${base}&limit=2`);
  const next = first.body.meta.nextCursor as string;
  for (const other of [
    `from=2026-04-03&to=2026-04-30&accountId=${acc['1200']}`,
    `${april}&accountId=${acc['4000']}`,
    april,
    `from=2026-04-01&to=2026-04-29&accountId=${acc['1200']}`,
  ]) {
    expectError(t, await api.request('GET', `/v1/reports/general-ledger?${other}&limit=2&cursor=${next}`), 400, 'validation_error', {
      field: 'cursor',
      message: /cursor was given for another query/,
    });
  }
  t.equal((await api.request('GET', `${base}&limit=2&cursor=${next}`)).status, 200, 'with its own query it reads on');
  expectError(t, await api.request('GET', `${base}&limit=0`), 400, 'validation_error', { field: 'limit' });
  expectError(t, await api.request('GET', `${base}&limit=2001`), 400, 'validation_error', { field: 'limit' });
});
