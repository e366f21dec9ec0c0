/**
 * A journal import on PostgreSQL updates the rows its triggers keep
 * (row_counts, ledger_totals, account_days) once a statement, not once a
 * transaction or a line. Each update of a row inside the import's one open
 * transaction leaves a version of it that cannot be pruned before the
 * commit, and the next update walks them all: once a transaction made an
 * import of n transactions cost n² (10,000 in 8.6 s, 20,000 in 32 s, while
 * it held the organisation's write lock). The versions show in the size of
 * the table, which no vacuum gives back while the newest is in its last
 * page: 1,000 versions of ledger_totals' one row fill 6 pages of 8 kB.
 * The totals the triggers keep stay exact, through the import and its undo.
 *
 *   ACCT_TEST_DATABASE_URL=postgres://acct@127.0.0.1:55432/postgres npx tap test/store-postgres/bulk-import.test.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import t from 'tap';
import { newBooks, runCliInProcess, testDatabaseUrl } from '../helpers/index.js';

const base = testDatabaseUrl();
const skip = base === undefined ? 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass)' : false;

const entries = 1000;

t.test('a journal of 1,000 transactions updates the kept totals once a statement, and they stay exact', { skip }, async (t) => {
  const books = await newBooks(t, { organisation: { name: 'Imp Ltd', businessType: 'limited_company' } });

  // Entry i: 5100 Dr 100 + i pence, 1200 Cr the same, dated 2026-10-(i mod 28 + 1).
  const file = path.join(books.dataDir, 'journal.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < entries; i++) {
    const date = `2026-10-${String((i % 28) + 1).padStart(2, '0')}`;
    lines.push(
      JSON.stringify({
        date,
        description: `Imp ${i}`,
        lines: [
          { accountCode: '5100', amount: 100 + i },
          { accountCode: '1200', amount: -100 - i },
        ],
      }),
    );
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const cli = ['--data', books.dataDir, '--org', books.organisationId];
  const imported = await runCliInProcess([...cli, 'import', 'journal', file]);
  t.equal(imported.status, 0, imported.stderr);
  const importId = /dimp_[0-9a-z]+/.exec(imported.stdout)?.[0];
  t.ok(importId, imported.stdout);

  const db = books.store.org(books.organisationId, 'live').db;
  const one = async (query: string): Promise<Record<string, unknown>> => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows[0]!;

  // Σ(100 + i) for i = 0 … 999 = 1,000 × 100 + 999 × 1,000 / 2 = 100,000 + 499,500 = 599,500 pence.
  t.same(await one(`select n::int from row_counts where table_name = 'transactions'`), { n: 1000 }, 'row_counts: 1,000 transactions');
  t.same(await one(`select total_debit::int from ledger_totals`), { total_debit: 599_500 }, 'ledger_totals: £5,995.00 of debits');
  t.same(
    await one(`select sum(debit)::int as debit, sum(credit)::int as credit, count(*)::int as days from account_days`),
    { debit: 599_500, credit: 599_500, days: 56 },
    'account_days: both sides £5,995.00 over 28 days of 2 accounts',
  );
  // 2026-10-01 holds i = 0, 28, …, 980 (36 entries): 36 × 100 + 28 × (0 + 1 + … + 35) = 3,600 + 28 × 630 = 21,240 pence.
  t.same(
    await one(`select d.debit::int, d.credit::int from account_days d join accounts a on a.id = d.account_id where a.code = '5100' and d.date = '2026-10-01'`),
    { debit: 21_240, credit: 0 },
    '5100 on 1 October: £212.40 Dr',
  );

  // Once a statement: one version of each kept row, not 1,000 (ledger_totals, row_counts) or 2,000 over 56 rows (account_days).
  for (const table of ['ledger_totals', 'row_counts', 'account_days']) {
    const { pages } = (await one(`select (pg_relation_size('${table}') / 8192)::int as pages`)) as { pages: number };
    t.equal(pages, 1, `${table} fills 1 page of 8 kB`);
  }

  const undone = await runCliInProcess([...cli, 'import', 'undo', importId!]);
  t.equal(undone.status, 0, undone.stderr);
  t.same(await one(`select n::int from row_counts where table_name = 'transactions'`), { n: 0 }, 'row_counts: none left');
  t.same(await one(`select total_debit::int from ledger_totals`), { total_debit: 0 }, 'ledger_totals: £0.00');
  t.same(
    await one(`select sum(debit)::int as debit, sum(credit)::int as credit, count(*)::int as days from account_days`),
    { debit: 0, credit: 0, days: 56 },
    'account_days: every day back to zero (the rows stay)',
  );
});
