/** `acct init`: the fixed contract of its --json output, its validation, and the files it creates. */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { acctJson, currentFiscalYearStart, init, liveKeyShape, testKeyShape, uuidShape } from './support.js';
import { runCli, runCliInProcess } from '../helpers/index.js';

const companyFlags = ['--name', 'Acme Widgets Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard'];

t.test('init --yes --json prints exactly {organisationId, apiKey, testApiKey} and nothing else', async (t) => {
  const dir = t.testdir();
  const r = runCli(['--data', dir, 'init', ...companyFlags, '--yes', '--json']);
  t.equal(r.status, 0);
  t.equal(r.stderr, '');
  const created = JSON.parse(r.stdout) as Record<string, string>;
  t.same(Object.keys(created), ['organisationId', 'apiKey', 'testApiKey'], 'exactly these keys, in this order');
  t.equal(r.stdout, `${JSON.stringify(created)}\n`, 'one line of JSON and nothing else');
  t.match(created['organisationId'], uuidShape);
  t.match(created['apiKey'], liveKeyShape);
  t.match(created['testApiKey'], testKeyShape);
});

t.test('init creates platform.sqlite and orgs/<uuid>/live.sqlite and test.sqlite', async (t) => {
  const dir = t.testdir();
  const { organisationId } = await init(t, dir);
  t.ok(fs.statSync(path.join(dir, 'platform.sqlite')).isFile(), 'platform.sqlite');
  t.ok(fs.statSync(path.join(dir, 'orgs', organisationId, 'live.sqlite')).isFile(), 'live.sqlite');
  t.ok(fs.statSync(path.join(dir, 'orgs', organisationId, 'test.sqlite')).isFile(), 'test.sqlite');
  t.same(fs.readdirSync(path.join(dir, 'orgs')), [organisationId], 'one organisation folder, named by its id');
});

t.test("the printed keys are the organisation's live and test keys, with all scopes; a company's year starts on 1 April", async (t) => {
  const dir = t.testdir();
  const { apiKey, testApiKey } = await init(t, dir);
  const live = await acctJson(t, dir, ['keys', 'list']);
  t.equal(live.length, 1);
  t.equal(live[0].name, 'Default live key');
  t.equal(live[0].mode, 'live');
  t.equal(live[0].prefix, apiKey.slice(0, 8));
  t.equal(live[0].keyPreview, `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`);
  t.equal(live[0].scopes.length, 17);
  t.equal((await acctJson(t, dir, ['settings', 'get'])).fiscalYearStart, '04-01', "a company's year starts on 1 April");
  const test = await acctJson(t, dir, ['--test', 'keys', 'list']);
  t.equal(test.length, 1);
  t.equal(test[0].name, 'Default test key');
  t.equal(test[0].mode, 'test');
  t.equal(test[0].keyPreview, `${testApiKey.slice(0, 8)}…${testApiKey.slice(-4)}`);
});

t.test('init records the name, business type, VAT scheme and default fiscal year start', async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'Jo Bloggs', '--business-type', 'sole_trader', '--vat-scheme', 'not_registered']);
  const org = await acctJson(t, dir, ['organisation', 'get']);
  t.equal(org.name, 'Jo Bloggs');
  t.equal(org.businessType, 'sole_trader');
  t.equal(org.settings.vatScheme, 'not_registered');
  t.equal(org.settings.vatRegistered, false);
  t.equal(org.settings.vatFlatRatePercent, null);
  t.equal(org.settings.fiscalYearStart, '04-06', "a sole trader's year starts on 6 April");
});

t.test('init --vat-scheme flat_rate --flat-rate-percent N stores the percentage', async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'Flat Co', '--business-type', 'sole_trader', '--vat-scheme', 'flat_rate', '--flat-rate-percent', '12.5']);
  const settings = await acctJson(t, dir, ['settings', 'get']);
  t.equal(settings.vatScheme, 'flat_rate');
  t.equal(settings.vatFlatRatePercent, 12.5);
});

t.test('init --fiscal-year-start MM-DD sets the year and the periods', async (t) => {
  const dir = t.testdir();
  await init(t, dir, [...companyFlags, '--fiscal-year-start', '01-01']);
  t.equal((await acctJson(t, dir, ['settings', 'get'])).fiscalYearStart, '01-01');
  const periods = await acctJson(t, dir, ['periods', 'list']);
  const start = currentFiscalYearStart('01-01');
  t.equal(periods[0].id, `period_${start.replaceAll('-', '')}`, 'the newest period starts on 1 January');
  t.equal(periods[0].startDate, start);
  t.equal(periods[0].endDate, `${start.slice(0, 4)}-12-31`);
  t.equal(periods[0].isCurrent, true);
});

t.test('a second init on the same data directory adds another organisation', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, ['--name', 'First Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  const second = await init(t, dir, ['--name', 'Second Ltd', '--business-type', 'sole_trader', '--vat-scheme', 'not_registered']);
  t.not(second.organisationId, first.organisationId);
  t.not(second.apiKey, first.apiKey);
  t.not(second.testApiKey, first.testApiKey);
  const orgs = await acctJson(t, dir, ['use']);
  t.same(
    orgs.map((o: { id: string; name: string; businessType: string }) => [o.id, o.name, o.businessType]),
    [
      [first.organisationId, 'First Ltd', 'limited_company'],
      [second.organisationId, 'Second Ltd', 'sole_trader'],
    ],
  );
  t.ok(fs.existsSync(path.join(dir, 'orgs', first.organisationId, 'live.sqlite')));
  t.ok(fs.existsSync(path.join(dir, 'orgs', second.organisationId, 'live.sqlite')));
});

t.test('init without --name and without a terminal fails with validation_error and creates nothing', async (t) => {
  const dir = t.testdir();
  const r = await runCliInProcess(['--data', dir, 'init', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, 'error validation_error: --name is required (or run init in a terminal to be asked) (field --name)\n');
  t.same(fs.readdirSync(dir), [], 'nothing created: no organisation, no platform.sqlite');

  const json = await runCliInProcess(['--data', dir, '--json', 'init', '--name', 'X', '--vat-scheme', 'standard']);
  t.equal(json.status, 2);
  t.equal(json.stdout, '');
  t.same(JSON.parse(json.stderr), {
    error: { code: 'validation_error', message: '--business-type is required (or run init in a terminal to be asked)', field: '--business-type' },
  });
});

t.test('init --vat-scheme flat_rate without --flat-rate-percent is refused', async (t) => {
  const dir = t.testdir();
  const r = await runCliInProcess(['--data', dir, 'init', '--name', 'Flat Co', '--business-type', 'sole_trader', '--vat-scheme', 'flat_rate', '--yes']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, 'error validation_error: the flat_rate scheme needs a flat rate percentage (field vatFlatRatePercent)\n');
  t.same(fs.readdirSync(dir), [], 'nothing created: no organisation, no platform.sqlite');
});

t.test('init refuses a flat rate percentage outside the flat_rate scheme, and one that is not a number', async (t) => {
  const dir = t.testdir();
  const r = await runCliInProcess(['--data', dir, 'init', ...companyFlags, '--flat-rate-percent', '5', '--yes']);
  t.equal(r.status, 2);
  t.equal(r.stderr, 'error validation_error: a flat rate percentage applies only to the flat_rate scheme (field vatFlatRatePercent)\n');
  const nan = await runCliInProcess([
    '--data',
    dir,
    'init',
    '--name',
    'F',
    '--business-type',
    'sole_trader',
    '--vat-scheme',
    'flat_rate',
    '--flat-rate-percent',
    'abc',
    '--yes',
  ]);
  t.equal(nan.status, 2);
  t.equal(nan.stderr, 'error invalid_type: vatFlatRatePercent must be a number, not string (field vatFlatRatePercent)\n');
});

t.test('init refuses a bad --fiscal-year-start', async (t) => {
  const dir = t.testdir();
  for (const bad of ['13-01', '02-29', 'April']) {
    const r = await runCliInProcess(['--data', dir, '--json', 'init', ...companyFlags, '--fiscal-year-start', bad, '--yes']);
    t.equal(r.status, 2, bad);
    t.equal(r.stdout, '', bad);
    t.same(
      JSON.parse(r.stderr),
      { error: { code: 'validation_error', message: 'fiscalYearStart must be a month and day as MM-DD, for example 04-06', field: 'fiscalYearStart' } },
      bad,
    );
  }
  t.same(fs.readdirSync(dir), [], 'nothing created: no organisation, no platform.sqlite');
});

t.test('init refuses an unknown business type or VAT scheme', async (t) => {
  const dir = t.testdir();
  const type = await runCliInProcess(['--data', dir, 'init', '--name', 'X', '--business-type', 'partnership', '--vat-scheme', 'standard', '--yes']);
  t.equal(type.status, 2);
  t.equal(type.stderr, 'error validation_error: businessType must be one of sole_trader, limited_company (field businessType)\n');
  const scheme = await runCliInProcess(['--data', dir, 'init', '--name', 'X', '--business-type', 'sole_trader', '--vat-scheme', 'cash', '--yes']);
  t.equal(scheme.status, 2);
  t.equal(scheme.stderr, 'error validation_error: vatScheme must be one of not_registered, standard, flat_rate (field vatScheme)\n');
});

t.test('init without --json prints the id and both keys for a person', async (t) => {
  const dir = t.testdir();
  const r = runCli(['--data', dir, 'init', ...companyFlags, '--yes']);
  t.equal(r.status, 0);
  const [org] = await acctJson(t, dir, ['use']);
  t.match(r.stdout, `Created Acme Widgets Ltd (${org.id}) in ${dir}\n`);
  t.match(r.stdout, /\n {2}live API key: sk_live_[0-9A-Za-z]{32}\n/);
  t.match(r.stdout, /\n {2}test API key: sk_test_[0-9A-Za-z]{32}\n/);
});

t.test('a refused init leaves no file: not the data directory, not platform.sqlite', async (t) => {
  const cwd = t.testdir();
  const refusals: [string[], RegExp][] = [
    [['--business-type', 'limited_company', '--vat-scheme', 'standard'], /--name is required/],
    [['--name', 'X', '--business-type', 'ltd', '--vat-scheme', 'standard', '--yes'], /businessType must be one of/],
    [['--name', 'X', '--business-type', 'sole_trader', '--vat-scheme', 'flat_rate', '--yes'], /needs a flat rate percentage/],
    [['--name', 'X', '--business-type', 'sole_trader', '--vat-scheme', 'standard', '--fiscal-year-start', '13-01', '--yes'], /fiscalYearStart/],
  ];
  for (const [flags, message] of refusals) {
    // The default data directory, ./acct-data, as a new user meets it.
    const r = await runCliInProcess(['init', ...flags], { cwd, env: { ACCT_DATA: undefined, ACCT_DATABASE_URL: undefined } });
    t.equal(r.status, 2, flags.join(' '));
    t.match(r.stderr, message);
    t.same(fs.readdirSync(cwd), [], `${flags.join(' ')}: nothing created in ${cwd}`);
  }
  const named = path.join(cwd, 'books');
  const r = await runCliInProcess(['--data', named, 'init', '--name', 'X', '--business-type', 'ltd', '--vat-scheme', 'standard', '--yes']);
  t.equal(r.status, 2);
  t.notOk(fs.existsSync(named), '--data DIR: not made either');
});

t.test('init refuses a name another organisation in the data directory has, ignoring case, and writes nothing', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, ['--name', 'Acme Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  const second = await init(t, dir, ['--name', 'Second Co', '--business-type', 'sole_trader', '--vat-scheme', 'standard']);
  for (const name of ['Second Co', 'second co', ' SECOND CO ']) {
    const r = await runCliInProcess(['--data', dir, 'init', '--name', name, '--business-type', 'sole_trader', '--vat-scheme', 'standard', '--yes']);
    t.equal(r.status, 4, `${JSON.stringify(name)}: conflict`);
    t.equal(r.stdout, '');
    t.equal(r.stderr, `error conflict: ${dir} already has an organisation named Second Co (${second.organisationId}): choose another name (field --name)\n`);
  }
  const json = await runCliInProcess(['--data', dir, '--json', 'init', '--name', 'ACME LTD', '--business-type', 'sole_trader', '--vat-scheme', 'standard']);
  t.equal(json.status, 4);
  // The API's error shape names a field on a 400 only.
  t.match(JSON.parse(json.stderr), {
    error: { code: 'conflict', message: `${dir} already has an organisation named Acme Ltd (${first.organisationId}): choose another name` },
  });
  t.same(
    (await acctJson(t, dir, ['use'])).map((o: { id: string }) => o.id),
    [first.organisationId, second.organisationId],
    'still the two organisations',
  );
  const use = await runCliInProcess(['--data', dir, 'use', 'Second Co']);
  t.equal(use.status, 0, `the name still names one organisation: ${use.stderr}`);
});
