/**
 * Start-up: a run builds the commands of the group it names and leaves the
 * others as bare group commands; help without a group still lists every
 * group with its summary, and the run still finds its command behind
 * global options that take values.
 */
import t from 'tap';
import { commandWord } from '../../src/cli/main.js';
import { operations } from '../../src/engine/registry.js';
import { acctJson, books } from './support.js';
import { runCli, runCliInProcess } from '../helpers/index.js';

t.test('the command word is the first word that is not a global option or its value', async (t) => {
  t.equal(commandWord(['report', 'trial-balance']), 'report');
  t.equal(commandWord(['--data', 'report', 'accounts', 'list']), 'accounts', 'a value of --data is not the command');
  t.equal(commandWord(['--json', '--org', 'x', '--test', 'contacts', 'list']), 'contacts');
  t.equal(commandWord(['--data=somewhere', 'keys', 'list']), 'keys', 'the --flag=value form takes no separate value');
  t.equal(commandWord(['--smtp', 'smtp://h:25', 'invoices', 'send', 'inv_1']), 'invoices');
  t.equal(commandWord(['help', 'contacts']), undefined, 'help builds everything');
  t.equal(commandWord(['--help']), undefined);
  t.equal(commandWord([]), undefined);
  t.equal(commandWord(['--', 'report']), 'report');
});

t.test('acct --help lists every group with its own summary', async (t) => {
  const r = runCli(['--help']);
  t.equal(r.status, 0);
  const groups = new Set(operations.map((op) => op.cli.group));
  for (const group of groups) t.match(r.stdout, new RegExp(`^  ${group}\\b`, 'm'), `${group} is listed`);
  t.notMatch(r.stdout, / operations$/m, 'no group falls back to "<group> operations"');
});

t.test('a group named on the command line is built whole: its help, its flags, its commands', async (t) => {
  const help = runCli(['contacts', '--help']);
  t.equal(help.status, 0);
  for (const op of operations.filter((o) => o.cli.group === 'contacts'))
    t.match(help.stdout, new RegExp(`^  ${op.cli.action}\\b`, 'm'), `contacts ${op.cli.action}`);
  const full = await runCliInProcess(['help', 'invoices']);
  t.match(full.stdout, /^ {2}create\b/m, 'acct help GROUP lists its commands too');

  const { dir } = await books(t);
  const created = await acctJson(t, dir, ['contacts', 'create', '--name', 'Lazy Ltd', '--contact-type', 'customer']);
  t.equal(created.name, 'Lazy Ltd');
  const tb = runCli(['--data', dir, '--json', 'report', 'trial-balance']);
  t.equal(tb.status, 0, tb.stderr);
  t.ok(Array.isArray(JSON.parse(tb.stdout).accounts));
  const health = await runCliInProcess(['--data', dir, 'health', '--json']);
  t.equal(health.status, 0, 'a group that is itself the operation still runs');
});

t.test('an unknown command is still a usage error with a suggestion', async (t) => {
  const r = runCli(['contact', 'list']);
  t.equal(r.status, 2);
  t.match(r.stderr, /unknown command 'contact'/);
  t.match(r.stderr, /contacts/);
});

t.test('output piped into a reader that stops early ends quietly', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const { acctBin, assertDistFresh, childEnv } = await import('../helpers/index.js');
  assertDistFresh();
  const r = spawnSync('sh', ['-c', `env -u NODE_OPTIONS "${process.execPath}" "${acctBin}" contacts create --help | head -1`], {
    env: childEnv(),
    encoding: 'utf8',
  });
  t.equal(r.stdout, 'Usage: acct contacts create [options]\n', r.stderr);
  t.equal(r.stderr, '', 'no EPIPE stack');
});
