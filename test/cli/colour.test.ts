/**
 * Colour by the conventions, through the real bin/acct on a pseudo-terminal
 * and piped: on a terminal the error word is red; NO_COLOR (not empty) and
 * --no-color turn colour off; FORCE_COLOR colours even into a pipe and wins
 * over NO_COLOR. And a command on a data directory that is not there is
 * refused without creating it (only acct init makes one).
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { acctCommand, childEnv, runCliInProcess, runCliOnTerminal } from '../helpers/index.js';
import { books } from './support.js';

const red = '\u001b[31m';

/** The real bin/acct with its output piped, and no colour variable but those given. */
function pipe(args: readonly string[], colour: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const [cmd, argv] = acctCommand(args);
  const env = childEnv();
  delete env['NO_COLOR'];
  delete env['FORCE_COLOR'];
  const r = spawnSync(cmd, argv, { env: { ...env, ...colour }, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}
const esc = '\u001b[';

t.test('colour on a terminal only, off with NO_COLOR or --no-color, forced with FORCE_COLOR', async (t) => {
  const { dir } = await books(t);
  const args = ['--data', dir, 'invoices', 'get', 'INV-0404'];

  const plain = runCliOnTerminal(args);
  t.equal(plain.status, 3);
  t.ok(plain.stdout.includes(`${red}error`), 'on a terminal the error word is red');
  t.match(plain.stdout, /not_found: no invoice "INV-0404"/);

  for (const [name, env, extra] of [
    ['NO_COLOR=1', { NO_COLOR: '1' }, []],
    ['--no-color', {}, ['--no-color']],
  ] as const) {
    const r = runCliOnTerminal([...extra, ...args], { env });
    t.equal(r.status, 3, name);
    t.notOk(r.stdout.includes(esc), `${name}: no escape codes on the terminal`);
    t.match(r.stdout, /^error not_found: no invoice "INV-0404"/, name);
  }
  const empty = runCliOnTerminal(args, { env: { NO_COLOR: '' } });
  t.ok(empty.stdout.includes(`${red}error`), 'an empty NO_COLOR counts as unset (no-color.org)');
  const both = runCliOnTerminal(args, { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
  t.ok(both.stdout.includes(`${red}error`), 'FORCE_COLOR wins over NO_COLOR');

  const piped = pipe(args, {});
  t.equal(piped.stderr, 'error not_found: no invoice "INV-0404" (field <id>)\n', 'piped, with no colour variable: no colour');
  const forced = pipe(args, { FORCE_COLOR: '1' });
  t.equal(forced.stderr, `${red}error\u001b[39m not_found: no invoice "INV-0404" (field <id>)\n`, 'FORCE_COLOR=1 colours a pipe too');
});

t.test('a command on a data directory that is not there is refused and creates nothing', async (t) => {
  const missing = path.join(t.testdir(), 'nothing-here');
  for (const args of [['organisation', 'get'], ['invoices', 'list'], ['ledger', '1200'], ['use']]) {
    const r = await runCliInProcess(['--data', missing, ...args]);
    t.equal(r.status, 3, args.join(' '));
    t.equal(r.stderr, `error not_found: no organisation in ${missing}: run acct init first\n`);
    t.notOk(fs.existsSync(missing), `acct ${args.join(' ')} created nothing`);
  }
  const onTerminal = runCliOnTerminal(['--data', missing, 'accounts', 'list']);
  t.equal(onTerminal.status, 3);
  t.notOk(fs.existsSync(missing), 'nor through bin/acct');
});
