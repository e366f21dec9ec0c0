/**
 * Reports that read like reports: the profit and loss in its conventional
 * order with the prior period as a second column, the balance sheet by
 * section with each balance's side (Dr or Cr), the general ledger's
 * balances likewise. Figures are worked by hand in the comments.
 */
import t from 'tap';
import { newBooks, runCli, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { runCliOnTerminalAt } from './support.js';

/**
 * Two years of a small company. The year to 2025-03-31: a sale of £2,000.00
 * net, materials (cost of sales) £500.00, rent £450.00, stationery £30.00.
 * The year to 2026-03-31: capital £10,000.00, a sale of £1,000.00 net on
 * credit, materials £300.00 (VAT £60.00) on credit, rent £500.00. What is
 * owed sits on 1150 and 2150: manual journals may not post to 1100 and 2100,
 * which invoices and bills keep.
 */
async function books(t: Parameters<typeof newBooks>[0]) {
  const b = await newBooks(t);
  const post = async (...args: string[]) => t.equal((await runCliInProcess(['--data', b.dataDir, 'post', ...args])).status, 0, args.join(' '));
  await post('2024-09-10', 'Old sale', '1200=2400', '4000=-2000', '2200=-400');
  await post('2024-10-01', 'Old materials', '5000=500', '1200=-500');
  await post('2024-11-01', 'Old rent', '5200=450', '1200=-450');
  await post('2024-12-01', 'Old stationery', '5100=30', '1200=-30');
  await post('2025-04-10', 'Capital', '1200=10000', '3000=-10000');
  await post('2025-06-15', 'Sale, with VAT', '1150=1200', '4000=-1000', '2200=-200');
  await post('2025-07-01', 'Materials', '5000=300', '2201=60', '2150=-360');
  await post('2026-01-20', 'Rent', '5200=500', '1200=-500');
  return b;
}

const year = ['--from', '2025-04-01', '--to', '2026-03-31'];

t.test('profit and loss: revenue, cost of sales, gross profit, expenses, net profit', async (t) => {
  const b = await books(t);
  const pl = await runCliInProcess(['--data', b.dataDir, 'report', 'profit-loss', ...year]);
  t.equal(pl.status, 0, pl.stderr);
  t.equal(
    pl.stdout,
    [
      'Profit and loss 2025-04-01 to 2026-03-31',
      'code  account                amount',
      '      Revenue',
      '4000    Sales              1,000.00',
      '      Total revenue        1,000.00',
      '      Cost of sales',
      '5000    Cost of Sales        300.00', // marked isCostOfSales
      '      Total cost of sales    300.00',
      '      Gross profit           700.00', // 1,000.00 − 300.00
      '      Expenses',
      '5200    Rent and Rates       500.00',
      '      Total expenses         500.00', // the overheads: rent alone
      '      Net profit             200.00', // 700.00 − 500.00
      '',
    ].join('\n'),
  );
  t.notMatch(pl.stdout, 'prior', 'no comparative column unless asked');
});

t.test('profit and loss --comparative: a second amount column for the prior period, account by account', async (t) => {
  const b = await books(t);
  const pl = await runCliInProcess(['--data', b.dataDir, 'report', 'profit-loss', ...year, '--comparative']);
  t.equal(pl.status, 0, pl.stderr);
  t.equal(
    pl.stdout,
    [
      'Profit and loss 2025-04-01 to 2026-03-31, beside 2024-04-01 to 2025-03-31',
      'code  account              this period  prior period',
      '      Revenue',
      '4000    Sales                 1,000.00      2,000.00',
      '      Total revenue           1,000.00      2,000.00',
      '      Cost of sales',
      '5000    Cost of Sales           300.00        500.00',
      '      Total cost of sales       300.00        500.00',
      '      Gross profit              700.00      1,500.00', // prior: 2,000.00 − 500.00
      '      Expenses',
      '5100    Office Expenses                        30.00', // stationery, in the prior year only
      '5200    Rent and Rates          500.00        450.00',
      '      Total expenses            500.00        480.00', // prior: 450.00 + 30.00
      '      Net profit                200.00      1,020.00', // prior: 1,500.00 − 480.00
      '',
    ].join('\n'),
  );
  const csv = await runCliInProcess(['--data', b.dataDir, 'report', 'profit-loss', ...year, '--comparative', '--csv']);
  t.match(csv.stdout, 'code,account,this period,prior period\n', 'CSV: the same two columns');
  t.match(csv.stdout, '\n,Net profit,200.00,1020.00\n', 'CSV: plain pounds, no grouping');
  const json = await runCliInProcessJson(['--data', b.dataDir, '--json', 'report', 'profit-loss', ...year, '--comparative']);
  t.match(json.data, { netProfit: 20_000, comparative: { netProfit: 102_000, grossProfit: 150_000, costOfSales: 50_000 } }, "--json: the API's pence");
});

t.test('balance sheet: sections, totals, and each balance with its side', async (t) => {
  const b = await books(t);
  const bs = await runCliInProcess(['--data', b.dataDir, 'report', 'balance-sheet', '--as-of', '2026-03-31']);
  t.equal(bs.status, 0, bs.stderr);
  t.equal(
    bs.stdout,
    [
      'Balance sheet at 2026-03-31',
      'code  account                    balance  Dr/Cr',
      '      Assets',
      '1150    Prepayments             1,200.00  Dr',
      '1200    Bank Account           10,920.00  Dr', // 2,400 − 500 − 450 − 30 + 10,000 − 500
      '      Total assets             12,120.00  Dr',
      '      Liabilities',
      '2150    Accruals                  360.00  Cr',
      '2200    VAT Output                600.00  Cr', // 400 + 200
      '2201    VAT Input                  60.00  Dr', // reclaimable: a debit among the credits
      '      Total liabilities           900.00  Cr', // 360 + 600 − 60
      '      Net assets               11,220.00', // 12,120 − 900
      '      Equity',
      '3000    Share Capital          10,000.00  Cr',
      "        Prior years' earnings   1,020.00  Cr", // the year to 2025-03-31
      '        Current year earnings     200.00  Cr',
      '      Total equity             11,220.00  Cr',
      '',
    ].join('\n'),
  );
  const json = await runCliInProcessJson(['--data', b.dataDir, '--json', 'report', 'balance-sheet', '--as-of', '2026-03-31']);
  t.match(
    json.data,
    { liabilities: { total: 90_000, accounts: [{ code: '2150' }, { code: '2200' }, { code: '2201', balance: -6_000 }] } },
    '--json keeps the sign',
  );
});

t.test('general ledger: balances without their sign, with Dr or Cr', async (t) => {
  const b = await books(t);
  const gl = await runCliInProcess(['--data', b.dataDir, 'report', 'general-ledger', ...year, '--account-id', '2200']);
  t.equal(gl.status, 0, gl.stderr);
  t.equal(
    gl.stdout,
    [
      'General ledger 2025-04-01 to 2026-03-31',
      'account          date        description      reference  debit  credit  balance  Dr/Cr',
      '2200 VAT Output  2025-04-01  Opening balance                             400.00  Cr', // the old sale's VAT
      '2200 VAT Output  2025-06-15  Sale, with VAT               0.00  200.00   600.00  Cr',
      '2200 VAT Output  2026-03-31  Closing balance              0.00  200.00   600.00  Cr',
      '',
    ].join('\n'),
  );
});

t.test('the real bin/acct: --comparative shows two amount columns, piped and on a terminal', async (t) => {
  const b = await books(t);
  const args = ['--data', b.dataDir, 'report', 'profit-loss', ...year, '--comparative'];
  const piped = runCli(args);
  t.equal(piped.status, 0, piped.stderr);
  t.match(piped.stdout, /^code +account +this period +prior period$/m);
  t.match(piped.stdout, /^ +Net profit +200\.00 +1,020\.00$/m);
  const terminal = runCliOnTerminalAt(80, args);
  t.equal(terminal.status, 0, terminal.stdout);
  t.match(terminal.stdout, /^ +Gross profit +700\.00 +1,500\.00$/m, 'the same columns on an 80-column terminal');
});
