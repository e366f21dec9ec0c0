/**
 * Choosing PostgreSQL on the command line: acct init --database records the
 * URL in the data directory (0600), so later commands need no flag; the
 * refusals say what is wrong without a stack: a data directory that is not
 * there (its secret.key seals the secrets), a schema prefix that is not
 * one, a server that does not answer, a database that does not exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { dropSchemas, freshDatabaseUrl, runCliInProcess, runCliInProcessJson, testDatabaseUrl } from '../helpers/index.js';

const base = testDatabaseUrl();
const skip = base === undefined ? 'no PostgreSQL: set ACCT_TEST_DATABASE_URL (CI sets it in its PostgreSQL pass)' : false;

t.test('acct init --database records the URL; later commands on the data directory use PostgreSQL', { skip }, async (t) => {
  const dir = path.join(t.testdir(), 'books');
  const url = freshDatabaseUrl(base!);
  t.teardown(() => dropSchemas(url));
  const init = await runCliInProcessJson([
    '--data',
    dir,
    '--database',
    url,
    '--json',
    'init',
    '--name',
    'Ribble Valley Cheeses',
    '--business-type',
    'sole_trader',
    '--vat-scheme',
    'not_registered',
    '--yes',
  ]);
  t.equal(init.status, 0, init.stderr);
  t.equal(fs.readFileSync(path.join(dir, 'database'), 'utf8'), `${url}\n`, 'the URL is recorded');
  t.equal(fs.statSync(path.join(dir, 'database')).mode & 0o777, 0o600, 'readable by its owner only: it may hold a password');
  t.notOk(fs.existsSync(path.join(dir, 'platform.sqlite')), 'no SQLite file is made');

  const org = await runCliInProcessJson(['--data', dir, '--json', 'organisation', 'get']);
  t.equal(org.status, 0, org.stderr);
  t.equal((org.data as { name: string }).name, 'Ribble Valley Cheeses', 'read back from PostgreSQL without the flag');
});

t.test('a data directory that is not there is refused, and none is made', { skip }, async (t) => {
  const dir = path.join(t.testdir(), 'nothing-here');
  const r = await runCliInProcess(['--data', dir, '--database', freshDatabaseUrl(base!), 'accounts', 'list']);
  t.equal(r.status, 3);
  t.match(
    r.stderr,
    /^error not_found: no data directory .*nothing-here: the books in postgres:\/\/.* need the one acct init made \(it holds their secret.key\)\n$/,
  );
  t.notOk(fs.existsSync(dir));
});

t.test('a schema prefix that is not one, a server that does not answer: clear refusals, no stack', async (t) => {
  const dir = t.testdir();
  const bad = await runCliInProcess(['--data', dir, '--database', 'postgres://acct@127.0.0.1:1/acct?schema=Big-Books', 'accounts', 'list']);
  t.equal(bad.status, 2);
  t.equal(
    bad.stderr,
    'error validation_error: --database: schema must be 1-20 lower-case letters, digits or _, starting with a letter (got Big-Books) (field database)\n',
  );
  // Port 1 on loopback: nothing listens there.
  const down = await runCliInProcess(['--data', dir, '--database', 'postgres://acct@127.0.0.1:1/acct', 'accounts', 'list']);
  t.equal(down.status, 1);
  t.equal(down.stderr, 'error service_unavailable: the database cannot be reached: connect ECONNREFUSED 127.0.0.1:1\n');
  const notPostgres = await runCliInProcess(['--data', dir, '--database', 'mysql://acct@127.0.0.1/acct', 'accounts', 'list']);
  t.equal(notPostgres.status, 2);
  t.match(notPostgres.stderr, /^error validation_error: --database: expected a postgres:\/\/ URL/);
});

t.test('a database that does not exist is the server’s refusal, in its words', { skip }, async (t) => {
  const url = new URL(base!);
  url.pathname = '/no_such_database';
  const r = await runCliInProcess(['--data', t.testdir(), '--database', url.toString(), 'accounts', 'list']);
  t.equal(r.status, 1);
  t.equal(r.stderr, 'error service_unavailable: the database refused the connection: database "no_such_database" does not exist\n');
});
