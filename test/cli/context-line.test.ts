/**
 * A command that writes names the books first, on a terminal: the
 * organisation, and "TEST books" under --test. Not a command that only
 * reads, not with --json, not into a pipe. In process (standard output
 * made to say it is a terminal), and through the real bin/acct on a
 * pseudo-terminal and piped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runCli, runCliInProcess, runCliOnTerminal, type CliResult } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';
import { books } from './support.js';

/** Run in process with standard output a terminal (isTTY), as a person at one would. */
async function onTerminal(args: readonly string[]): Promise<CliResult> {
  const was = process.stdout.isTTY;
  process.stdout.isTTY = true;
  try {
    return await runCliInProcess(args);
  } finally {
    process.stdout.isTTY = was;
  }
}

const firstLine = (text: string): string => text.split(/\r?\n/)[0] ?? '';
const customer = ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob Ltd'];

t.test('generated operations that write: the name first on a terminal, TEST books under --test', async (t) => {
  const { dir } = await books(t, { name: 'Dales Pottery Ltd' });
  const live = await onTerminal(['--data', dir, ...customer]);
  t.equal(live.status, 0, live.stderr);
  t.equal(firstLine(live.stdout), 'Dales Pottery Ltd');
  t.match(live.stdout, /Bob Ltd/, 'then what the command prints');
  t.equal(live.stdout.split('Dales Pottery Ltd').length, 2, 'once');

  const test = await onTerminal(['--data', dir, '--test', ...customer]);
  t.equal(test.status, 0, test.stderr);
  t.equal(firstLine(test.stdout), 'Dales Pottery Ltd · TEST books');

  const update = await onTerminal(['--data', dir, 'settings', 'update', '--invoice-prefix', 'DP-']);
  t.equal(firstLine(update.stdout), 'Dales Pottery Ltd', 'a PUT writes too');
  const remove = await onTerminal(['--data', dir, 'contacts', 'delete', 'Bob Ltd']);
  t.equal(firstLine(remove.stdout), 'Dales Pottery Ltd', 'and a DELETE');
});

t.test('not when the command only reads, not with --json, not into a pipe', async (t) => {
  const { dir } = await books(t, { name: 'Dales Pottery Ltd' });
  const list = await onTerminal(['--data', dir, 'contacts', 'list']);
  t.equal(list.status, 0, list.stderr);
  t.notMatch(list.stdout, 'Dales Pottery Ltd', 'a GET: nothing is written');
  const json = await onTerminal(['--data', dir, '--json', ...customer]);
  t.equal(json.status, 0, json.stderr);
  t.equal(JSON.parse(json.stdout).name, 'Bob Ltd', 'the JSON alone');
  const piped = await runCliInProcess(['--data', dir, ...customer.slice(0, -1), 'Carol Ltd']);
  t.equal(piped.status, 0, piped.stderr);
  t.notMatch(piped.stdout, 'Dales Pottery Ltd');
});

t.test('hand-written writers: post, import journal, bank import, bank reconcile', async (t) => {
  const { dir } = await books(t, { name: 'Dales Pottery Ltd' });
  const post = await onTerminal(['--data', dir, 'post', '2026-03-01', 'Clay', '5000=120.00', '1200=-120.00']);
  t.equal(post.status, 0, post.stderr);
  t.equal(firstLine(post.stdout), 'Dales Pottery Ltd');

  const journal = path.join(dir, 'history.jsonl');
  fs.writeFileSync(journal, '{"date":"2026-03-02","description":"Glaze","lines":[{"accountCode":"5000","amount":500},{"accountCode":"1200","amount":-500}]}\n');
  const imported = await onTerminal(['--data', dir, '--test', 'import', 'journal', journal]);
  t.equal(imported.status, 0, imported.stderr);
  t.equal(firstLine(imported.stdout), 'Dales Pottery Ltd · TEST books');

  const statement = fileURLToPath(projectFile('fixtures/bank-statements/starling.csv'));
  const bank = await onTerminal(['--data', dir, 'bank', 'import', statement]);
  t.equal(bank.status, 0, bank.stderr);
  t.equal(firstLine(bank.stdout), 'Dales Pottery Ltd');
  t.equal(bank.stdout.split('Dales Pottery Ltd').length, 2, 'once, though the import uploads then confirms');
  // The statement's 8 lines net £1,500.39 (the Clay entry is dated 2026, after --as-of). The table of lines came first.
  const reconciled = await onTerminal(['--data', dir, 'bank', 'reconcile', '1200', '--statement-balance', '1,500.39', '--as-of', '2024-03-31']);
  t.equal(reconciled.status, 0, reconciled.stderr);
  t.equal(firstLine(reconciled.stdout), 'Dales Pottery Ltd', 'bank reconcile: the name before its table of lines');
  t.match(reconciled.stdout, /transaction\s+date\s+description\s+amount/, 'then the table');
  t.equal(reconciled.stdout.split('Dales Pottery Ltd').length, 2, 'once');
});

t.test('the real bin/acct: the context line on a terminal, not piped', async (t) => {
  const { dir } = await books(t, { name: 'Dales Pottery Ltd' });
  const terminal = runCliOnTerminal(['--data', dir, '--test', ...customer], { env: { NO_COLOR: '1' } });
  t.equal(terminal.status, 0, terminal.stdout);
  t.equal(firstLine(terminal.stdout), 'Dales Pottery Ltd · TEST books');
  const dim = runCliOnTerminal(['--data', dir, ...customer.slice(0, -1), 'Carol Ltd']);
  t.equal(firstLine(dim.stdout), '\u001b[2mDales Pottery Ltd\u001b[22m', 'dim: colour is on at a terminal');
  const piped = runCli(['--data', dir, ...customer.slice(0, -1), 'Dan Ltd']);
  t.equal(piped.status, 0, piped.stderr);
  t.notMatch(piped.stdout, 'Dales Pottery Ltd');
  const reading = runCliOnTerminal(['--data', dir, 'contacts', 'list'], { env: { NO_COLOR: '1' } });
  t.notMatch(firstLine(reading.stdout), 'Dales Pottery Ltd', 'a command that only reads');
});
