/**
 * acct's reports against hledger, an independent implementation: seeded
 * random ledgers (all account types, several years, drafts mixed in) are
 * loaded with acct import journal, exported with acct export, and hledger's
 * balances, balance sheet and income statement must equal acct's to the
 * penny, as must beancount's balances. Without hledger or beancount this
 * test fails; it never skips.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { addDays } from '../../src/engine/dates.js';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
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
import { journalAccounts, seeded } from './seeded-books.js';

requireTools(t);

// Accounts of every type in the provisioned company chart, control accounts included.
const codes = journalAccounts;

function randomJournal(seed: number, count: number): string {
  const random = seeded(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 2 + Math.floor(random() * 4);
    const amounts = Array.from({ length: n - 1 }, () => Math.round((random() - 0.5) * 2_000_000) || 1);
    amounts.push(-amounts.reduce((s, a) => s + a, 0));
    if (amounts[n - 1] === 0) {
      // The others summed to 0: move 7p between the first line and the last so no line is zero.
      amounts[0] = (amounts[0] ?? 0) + 7;
      amounts[n - 1] = -7;
    }
    const day = Math.floor(random() * 5 * 365);
    const date = addDays('2021-04-01', day);
    out.push(
      JSON.stringify({
        date,
        description: `Entry ${i}: a; b: c`,
        status: random() < 0.12 ? 'draft' : 'posted',
        lines: amounts.map((amount) => ({ accountCode: codes[Math.floor(random() * codes.length)], amount })),
      }),
    );
  }
  return `${out.join('\n')}\n`;
}

for (const seed of [1, 2]) {
  t.test(`random ledger ${seed}: hledger and beancount agree with acct to the penny`, async (t) => {
    const books = await newBooks(t);
    const journalFile = path.join(books.dataDir, 'random.jsonl');
    fs.writeFileSync(journalFile, randomJournal(seed, 400));
    const imported = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', journalFile]);
    t.equal(imported.status, 0, imported.stderr);
    const exported = await runCliInProcess(['--data', books.dataDir, 'export', '--format', 'hledger']);
    t.equal(exported.status, 0, exported.stderr);
    const ledgerFile = path.join(books.dataDir, 'books.journal');
    fs.writeFileSync(ledgerFile, exported.stdout);
    t.equal(hledgerCheck(ledgerFile), null, 'hledger reads the export without error');

    for (const asOf of ['2022-03-31', '2024-09-30', '2026-12-31']) {
      const tb = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', 'trial-balance', '--as-of', asOf])).data as {
        accounts: { code: string; debit: number; credit: number }[];
        balanced: boolean;
      };
      t.equal(tb.balanced, true, `trial balance at ${asOf} balances`);
      const ours = Object.fromEntries(tb.accounts.map((a) => [a.code, a.debit - a.credit]));
      const yearStart = yearStartOf(asOf);
      t.same(
        yearToDate(hledgerBalances(ledgerFile, ['-e', addDays(asOf, 1)]), hledgerBalances(ledgerFile, ['-e', yearStart])),
        ours,
        `every account's balance at ${asOf}, income and expenses from ${yearStart}`,
      );
      // The export from the year's first day closes the years before into 3100: hledger's balances over it are the trial balance.
      const window = await runCliInProcess(['--data', books.dataDir, 'export', '--format', 'hledger', '--from', yearStart]);
      t.equal(window.status, 0, window.stderr);
      const windowFile = path.join(books.dataDir, `from-${yearStart}.journal`);
      fs.writeFileSync(windowFile, window.stdout);
      t.same(hledgerBalances(windowFile, ['-e', addDays(asOf, 1)]), ours, `hledger over the export from ${yearStart}: every account at ${asOf}`);

      const bs = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', 'balance-sheet', '--as-of', asOf])).data as {
        assets: { total: number };
        liabilities: { total: number };
        netAssets: number;
        checksum: boolean;
      };
      const hbs = totalsAndNet(hledgerCsv(ledgerFile, ['bs', '-e', addDays(asOf, 1)]));
      t.same([bs.assets.total, bs.liabilities.total, bs.netAssets, bs.checksum], [...hbs, true], `balance sheet at ${asOf}`);
    }

    const bean = await runCliInProcess(['--data', books.dataDir, 'export', '--format', 'beancount']);
    t.equal(bean.status, 0, bean.stderr);
    const beanFile = path.join(books.dataDir, 'books.beancount');
    fs.writeFileSync(beanFile, bean.stdout);
    t.equal(beanCheck(beanFile), null, 'bean-check reads the beancount export without error');
    const beanTotals = Object.fromEntries(
      Object.entries(beanQuery(beanFile, 'SELECT account, sum(number) AS total GROUP BY account')).map(([account, total]) => [codeOf(account), total]),
    );
    const tb = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', 'trial-balance', '--as-of', '2099-12-31'])).data as {
      accounts: { code: string; debit: number; credit: number }[];
    };
    const beanBefore = Object.fromEntries(
      Object.entries(beanQuery(beanFile, 'SELECT account, sum(number) AS total WHERE date < 2099-04-01 GROUP BY account')).map(([account, total]) => [
        codeOf(account),
        total,
      ]),
    );
    t.same(yearToDate(beanTotals, beanBefore), Object.fromEntries(tb.accounts.map((a) => [a.code, a.debit - a.credit])), 'beancount agrees on every balance');

    for (const [from, to] of [
      ['2021-04-01', '2022-03-31'],
      ['2023-01-01', '2025-06-30'],
    ] as const) {
      const pl = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', 'profit-loss', '--from', from, '--to', to])).data as {
        revenue: { total: number };
        expenses: { total: number };
        netProfit: number;
      };
      const his = totalsAndNet(hledgerCsv(ledgerFile, ['is', '-b', from, '-e', addDays(to, 1)]));
      t.same([pl.revenue.total, pl.expenses.total, pl.netProfit], his, `income statement ${from} to ${to}`);
    }
  });
}
