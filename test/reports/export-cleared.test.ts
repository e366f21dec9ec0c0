/**
 * hledger's cleared mark (*) is what the bank has confirmed: acct export
 * --format hledger marks the reconciled transactions (and, in the opening
 * balances of an export --from a date, the reconciled part of each) and
 * leaves the others unmarked, so that hledger bal -C gives the reconciled
 * balance acct's bank reconciliation works from.
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
  // Beside the books (a second t.testdir() would empty the directory they live in).
  const file = path.join(books.dataDir, 'books.journal');
  fs.writeFileSync(file, journal.stdout);
  // Cleared: 1,000.00 − 40.00 = 960.00 in the bank; all of it: 960.00 − 300.00 = 660.00.
  t.equal(hledgerBalances(file, ['-C'])['1200'], 96_000, 'hledger bal -C: the reconciled balance');
  t.equal(hledgerBalances(file, [])['1200'], 66_000, 'hledger bal: every posted line');

  // Bank lines whose descriptions begin as a status mark or a code would: not reconciled, and not read as cleared.
  for (const [description, amount] of [
    ['* AMAZON PRIME', '8.99'],
    ['! ALERT FEE', '2.00'],
    ['(1234) CHEQUE', '1.00'],
  ] as const) {
    const r = await runCliInProcess(['--data', books.dataDir, 'post', '2026-05-04', description, `5100=${amount}`, `1200=-${amount}`]);
    t.equal(r.status, 0, r.stderr);
  }
  const marked = await runCliInProcess(['--data', books.dataDir, 'export', '--format', 'hledger']);
  t.match(marked.stdout, /^2026-05-04 \(\) \* AMAZON PRIME/m, 'an empty code keeps the * part of the description');
  fs.writeFileSync(file, marked.stdout);
  t.equal(hledgerBalances(file, ['-C'])['1200'], 96_000, 'hledger bal -C: still the reconciled 960.00');
  // 660.00 − 8.99 − 2.00 − 1.00 = 648.01
  t.equal(hledgerBalances(file, [])['1200'], 64_801);

  // From 4 May: the opening balance of 1200 is 660.00, of which 960.00 reconciled and −300.00 (the rent) not.
  const from = await runCliInProcess(['--data', books.dataDir, 'export', '--format', 'hledger', '--from', '2026-05-04']);
  t.equal(from.status, 0, from.stderr);
  t.match(from.stdout, /^2026-05-04 Opening balances$/m, 'the opening entry is not cleared as a whole');
  fs.writeFileSync(file, from.stdout);
  t.equal(hledgerBalances(file, ['-C'])['1200'], 96_000, 'hledger bal -C from 4 May: the same reconciled 960.00');
  t.equal(hledgerBalances(file, [])['1200'], 64_801, 'hledger bal from 4 May: the same 648.01');
});
