/**
 * `acct init` and the organisation in use: the first one is chosen; a
 * later one leaves the choice alone unless --use, and says how to switch.
 * In process, and through the real bin/acct on a terminal and piped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { runCli, runCliInProcess, runCliOnTerminal } from '../helpers/index.js';
import { acctJson, init, runCliOnTerminalAt } from './support.js';

const org = (name: string) => ['--name', name, '--business-type', 'limited_company', '--vat-scheme', 'standard', '--yes'];
const inUse = async (t: Test, dir: string): Promise<string> => (await acctJson(t, dir, ['organisation', 'get'])).name;

t.test('a second init keeps the organisation in use and says how to switch; --use switches', async (t) => {
  const dir = t.testdir();
  const first = await runCliInProcess(['--data', dir, 'init', ...org('First Ltd')]);
  t.equal(first.status, 0, first.stderr);
  t.notMatch(first.stdout, /Still using|Now using/, 'the first organisation: nothing to say about switching');
  t.equal(await inUse(t, dir), 'First Ltd');

  const second = await runCliInProcess(['--data', dir, 'init', ...org('Second Ltd')]);
  t.equal(second.status, 0, second.stderr);
  t.match(second.stdout, '\nStill using First Ltd: acct use "Second Ltd" switches to Second Ltd (or pass --org to one command).\n');
  t.match(second.stdout, /\n {2}work on it: +acct --data \S+ use "Second Ltd"\n/, 'the first next step switches');
  t.equal(await inUse(t, dir), 'First Ltd', 'the choice is unchanged');

  const third = await runCliInProcess(['--data', dir, 'init', ...org('Third Ltd'), '--use']);
  t.equal(third.status, 0, third.stderr);
  t.match(third.stdout, '\nNow using Third Ltd instead of First Ltd.\n');
  t.notMatch(third.stdout, /work on it/);
  t.equal(await inUse(t, dir), 'Third Ltd');
});

t.test('--json prints only its object, and keeps the choice too', async (t) => {
  const dir = t.testdir();
  await init(t, dir, org('First Ltd').slice(0, -1));
  const r = await runCliInProcess(['--data', dir, '--json', 'init', ...org('Second Ltd')]);
  t.equal(r.status, 0);
  t.same(Object.keys(JSON.parse(r.stdout) as object), ['organisationId', 'apiKey', 'testApiKey']);
  t.equal(r.stderr, '');
  t.equal(await inUse(t, dir), 'First Ltd');
});

t.test('with several organisations and none chosen, init chooses the new one', async (t) => {
  const dir = t.testdir();
  await init(t, dir, org('First Ltd').slice(0, -1));
  await init(t, dir, [...org('Second Ltd').slice(0, -1), '--use']);
  // Forget the choice, as a data directory made by another tool would have none.
  const store = SqliteStore.open(dir);
  await store.platform.write((trx) => trx.deleteFrom('platform_settings').where('key', '=', 'cli.organisation').execute());
  await store.close();
  const several = await runCliInProcess(['--data', dir, 'organisation', 'get']);
  t.equal(several.status, 2, 'none in use');
  await init(t, dir, org('Third Ltd').slice(0, -1));
  t.equal(await inUse(t, dir), 'Third Ltd');
});

t.test('the real bin/acct: init without --use keeps the chosen organisation, on a terminal and piped', async (t) => {
  const dir = t.testdir();
  t.equal(runCli(['--data', dir, 'init', ...org('First Ltd')]).status, 0);
  const terminal = runCliOnTerminal(['--data', dir, 'init', ...org('Second Ltd')]);
  t.equal(terminal.status, 0, terminal.stdout);
  t.match(terminal.stdout, 'Still using First Ltd: acct use "Second Ltd" switches to Second Ltd');
  t.match(terminal.stdout, /Next steps:\r\n/);
  const piped = runCli(['--data', dir, 'init', ...org('Third Ltd')]);
  t.equal(piped.status, 0, piped.stderr);
  t.match(piped.stdout, 'Still using First Ltd: acct use "Third Ltd" switches to Third Ltd');
  t.equal(await inUse(t, dir), 'First Ltd');
  const used = runCli(['--data', dir, 'init', ...org('Fourth Ltd'), '--use']);
  t.match(used.stdout, 'Now using Fourth Ltd instead of First Ltd.');
  t.equal(await inUse(t, dir), 'Fourth Ltd');
});

t.test('the real bin/acct: next steps on a terminal too narrow for them put each command whole under its label', async (t) => {
  // A short folder, as people's are (the test folder's name alone is wider than the terminal).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  // "  add a customer:              acct --data DIR contacts create …" is over 100 columns; at 80 each command goes under its label.
  const narrow = runCliOnTerminalAt(80, ['--data', dir, 'init', ...org('First Ltd')]);
  t.equal(narrow.status, 0, narrow.stdout);
  const steps = narrow.stdout.slice(narrow.stdout.indexOf('Next steps:'));
  // Broken between words with the shell's \, a flag kept with its value: every line fits.
  t.same(
    steps.split('\n').filter((line) => line.length > 80),
    [],
    'no line past 80 columns',
  );
  t.notMatch(steps, /--name \\\n/, 'a flag is not parted from its value');
  // Pasted into a shell, the continued lines are the one command.
  const joined = steps.replace(/ \\\n +/g, ' ');
  t.match(joined, `Next steps:\n  add a customer:\n    acct --data ${dir} contacts create --contact-type customer --name "Bob Ltd" --email bob@example.com\n`);
  t.match(joined, `\n  serve the API to your tools:\n    acct --data ${dir} serve\n`);
  // Piped (a script's log), one line each as before.
  const piped = runCli(['--data', dir, 'init', ...org('Second Ltd')]);
  t.match(piped.stdout, /\n {2}add a customer: +acct --data \S+ contacts create/);
});
