/** `--body JSON`, `--body @file.json`, `--body -`: the request body of an operation, with flags taking precedence. */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { acctJson, books } from './support.js';
import { runCli, runCliInProcess, runCliJson } from '../helpers/index.js';

const address = { line1: null, line2: null, city: null, region: null, postalCode: null, country: 'GB' };

t.test('--body JSON sends the body as given', async (t) => {
  const { dir } = await books(t);
  const updated = await acctJson(t, dir, ['organisation', 'update', '--body', '{"name":"Body Ltd","city":"Leeds","country":"ie"}']);
  t.equal(updated.name, 'Body Ltd');
  t.strictSame(updated.address, { ...address, city: 'Leeds', country: 'IE' });
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'Body Ltd', 'and it was stored');
});

t.test('--body @file.json reads the body from a file', async (t) => {
  const { dir } = await books(t);
  fs.writeFileSync(path.join(dir, 'body.json'), JSON.stringify({ name: 'From File Ltd', addressLine1: '2 Low Rd', vatNumber: 'GB999999973' }));
  const updated = await acctJson(t, dir, ['organisation', 'update', '--body', `@${path.join(dir, 'body.json')}`]);
  t.equal(updated.name, 'From File Ltd');
  t.equal(updated.vatNumber, 'GB999999973');
  t.strictSame(updated.address, { ...address, line1: '2 Low Rd' });
});

t.test('--body - reads the body from standard input', async (t) => {
  const { dir } = await books(t);
  // End to end: standard input is the process's own.
  const piped = runCliJson(['--data', dir, '--json', 'organisation', 'update', '--body', '-'], {
    input: '{"name":"From Stdin Ltd","region":"West Yorkshire"}\n',
  });
  t.equal(piped.status, 0, piped.stderr);
  const updated = piped.data as { name: string; address: unknown };
  t.equal(updated.name, 'From Stdin Ltd');
  t.strictSame(updated.address, { ...address, region: 'West Yorkshire' });
});

t.test('flags override the fields of --body', async (t) => {
  const { dir } = await books(t);
  const updated = await acctJson(t, dir, ['organisation', 'update', '--body', '{"name":"From Body Ltd","city":"York"}', '--name', 'From Flag Ltd']);
  t.equal(updated.name, 'From Flag Ltd', 'the flag wins');
  t.equal(updated.address.city, 'York', 'the rest of the body still applies');

  const settings = await acctJson(t, dir, ['settings', 'update', '--body', '{"invoiceNextNumber":5,"invoicePrefix":"B-"}', '--invoice-next-number', '9']);
  t.equal(settings.invoiceNextNumber, 9);
  t.equal(settings.invoicePrefix, 'B-');
});

t.test('a body is typed JSON: a string where a number belongs is invalid_type', async (t) => {
  const { dir } = await books(t);
  const r = await runCliInProcess(['--data', dir, '--json', 'settings', 'update', '--body', '{"invoiceNextNumber":"42"}']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  t.strictSame(JSON.parse(r.stderr), {
    error: { code: 'invalid_type', message: 'invoiceNextNumber must be a number, not string', field: 'invoiceNextNumber' },
  });
});

t.test('a malformed --body is a validation_error and changes nothing', async (t) => {
  const { dir } = await books(t);
  const r = await runCliInProcess(['--data', dir, '--json', 'organisation', 'update', '--body', '{"name": "Broken']);
  t.equal(r.status, 2);
  t.equal(r.stdout, '');
  const { error } = JSON.parse(r.stderr);
  t.equal(error.code, 'validation_error');
  t.equal(error.field, '--body');
  t.match(error.message, /^malformed JSON body: /);

  const human = runCli(['--data', dir, 'organisation', 'update', '--body', '-'], { input: 'not json' });
  t.equal(human.status, 2);
  t.match(human.stderr, /^error validation_error: malformed JSON body: .* \(field --body\)\n$/);

  t.equal((await acctJson(t, dir, ['organisation', 'get'])).name, 'Acme Widgets Ltd', 'nothing changed');
});

t.test('--body must be a JSON object, and a file that cannot be read is a validation_error', async (t) => {
  const { dir } = await books(t);
  const array = await runCliInProcess(['--data', dir, '--json', 'organisation', 'update', '--body', '["name"]']);
  t.equal(array.status, 2);
  t.strictSame(JSON.parse(array.stderr), { error: { code: 'validation_error', message: 'the request body must be a JSON object', field: '--body' } });

  const missing = path.join(dir, 'missing.json');
  t.notOk(fs.existsSync(missing));
  const file = await runCliInProcess(['--data', dir, '--json', 'organisation', 'update', '--body', `@${missing}`]);
  t.equal(file.status, 2);
  const { error } = JSON.parse(file.stderr);
  t.equal(error.code, 'validation_error');
  t.equal(error.field, '--body');
  t.match(error.message, `cannot read ${missing}`);
});

t.test("the body is validated like the API's: unknown fields and the nested address are refused", async (t) => {
  const { dir } = await books(t);
  const unknown = await runCliInProcess(['--data', dir, '--json', 'organisation', 'update', '--body', '{"nickname":"Acme"}']);
  t.equal(unknown.status, 2);
  t.strictSame(JSON.parse(unknown.stderr), { error: { code: 'validation_error', message: 'nickname is not a field of this request', field: 'nickname' } });

  const nested = await runCliInProcess(['--data', dir, '--json', 'organisation', 'update', '--body', '{"address":{"line1":"1 High St"}}']);
  t.equal(nested.status, 2);
  t.strictSame(JSON.parse(nested.stderr), {
    error: {
      code: 'validation_error',
      message: 'address is not accepted here: send addressLine1, addressLine2, city, region, postalCode and country as flat fields',
      field: 'address',
    },
  });
});
