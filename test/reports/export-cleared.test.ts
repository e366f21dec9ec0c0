/**
 * hledger's cleared mark (*) is what the bank has confirmed: acct export
 * --format hledger marks the reconciled transactions (and the opening
 * balances) and leaves the others unmarked, so that hledger bal -C gives
 * the reconciled balance acct's bank reconciliation works from.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { hledgerBalances, requireTools } from './ledger-tools.js';

t.test('reconciled transactions are cleared (*) in the hledger export; the others are not', async (t) => {
  if (!requireTools(t)) return;
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const posted: string[] = [];
  for (const [date, description, ...lines] of [
    ['2026-05-01', 'Capital', '1200=1000', '3000=-1000'],
    ['2026-05-02', 'Stationery', '5100=40', '1200=-40'],
    ['2026-05-03', 'Rent', '5200=300', '1200=-300'],
  ] as const) {
    const r = await runCliInProcessJson(['--data', books.dataDir, '--json', 'post', date, description, ...lines]);
    posted.push((r.data as { id: string }).id);
  }
  // The bank has shown the capital and the stationery, not yet the rent.
  for (const id of posted.slice(0, 2)) {
    t.equal((await runCliInProcess(['--data', books.dataDir, 'transactions', 'reconcile', id, '--reconciled'])).status, 0);
  }
  const journal = await runCliInProcess(['--data', books.dataDir, 'export', '--format', 'hledger']);
  t.equal(journal.status, 0, journal.stderr);
  t.match(journal.stdout, /^2026-05-01 \* Capital/m);
  t.match(journal.stdout, /^2026-05-02 \* Stationery/m);
  t.match(journal.stdout, /^2026-05-03 Rent/m, 'the rent is not cleared');
  const file = path.join(t.testdir(), 'books.journal');
  fs.writeFileSync(file, journal.stdout);
  // Cleared: 1,000.00 − 40.00 = 960.00 in the bank; all of it: 960.00 − 300.00 = 660.00.
  t.equal(hledgerBalances(file, ['-C'])['1200'], 96_000, 'hledger bal -C: the reconciled balance');
  t.equal(hledgerBalances(file, [])['1200'], 66_000, 'hledger bal: every posted line');
});
