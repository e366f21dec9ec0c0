/**
 * acct migrate-store through the CLI: SQLite books copied into PostgreSQL
 * and proved by row counts and the trial balance; the copy then works as
 * the books (the CLI with --database, an API key, the trial balance to the
 * penny); a second copy into the same schema and a URL that is not
 * PostgreSQL are refused and write nothing. Needs ACCT_TEST_DATABASE_URL
 * (CI's PostgreSQL pass sets it).
 */
import t from 'tap';
import { fixedClock } from '../../src/engine/clock.js';
import { authenticate } from '../../src/engine/integration/api-keys.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { trialBalance } from '../../src/engine/reports/statements.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { dropSchemas, freshDatabaseUrl, runCliInProcess, runCliInProcessJson, testDatabaseUrl } from '../helpers/index.js';

const base = testDatabaseUrl();
const skip = base === undefined ? 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass)' : false;

t.test('SQLite books copied into PostgreSQL, proved, and then used there', { skip }, async (t) => {
  const dir = t.testdir();
  const url = freshDatabaseUrl(base!);
  t.teardown(() => dropSchemas(url));
  const sqlite = SqliteStore.open(dir);
  const { organisationId, apiKey } = await createOrganisation(sqlite, fixedClock('2026-11-28T09:00:00Z'), {
    name: 'Copper Kettle Tearooms',
    businessType: 'sole_trader',
    vatScheme: 'standard',
  });
  await sqlite.close();
  for (const args of [
    ['post', '2025-04-10', 'Float', '1200=100.00', '3000=-100.00'],
    ['post', '2025-05-01', 'Cream teas', '1200=120.00', '4000=-100.00', '2200=-20.00'],
    ['--test', 'post', '2025-05-02', 'A test sale', '1200=12.00', '4000=-12.00'],
  ]) {
    const r = await runCliInProcess(['--data', dir, ...args]);
    t.equal(r.status, 0, r.stderr);
  }

  const copied = await runCliInProcess(['migrate-store', '--from', `sqlite:${dir}`, '--to', url]);
  t.equal(copied.status, 0, copied.stderr);
  // Live: 1200 Dr 100.00 + 120.00 = 220.00; 3000 Cr 100.00, 4000 Cr 100.00, 2200 Cr 20.00: 220.00 = 220.00 over 4 accounts.
  t.match(
    copied.stdout,
    /^ok {2}Copper Kettle Tearooms \(live\): [\d,]+ rows in \d+ tables; trial balance £220\.00 Dr = £220\.00 Cr over 4 accounts, the same in both stores$/m,
  );
  // Test: 1200 Dr 12.00; 4000 Cr 12.00.
  t.match(copied.stdout, /^ok {2}Copper Kettle Tearooms \(test\): .* trial balance £12\.00 Dr = £12\.00 Cr over 2 accounts, the same in both stores$/m);
  t.match(copied.stdout, /^ok {2}platform: /m);
  t.match(copied.stdout, /1 organisation\(s\) copied and proved/);

  const pg = await PostgresStore.open(dir, url, { create: false });
  t.teardown(() => pg.close());
  const live = await trialBalance(pg.org(organisationId, 'live').db, '2025-12-31');
  t.same(
    live.accounts.map((a) => [a.code, a.debit, a.credit]),
    [
      ['1200', 22000, 0],
      ['2200', 0, 2000],
      ['3000', 0, 10000],
      ['4000', 0, 10000],
    ],
  );
  t.same(live.totals, { debit: 22000, credit: 22000 });
  t.equal((await authenticate(pg.platform.db, apiKey)).organisationId, organisationId, "the organisation's API key opens the copy");

  const ledger = await runCliInProcessJson(['--data', dir, '--database', url, '--json', 'ledger', '1200']);
  t.equal(ledger.status, 0, ledger.stderr);
  const entries = (ledger.data as { entries: { description: string; debit: number; runningBalance: number }[] }).entries;
  // 100.00, then 100.00 + 120.00 = 220.00.
  t.same(
    entries.map((e) => [e.description, e.debit, e.runningBalance]),
    [
      ['Float', 10000, 10000],
      ['Cream teas', 12000, 22000],
    ],
    'the CLI reads the copy with --database',
  );
  const posted = await runCliInProcess(['--data', dir, '--database', url, 'post', '2025-06-01', 'Scones', '1200=6.00', '4000=-6.00']);
  t.equal(posted.status, 0, `and writes to it: ${posted.stderr}`);
  // 220.00 + 6.00 = 226.00 on each side.
  t.same((await trialBalance(pg.org(organisationId, 'live').db, '2025-12-31')).totals, { debit: 22600, credit: 22600 });

  const again = await runCliInProcess(['migrate-store', '--from', `sqlite:${dir}`, '--to', url]);
  t.equal(again.status, 4, 'a second copy into the same schema is refused');
  t.match(again.stderr, /conflict: .* already holds organisations/);
  const transactions = await pg.org(organisationId, 'live').db.selectFrom('transactions').select('id').execute();
  t.equal(transactions.length, 3, 'and wrote nothing: the two copied and the one posted after');

  const notPostgres = await runCliInProcess(['migrate-store', '--from', `sqlite:${dir}`, '--to', 'mysql://somewhere/db']);
  t.equal(notPostgres.status, 2);
  t.match(notPostgres.stderr, /validation_error: --to must be a postgres:\/\/ URL/);
  const noSource = await runCliInProcess(['migrate-store', '--from', `sqlite:${dir}/nothing`, '--to', url]);
  t.equal(noSource.status, 3);
  t.match(noSource.stderr, /not_found: no organisation in .*nothing/);
});
