/**
 * A fiscal-year export (acct export --from) read by hledger and beancount:
 * the window's income statement must be acct's profit and loss for it, and
 * its balance sheet acct's balance sheet, because the opening entry closes
 * earlier income and expenses into 3100 Retained Earnings. A company whose
 * year starts 04-01, over FY 2024/25, FY 2025/26 and one day of FY 2026/27;
 * every figure is worked out by hand in the comments. hledger and beancount
 * are required: without them these tests fail, they never skip.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { exportJournal } from '../../src/engine/reports/export.js';
import { updateAccount } from '../../src/engine/ledger/account-ops.js';
import { orgOf } from '../../src/engine/operation.js';
import { newBooks, runCliInProcess, runCliInProcessJson, type Books } from '../helpers/index.js';
import { beanQuery, hledgerCsv, pence, requireTools, totalsAndNet } from './ledger-tools.js';

requireTools(t);

async function twoYears(t: Parameters<typeof newBooks>[0]): Promise<Books> {
  const books = await newBooks(t, { organisation: { fiscalYearStart: '04-01' } });
  const post = async (...args: string[]) => {
    const r = await runCliInProcess(['--data', books.dataDir, 'post', ...args]);
    t.equal(r.status, 0, `${args.join(' ')} ${r.stderr}`);
  };
  // FY 2024/25: revenue £2,000.00 + £12.34 = £2,012.34; expenses £700.00 + £600.00 = £1,300.00; profit £712.34.
  await post('2024-04-05', 'Capital', '1200=5000', '3000=-5000');
  await post('2024-06-10', 'Sale', '1200=2400', '4000=-2000', '2200=-400');
  await post('2024-09-01', 'Materials', '5000=700', '2201=140', '1200=-840');
  await post('2025-01-15', 'Rent', '5200=600', '1200=-600');
  await post('2025-03-31', 'Interest, the last day of the year', '1200=12.34', '4200=-12.34');
  // The sale and the materials on credit sit on 1150 and 2150: manual journals may not post to 1100 and 2100, which documents keep.
  // FY 2025/26: revenue £1,500.00; expenses £450.50 + £99.99 + £7.50 = £557.99; profit £942.01.
  await post('2025-04-01', 'Sale, the first day of the year', '1150=1800', '4000=-1500', '2200=-300');
  await post('2025-05-20', 'Materials', '5000=450.50', '2201=90.10', '2150=-540.60');
  await post('2025-08-08', 'Office', '5100=99.99', '1200=-99.99');
  await post('2026-03-31', 'Bank charges', '5800=7.50', '1200=-7.50');
  // FY 2026/27: revenue £100.00.
  await post('2026-04-02', 'Sale', '1200=120', '4000=-100', '2200=-20');
  return books;
}

const row = (rows: string[][], account: string) => pence(rows.find((r) => r[0] === account)?.[1] ?? 'missing');

async function exportTo(t: Parameters<typeof newBooks>[0], books: Books, name: string, args: string[]): Promise<string> {
  const r = await runCliInProcess(['--data', books.dataDir, 'export', ...args]);
  t.equal(r.status, 0, r.stderr);
  const file = path.join(books.dataDir, name);
  fs.writeFileSync(file, r.stdout);
  return file;
}

interface ProfitLoss {
  revenue: { total: number };
  expenses: { total: number };
  grossProfit: number;
  netProfit: number;
}
interface BalanceSheet {
  assets: { total: number };
  liabilities: { total: number };
  equity: { accounts: { code: string | null; name: string; balance: number }[]; total: number };
}
const report = async <T>(books: Books, args: string[]): Promise<T> => {
  const r = await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', ...args]);
  if (r.status !== 0) throw new Error(`report ${args.join(' ')}: ${r.stderr}`);
  return r.data as T;
};

t.test("hledger over FY 2025/26 exported alone: its income statement is acct's P&L, its balance sheet acct's", async (t) => {
  const books = await twoYears(t);
  const file = await exportTo(t, books, 'fy2025.journal', ['--format', 'hledger', '--from', '2025-04-01', '--to', '2026-03-31']);
  const check = spawnSync('hledger', ['-f', file, 'check'], { encoding: 'utf8' });
  t.equal(check.status, 0, `hledger check ${check.stderr}`);
  const opening = fs
    .readFileSync(file, 'utf8')
    .split('\n\n')
    .find((entry) => entry.startsWith('2025-04-01 Opening balances'));
  // 1200: 5,000.00 + 2,400.00 − 840.00 − 600.00 + 12.34 = 5,972.34; 3100: FY 2024/25's profit, £712.34 (a credit).
  // Nothing is reconciled, so neither the entry nor any posting is cleared (*).
  t.equal(
    opening,
    [
      '2025-04-01 Opening balances',
      '    assets:1200 Bank Account  £5972.34',
      '    liabilities:2200 VAT Output  -£400.00',
      '    liabilities:2201 VAT Input  £140.00',
      '    equity:3000 Share Capital  -£5000.00',
      '    equity:3100 Retained Earnings  -£712.34',
    ].join('\n'),
    'no income or expense account opens the year',
  );

  // No -b or -e: everything in the file is the window.
  const is = totalsAndNet(hledgerCsv(file, ['is']));
  t.same(is, [150_000, 55_799, 94_201], "revenue £1,500.00, expenses £557.99, net £942.01 (not FY 2024/25's as well)");
  const pl = await report<ProfitLoss>(books, ['profit-loss', '--from', '2025-04-01', '--to', '2026-03-31']);
  t.same([pl.revenue.total, pl.expenses.total, pl.netProfit], is, "acct's P&L for the window says the same");

  // At 2026-03-31. Assets: 1150 £1,800.00 + 1200 (5,972.34 − 99.99 − 7.50 = £5,864.85) = £7,664.85.
  // Liabilities: 2150 £540.60 + 2200 (400.00 + 300.00 = £700.00) − 2201 (140.00 + 90.10 = £230.10) = £1,010.50.
  // Equity in hledger: 3000 £5,000.00 + 3100 £712.34 = £5,712.34; its Net (A − L − E) is this year's unclosed
  // profit, £942.01. acct's equity: 3000 £5,000.00 + prior years' earnings £712.34 + current year earnings £942.01 = £6,654.35.
  const bse = hledgerCsv(file, ['bse', '-e', '2026-04-01']);
  t.same(totalsAndNet(bse), [766_485, 101_050, 571_234, 94_201]);
  t.equal(row(bse, 'equity:3100 Retained Earnings'), 71_234);
  const bs = await report<BalanceSheet>(books, ['balance-sheet', '--as-of', '2026-03-31']);
  t.same([bs.assets.total, bs.liabilities.total, bs.equity.total], [766_485, 101_050, 665_435]);
  t.equal(bs.equity.total, 571_234 + 94_201, "acct's equity is hledger's equity and the year's profit hledger has not closed");
  t.equal(
    bs.equity.accounts.find((a) => a.name === "Prior years' earnings")?.balance,
    row(bse, 'equity:3100 Retained Earnings'),
    "acct's prior years' earnings are hledger's 3100",
  );

  // A date inside the window agrees too: at 2025-09-30 the unclosed profit is 1,500.00 − 450.50 − 99.99 = £949.51.
  const mid = hledgerCsv(file, ['bse', '-e', '2025-10-01']);
  const midBs = await report<BalanceSheet>(books, ['balance-sheet', '--as-of', '2025-09-30']);
  const [assets, liabilities, equity, unclosed] = totalsAndNet(mid);
  t.equal(unclosed, 94_951);
  t.same([midBs.assets.total, midBs.liabilities.total, midBs.equity.total], [assets, liabilities, (equity ?? 0) + (unclosed ?? 0)]);
});

t.test('hledger with --from and no --to: the window runs to the last transaction', async (t) => {
  const books = await twoYears(t);
  const file = await exportTo(t, books, 'from2025.journal', ['--from', '2025-04-01']);
  t.equal(spawnSync('hledger', ['-f', file, 'check'], { encoding: 'utf8' }).status, 0, 'hledger check');
  // Revenue 1,500.00 + 100.00 = £1,600.00; expenses £557.99; net £1,042.01.
  const is = totalsAndNet(hledgerCsv(file, ['is']));
  t.same(is, [160_000, 55_799, 104_201]);
  const pl = await report<ProfitLoss>(books, ['profit-loss', '--from', '2025-04-01', '--to', '2026-04-02']);
  t.same([pl.revenue.total, pl.expenses.total, pl.netProfit], is);
  // At 2026-04-02. Assets 7,664.85 + 120.00 = £7,784.85; liabilities 1,010.50 + 20.00 = £1,030.50.
  // hledger's equity is still 3000 + 3100 = £5,712.34; acct's is 5,000.00 + prior years' (712.34 + 942.01 = £1,654.35)
  // + current year £100.00 = £6,754.35 = 5,712.34 + the unclosed £1,042.01.
  const bse = totalsAndNet(hledgerCsv(file, ['bse']));
  t.same(bse, [778_485, 103_050, 571_234, 104_201]);
  const bs = await report<BalanceSheet>(books, ['balance-sheet', '--as-of', '2026-04-02']);
  t.same([bs.assets.total, bs.liabilities.total, bs.equity.total], [778_485, 103_050, 675_435]);
});

t.test('beancount over FY 2025/26 exported alone agrees with acct', async (t) => {
  const books = await twoYears(t);
  const file = await exportTo(t, books, 'fy2025.beancount', ['--format', 'beancount', '--from', '2025-04-01', '--to', '2026-03-31']);
  const checked = spawnSync('bean-check', [file], { encoding: 'utf8' });
  t.equal(checked.status, 0, `bean-check ${checked.stderr}`);
  // Signs are beancount's: credits negative. Income −£1,500.00 and expenses £557.99, as in the hledger test;
  // assets £7,664.85, liabilities −£1,010.50, equity −(5,000.00 + 712.34) = −£5,712.34; all sum to 0.
  const byRoot = beanQuery(file, 'SELECT root(account, 1) AS root, sum(number) AS total GROUP BY root');
  t.same(byRoot, { Assets: 766_485, Equity: -571_234, Expenses: 55_799, Income: -150_000, Liabilities: -101_050 });
  const pl = await report<ProfitLoss>(books, ['profit-loss', '--from', '2025-04-01', '--to', '2026-03-31']);
  t.same([-(byRoot['Income'] ?? 0), byRoot['Expenses']], [pl.revenue.total, pl.expenses.total]);
  const equity = beanQuery(file, "SELECT account, sum(number) AS total WHERE account ~ '^Equity:' GROUP BY account");
  t.same(equity, { 'Equity:3000-Share-Capital': -500_000, 'Equity:3100-Retained-Earnings': -71_234 });

  const from = await exportTo(t, books, 'from2025.beancount', ['--format', 'beancount', '--from', '2025-04-01']);
  t.equal(spawnSync('bean-check', [from], { encoding: 'utf8' }).status, 0, 'bean-check, --from alone');
  // With 2026-04-02's sale: income −(1,500.00 + 100.00) = −£1,600.00.
  t.same(beanQuery(from, "SELECT root(account, 1) AS root, sum(number) AS total WHERE account ~ '^(Income|Expenses):' GROUP BY root"), {
    Expenses: 55_799,
    Income: -160_000,
  });
});

t.test('the retained earnings account: used while inactive; a synthetic equity account when there is none', async (t) => {
  const books = await twoYears(t);
  const ctx = books.ctx();
  const db = orgOf(ctx).db;
  const text = async (format: 'hledger' | 'beancount') => {
    const out: string[] = [];
    await exportJournal(db, format, { from: '2025-04-01' }, (s) => out.push(s));
    return out.join('');
  };
  const retained = await db.selectFrom('accounts').select('id').where('code', '=', '3100').executeTakeFirstOrThrow();
  await updateAccount.run(ctx, { id: retained.id, isActive: false });
  t.match(await text('hledger'), '    equity:3100 Retained Earnings  -£712.34\n', 'an inactive 3100 still takes the closed earnings');

  await db.deleteFrom('accounts').where('id', '=', retained.id).execute();
  const hledgerText = await text('hledger');
  t.match(hledgerText, 'account equity:Retained Earnings  ; type:E\n');
  t.match(hledgerText, '    equity:Retained Earnings  -£712.34\n');
  const file = path.join(books.dataDir, 'no3100.journal');
  fs.writeFileSync(file, hledgerText);
  t.same(totalsAndNet(hledgerCsv(file, ['is'])), [160_000, 55_799, 104_201], 'the window still closes');
  const beanFile = path.join(books.dataDir, 'no3100.beancount');
  fs.writeFileSync(beanFile, await text('beancount'));
  t.equal(spawnSync('bean-check', [beanFile], { encoding: 'utf8' }).status, 0, 'bean-check');
  t.same(beanQuery(beanFile, "SELECT account, sum(number) AS total WHERE account ~ '^Equity:' GROUP BY account"), {
    'Equity:3000-Share-Capital': -500_000,
    'Equity:Retained-Earnings': -71_234,
  });
});
