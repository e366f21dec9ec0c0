/**
 * acct's reports against hledger, an independent implementation: seeded
 * random ledgers (all account types, several years, drafts mixed in) are
 * loaded with acct import journal, exported with acct export, and hledger's
 * balances, balance sheet and income statement must equal acct's to the penny.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { addDays } from '../../src/engine/dates.js';
import { newBooks, runCli, runCliJson } from '../helpers/index.js';

const hledger = spawnSync('hledger', ['--version'], { encoding: 'utf8' });
const available = hledger.status === 0;
if (!available) console.log('# SKIP hledger differential test: hledger is not installed (apt-get install -y hledger)');
const beancount = spawnSync('bean-check', ['--version'], { encoding: 'utf8' }).status === 0;
if (!beancount) console.log('# SKIP beancount check: beancount is not installed (apt-get install -y beancount)');

function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// Accounts of every type in the provisioned company chart.
const codes = ['1010', '1100', '1200', '1210', '1300', '9999', '2100', '2200', '2201', '2400', '2600', '3000', '3200', '4000', '4100', '4200', '5000', '5100', '5200', '5950'];

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

const pence = (text: string): number => {
  const m = /^(-)?£(-)?([\d,]+)\.(\d\d)$/.exec(text.trim());
  if (!m) throw new Error(`not an amount: ${text}`);
  const value = Number((m[3] ?? '').replaceAll(',', '')) * 100 + Number(m[4]);
  return m[1] || m[2] ? -value : value;
};

function csv(args: string[], journal: string): string[][] {
  const r = spawnSync('hledger', ['-f', journal, ...args, '-O', 'csv'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hledger ${args.join(' ')}: ${r.stderr}`);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? ''));
}

/** The total rows of hledger's bs or is, in section order. */
const totals = (rows: string[][]) => rows.filter((r) => r[0] === 'total').map((r) => pence(r[1] ?? ''));
const net = (rows: string[][]) => pence(rows.find((r) => r[0] === 'Net:')?.[1] ?? '');

for (const seed of [1, 2]) {
  t.test(`random ledger ${seed}: hledger agrees with acct to the penny`, { skip: available ? false : 'hledger is not installed' }, async (t) => {
    const books = await newBooks(t);
    const journalFile = path.join(books.dataDir, 'random.jsonl');
    fs.writeFileSync(journalFile, randomJournal(seed, 400));
    const imported = runCli(['--data', books.dataDir, 'import', 'journal', journalFile]);
    t.equal(imported.status, 0, imported.stderr);
    const exported = runCli(['--data', books.dataDir, 'export', '--format', 'hledger']);
    t.equal(exported.status, 0, exported.stderr);
    const ledgerFile = path.join(books.dataDir, 'books.journal');
    fs.writeFileSync(ledgerFile, exported.stdout);
    const check = spawnSync('hledger', ['-f', ledgerFile, 'check'], { encoding: 'utf8' });
    t.equal(check.status, 0, `hledger reads the export without error ${check.stderr}`);

    for (const asOf of ['2022-03-31', '2024-09-30', '2026-12-31']) {
      const tb = runCliJson(['--data', books.dataDir, '--json', 'report', 'trial-balance', '--as-of', asOf]).data as {
        accounts: { code: string; debit: number; credit: number }[];
        balanced: boolean;
      };
      t.equal(tb.balanced, true, `trial balance at ${asOf} balances`);
      const ours = new Map(tb.accounts.map((a) => [a.code, a.debit - a.credit]));
      const theirs = new Map(
        csv(['bal', '--flat', '-N', '-e', addDays(asOf, 1)], ledgerFile)
          .slice(1)
          .map(([account, amount]) => [(account ?? '').split(':')[1]?.split(' ')[0] ?? '', pence(amount ?? '')]),
      );
      t.same(Object.fromEntries(theirs), Object.fromEntries(ours), `every account's balance at ${asOf}`);

      const bs = runCliJson(['--data', books.dataDir, '--json', 'report', 'balance-sheet', '--as-of', asOf]).data as {
        assets: { total: number };
        liabilities: { total: number };
        netAssets: number;
        checksum: boolean;
      };
      const hbs = csv(['bs', '-e', addDays(asOf, 1)], ledgerFile);
      t.same([bs.assets.total, bs.liabilities.total, bs.netAssets, bs.checksum], [...totals(hbs), net(hbs), true], `balance sheet at ${asOf}`);
    }

    if (beancount) {
      const bean = runCli(['--data', books.dataDir, 'export', '--format', 'beancount']);
      const beanFile = path.join(books.dataDir, 'books.beancount');
      fs.writeFileSync(beanFile, bean.stdout);
      const checked = spawnSync('bean-check', [beanFile], { encoding: 'utf8' });
      t.equal(checked.status, 0, `bean-check reads the beancount export without error ${checked.stderr}`);
      const query = spawnSync('bean-query', ['-f', 'csv', beanFile, 'SELECT account, sum(number) AS total GROUP BY account'], { encoding: 'utf8' });
      const beanTotals = Object.fromEntries(
        query.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((row) => row.split(','))
          .map(([account, total]) => [(account ?? '').trim().split(':')[1]?.split('-')[0] ?? '', Math.round(Number((total ?? '').trim()) * 100)])
          .filter(([, total]) => total !== 0),
      );
      const tb = runCliJson(['--data', books.dataDir, '--json', 'report', 'trial-balance', '--as-of', '2099-12-31']).data as { accounts: { code: string; debit: number; credit: number }[] };
      t.same(beanTotals, Object.fromEntries(tb.accounts.map((a) => [a.code, a.debit - a.credit])), 'beancount agrees on every balance');
    }

    for (const [from, to] of [
      ['2021-04-01', '2022-03-31'],
      ['2023-01-01', '2025-06-30'],
    ] as const) {
      const pl = runCliJson(['--data', books.dataDir, '--json', 'report', 'profit-loss', '--from', from, '--to', to]).data as {
        revenue: { total: number };
        expenses: { total: number };
        netProfit: number;
      };
      const his = csv(['is', '-b', from, '-e', addDays(to, 1)], ledgerFile);
      t.same([pl.revenue.total, pl.expenses.total, pl.netProfit], [...totals(his), net(his)], `income statement ${from} to ${to}`);
    }
  });
}
