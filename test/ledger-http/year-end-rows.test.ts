/**
 * A ledger whose range crosses a financial-year start shows the year end as
 * a row dated the new year's first day: an income or expense account is
 * brought to nothing, 3100 Retained Earnings takes the year's profit (a
 * loss as a debit), so the closing balance at `to` is the trial balance's.
 * Through GET /v1/transactions/account/{id} and GET /v1/reports/general-ledger.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { joinLedgerPages, type GeneralLedger } from '../../src/engine/reports/general-ledger.js';
import { accountIds, postOk } from './support.js';

/**
 * March Co's financial year starts 1 March: FY 2023/24 ends 2024-02-29 (a leap day),
 * FY 2024/25 runs 2024-03-01..2025-02-28, FY 2025/26 2025-03-01..2026-02-28.
 *   2024-01-15 sale   1200 +300  4000 −300     FY 2023/24
 *   2024-02-29 leap   1200 +500  4000 −500     FY 2023/24: profit 800, a credit
 *   2024-03-01 mar    1200 +700  4000 −700     FY 2024/25
 *   2024-06-10 rent   5000 +2000 1200 −2000    FY 2024/25: 700 − 2000, a loss of 1300, a debit
 *   2025-03-03 sale   1200 +900  4000 −900     FY 2025/26: profit 900
 *   2026-05-01 capital 1200 +10000 3000 −10000 FY 2026/27 (the books' last day)
 */
async function marchCo(t: Test) {
  const books = await newBooks(t, {
    clock: '2026-11-21T10:00:00Z',
    organisation: { name: 'March Co', businessType: 'limited_company', vatScheme: 'not_registered', fiscalYearStart: '03-01' },
  });
  const api = await serveBooks(t, books);
  const acc = await accountIds(t, api);
  const two = (date: string, description: string, debit: string, credit: string, amount: number) =>
    postOk(t, api, {
      date,
      description,
      lines: [
        { accountId: acc[debit]!, amount },
        { accountId: acc[credit]!, amount: -amount },
      ],
    });
  const ids = {
    sale: await two('2024-01-15', 'sale', '1200', '4000', 300),
    leap: await two('2024-02-29', 'leap', '1200', '4000', 500),
    mar: await two('2024-03-01', 'mar', '1200', '4000', 700),
    rent: await two('2024-06-10', 'rent', '5000', '1200', 2000),
    sale25: await two('2025-03-03', 'sale 25', '1200', '4000', 900),
    capital: await two('2026-05-01', 'capital', '1200', '3000', 10000),
  };
  return { api, acc, ids };
}

interface Entry {
  kind: string;
  transactionId: string | null;
  lineId: string | null;
  date: string;
  description: string;
  reference: string | null;
  debit: number;
  credit: number;
  runningBalance: number;
}

const get = async (t: Test, api: Api, path: string) => {
  const r = await api.request('GET', path);
  t.equal(r.status, 200, `${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body;
};

const rows = (entries: Entry[]) => entries.map((e) => [e.kind, e.date, e.debit, e.credit, e.runningBalance]);

/** Debit − credit of each account in the trial balance at asOf. */
async function trialBalance(t: Test, api: Api, asOf: string): Promise<Record<string, number>> {
  const body = await get(t, api, `/v1/reports/trial-balance?asOf=${asOf}`);
  const out: Record<string, number> = {};
  for (const a of body.data.accounts as { code: string; debit: number; credit: number }[]) out[a.code] = a.debit - a.credit;
  return out;
}

t.test('the account ledger across one year start: sales brought to nothing, 3100 takes the year, as the trial balance', async (t) => {
  const { api, acc, ids } = await marchCo(t);
  const sales = (await get(t, api, `/v1/transactions/account/${acc['4000']}?from=2024-02-01&to=2024-03-31`)).data;
  // Opening: FY 2023/24's sales before 2024-02-01, 300 Cr. Then −300 − 500 = −800; the year end debits 800 → 0; −700.
  t.equal(sales.openingBalance, -300);
  t.same(rows(sales.entries), [
    ['line', '2024-02-29', 0, 500, -800],
    ['year_end', '2024-03-01', 800, 0, 0],
    ['line', '2024-03-01', 0, 700, -700],
  ]);
  t.match(sales.entries[1], {
    transactionId: null,
    lineId: null,
    reference: null,
    description: 'Year end 2024-02-29: closed to 3100 Retained Earnings',
  });
  t.match(sales.entries[0], { transactionId: ids.leap, kind: 'line' });
  // −300 + 800 − 1,200 = −700, the trial balance's 7.00 Cr at 2024-03-31.
  t.match(sales, { totalDebit: 800, totalCredit: 1200, closingBalance: -700 });

  const retained = (await get(t, api, `/v1/transactions/account/${acc['3100']}?from=2024-02-01&to=2024-03-31`)).data;
  // No year before FY 2023/24: 3100 opens at nothing, and takes FY 2023/24's profit, 300 + 500 = 800 Cr.
  t.equal(retained.openingBalance, 0);
  t.same(rows(retained.entries), [['year_end', '2024-03-01', 0, 800, -800]]);
  t.equal(retained.entries[0].description, 'Year end 2024-02-29: profit for the year closed from income and expenses');
  t.match(retained, { totalDebit: 0, totalCredit: 800, closingBalance: -800 });

  const tb = await trialBalance(t, api, '2024-03-31');
  t.same([tb['4000'], tb['3100']], [-700, -800], 'the trial balance at to says the same');

  const bank = (await get(t, api, `/v1/transactions/account/${acc['1200']}?from=2024-02-01&to=2024-03-31`)).data;
  t.same(
    bank.entries.map((e: Entry) => e.kind),
    ['line', 'line'],
    'a balance sheet account has no year end row',
  );
});

t.test('two year starts, a loss year, and a range without ends', async (t) => {
  const { api, acc } = await marchCo(t);
  const range = 'from=2024-02-01&to=2025-03-31';
  const sales = (await get(t, api, `/v1/transactions/account/${acc['4000']}?${range}`)).data;
  // −300; −800; year end +800 → 0; −700; year end +700 → 0; −900.
  t.same(rows(sales.entries), [
    ['line', '2024-02-29', 0, 500, -800],
    ['year_end', '2024-03-01', 800, 0, 0],
    ['line', '2024-03-01', 0, 700, -700],
    ['year_end', '2025-03-01', 700, 0, 0],
    ['line', '2025-03-03', 0, 900, -900],
  ]);
  // −300 + 1,500 − 2,100 = −900.
  t.match(sales, { openingBalance: -300, totalDebit: 1500, totalCredit: 2100, closingBalance: -900 });

  const rent = (await get(t, api, `/v1/transactions/account/${acc['5000']}?${range}`)).data;
  t.same(rows(rent.entries), [
    ['line', '2024-06-10', 2000, 0, 2000],
    ['year_end', '2025-03-01', 0, 2000, 0],
  ]);
  t.equal(rent.entries[1].description, 'Year end 2025-02-28: closed to 3100 Retained Earnings');
  t.equal(rent.closingBalance, 0);

  const retained = (await get(t, api, `/v1/transactions/account/${acc['3100']}?${range}`)).data;
  // FY 2023/24: 800 of profit, a credit → −800. FY 2024/25: 700 − 2,000 = a loss of 1,300, a debit → +500.
  t.same(rows(retained.entries), [
    ['year_end', '2024-03-01', 0, 800, -800],
    ['year_end', '2025-03-01', 1300, 0, 500],
  ]);
  t.equal(retained.entries[1].description, 'Year end 2025-02-28: loss for the year closed from income and expenses');
  t.match(retained, { openingBalance: 0, totalDebit: 1300, totalCredit: 800, closingBalance: 500 });

  const tb = await trialBalance(t, api, '2025-03-31');
  // 4000 this year's 900 Cr; 5000 nothing this year; 3100 −800 + 1,300 = 500 Dr.
  t.same([tb['4000'], tb['5000'], tb['3100']], [-900, undefined, 500]);

  // Without from or to: from the first line, to the books' last day (2026-05-01), so FY 2025/26 closes too.
  const all = (await get(t, api, `/v1/transactions/account/${acc['4000']}`)).data;
  t.same(rows(all.entries), [
    ['line', '2024-01-15', 0, 300, -300],
    ['line', '2024-02-29', 0, 500, -800],
    ['year_end', '2024-03-01', 800, 0, 0],
    ['line', '2024-03-01', 0, 700, -700],
    ['year_end', '2025-03-01', 700, 0, 0],
    ['line', '2025-03-03', 0, 900, -900],
    ['year_end', '2026-03-01', 900, 0, 0],
  ]);
  t.equal(all.closingBalance, 0, 'FY 2026/27 has no sales: the trial balance today lists no 4000');
  const allRetained = (await get(t, api, `/v1/transactions/account/${acc['3100']}`)).data;
  // −800, +1,300 → 500, then FY 2025/26's 900 of profit → −400.
  t.same(
    allRetained.entries.map((e: Entry) => [e.date, e.runningBalance]),
    [
      ['2024-03-01', -800],
      ['2025-03-01', 500],
      ['2026-03-01', -400],
    ],
  );
  t.same((await trialBalance(t, api, '2026-11-21'))['3100'], -400);
});

t.test('account ledger pages: year end rows count as entries, running balances carry across pages', async (t) => {
  const { api, acc } = await marchCo(t);
  const path = `/v1/transactions/account/${acc['4000']}?from=2024-02-01&to=2025-03-31`;
  const page = async (limit: number, n: number) => get(t, api, `${path}&limit=${limit}&page=${n}`);
  const p1 = await page(2, 1);
  const p2 = await page(2, 2);
  const p3 = await page(2, 3);
  t.same(rows(p1.data.entries), [
    ['line', '2024-02-29', 0, 500, -800],
    ['year_end', '2024-03-01', 800, 0, 0],
  ]);
  t.same(rows(p2.data.entries), [
    ['line', '2024-03-01', 0, 700, -700],
    ['year_end', '2025-03-01', 700, 0, 0],
  ]);
  t.same(rows(p3.data.entries), [['line', '2025-03-03', 0, 900, -900]]);
  t.same(p1.meta, { total: 5, page: 1, limit: 2, hasMore: true });
  t.same(p3.meta, { total: 5, page: 3, limit: 2, hasMore: false });
  t.equal(p3.data.closingBalance, -900);
  const odd = await page(3, 2);
  t.same(rows(odd.data.entries), [
    ['year_end', '2025-03-01', 700, 0, 0],
    ['line', '2025-03-03', 0, 900, -900],
  ]);
  const retained = await get(t, api, `/v1/transactions/account/${acc['3100']}?from=2024-02-01&to=2025-03-31&limit=1&page=2`);
  t.same(rows(retained.data.entries), [['year_end', '2025-03-01', 1300, 0, 500]], 'a page of year end rows only');
  t.same(retained.meta, { total: 2, page: 2, limit: 1, hasMore: false });
});

t.test('general ledger: year end rows, 3100 listed for them, closings as the trial balance, openings and closings adding to nothing', async (t) => {
  const { api } = await marchCo(t);
  const one = (await get(t, api, '/v1/reports/general-ledger?from=2024-02-01&to=2025-03-31')).data as GeneralLedger;
  t.same(
    one.accounts.map((a) => [a.code, a.openingBalance, a.totalDebit, a.totalCredit, a.closingBalance]),
    [
      // 300 + 500 + 700 − 2,000 + 900 = 400
      ['1200', 300, 2100, 2000, 400],
      ['3100', 0, 1300, 800, 500],
      ['4000', -300, 1500, 2100, -900],
      ['5000', 0, 2000, 2000, 0],
    ],
  );
  const byCode = (code: string) => one.accounts.find((a) => a.code === code)!;
  t.same(
    byCode('4000').transactions.map((x) => [x.id === null ? null : 'txn', x.kind, x.date, x.debit, x.credit, x.runningBalance]),
    [
      ['txn', 'line', '2024-02-29', 0, 500, -800],
      [null, 'year_end', '2024-03-01', 800, 0, 0],
      ['txn', 'line', '2024-03-01', 0, 700, -700],
      [null, 'year_end', '2025-03-01', 700, 0, 0],
      ['txn', 'line', '2025-03-03', 0, 900, -900],
    ],
  );
  t.same(
    byCode('3100').transactions.map((x) => [x.kind, x.description, x.debit, x.credit, x.runningBalance]),
    [
      ['year_end', 'Year end 2024-02-29: profit for the year closed from income and expenses', 0, 800, -800],
      ['year_end', 'Year end 2025-02-28: loss for the year closed from income and expenses', 1300, 0, 500],
    ],
  );
  // 300 − 300 = 0 and 400 + 500 − 900 + 0 = 0.
  t.equal(
    one.accounts.reduce((s, a) => s + a.openingBalance, 0),
    0,
    'openings add up to nothing',
  );
  t.equal(
    one.accounts.reduce((s, a) => s + a.closingBalance, 0),
    0,
    'closings add up to nothing',
  );
  const tb = await trialBalance(t, api, '2025-03-31');
  for (const a of one.accounts) t.equal(a.closingBalance, tb[a.code] ?? 0, `${a.code} closes at the trial balance`);

  // Two lines a page: pages end on year end rows (3100's, and 4000's of 2024-03-01), and join to the ledger in one page.
  const pages: GeneralLedger[] = [];
  let cursor: string | null = null;
  do {
    const body = await get(
      t,
      api,
      `/v1/reports/general-ledger?from=2024-02-01&to=2025-03-31&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    pages.push(body.data);
    cursor = body.meta.nextCursor;
  } while (cursor !== null && pages.length < 20);
  // 1200: 4 lines, 3100: 2 rows, 4000: 5, 5000: 2 = 13 entries, 7 pages.
  t.equal(pages.length, 7);
  t.same(
    pages[3]!.accounts.map((a) => a.transactions.map((x) => [a.code, x.kind, x.date, x.runningBalance])),
    [
      [
        ['4000', 'line', '2024-02-29', -800],
        ['4000', 'year_end', '2024-03-01', 0],
      ],
    ],
  );
  t.same(
    pages[4]!.accounts.map((a) => a.transactions.map((x) => [a.code, x.kind, x.date, x.runningBalance])),
    [
      [
        ['4000', 'line', '2024-03-01', -700],
        ['4000', 'year_end', '2025-03-01', 0],
      ],
    ],
    'the page after a year end row runs on from it',
  );
  t.same(joinLedgerPages(pages), one, 'the pages joined are the ledger in one page');

  // The repro's range: 3100 is listed though it has no line.
  const short = (await get(t, api, '/v1/reports/general-ledger?from=2024-02-01&to=2024-03-31')).data as GeneralLedger;
  t.same(
    short.accounts.map((a) => [a.code, a.closingBalance]),
    [
      ['1200', 1500],
      ['3100', -800],
      ['4000', -700],
    ],
  );
});
