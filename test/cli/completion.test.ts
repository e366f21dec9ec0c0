/**
 * acct completion bash|zsh|fish: scripts made from the program. The bash
 * script is driven in a bash subprocess as bash's programmable completion
 * would (COMP_WORDS, COMP_CWORD, then the function `complete -p` names);
 * zsh and fish scripts are syntax-checked when those shells are installed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { flagsOf } from '../../src/cli/generate.js';
import { runCli, runCliInProcess, runCliOnTerminal } from '../helpers/index.js';

const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

async function script(shell: string): Promise<string> {
  const r = await runCliInProcess(['completion', shell]);
  if (r.status !== 0) throw new Error(`acct completion ${shell}: ${r.stderr}`);
  return r.stdout;
}

/** What bash completes for the command line `words` (the last one being completed), with the script loaded. */
function complete(file: string, words: readonly string[]): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const program = [
    `source ${file}`,
    // The function bash would call for acct, as `complete -p acct` names it.
    `fn=$(complete -p acct | sed -E 's/.*-F ([^ ]+).*/\\1/')`,
    `COMP_WORDS=(${quoted})`,
    `COMP_CWORD=${words.length - 1}`,
    'COMPREPLY=()',
    '"$fn"',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bash: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter((w) => w !== '')
    .sort();
}

t.test('the bash script parses, registers a function for acct, and completes groups, actions and flags', async (t) => {
  const dir = t.testdir();
  const file = path.join(dir, 'acct.bash');
  fs.writeFileSync(file, await script('bash'));
  const check = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
  t.equal(check.status, 0, `bash -n: ${check.stderr}`);

  t.strictSame(complete(file, ['acct', 'inv']), ['invoice-imports', 'invoices']);
  t.strictSame(complete(file, ['acct', 'invoices', 'c']), ['create']);
  t.strictSame(complete(file, ['acct', 'invoices', 'create', '--c']), ['--contact-id', '--currency']);
  t.strictSame(complete(file, ['acct', 'invoices', 'list', '--status', '']), ['draft', 'overdue', 'paid', 'sent', 'void'], 'the values of an enum flag');
  t.strictSame(complete(file, ['acct', 'invoices', 'list', '--fr']), ['--from'], 'not the hidden --from-date');
  t.strictSame(complete(file, ['acct', '--data', 'invoices', 'inv']), ['invoice-imports', 'invoices'], "a global option's value is not a command word");
  t.strictSame(complete(file, ['acct', 'bank', 'im']), ['import'], 'a hand-written subcommand');
  t.strictSame(complete(file, ['acct', 'post', '--re']), ['--reference'], 'a hand-written command’s flags');
  t.strictSame(complete(file, ['acct', 'export', '--format', '']), ['beancount', 'hledger'], 'a hand-written flag’s values');
  t.strictSame(complete(file, ['acct', 'completion', '']), ['bash', 'fish', 'zsh'], 'the choices of an argument');
  t.ok(complete(file, ['acct', 'report', 'aged-debtors', '--']).includes('--json'), 'global flags after a command');
});

t.test('every generated flag is offered by the bash script', async (t) => {
  const text = await script('bash');
  const missing: string[] = [];
  for (const op of operations) {
    if (op.cli.custom) continue;
    for (const f of flagsOf(op)) if (!text.includes(`--${f.names[0]}`)) missing.push(`${op.name} --${f.names[0]}`);
  }
  t.strictSame(missing, []);
});

t.test('zsh and fish scripts hold the groups, and parse where the shell is installed', async (t) => {
  const dir = t.testdir();
  for (const shell of ['zsh', 'fish']) {
    const text = await script(shell);
    for (const group of ['invoices', 'report', 'credit-notes', 'post', 'completion']) t.match(text, group, `${shell}: ${group}`);
    t.match(text, 'contact-id', `${shell}: a flag`);
    const file = path.join(dir, `acct.${shell}`);
    fs.writeFileSync(file, text);
    if (!has(shell)) {
      t.comment(`${shell} is not installed: its script is not syntax-checked`);
      continue;
    }
    const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
    t.equal(check.status, 0, `${shell} -n: ${check.stderr}`);
  }
});

t.test('fish completes like bash, where fish is installed', async (t) => {
  if (!has('fish')) {
    t.comment('fish is not installed');
    return;
  }
  const dir = t.testdir();
  const file = path.join(dir, 'acct.fish');
  fs.writeFileSync(file, await script('fish'));
  const fish = (line: string): string[] => {
    const r = spawnSync('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`], { encoding: 'utf8' });
    return r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]!)
      .sort();
  };
  t.strictSame(fish('acct inv'), ['invoice-imports', 'invoices']);
  t.strictSame(fish('acct invoices c'), ['create']);
  t.strictSame(fish('acct invoices create --c'), ['--contact-id', '--currency']);
  t.strictSame(fish('acct invoices list --status '), ['draft', 'overdue', 'paid', 'sent', 'void']);
});

t.test('an unknown shell is refused', async (t) => {
  const r = await runCliInProcess(['completion', 'tcsh']);
  t.equal(r.status, 2);
  t.match(r.stderr, /value 'tcsh' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/);
});

t.test('the real acct completion bash, piped and on a terminal', async (t) => {
  const piped = runCli(['completion', 'bash']);
  t.equal(piped.status, 0);
  t.match(piped.stdout, /\ncomplete -o filenames -F _acct acct\n$/);
  t.match(piped.stdout, "'invoices') echo 'list create preview get");
  const terminal = runCliOnTerminal(['completion', 'bash']);
  t.equal(terminal.status, 0);
  t.equal(terminal.stdout.replace(/\r\n/g, '\n'), piped.stdout, 'the same script on a terminal');
});
