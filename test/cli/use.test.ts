/** Which data directory and which organisation a command works on: --data, $ACCT_DATA, --org, acct use. */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { systemClock } from '../../src/engine/clock.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { newBooks, runCli, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { acctJson, init } from './support.js';

const org = (name: string) => ['--name', name, '--business-type', 'limited_company', '--vat-scheme', 'standard'];

t.test('init keeps the organisation in use; acct use ID chooses another', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, org('First Ltd'));
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).id, first.organisationId, 'the only organisation');
  const second = await init(t, dir, org('Second Ltd'));
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'First Ltd', 'without --org, the one in use before init');
  t.strictSame(
    (await acctJson(t, dir, ['use'])).map((o: { id: string; current: boolean }) => [o.id, o.current]),
    [
      [first.organisationId, true],
      [second.organisationId, false],
    ],
  );

  const r = await runCliInProcess(['--data', dir, 'use', first.organisationId]);
  t.equal(r.status, 0);
  t.equal(r.stdout, `Using First Ltd (${first.organisationId})\n`);
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'First Ltd', 'the chosen one is used');
  const again = await acctJson(t, dir, ['use', second.organisationId]);
  t.strictSame([again.id, again.name, again.current], [second.organisationId, 'Second Ltd', true], 'use ID --json prints the chosen organisation');
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'Second Ltd');
  await acctJson(t, dir, ['use', first.organisationId]);
  t.equal((await acctJson(t, dir, ['settings', 'update', '--invoice-prefix', 'ONE-'])).invoicePrefix, 'ONE-');
  t.equal((await acctJson(t, dir, ['--org', second.organisationId, 'settings', 'get'])).invoicePrefix, 'INV-', 'the other one is untouched');

  const listed = await runCliInProcess(['--data', dir, 'use']);
  t.match(listed.stdout, new RegExp(`^${first.organisationId}\\s+First Ltd\\s+limited_company\\s+\\S+\\s+\\*\\s*$`, 'm'), 'the chosen one is starred');
  t.match(listed.stdout, new RegExp(`^${second.organisationId}\\s+Second Ltd\\s+limited_company\\s+\\S+\\s*$`, 'm'));
});

t.test('--org selects among several organisations, whatever was chosen', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, org('First Ltd'));
  const second = await init(t, dir, [...org('Second Ltd'), '--use']); // --use: init chose Second Ltd
  t.equal((await acctJson(t, dir, ['--org', first.organisationId, 'organisation', 'get'])).name, 'First Ltd');
  t.equal((await acctJson(t, dir, ['--org', second.organisationId, 'organisation', 'get'])).name, 'Second Ltd');
  await acctJson(t, dir, ['--org', first.organisationId, 'organisation', 'update', '--name', 'First Renamed Ltd']);
  t.equal((await acctJson(t, dir, ['--org', first.organisationId, 'organisation', 'get'])).name, 'First Renamed Ltd');
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'Second Ltd', 'the chosen one is unchanged');
});

t.test('use and --org with an unknown id are not_found', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, org('First Ltd'));
  const unknown = '00000000-0000-4000-8000-000000000000';
  const r = await runCliInProcess(['--data', dir, 'use', unknown]);
  t.equal(r.status, 3);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `error not_found: organisation ${unknown} not found in ${dir}\n`);
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).id, first.organisationId, 'the choice is unchanged');

  const json = await runCliInProcessJson(['--data', dir, '--json', '--org', unknown, 'organisation', 'get']);
  t.equal(json.status, 3);
  t.strictSame(JSON.parse(json.stderr), { error: { code: 'not_found', message: `organisation ${unknown} not found in ${dir}` } });

  const notUuid = await runCliInProcess(['--data', dir, 'use', '../other']);
  t.equal(notUuid.status, 3);
  t.match(notUuid.stderr, /^error not_found: /);
});

t.test('without --org or a choice: the only organisation is used; several is an error naming --org', async (t) => {
  const books = await newBooks(t, { organisation: { name: 'Only Ltd' } });
  // newBooks creates the organisation in-process, so nothing was chosen with acct use
  t.equal((await acctJson(t, books.dataDir, ['organisation', 'get'])).id, books.organisationId, 'the only one');
  await createOrganisation(books.store, systemClock, { name: 'Another Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const r = await runCliInProcess(['--data', books.dataDir, 'organisation', 'get']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `error validation_error: several organisations in ${books.dataDir}: pass --org ID, or choose one with acct use ID (field org)\n`);
  t.equal((await acctJson(t, books.dataDir, ['--org', books.organisationId, 'organisation', 'get'])).name, 'Only Ltd');
});

t.test('ACCT_DATA names the data directory when --data is absent; --data wins over it', async (t) => {
  const root = t.testdir({ data: {}, other: {}, cwd: {} });
  const data = path.join(root, 'data');
  const cwd = path.join(root, 'cwd');
  const env = { ACCT_DATA: data };
  const r = runCli(['init', ...org('Env Ltd'), '--yes', '--json'], { env, cwd });
  t.equal(r.status, 0, r.stderr);
  const { organisationId } = JSON.parse(r.stdout);
  t.ok(fs.existsSync(path.join(data, 'platform.sqlite')), 'platform.sqlite in $ACCT_DATA');
  t.ok(fs.existsSync(path.join(data, 'orgs', organisationId, 'live.sqlite')), 'the organisation in $ACCT_DATA');
  t.notOk(fs.existsSync(path.join(cwd, 'acct-data')), 'nothing in ./acct-data');

  const got = await runCliInProcessJson(['--json', 'organisation', 'get'], { env, cwd });
  t.equal(got.status, 0);
  t.equal((got.data as { name: string }).name, 'Env Ltd');

  const other = path.join(root, 'other');
  const wins = await runCliInProcess(['--data', other, 'organisation', 'get'], { env, cwd });
  t.equal(wins.status, 3);
  t.equal(wins.stderr, `error not_found: no organisation in ${other}: run acct init first\n`, '--data, not $ACCT_DATA');
});

t.test('without --data or ACCT_DATA the data directory is ./acct-data', async (t) => {
  const cwd = t.testdir();
  const r = runCli(['init', ...org('Default Dir Ltd'), '--yes', '--json'], { env: { ACCT_DATA: undefined }, cwd });
  t.equal(r.status, 0, r.stderr);
  const { organisationId } = JSON.parse(r.stdout);
  t.ok(fs.existsSync(path.join(cwd, 'acct-data', 'orgs', organisationId, 'test.sqlite')));
});
