// test-order: first (most of a minute: hledger and beancount over five seeded years)
/**
 * acct against hledger and beancount, over seeded books that hold sales and
 * purchases (seeded-books.ts: invoices and bills at every VAT rate, drafts,
 * voids, payments and removed payments, credit notes of whole documents,
 * chosen lines and amounts, allocations, refunds and their removal, manual
 * journals) over five fiscal years starting 04-01. Three views of each
 * ledger must agree to the penny: acct's own reports; hledger and beancount
 * over acct's exports (the whole ledger, and fiscal-year windows exported
 * with --from, whose opening entry closes earlier profit into 3100); and
 * hledger and beancount over a journal written from the generator's own
 * records (model-journal.ts), which owes nothing to acct's code.
 * Without hledger or beancount this test fails; it never skips. Other
 * seeds: ACCT_DIFFERENTIAL_SEEDS=4,5,6 npx tap <this file>.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { addDays } from '../../src/engine/dates.js';
import { newBooks, runCliInProcess, type Books } from '../helpers/index.js';
import {
  beanCheck,
  beanQuery,
  codeOf,
  hledgerBalances,
  hledgerCheck,
  hledgerCsv,
  requireTools,
  totalsAndNet,
  yearStartOf,
  yearToDate,
} from './ledger-tools.js';
import { call, seedBooks } from './seeded-books.js';
import { beancountFile, hledgerJournal, modelEntries } from './model-journal.js';
import type { Ctx } from '../../src/engine/operation.js';

requireTools(t);

/** The clock stands after the last fiscal year the books fill (FY 2021/22 to FY 2025/26). */
const clock = '2026-06-30T10:00:00Z';

async function exported(t: Test, books: Books, name: string, args: readonly string[]): Promise<string> {
  const r = await runCliInProcess(['--data', books.dataDir, 'export', ...args]);
  t.equal(r.status, 0, `acct export ${args.join(' ')} ${r.stderr}`);
  const file = path.join(books.dataDir, name);
  fs.writeFileSync(file, r.stdout);
  return file;
}

/** acct's trial balance as debit − credit by code. */
async function trialBalance(t: Test, ctx: Ctx, asOf: string): Promise<Record<string, number>> {
  const tb = await call(ctx, 'reports.trial-balance', {}, undefined, { asOf });
  t.equal(tb.balanced, true, `acct's trial balance at ${asOf} balances`);
  return Object.fromEntries((tb.accounts as { code: string; debit: number; credit: number }[]).map((a) => [a.code, a.debit - a.credit]));
}

const byCode = (sums: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(sums).map(([account, total]) => [codeOf(account), total]));
const allAccounts = 'SELECT account, sum(number) AS total';
const byRoot = 'SELECT root(account, 1) AS root, sum(number) AS total';

const seeds = (process.env['ACCT_DIFFERENTIAL_SEEDS'] ?? '1,2,3').split(',').map(Number);

for (const seed of seeds) {
  t.test(`seeded books ${seed}: acct, hledger and beancount agree to the penny over acct's exports and the model's journal`, async (t) => {
    const started = Date.now();
    const books = await newBooks(t, { clock, organisation: { fiscalYearStart: '04-01' } });
    const ctx = books.ctx();
    const seeded = await seedBooks(ctx, seed, { start: '2021-04-01', end: '2026-03-31' });
    t.comment(`seed ${seed}: ${JSON.stringify(seeded.tally)}`);
    const tally = seeded.tally;
    for (const what of [
      'sales payment removed',
      'purchase payment removed',
      'sales refund',
      'purchase refund',
      'sales credit note amount',
      'sales credit note lines',
      'sales credit note whole',
      'sales allocation',
    ]) {
      t.ok((tally[what] ?? 0) > 0, `the books hold some of: ${what}`);
    }

    const entries = modelEntries(seeded.records);
    const model = path.join(books.dataDir, 'model.journal');
    fs.writeFileSync(model, hledgerJournal(entries));
    const modelBean = path.join(books.dataDir, 'model.beancount');
    fs.writeFileSync(modelBean, beancountFile(entries));
    const full = await exported(t, books, 'books.journal', ['--format', 'hledger']);
    const fullBean = await exported(t, books, 'books.beancount', ['--format', 'beancount']);
    t.same(
      [hledgerCheck(full), hledgerCheck(model), beanCheck(fullBean), beanCheck(modelBean)],
      [null, null, null, null],
      'hledger and bean-check read all four files without error',
    );

    for (const asOf of ['2022-03-31', '2023-10-15', '2025-03-31', seeded.last]) {
      const acct = await trialBalance(t, ctx, asOf);
      const end = ['-e', addDays(asOf, 1)];
      const before = ['-e', yearStartOf(asOf)];
      t.same(yearToDate(hledgerBalances(full, end), hledgerBalances(full, before)), acct, `hledger over acct's export: every account at ${asOf}`);
      t.same(yearToDate(hledgerBalances(model, end), hledgerBalances(model, before)), acct, `hledger over the model's journal: every account at ${asOf}`);
      const bs = await call(ctx, 'reports.balance-sheet', {}, undefined, { asOf });
      const ours = [bs.assets.total, bs.liabilities.total, bs.netAssets];
      t.same(totalsAndNet(hledgerCsv(full, ['bs', ...end])), ours, `hledger's balance sheet over acct's export at ${asOf}`);
      t.same(totalsAndNet(hledgerCsv(model, ['bs', ...end])), ours, `hledger's balance sheet over the model's journal at ${asOf}`);
    }
    for (const asOf of ['2023-10-15', seeded.last]) {
      const acct = await trialBalance(t, ctx, asOf);
      const where = ` WHERE date <= ${asOf} GROUP BY account`;
      const before = ` WHERE date < ${yearStartOf(asOf)} GROUP BY account`;
      const beancount = (file: string) => yearToDate(byCode(beanQuery(file, allAccounts + where)), byCode(beanQuery(file, allAccounts + before)));
      t.same(beancount(fullBean), acct, `beancount over acct's export: every account at ${asOf}`);
      t.same(beancount(modelBean), acct, `beancount over the model's file: every account at ${asOf}`);
    }

    // Fiscal-year windows: one with --to, one running to the last transaction.
    for (const [from, to] of [
      ['2022-04-01', '2023-03-31'],
      ['2024-04-01', null],
    ] as const) {
      const last = to ?? seeded.last;
      const window = to ? ['--from', from, '--to', to] : ['--from', from];
      const name = `fy${from.slice(0, 4)}`;
      const journal = await exported(t, books, `${name}.journal`, ['--format', 'hledger', ...window]);
      const bean = await exported(t, books, `${name}.beancount`, ['--format', 'beancount', ...window]);
      t.same([hledgerCheck(journal), beanCheck(bean)], [null, null], `hledger and bean-check read the window from ${from}`);

      const pl = await call(ctx, 'reports.profit-loss', {}, undefined, { from, to: last });
      const ours = [pl.revenue.total, pl.expenses.total, pl.netProfit];
      t.same(totalsAndNet(hledgerCsv(journal, ['is'])), ours, `hledger's income statement over acct's export from ${from} is acct's P&L to ${last}`);
      t.same(
        totalsAndNet(hledgerCsv(model, ['is', '-b', from, '-e', addDays(last, 1)])),
        ours,
        `hledger's income statement over the model's journal, ${from} to ${last}`,
      );
      const inWindow = ` WHERE date >= ${from} AND date <= ${last} GROUP BY root`;
      const modelRoots = beanQuery(modelBean, byRoot + inWindow);
      t.same(
        [-(modelRoots['Income'] ?? 0), modelRoots['Expenses'] ?? 0],
        [pl.revenue.total, pl.expenses.total],
        `beancount over the model's file: income and expenses, ${from} to ${last}`,
      );

      // The window's balance sheet: hledger's equity is 3000, 3200 and 3100 with earlier profit closed into it; its Net is the window's profit,
      // which acct shows inside equity as current (and, past the window's first year, prior) years' earnings.
      const bs = await call(ctx, 'reports.balance-sheet', {}, undefined, { asOf: last });
      const [assets, liabilities, equity, unclosed] = totalsAndNet(hledgerCsv(journal, ['bse']));
      t.same(
        [assets, liabilities, (equity ?? 0) + (unclosed ?? 0)],
        [bs.assets.total, bs.liabilities.total, bs.equity.total],
        `hledger's balance sheet over the window from ${from} at ${last}`,
      );
      const roots = beanQuery(bean, `${byRoot} GROUP BY root`);
      t.same(
        [roots['Assets'] ?? 0, -(roots['Liabilities'] ?? 0), -(roots['Income'] ?? 0), roots['Expenses'] ?? 0],
        [bs.assets.total, bs.liabilities.total, pl.revenue.total, pl.expenses.total],
        `beancount over the window from ${from}: assets and liabilities at ${last}, income and expenses of the window`,
      );
    }
    t.comment(`seed ${seed}: ${seeded.records.length} operations recorded, ${entries.length} entries in the model's journal, ${Date.now() - started} ms`);
  });
}
