/**
 * acct export names every acct account once and the tools read back what
 * acct holds: beancount gets one distinct, valid account name per account
 * (codes that differ only in punctuation or case, a code starting with a
 * lowercase letter, accented names), and hledger reads a reference with a
 * comma and a description with a | whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { beanCheck, beanQuery, hledgerCheck, requireTools } from './ledger-tools.js';
import { spawnSync } from 'node:child_process';

const cli = async (dataDir: string, ...args: string[]) => {
  const r = await runCliInProcess(['--data', dataDir, ...args]);
  if (r.status !== 0) throw new Error(`acct ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

t.test('beancount: every account its own valid name, balances as the trial balance', async (t) => {
  if (!requireTools(t)) return;
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { name: 'Bean Ltd', vatScheme: 'not_registered' } });
  for (const [code, name] of [
    ['5.1', 'Fees'],
    ['5-1', 'Fees'],
    ['5_1', 'Fees'],
    ['mkt', 'Marketing'],
    ['Mkt', 'Marketing'],
    ['5180', 'Ünïcode 日本'],
    ['9', '!!'],
  ] as const) {
    await cli(books.dataDir, 'accounts', 'create', '--code', code, '--name', name, '--account-type', 'expense');
  }
  // The bank pays it all: 1 + 2 + 4 + 3 + 5 + 0.50 + 0.25 = 15.75.
  await cli(books.dataDir, 'post', '2026-11-03', 'fees', '5.1=1', '5-1=2', '5_1=4', 'mkt=3', 'Mkt=5', '5180=0.50', '9=0.25', '1200=-15.75');

  const bean = await cli(books.dataDir, 'export', '--format', 'beancount');
  const file = path.join(books.dataDir, 'books.beancount');
  fs.writeFileSync(file, bean);
  t.equal(beanCheck(file), null, 'bean-check reads the export without error');

  const opened = [...bean.matchAll(/^\S+ open (\S+) GBP$/gm)].map((m) => m[1] as string);
  t.equal(new Set(opened).size, opened.length, 'no account is opened twice');
  // Codes in plain order ("-" < "." < "_"): the first of a clash keeps the documented Type:CODE-Name form, the rest -2, -3.
  const names: Record<string, string> = {
    '5-1': 'Expenses:5-1-Fees',
    '5.1': 'Expenses:5-1-Fees-2',
    '5_1': 'Expenses:5-1-Fees-3',
    Mkt: 'Expenses:Mkt-Marketing',
    mkt: 'Expenses:Mkt-Marketing-2',
    '5180': 'Expenses:5180-Unicode',
    '9': 'Expenses:9',
    '1200': 'Assets:1200-Bank-Account',
  };
  for (const name of Object.values(names)) t.ok(opened.includes(name), `${name} is opened`);

  const tb = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'report', 'trial-balance', '--as-of', '2026-11-30'])).data as {
    accounts: { code: string; debit: number; credit: number }[];
  };
  const ours = Object.fromEntries(tb.accounts.map((a) => [names[a.code] ?? a.code, a.debit - a.credit]));
  t.same(ours, {
    'Expenses:5-1-Fees': 200,
    'Expenses:5-1-Fees-2': 100,
    'Expenses:5-1-Fees-3': 400,
    'Expenses:Mkt-Marketing': 500,
    'Expenses:Mkt-Marketing-2': 300,
    'Expenses:5180-Unicode': 50,
    'Expenses:9': 25,
    'Assets:1200-Bank-Account': -1575,
  });
  t.same(beanQuery(file, 'SELECT account, sum(number) AS total GROUP BY account'), ours, "beancount's balances are the trial balance's");

  // hledger names carry the code whole, so they never clashed; they still read back per account.
  const journal = await cli(books.dataDir, 'export', '--format', 'hledger');
  const hfile = path.join(books.dataDir, 'books.journal');
  fs.writeFileSync(hfile, journal);
  t.equal(hledgerCheck(hfile), null);
  t.equal(new Set([...journal.matchAll(/^account (.+?)  ;/gm)].map((m) => m[1])).size, [...journal.matchAll(/^account /gm)].length);
});

t.test('hledger: a reference with a comma and a description with a | read back whole', async (t) => {
  if (!requireTools(t)) return;
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { vatScheme: 'not_registered' } });
  await cli(books.dataDir, 'post', '2026-11-03', 'Acme | Widgets: March', '5100=12', '1200=-12', '--reference', 'R,1"2 x:y;z');
  const journal = await cli(books.dataDir, 'export', '--format', 'hledger');
  const file = path.join(books.dataDir, 'books.journal');
  fs.writeFileSync(file, journal);
  t.equal(hledgerCheck(file), null);
  const hledger = (...args: string[]) => spawnSync('hledger', ['-f', file, ...args], { encoding: 'utf8' }).stdout.trim();
  // hledger ends a tag value at a comma and has no escape for one: the comma is written as ‚ (U+201A), which looks the same.
  t.same(hledger('tags', 'ref', '--values').split('\n'), ['R‚1"2 x:y;z'], 'the whole reference is the ref tag');
  // A | would split the description into payee "Acme" and a note: it is written as ¦.
  t.same(hledger('payees').split('\n'), ['Acme ¦ Widgets: March'], 'the whole description is the payee');
  t.same(hledger('descriptions').split('\n'), ['Acme ¦ Widgets: March']);
});
