import t from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';

async function books(t: Parameters<typeof newBooks>[0]) {
  const b = await newBooks(t);
  const post = async (...args: string[]) => t.equal((await runCliInProcess(['--data', b.dataDir, 'post', ...args])).status, 0, args.join(' '));
  await post('2025-04-10', 'Capital', '1200=10000', '3000=-10000');
  // On credit, on 1150 and 2150: manual journals may not post to 1100 and 2100, which invoices and bills keep.
  await post('2025-06-15', 'Sale, with VAT', '1150=1200', '4000=-1000', '2200=-200');
  await post('2025-07-01', 'Materials', '5000=300', '2201=60', '2150=-360');
  await post('2026-01-20', 'Rent', '5200=500', '1200=-500');
  return b;
}

t.test('acct report prints tables in pounds, thousands grouped', async (t) => {
  const b = await books(t);
  const tb = await runCliInProcess(['--data', b.dataDir, 'report', 'trial-balance', '--as-of', '2026-03-31']);
  t.equal(tb.status, 0, tb.stderr);
  t.equal(
    tb.stdout,
    [
      'Trial balance at 2026-03-31',
      'code  account             debit     credit',
      '1150  Prepayments      1,200.00',
      '1200  Bank Account     9,500.00', // 10,000.00 - 500.00
      '2150  Accruals                      360.00',
      '2200  VAT Output                    200.00',
      '2201  VAT Input           60.00',
      '3000  Share Capital              10,000.00',
      '4000  Sales                       1,000.00',
      '5000  Cost of Sales      300.00',
      '5200  Rent and Rates     500.00',
      '      Total           11,560.00  11,560.00', // debits 1,200 + 9,500 + 60 + 300 + 500; credits 360 + 200 + 10,000 + 1,000
      '',
    ].join('\n'),
  );
});

t.test('acct report --csv and --json', async (t) => {
  const b = await books(t);
  const csv = await runCliInProcess(['--data', b.dataDir, 'report', 'profit-loss', '--from', '2025-04-01', '--to', '2026-03-31', '--csv']);
  // CSV keeps plain pounds, 1000.00 and not 1,000.00, for programs that read it
  t.equal(
    csv.stdout,
    [
      'code,account,amount',
      ',Revenue,',
      '4000,Sales,1000.00',
      ',Total revenue,1000.00',
      ',Cost of sales,',
      '5000,Cost of Sales,300.00',
      ',Total cost of sales,300.00',
      ',Gross profit,700.00', // 1,000.00 − 300.00
      ',Expenses,',
      '5200,Rent and Rates,500.00',
      ',Total expenses,500.00', // the overheads: 5200 alone
      ',Net profit,200.00', // 700.00 − 500.00
      '',
    ].join('\n'),
  );
  const json = await runCliInProcessJson(['--data', b.dataDir, '--json', 'report', 'balance-sheet', '--as-of', '2026-03-31']);
  t.match(json.data, { assets: { total: 1_070_000 }, liabilities: { total: 50_000 }, equity: { total: 1_020_000 }, netAssets: 1_020_000, checksum: true });
  // --from alone runs to today, the London date.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const open = await runCliInProcessJson(['--data', b.dataDir, '--json', 'report', 'profit-loss', '--from', '2026-01-01']);
  t.match(open.data, { period: { from: '2026-01-01', to: today } });
  const bad = await runCliInProcess(['--data', b.dataDir, 'report', 'profit-loss', '--from', '2026-04-01', '--to', '2026-03-31']);
  t.equal(bad.status, 2, 'a range that ends before it starts');
  t.equal(bad.stderr, 'error validation_error: --from (2026-04-01) is after --to (2026-03-31) (field --from)\n', 'both ends named as typed');
  // A list's range is fromDate and toDate in the API: the CLI still names the flags typed.
  const list = await runCliInProcess(['--data', b.dataDir, 'invoices', 'list', '--from-date', '2026-04-01', '--to-date', '2026-03-31']);
  t.equal(list.status, 2);
  t.equal(list.stderr, 'error validation_error: --from-date (2026-04-01) is after --to-date (2026-03-31) (field --from-date)\n');
});

t.test('acct export writes a journal of the posted ledger', async (t) => {
  const b = await books(t);
  await runCliInProcess(['--data', b.dataDir, 'post', '2026-02-01', 'Draft: not exported', '5100=1', '1200=-1', '--draft']);
  const r = await runCliInProcess(['--data', b.dataDir, 'export', '--from', '2026-01-01']);
  t.equal(r.status, 0, r.stderr);
  const body = r.stdout.split('\n\n').slice(1).join('\n\n');
  t.match(
    body,
    [
      // Nothing reconciled before 2026-01-01: neither the entry nor any posting is cleared (hledger's *).
      '2026-01-01 Opening balances',
      '    assets:1150 Prepayments  £1200.00',
      '    assets:1200 Bank Account  £10000.00',
      '    liabilities:2150 Accruals  -£360.00',
      '    liabilities:2200 VAT Output  -£200.00',
      '    liabilities:2201 VAT Input  £60.00',
      '    equity:3000 Share Capital  -£10000.00',
      // Income and expenses before 2026-01-01 closed: sales £1,000.00 − cost of sales £300.00 = £700.00 profit.
      '    equity:3100 Retained Earnings  -£700.00',
      '',
      // Not reconciled: not cleared (hledger's *).
      '2026-01-20 Rent  ; txn:',
    ].join('\n'),
  );
  t.notMatch(r.stdout, 'Draft');
  const bad = await runCliInProcess(['--data', b.dataDir, 'export', '--format', 'gnucash']);
  t.equal(bad.status, 2);
  t.match(bad.stderr, 'validation_error: format must be one of hledger, beancount, not gnucash');
});

t.test('acct export takes dates as the reports do: periods, a hint for day-first dates, the flag named', async (t) => {
  const b = await books(t);
  const quarter = await runCliInProcess(['--data', b.dataDir, 'export', '--from', '2026-Q1']);
  const days = await runCliInProcess(['--data', b.dataDir, 'export', '--from', '2026-01-01', '--to', '2026-03-31']);
  t.equal(quarter.status, 0, quarter.stderr);
  t.equal(quarter.stdout, days.stdout, '2026-Q1 is 2026-01-01 to 2026-03-31');
  t.match(quarter.stdout, /^2026-01-01 Opening balances$/m);
  const refusals: [string[], string][] = [
    [['--from', '31/03/2026'], 'error validation_error: write dates as YYYY-MM-DD: 31/03/2026 is 2026-03-31 if it is day first, as in the UK (field --from)\n'],
    [['--to', '2026-02-30'], 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field --to)\n'],
    [['--from', '2026-04-01', '--to', '2026-03-31'], 'error validation_error: --from (2026-04-01) is after --to (2026-03-31) (field --from)\n'],
  ];
  for (const [flags, stderr] of refusals) {
    const r = await runCliInProcess(['--data', b.dataDir, 'export', ...flags]);
    t.equal(r.status, 2, flags.join(' '));
    t.equal(r.stderr, stderr);
    t.equal(r.stdout, '', 'nothing written');
  }
  const word = await runCliInProcess(['--data', b.dataDir, 'export', '--from', 'banana']);
  t.equal(word.status, 2);
  t.match(word.stderr, /--from takes YYYY-MM-DD, or a period: .*; not banana \(field --from\)/);
});

t.test('profit-loss --comparative: a year to date beside the same days a year earlier; a month beside the month before', async (t) => {
  const b = await newBooks(t, { organisation: { businessType: 'sole_trader', fiscalYearStart: '04-06' } });
  for (const [date, pounds] of [
    ['2025-05-10', '500'], // FY 2025/26, within 6 April to 2 December 2025
    ['2026-03-10', '1000'], // FY 2025/26, after 2 December 2025
    ['2026-04-20', '200'], // FY 2026/27, April
    ['2026-05-10', '300'], // FY 2026/27, May
  ] as const) {
    t.equal((await runCliInProcess(['--data', b.dataDir, 'post', date, 'Sale', `1200=${pounds}`, `4000=-${pounds}`])).status, 0);
  }
  const pl = async (...flags: string[]) => {
    const r = await runCliInProcessJson(['--data', b.dataDir, '--json', 'report', 'profit-loss', '--comparative', ...flags]);
    t.equal(r.status, 0, r.stderr);
    return r.data as {
      period: { from: string; to: string };
      revenue: { total: number };
      comparative: { period: { from: string; to: string }; revenue: { total: number } };
    };
  };
  const ytd = await pl('--from', '2026-04-06', '--to', '2026-12-02');
  // This year to date: 200 + 300 = £500; the same days of 2025: the £500 of May 2025 alone (not the £1,000 of March 2026).
  t.same([ytd.revenue.total, ytd.comparative.period, ytd.comparative.revenue.total], [50_000, { from: '2025-04-06', to: '2025-12-02' }, 50_000]);
  const may = await pl('--from', '2026-05');
  // May 2026 (£300) beside April 2026 (£200): whole months keep the month before.
  t.same([may.revenue.total, may.comparative.period, may.comparative.revenue.total], [30_000, { from: '2026-04-01', to: '2026-04-30' }, 20_000]);
});
