/** Errors: the code and message on standard error, JSON with --json, and the exit status of each code. */
import t from 'tap';
import { acctJson, books, currentFiscalYearStart } from './support.js';
import { runCli, runCliInProcess, testDatabaseUrl } from '../helpers/index.js';

t.test('a period that does not exist is not_found, exit 3', async (t) => {
  const { dir } = await books(t, { fiscalYearStart: '04-01' });
  const r = runCli(['--data', dir, 'periods', 'get', 'period_20200101']);
  t.equal(r.status, 3);
  t.equal(r.stdout, '');
  t.equal(r.stderr, 'error not_found: period period_20200101 not found\n');

  const json = runCli(['--data', dir, '--json', 'periods', 'get', 'period_20200101']);
  t.equal(json.status, 3);
  t.equal(json.stdout, '');
  t.strictSame(JSON.parse(json.stderr), { error: { code: 'not_found', message: 'period period_20200101 not found' } }, 'no field when none applies');
});

t.test('a malformed id is invalid_id, exit 2', async (t) => {
  const { dir } = await books(t);
  const r = await runCliInProcess(['--data', dir, 'periods', 'get', '2020-01-01']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, 'error invalid_id: <id> must be an id starting period_ (field <id>)\n');

  const json = await runCliInProcess(['--data', dir, '--json', 'keys', 'revoke', 'period_20200101']);
  t.equal(json.status, 2);
  t.strictSame(JSON.parse(json.stderr), { error: { code: 'invalid_id', message: '<id> must be an id starting key_', field: '<id>' } });
});

t.test('a flag of the wrong type is invalid_type, exit 2', async (t) => {
  const { dir } = await books(t);
  const r = await runCliInProcess(['--data', dir, 'keys', 'list', '--limit', 'ten']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  t.equal(r.stderr, 'error invalid_type: --limit must be a number, not string (field --limit)\n');

  const json = await runCliInProcess(['--data', dir, '--json', 'settings', 'update', '--invoice-next-number', 'forty-two']);
  t.equal(json.status, 2);
  t.strictSame(JSON.parse(json.stderr), {
    error: { code: 'invalid_type', message: '--invoice-next-number must be a number, not string', field: '--invoice-next-number' },
  });
  t.equal((await acctJson(t, dir, ['settings', 'get'])).invoiceNextNumber, 1, 'nothing changed');
});

t.test('closing the current period is unprocessable_entity, exit 5', async (t) => {
  const { dir } = await books(t);
  const start = currentFiscalYearStart('04-01');
  const year = Number(start.slice(0, 4));
  const id = `period_${year}0401`;
  const message = `FY ${year}/${String(year + 1).slice(2)} has not ended yet (it ends ${year + 1}-03-31)`;
  const r = runCli(['--data', dir, 'periods', 'close', id]);
  t.equal(r.status, 5);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `error unprocessable_entity: ${message}\n`);

  const json = await runCliInProcess(['--data', dir, '--json', 'periods', 'close', id]);
  t.equal(json.status, 5);
  t.strictSame(JSON.parse(json.stderr), { error: { code: 'unprocessable_entity', message } });
  t.equal((await acctJson(t, dir, ['periods', 'get', id])).isClosed, false, 'the period is still open');
});

t.test('a validation error names its field, in text and in JSON', async (t) => {
  const { dir } = await books(t);
  const r = await runCliInProcess(['--data', dir, 'settings', 'update', '--vat-scheme', 'flat_rate']);
  t.equal(r.status, 2);
  t.equal(r.stderr, 'error validation_error: --vat-flat-rate-percent is required for the flat_rate scheme (field --vat-flat-rate-percent)\n');
  const json = await runCliInProcess(['--data', dir, '--json', 'settings', 'update', '--vat-scheme', 'barter']);
  t.equal(json.status, 2);
  t.strictSame(JSON.parse(json.stderr), {
    error: { code: 'validation_error', message: '--vat-scheme must be one of not_registered, standard, flat_rate', field: '--vat-scheme' },
  });
});

t.test('an unknown command, an unknown option and a missing argument exit 2', async (t) => {
  const dir = t.testdir();
  const command = runCli(['--data', dir, 'frobnicate']);
  t.equal(command.status, 2);
  t.equal(command.stdout, '');
  t.match(command.stderr, /unknown command 'frobnicate'/);

  const action = await runCliInProcess(['--data', dir, 'periods', 'frobnicate']);
  t.equal(action.status, 2);
  t.match(action.stderr, /unknown command 'frobnicate'/);

  const option = await runCliInProcess(['--data', dir, 'keys', 'list', '--bogus']);
  t.equal(option.status, 2);
  t.match(option.stderr, /unknown option '--bogus'/);

  const argument = await runCliInProcess(['--data', dir, 'periods', 'get']);
  t.equal(argument.status, 2);
  t.match(argument.stderr, /missing required argument 'id'/);
});

t.test('a command that needs an organisation, on an empty data directory, is not_found', async (t) => {
  const dir = t.testdir();
  const r = await runCliInProcess(['--data', dir, 'organisation', 'get']);
  t.equal(r.status, 3);
  t.equal(r.stdout, '');
  t.equal(r.stderr, `error not_found: no organisation in ${dir}: run acct init first\n`);
});

// The organisation's SQLite file is the point; the PostgreSQL pass keeps books elsewhere (its schemas give the same refusal).
const sqliteOnly = testDatabaseUrl() === undefined ? false : 'an SQLite file: the PostgreSQL pass keeps the books in PostgreSQL';
t.test('books written by a newer acct are refused in plain words, exit 1, no stack', { skip: sqliteOnly }, async (t) => {
  const { dir, organisationId } = await books(t);
  const { default: Database } = await import('better-sqlite3');
  const file = `${dir}/orgs/${organisationId}/live.sqlite`;
  const db = new Database(file);
  db.pragma('user_version = 999');
  db.close();
  const r = runCli(['--data', dir, 'report', 'trial-balance']);
  t.equal(r.status, 1);
  t.equal(r.stdout, '');
  t.match(r.stderr, /^error service_unavailable: \S+live\.sqlite is at schema version 999, newer than this acct knows \(\d+\); upgrade acct\n$/);
});
