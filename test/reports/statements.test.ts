/**
 * The reports on a hand-built ledger, over HTTP. A company whose year
 * starts 04-01; every expected figure is worked out by hand in the comments.
 */
import t from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson, serveBooks, type Api } from '../helpers/index.js';

async function ledger(t: Parameters<typeof newBooks>[0]) {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)?.id as string;
  const post = async (date: string, description: string, lines: [string, number][], status = 'posted') => {
    const r = await api.request('POST', '/v1/transactions', {
      body: { date, description, status, lines: lines.map(([code, amount]) => ({ accountId: id(code), amount })) },
    });
    t.equal(r.status, 201, description);
  };
  await post('2025-04-10', 'Capital', [
    ['1200', 1_000_000],
    ['3000', -1_000_000],
  ]);
  // On credit, on 1150 and 2150: manual journals may not post to 1100 and 2100, which invoices and bills keep.
  await post('2025-06-15', 'Sale', [
    ['1150', 120_000],
    ['4000', -100_000],
    ['2200', -20_000],
  ]);
  await post('2025-07-01', 'Materials', [
    ['5000', 30_000],
    ['2201', 6_000],
    ['2150', -36_000],
  ]);
  await post('2026-01-20', 'Rent', [
    ['5200', 50_000],
    ['1200', -50_000],
  ]);
  await post('2026-04-15', 'Receipt', [
    ['1200', 120_000],
    ['1150', -120_000],
  ]);
  await post('2026-05-01', 'Other sale', [
    ['1200', 60_000],
    ['4100', -60_000],
  ]);
  await post('2026-05-02', 'Office', [
    ['5100', 10_000],
    ['1200', -10_000],
  ]);
  await post(
    '2026-05-03',
    'Draft, not in reports',
    [
      ['5100', 99_999],
      ['1200', -99_999],
    ],
    'draft',
  );
  return { api, id, books };
}

const get = async (api: Api, path: string) => {
  const r = await api.request('GET', path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
};

t.test('trial balance at the end of FY 2025/26', async (t) => {
  const { api, id } = await ledger(t);
  const tb = await get(api, '/v1/reports/trial-balance?asOf=2026-03-31');
  t.same(
    tb.accounts.map((a: { code: string; debit: number; credit: number }) => [a.code, a.debit, a.credit]),
    [
      ['1150', 120_000, 0],
      ['1200', 950_000, 0], // 1,000,000 − 50,000
      ['2150', 0, 36_000],
      ['2200', 0, 20_000],
      ['2201', 6_000, 0],
      ['3000', 0, 1_000_000],
      ['4000', 0, 100_000],
      ['5000', 30_000, 0],
      ['5200', 50_000, 0],
    ],
  );
  t.same(tb.totals, { debit: 1_156_000, credit: 1_156_000 });
  t.equal(tb.balanced, true);
  t.equal(tb.asOf, '2026-03-31');
  t.match(tb.accounts[1], { id: id('1200'), name: 'Bank Account' });
  const today = await get(api, '/v1/reports/trial-balance');
  t.equal(today.asOf, '2026-11-21', 'asOf defaults to today');
  // 1200: 950,000 + 120,000 + 60,000 − 10,000; the draft is left out.
  t.match(
    today.accounts.find((a: { code: string }) => a.code === '1200'),
    { debit: 1_120_000 },
  );
  t.notOk(
    today.accounts.some((a: { code: string }) => a.code === '1150'),
    'a zero balance is not listed',
  );
});

t.test("trial balance in a later year: the earlier years' income and expenses are in 3100 Retained Earnings", async (t) => {
  const { api, id } = await ledger(t);
  const tb = await get(api, '/v1/reports/trial-balance?asOf=2026-11-21');
  // FY 2025/26 (to 2026-03-31) made 100,000 of sales less 30,000 materials and 50,000 rent: 20,000 of profit, a
  // credit on 3100. 4000, 5000 and 5200 start FY 2026/27 at nothing and have no line since, so are not listed.
  t.same(
    tb.accounts.map((a: { code: string; debit: number; credit: number }) => [a.code, a.debit, a.credit]),
    [
      ['1200', 1_120_000, 0], // 950,000 + 120,000 + 60,000 − 10,000
      ['2150', 0, 36_000],
      ['2200', 0, 20_000],
      ['2201', 6_000, 0],
      ['3000', 0, 1_000_000],
      ['3100', 0, 20_000], // 100,000 − 30,000 − 50,000
      ['4100', 0, 60_000], // this year's
      ['5100', 10_000, 0],
    ],
  );
  // debits 1,120,000 + 6,000 + 10,000 = 1,136,000; credits 36,000 + 20,000 + 1,000,000 + 20,000 + 60,000 = 1,136,000
  t.same(tb.totals, { debit: 1_136_000, credit: 1_136_000 });
  t.equal(tb.balanced, true);
  t.match(tb.accounts[5], { id: id('3100'), name: 'Retained Earnings' });

  // The first day of the year: last year's profit is in 3100 already; a loss would be a debit.
  const first = await get(api, '/v1/reports/trial-balance?asOf=2026-04-01');
  t.same(
    first.accounts.filter((a: { code: string }) => a.code >= '3100').map((a: { code: string; debit: number; credit: number }) => [a.code, a.debit, a.credit]),
    [['3100', 0, 20_000]],
  );

  // A profit already moved into 3100 by a closing journal of the old year is counted once: 4000 is then nil before
  // this year, and 3100 holds the 100,000 credited to it plus the 80,000 of expenses still on their accounts: 20,000.
  const r = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2026-03-31',
      description: 'Close sales to retained earnings',
      status: 'posted',
      lines: [
        { accountId: id('4000'), amount: 100_000 },
        { accountId: id('3100'), amount: -100_000 },
      ],
    },
  });
  t.equal(r.status, 201);
  const again = await get(api, '/v1/reports/trial-balance?asOf=2026-11-21');
  t.same(
    again.accounts.find((a: { code: string }) => a.code === '3100'),
    { id: id('3100'), code: '3100', name: 'Retained Earnings', debit: 0, credit: 20_000 },
  );
});

t.test('profit and loss, with the comparative prior period', async (t) => {
  const { api } = await ledger(t);
  const pl = await get(api, '/v1/reports/profit-loss?from=2025-04-01&to=2026-03-31&comparative=true');
  t.same(pl.period, { from: '2025-04-01', to: '2026-03-31' });
  t.same(
    pl.revenue.accounts.map((a: { code: string; name: string; balance: number }) => [a.code, a.name, a.balance]),
    [['4000', 'Sales', 100_000]],
  );
  t.equal(pl.revenue.total, 100_000);
  t.same(
    pl.expenses.accounts.map((a: { code: string; balance: number }) => [a.code, a.balance]),
    [
      ['5000', 30_000],
      ['5200', 50_000],
    ],
  );
  t.equal(pl.expenses.total, 80_000);
  t.equal(pl.grossProfit, 70_000, 'revenue less cost of sales (5000)');
  t.equal(pl.netProfit, 20_000);
  t.same(pl.comparative, {
    period: { from: '2024-04-01', to: '2025-03-31' },
    totalRevenue: 0,
    totalExpenses: 0,
    revenue: { accounts: [], total: 0 },
    expenses: { accounts: [], total: 0 },
    costOfSales: 0,
    grossProfit: 0,
    netProfit: 0,
  });
  t.same(
    pl.expenses.accounts.map((a: { code: string; isCostOfSales: boolean }) => [a.code, a.isCostOfSales]),
    [
      ['5000', true],
      ['5200', false],
    ],
    'each expense says whether it is cost of sales',
  );
  t.equal(pl.costOfSales, 30_000, 'cost of sales: 5000 alone');

  const q1 = await get(api, '/v1/reports/profit-loss?from=2026-04-01&to=2026-06-30&comparative=true');
  t.same([q1.revenue.total, q1.expenses.total, q1.grossProfit, q1.netProfit], [60_000, 10_000, 60_000, 50_000], 'the draft is left out');
  // A quarter of whole months beside the three months before it: 2026-01-01 to 2026-03-31 (90 days, not the 91 days
  // ending 2026-03-31, which would take in 31 December), holding only the rent.
  t.match(q1.comparative, {
    period: { from: '2026-01-01', to: '2026-03-31' },
    totalRevenue: 0,
    totalExpenses: 50_000,
    revenue: { accounts: [], total: 0 },
    expenses: { accounts: [{ code: '5200', name: 'Rent and Rates', balance: 50_000, isCostOfSales: false }], total: 50_000 },
    costOfSales: 0,
    grossProfit: 0,
    netProfit: -50_000,
  });
  t.equal(q1.comparative.expenses.accounts.length, 1, 'the rent alone');
  const plain = await get(api, '/v1/reports/profit-loss?from=2026-04-01&to=2026-06-30');
  t.equal(plain.comparative, null);
});

t.test('the comparative period: whole months beside as many whole months before; other ranges the same days before', async (t) => {
  const { api } = await ledger(t);
  const comparativeOf = async (from: string, to: string) =>
    (await get(api, `/v1/reports/profit-loss?from=${from}&to=${to}&comparative=true`)).comparative.period;
  // A month: the month before, whatever the lengths (30 days of November beside 31 of October).
  t.same(await comparativeOf('2026-11-01', '2026-11-30'), { from: '2026-10-01', to: '2026-10-31' });
  t.same(await comparativeOf('2026-03-01', '2026-03-31'), { from: '2026-02-01', to: '2026-02-28' });
  // A year holding 29 February 2024 (366 days) beside the year before, from 1 April: 366 days would start on 31 March 2022.
  t.same(await comparativeOf('2023-04-01', '2024-03-31'), { from: '2022-04-01', to: '2023-03-31' });
  // Two months across a year end.
  t.same(await comparativeOf('2026-01-01', '2026-02-28'), { from: '2025-11-01', to: '2025-12-31' });
  // Not whole months: the same number of days ending the day before (15 days).
  t.same(await comparativeOf('2026-11-01', '2026-11-15'), { from: '2026-10-17', to: '2026-10-31' });
});

t.test('balance sheet: unclosed profit sits in equity, and the checksum holds', async (t) => {
  const { api } = await ledger(t);
  const bs = await get(api, '/v1/reports/balance-sheet?asOf=2026-06-30');
  const rows = (section: { accounts: { code: string | null; name: string; balance: number }[] }) => section.accounts.map((a) => [a.code, a.name, a.balance]);
  t.same(rows(bs.assets), [['1200', 'Bank Account', 1_120_000]], '1150 is back to 0 and not listed');
  t.same(rows(bs.liabilities), [
    ['2150', 'Accruals', 36_000],
    ['2200', 'VAT Output', 20_000],
    ['2201', 'VAT Input', -6_000],
  ]);
  t.same(rows(bs.equity), [
    ['3000', 'Share Capital', 1_000_000],
    [null, "Prior years' earnings", 20_000], // FY 2025/26: 100,000 − 80,000
    [null, 'Current year earnings', 50_000], // 2026-04-01 to 2026-06-30: 60,000 − 10,000
  ]);
  t.same([bs.assets.total, bs.liabilities.total, bs.equity.total, bs.netAssets, bs.checksum], [1_120_000, 50_000, 1_070_000, 1_070_000, true]);
  t.equal(bs.asOf, '2026-06-30');
});

t.test('general ledger: one account, and every account with a balance or activity', async (t) => {
  const { api, id } = await ledger(t);
  const one = await get(api, `/v1/reports/general-ledger?from=2026-04-01&to=2026-06-30&accountId=${id('1200')}`);
  t.equal(one.accounts.length, 1);
  const bank = one.accounts[0];
  t.match(bank, { code: '1200', accountType: 'asset', openingBalance: 950_000, closingBalance: 1_120_000, totalDebit: 180_000, totalCredit: 10_000 });
  t.same(
    bank.transactions.map((x: { date: string; description: string; debit: number; credit: number; runningBalance: number }) => [
      x.date,
      x.description,
      x.debit,
      x.credit,
      x.runningBalance,
    ]),
    [
      ['2026-04-15', 'Receipt', 120_000, 0, 1_070_000],
      ['2026-05-01', 'Other sale', 60_000, 0, 1_130_000],
      ['2026-05-02', 'Office', 0, 10_000, 1_120_000],
    ],
  );
  const all = await get(api, '/v1/reports/general-ledger?from=2026-04-01&to=2026-06-30');
  // FY 2026/27 begins 2026-04-01: 4000, 5000 and 5200 have nothing in it, and 3100 opens at FY 2025/26's profit.
  t.same(
    all.accounts.map((a: { code: string }) => a.code),
    ['1150', '1200', '2150', '2200', '2201', '3000', '3100', '4100', '5100'],
  );
  t.match(
    all.accounts.find((a: { code: string }) => a.code === '3100'),
    // 100,000 of sales − 30,000 − 50,000 = 20,000 of profit, a credit.
    { openingBalance: -20_000, transactions: [], closingBalance: -20_000 },
  );
  // The openings balance: 1150 120,000 + 1200 950,000 − 2150 36,000 − 2200 20,000 + 2201 6,000 − 3000 1,000,000 − 3100 20,000 = 0.
  t.equal(
    all.accounts.reduce((sum: number, a: { openingBalance: number }) => sum + a.openingBalance, 0),
    0,
  );
  const sales = await get(api, `/v1/reports/general-ledger?from=2026-04-01&to=2026-06-30&accountId=${id('4000')}`);
  t.match(sales.accounts, [{ code: '4000', openingBalance: 0, transactions: [], closingBalance: 0 }], 'sales start the year at nothing');
});

t.test("the account ledger opens as the trial balance of the day before: income and expenses from the year's start", async (t) => {
  const { api, id, books } = await ledger(t);
  const opening = async (code: string, from: string) => (await get(api, `/v1/transactions/account/${id(code)}?from=${from}`)).openingBalance as number;
  t.equal(await opening('4000', '2026-04-01'), 0, "last year's sales are not this year's");
  t.equal(await opening('4000', '2026-03-31'), -100_000, 'the last day of FY 2025/26 opens at its sales to 2026-03-30');
  t.equal(await opening('4100', '2026-05-02'), -60_000, "this year's other sale of 2026-05-01");
  t.equal(await opening('3100', '2026-04-01'), -20_000, 'FY 2025/26: 100,000 − 30,000 − 50,000 = 20,000 of profit, a credit');
  t.equal(await opening('3100', '2026-03-31'), 0, 'within FY 2025/26 its profit is still on the income and expense accounts');
  t.equal(await opening('1200', '2026-04-01'), 950_000, 'a bank account carries everything before: 1,000,000 − 50,000');

  // The command line's ledger reads the same way.
  const cli = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '4000', '--from', 'fy2026']);
  t.equal(cli.status, 0, cli.stderr);
  t.match(cli.data, { openingBalance: 0, closingBalance: 0 });
  const retained = await runCliInProcess(['--data', books.dataDir, 'ledger', '3100', '--from', '2026-04-01', '--csv']);
  t.equal(retained.status, 0, retained.stderr);
  t.match(retained.stdout, '2026-04-01,Opening balance,,,,-200.00');
});

t.test("the reports' 400 rules, scope and missing account", async (t) => {
  const { api } = await ledger(t);
  const fails = async (path: string, code: string, field?: string) => {
    const r = await api.request('GET', path);
    t.equal(r.status, 400, path);
    t.equal(r.body.error.code, code, path);
    if (field) t.equal(r.body.error.field, field, path);
  };
  await fails('/v1/reports/profit-loss?to=2026-03-31', 'validation_error', 'from');
  await fails('/v1/reports/profit-loss?from=2026-13-01&to=2026-12-31', 'validation_error', 'from');
  await fails('/v1/reports/profit-loss?from=2026-04-01&to=2026-03-31', 'validation_error', 'from');
  await fails('/v1/reports/balance-sheet', 'validation_error', 'asOf');
  await fails('/v1/reports/balance-sheet?asOf=31/03/2026', 'validation_error', 'asOf');
  await fails('/v1/reports/trial-balance?asOf=2026-02-30', 'validation_error', 'asOf');
  await fails('/v1/reports/general-ledger?from=2026-04-01&to=2026-06-30&accountId=inv_1', 'invalid_id', 'accountId');
  const missing = await api.request('GET', '/v1/reports/general-ledger?from=2026-04-01&to=2026-06-30&accountId=acc_0000000000000000000000000z');
  t.equal(missing.status, 404);
  const key = await api.request('POST', '/v1/api-keys', { body: { name: 'accounts only', scopes: ['accounts:read'] } });
  const refused = await api.request('GET', '/v1/reports/trial-balance', { key: key.body.data.key });
  t.equal(refused.status, 403);
  t.match(refused.body.error.message, 'reports:read');
});
