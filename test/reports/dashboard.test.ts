/**
 * GET /v1/reports/dashboard on a hand-built ledger. The clock stands at
 * 2026-11-21, in the fiscal year from 2026-04-01; the year before is
 * compared over the same days (2025-04-01 to 2025-11-21). Every figure is
 * worked out by hand in the comments (pence).
 */
import t, { type Test } from 'tap';
import type { Api } from '../helpers/index.js';
import { contactOk, createKey, expectError, ledger, postOk } from '../ledger-http/support.js';
import { invoiceOk, item, payOk, sendOk } from '../sales-http/invoice-support.js';
import { approveOk, billOk, supplierOk } from '../sales-http/purchases-support.js';

const clock = '2026-11-21T10:00:00Z';

async function dashboard(t: Test, api: Api) {
  const r = await api.request('GET', '/v1/reports/dashboard');
  t.equal(r.status, 200, `dashboard: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

async function settings(t: Test, api: Api, body: Record<string, unknown>) {
  const r = await api.request('PUT', '/v1/organisation/settings', { body });
  t.equal(r.status, 200, `settings ${JSON.stringify(body)}: ${JSON.stringify(r.body?.error ?? '')}`);
}

/** The ledger of the comments below; returns the api and a poster of [code, pence] lines. */
async function books(t: Test) {
  const { api, acc } = await ledger(t, { clock });
  const post = (date: string, description: string, lines: [string, number][], extra: Record<string, unknown> = {}) =>
    postOk(t, api, { date, description, lines: lines.map(([code, amount]) => ({ accountId: acc[code]!, amount })), ...extra });

  // The year before (FY 2025/26).
  await post('2025-05-10', 'Sale', [
    ['1200', 120_000],
    ['4000', -100_000],
    ['2200', -20_000],
  ]);
  await post('2025-06-01', 'Office costs', [
    ['5100', 30_000],
    ['2201', 6_000],
    ['1200', -36_000],
  ]);
  // In FY 2025/26 but after 2025-11-21: not in the prior figures.
  await post('2025-12-15', 'Winter sale', [
    ['1200', 60_000],
    ['4000', -50_000],
    ['2200', -10_000],
  ]);
  // This year.
  await post('2026-05-01', 'Sale', [
    ['1200', 180_000],
    ['4000', -150_000],
    ['2200', -30_000],
  ]);
  await post('2026-06-01', 'Office costs', [
    ['5100', 40_000],
    ['2201', 8_000],
    ['1200', -48_000],
  ]);
  await post('2026-07-31', 'VAT paid to HMRC', [
    ['2200', 20_000],
    ['1200', -20_000],
  ]);
  await post('2026-08-01', 'Savings paid in', [
    ['1210', 50_000],
    ['3000', -50_000],
  ]);
  await post(
    '2026-09-01',
    'Draft: left out everywhere',
    [
      ['1200', 99_999],
      ['4000', -99_999],
    ],
    { status: 'draft' },
  );

  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  // 1 × £500.00 at 20%: 50,000 + 10,000 = 60,000; due before today; 20,000 paid: owes 40,000.
  const i1 = await invoiceOk(t, api, client, { issueDate: '2026-10-01', dueDate: '2026-10-31', items: [item({ unitPrice: 50_000 })] });
  await sendOk(t, api, i1.id);
  await payOk(t, api, i1.id, { amount: 20_000, date: '2026-11-01' });
  // 1 × £100.00 at 20%: 12,000, due yesterday: overdue.
  const i2 = await invoiceOk(t, api, client, { issueDate: '2026-11-01', dueDate: '2026-11-20' });
  await sendOk(t, api, i2.id);
  // 1 × £200.00 at 20%: 24,000, due today: not overdue.
  const i3 = await invoiceOk(t, api, client, { issueDate: '2026-11-01', dueDate: '2026-11-21', items: [item({ unitPrice: 20_000 })] });
  await sendOk(t, api, i3.id);
  // A draft long past due (36,000): left out everywhere.
  await invoiceOk(t, api, client, { issueDate: '2026-10-01', dueDate: '2026-10-15', items: [item({ unitPrice: 30_000 })] });
  // 12,000, paid in full: not overdue though its due date has passed.
  const i5 = await invoiceOk(t, api, client, { issueDate: '2026-10-01', dueDate: '2026-10-15' });
  await sendOk(t, api, i5.id);
  await payOk(t, api, i5.id, { amount: 12_000, date: '2026-10-10' });

  const supplier = await supplierOk(t, api);
  const bill = async (issueDate: string, dueDate: string, unitPrice: number, approve = true) => {
    const b = await billOk(t, api, supplier, { issueDate, dueDate, items: [item({ description: 'Supplies', unitPrice })] });
    if (approve) await approveOk(t, api, b.id);
  };
  await bill('2026-11-01', '2026-11-21', 10_000); // 12,000 due today: upcoming
  await bill('2026-11-10', '2026-12-21', 5_000); // 6,000 due in 30 days: upcoming
  await bill('2026-11-10', '2026-12-31', 20_000); // 24,000 due in 40 days: not upcoming
  await bill('2026-11-01', '2026-11-20', 1_000); // 1,200 due yesterday: not upcoming
  await bill('2026-11-10', '2026-12-01', 30_000, false); // a draft (36,000): left out everywhere
  return { api, post };
}

t.test('the dashboard of a standard VAT company, figure by figure', async (t) => {
  const { api } = await books(t);
  const d = await dashboard(t, api);
  t.strictSame(d, {
    currentPeriod: { from: '2026-04-01', to: '2026-11-21' },
    priorPeriod: { from: '2025-04-01', to: '2025-11-21' },
    // 1200: 120,000 − 36,000 + 60,000 + 180,000 − 48,000 − 20,000 + 20,000 (I1 part payment) + 12,000 (I5) = 288,000; 1210: 50,000.
    bankBalance: 338_000,
    // 1100: 60,000 + 12,000 + 24,000 + 12,000 − 20,000 − 12,000 = 76,000 (40,000 + 12,000 + 24,000 still owed).
    accountsReceivable: 76_000,
    // 2100: 12,000 + 6,000 + 24,000 + 1,200; the draft bill is not posted.
    accountsPayable: 43_200,
    // This year: 150,000 + invoices' net 50,000 + 10,000 + 20,000 + 10,000 = 240,000; the year before: 100,000 (the winter sale is after 2025-11-21).
    // (240,000 − 100,000) / 100,000 = 140.0 %.
    revenue: { current: 240_000, prior: 100_000, change: 140 },
    // This year: 5100 40,000 + bills' net on 5000 10,000 + 5,000 + 20,000 + 1,000 = 76,000; the year before: 30,000.
    // 46,000 / 30,000 = 153.33… → 153.3 %.
    expenses: { current: 76_000, prior: 30_000, change: 153.3 },
    // 240,000 − 76,000 = 164,000 against 100,000 − 30,000 = 70,000: 94,000 / 70,000 = 134.28… → 134.3 %.
    netProfit: { current: 164_000, prior: 70_000, change: 134.3 },
    // I1 40,000 still owed + I2 12,000; I3 is due today, I5 paid, the draft never sent.
    overdueInvoices: { count: 2, total: 52_000 },
    // Due today 12,000 + due 2026-12-21 6,000.
    upcomingBills: { count: 2, total: 18_000 },
    // The draft return of the one VAT period so far (from 2026-10-01, the quarter of the first tax-coded entry, to today):
    // box 3 = the sent invoices' VAT 10,000 + 2,000 + 4,000 + 2,000 = 18,000; box 4 = the approved bills' VAT
    // 2,000 + 1,000 + 4,000 + 200 = 7,200 (the drafts count nowhere). 18,000 − 7,200 = 10,800; nothing filed, 2202 is 0.
    // The manual journals on 2200 and 2201 carry no VAT facts, so neither they nor the payment to HMRC reach it.
    taxSetAside: { vatScheme: 'standard', vat: 10_800 },
  });

  // The sweep marks I1, I2 and the bill due yesterday overdue: the same figures.
  const swept = await api.request('POST', '/v1/invoices/sweep');
  t.equal(swept.status, 200, 'swept');
  t.equal(swept.body.data.overdueInvoices.length, 2, 'I1 and I2 are overdue');
  t.equal(swept.body.data.overdueBills.length, 1, 'the bill due yesterday is overdue');
  t.strictSame(await dashboard(t, api), d, 'overdue documents count as sent and approved ones did');
});

t.test('taxSetAside under the flat rate scheme and when not registered', async (t) => {
  const { api, post } = await books(t);
  await settings(t, api, { vatScheme: 'flat_rate', vatFlatRatePercent: 12 });
  // The draft flat-rate return: VAT-inclusive turnover of the sent invoices 60,000 + 12,000 + 24,000 + 12,000 = 108,000;
  // box 1 = 12 % of it = 12,960; box 4 = 0 (no capital purchase: the bills' VAT stays in their cost).
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'flat_rate', vat: 12_960 });

  // A payment to HMRC posted against 2200 (not 2202) carries no VAT facts: the set-aside is unchanged.
  await post('2026-10-31', 'VAT paid to HMRC', [
    ['2200', 20_000],
    ['1200', -20_000],
  ]);
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'flat_rate', vat: 12_960 });

  // The standard figure of the same books, also unchanged by that payment: 18,000 − 7,200 = 10,800.
  await settings(t, api, { vatScheme: 'standard' });
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'standard', vat: 10_800 });

  // Leaving VAT from today (test/vat/deregistration.test.ts): the returns up to yesterday are still to file, so the same 10,800 is set aside.
  const left = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered' } });
  t.equal(left.status, 200, JSON.stringify(left.body.error));
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'not_registered', vat: 10_800 });
  // Books that were never registered set nothing aside.
  const unregistered = (await ledger(t, { clock })).api;
  await settings(t, unregistered, { vatScheme: 'not_registered' });
  t.strictSame((await dashboard(t, unregistered)).taxSetAside, { vatScheme: 'not_registered', vat: 0 });
});

t.test('a flat rate percentage with decimals rounds to the nearest penny, halves away from zero', async (t) => {
  const { api, acc } = await ledger(t, { clock });
  await settings(t, api, { vatScheme: 'flat_rate', vatFlatRatePercent: 12.5 });
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'flat_rate', vat: 0 }, 'no turnover');
  const sale = (date: string, gross: number) =>
    postOk(t, api, {
      date,
      lines: [
        { accountId: acc['1200']!, amount: gross },
        { accountId: acc['4000']!, amount: -gross, vatRate: 20, vatTreatment: 'inclusive' },
      ],
    });
  // A sale of 1,001 including VAT: 12.5 % of 1,001 = 125.125 → 125.
  await sale('2026-05-01', 1_001);
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'flat_rate', vat: 125 });
  // 3 more in the same quarter: 12.5 % of 1,004 = 125.5 → 126.
  await sale('2026-05-02', 3);
  t.strictSame((await dashboard(t, api)).taxSetAside, { vatScheme: 'flat_rate', vat: 126 });
});

t.test('taxSetAside follows the returns: filed ones through 2202 until paid, the drafts of the rest, never below 0', async (t) => {
  const { api, acc } = await ledger(t, { clock });
  // VAT periods: quarters ending March, June, September and December from the registration on 2026-01-01.
  await settings(t, api, { vatRegistrationDate: '2026-01-01' });
  const line = (code: string, amount: number) => ({ accountId: acc[code]!, amount });
  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  const supplier = await supplierOk(t, api);
  const sell = async (issueDate: string, unitPrice: number) =>
    sendOk(t, api, (await invoiceOk(t, api, client, { issueDate, items: [item({ unitPrice })] })).id);
  const buy = async (issueDate: string, unitPrice: number) =>
    approveOk(t, api, (await billOk(t, api, supplier, { issueDate, items: [item({ unitPrice })] })).id);
  const vat = async () => ((await dashboard(t, api)) as { taxSetAside: { vat: number } }).taxSetAside.vat;
  const file = async (period: string) => t.equal((await api.request('POST', `/v1/vat/periods/${period}/file`)).status, 201, `${period} filed`);

  await sell('2026-02-10', 100_000); // Q1: VAT 20,000 on £1,000.00
  await buy('2026-03-05', 20_000); // Q1: VAT 4,000 on £200.00
  await sell('2026-05-10', 50_000); // Q2: VAT 10,000
  await buy('2026-08-15', 40_000); // Q3: VAT 8,000 reclaimed
  await sell('2026-10-20', 30_000); // Q4 to today: VAT 6,000
  await sell('2026-12-01', 10_000); // after today: not yet in the set-aside
  // Drafts: Q1 20,000 − 4,000 = 16,000; Q2 10,000; Q3 −8,000 (repayable); Q4 6,000. 16,000 + 10,000 − 8,000 + 6,000 = 24,000.
  t.equal(await vat(), 24_000, 'every period a draft');

  // Filing Q1 moves its 16,000 to 2202 (a credit): the set-aside is the same.
  await file('2026-03');
  t.equal(await vat(), 24_000, 'Q1 filed: 16,000 owed on 2202 + 10,000 − 8,000 + 6,000');

  // Paying HMRC 10,000 of it against 2202: 24,000 − 10,000 = 14,000.
  await postOk(t, api, { date: '2026-05-07', description: 'VAT paid to HMRC', lines: [line('2202', 10_000), line('1200', -10_000)] });
  t.equal(await vat(), 14_000, 'part paid through 2202');
  // A payment posted against 2200 instead carries no VAT facts and is not a payment of a filed return: no change.
  await postOk(t, api, { date: '2026-05-07', description: 'VAT paid to HMRC', lines: [line('2200', 5_000), line('1200', -5_000)] });
  t.equal(await vat(), 14_000, 'a settlement on 2200 changes nothing');
  // The other 6,000 of Q1: 14,000 − 6,000 = 8,000 (Q2 10,000 − Q3 8,000 + Q4 6,000).
  await postOk(t, api, { date: '2026-05-08', description: 'VAT paid to HMRC', lines: [line('2202', 6_000), line('1200', -6_000)] });
  t.equal(await vat(), 8_000, 'Q1 paid in full');

  // Filing Q2 moves its 10,000 to 2202: still 8,000. A bill dated in Q2 after that lands in Q3: 8,000 − 1,000 = 7,000.
  await file('2026-06');
  t.equal(await vat(), 8_000, 'Q2 filed: the same');
  await buy('2026-06-20', 5_000); // VAT 1,000
  t.equal(await vat(), 7_000, 'the late bill counts in the next open return');
  // Filing Q3, repayable 8,000 + 1,000 = 9,000 (a debit on 2202): 2202 owes 10,000 − 9,000 = 1,000, Q4 6,000: still 7,000.
  await file('2026-09');
  t.equal(await vat(), 7_000, 'Q3 filed (repayable): the same');

  // A purchase with 12,000 of VAT in Q4: 7,000 − 12,000 is below 0, so 0.
  await buy('2026-11-15', 60_000);
  t.equal(await vat(), 0, 'never below 0');
});

t.test('change is null when the year before is 0, and negative when figures fell', async (t) => {
  const { api, acc } = await ledger(t, { clock });
  const line = (code: string, amount: number) => ({ accountId: acc[code]!, amount });
  // Nothing the year before: every change is null.
  await postOk(t, api, { date: '2026-04-01', lines: [line('1200', 50_000), line('4000', -50_000)] });
  let d = await dashboard(t, api);
  t.strictSame(
    [d.revenue, d.expenses, d.netProfit],
    [
      { current: 50_000, prior: 0, change: null },
      { current: 0, prior: 0, change: null },
      { current: 50_000, prior: 0, change: null },
    ],
  );
  t.strictSame(d.taxSetAside, { vatScheme: 'standard', vat: 0 });
  t.strictSame(d.overdueInvoices, { count: 0, total: 0 });
  t.strictSame(d.upcomingBills, { count: 0, total: 0 });

  // The year before, on its first and last days: revenue 80,000, expenses 20,000, profit 60,000; this year also 30,000 expenses (on today).
  await postOk(t, api, { date: '2025-04-01', lines: [line('1200', 80_000), line('4000', -80_000)] });
  await postOk(t, api, { date: '2025-11-21', lines: [line('5100', 20_000), line('1200', -20_000)] });
  await postOk(t, api, { date: '2026-11-21', lines: [line('5100', 30_000), line('1200', -30_000)] });
  // And the day after each period: in neither.
  await postOk(t, api, { date: '2025-11-22', lines: [line('5100', 7_000), line('1200', -7_000)] });
  await postOk(t, api, { date: '2025-03-31', lines: [line('1200', 9_000), line('4000', -9_000)] });
  d = await dashboard(t, api);
  // Revenue (50,000 − 80,000) / 80,000 = −37.5 %; expenses (30,000 − 20,000) / 20,000 = 50 %;
  // profit 20,000 against 60,000: −40,000 / 60,000 = −66.66… → −66.7 %.
  t.strictSame(
    [d.revenue, d.expenses, d.netProfit],
    [
      { current: 50_000, prior: 80_000, change: -37.5 },
      { current: 30_000, prior: 20_000, change: 50 },
      { current: 20_000, prior: 60_000, change: -66.7 },
    ],
  );
  // A loss the year before: (20,000 − (−10,000)) / |−10,000| = +300 %.
  await postOk(t, api, { date: '2025-06-01', lines: [line('5100', 70_000), line('1200', -70_000)] });
  d = await dashboard(t, api);
  t.strictSame(d.netProfit, { current: 20_000, prior: -10_000, change: 300 });
  // 1200: 50,000 − 30,000 + 80,000 − 20,000 − 7,000 + 9,000 − 70,000 = 12,000.
  t.equal(d.bankBalance, 12_000);
});

t.test('the dashboard needs reports:read', async (t) => {
  const { api } = await ledger(t, { clock });
  const { key } = await createKey(t, api, { name: 'no reports', scopes: ['invoices:read', 'transactions:read'] });
  expectError(t, await api.request('GET', '/v1/reports/dashboard', { key }), 403, 'insufficient_scope', { message: /reports:read/ });
  const { key: reader } = await createKey(t, api, { name: 'reports', scopes: ['reports:read'] });
  t.equal((await api.request('GET', '/v1/reports/dashboard', { key: reader })).status, 200);
});
