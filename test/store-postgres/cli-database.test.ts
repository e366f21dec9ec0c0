/**
 * Choosing PostgreSQL on the command line: acct init --database records the
 * URL in the data directory (0600), so later commands need no flag; only
 * init does: --database (or $ACCT_DATABASE_URL) on another command, serve
 * included, is for that run and leaves the data directory's SQLite books
 * its default. The refusals say what is wrong without a stack: a data directory that is not
 * there (its secret.key seals the secrets), a schema prefix that is not
 * one, a server that does not answer, a database that does not exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { dropSchemas, freshDatabaseUrl, request, runCliInProcess, runCliInProcessJson, startAcct, testDatabaseUrl } from '../helpers/index.js';

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

/** SQLite books with one customer, Alice, copied into PostgreSQL by acct migrate-store. */
async function copiedBooks(t: Test): Promise<{ dir: string; url: string; apiKey: string }> {
  const dir = path.join(t.testdir(), 'books');
  const url = freshDatabaseUrl(base!);
  t.teardown(() => dropSchemas(url));
  const init = await runCliInProcessJson([
    '--data',
    dir,
    '--json',
    'init',
    '--name',
    'Fell Side Joinery',
    '--business-type',
    'sole_trader',
    '--vat-scheme',
    'not_registered',
    '--yes',
  ]);
  t.equal(init.status, 0, init.stderr);
  const alice = await runCliInProcess(['--data', dir, 'contacts', 'create', '--contact-type', 'customer', '--name', 'Alice']);
  t.equal(alice.status, 0, alice.stderr);
  const copied = await runCliInProcess(['migrate-store', '--from', `sqlite:${dir}`, '--to', url]);
  t.equal(copied.status, 0, copied.stderr);
  return { dir, url, apiKey: (init.data as { apiKey: string }).apiKey };
}

async function contactNames(t: Test, args: readonly string[]): Promise<string[]> {
  const r = await runCliInProcessJson([...args, '--json', 'contacts', 'list']);
  t.equal(r.status, 0, r.stderr);
  return (r.data as { name: string }[]).map((c) => c.name).sort();
}

t.test('--database on a command other than init is for that run: the data directory keeps its SQLite books', { skip }, async (t) => {
  const { dir, url } = await copiedBooks(t);
  const bob = await runCliInProcess(['--data', dir, '--database', url, 'contacts', 'create', '--contact-type', 'customer', '--name', 'Bob']);
  t.equal(bob.status, 0, bob.stderr);
  t.notOk(fs.existsSync(path.join(dir, 'database')), 'no URL recorded');
  t.same(await contactNames(t, ['--data', dir, '--database', url]), ['Alice', 'Bob'], 'Bob went to PostgreSQL');
  t.same(await contactNames(t, ['--data', dir]), ['Alice'], 'without the flag: the SQLite files, as before');
});

t.test('acct --data DIR --database URL serve (or $ACCT_DATABASE_URL) serves the copy and records nothing', { skip }, async (t) => {
  const { dir, url, apiKey } = await copiedBooks(t);
  for (const [how, args, env] of [
    ['--database', ['--data', dir, '--database', url, 'serve', '--host', '127.0.0.1', '--port', '0'], {}],
    ['$ACCT_DATABASE_URL', ['--data', dir, 'serve', '--host', '127.0.0.1', '--port', '0'], { ACCT_DATABASE_URL: url }],
  ] as const) {
    const server = await startAcct(t, args, { env });
    const served = await request(server.url, 'GET', '/v1/contacts', { key: apiKey });
    t.equal(served.status, 200, `${how}: ${JSON.stringify(served.body)}`);
    t.same(
      (served.body.data as { name: string }[]).map((c) => c.name),
      ['Alice'],
      `${how}: the copy is served`,
    );
    server.child.kill('SIGTERM');
    t.same(await server.exited, { code: 0, signal: null });
    t.notOk(fs.existsSync(path.join(dir, 'database')), `${how}: no URL recorded in the data directory`);
  }
  const bob = await runCliInProcess(['--data', dir, 'contacts', 'create', '--contact-type', 'customer', '--name', 'Bob']);
  t.equal(bob.status, 0, bob.stderr);
  t.same(await contactNames(t, ['--data', dir]), ['Alice', 'Bob'], 'a later command without the flag writes the SQLite books');
  t.same(await contactNames(t, ['--data', dir, '--database', url]), ['Alice'], 'not PostgreSQL');
});
