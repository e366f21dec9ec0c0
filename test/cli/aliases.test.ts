/**
 * One name for each idea (--as-of, --from, --to, --reference), the old
 * names hidden but working; errors that name the flag typed; and "Did you
 * mean" for a misspelt flag, a hidden old name's included.
 */
import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { flagsOf } from '../../src/cli/generate.js';
import { acctJson, books } from './support.js';
import { runCli, runCliInProcess, runCliOnTerminal } from '../helpers/index.js';

t.test('no generated command shows --as-of-date, --from-date or --to-date; each has --as-of, --from, --to', async (t) => {
  const shown = operations.filter((o) => !o.cli.custom).flatMap((o) => flagsOf(o).map((f) => [o.name, f.names[0]!, f.names.slice(1)] as const));
  t.strictSame(
    shown.filter(([, name]) => ['as-of-date', 'from-date', 'to-date', 'ref'].includes(name)),
    [],
    'old names shown',
  );
  const invoices = (await runCliInProcess(['invoices', 'list', '--help'])).stdout;
  t.match(invoices, /\n {2}--from <date> /);
  t.match(invoices, /\n {2}--to <date> +last day; as --from takes/);
  t.notMatch(invoices, /--from-date|--to-date/);
  const aged = (await runCliInProcess(['report', 'aged-debtors', '--help'])).stdout;
  t.match(aged, /\n {2}--as-of <date> /);
  t.notMatch(aged, /--as-of-date/);
  const post = (await runCliInProcess(['post', '--help'])).stdout;
  t.match(post, /\n {2}--reference <text> /);
  t.notMatch(post, /--ref /);
});

t.test('the old names work as before, give the same result, and cannot be given with the new', async (t) => {
  const { dir } = await books(t);
  const bob = await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob Ltd']);
  await acctJson(t, dir, ['invoices', 'create', '--contact-id', bob.id, '--issue-date', '2026-01-15', '--item', 'A;1;100.00;standard']);
  await acctJson(t, dir, ['invoices', 'create', '--contact-id', bob.id, '--issue-date', '2026-03-15', '--item', 'B;1;100.00;standard']);
  const numbers = (rows: { issueDate: string }[]) => rows.map((r) => r.issueDate);
  const byNew = await acctJson(t, dir, ['invoices', 'list', '--from', '2026-03-01', '--to', '2026-03-31']);
  const byOld = await acctJson(t, dir, ['invoices', 'list', '--from-date', '2026-03-01', '--to-date', '2026-03-31']);
  t.strictSame(numbers(byNew), ['2026-03-15']);
  t.strictSame(numbers(byOld), ['2026-03-15']);
  t.strictSame(numbers(await acctJson(t, dir, ['invoices', 'list', '--from', '2026-Q1'])), ['2026-03-15', '2026-01-15'], 'a period word in --from');

  const agedNew = await acctJson(t, dir, ['report', 'aged-debtors', '--as-of', '2026-03-31']);
  const agedOld = await acctJson(t, dir, ['report', 'aged-debtors', '--as-of-date', '2026-03-31']);
  t.strictSame(agedNew, agedOld, '--as-of and --as-of-date: the same report');

  const both = await runCliInProcess(['--data', dir, 'invoices', 'list', '--from', '2026-03-01', '--from-date', '2026-03-01']);
  t.equal(both.status, 2);
  t.match(both.stderr, /error: option '--from-date <date>' cannot be used with option '--from <date>'/);

  const refNew = await acctJson(t, dir, ['post', '2026-03-01', 'Charges', '5800=5', '1200=-5', '--reference', 'MAR']);
  const refOld = await acctJson(t, dir, ['post', '2026-03-02', 'Charges', '5800=5', '1200=-5', '--ref', 'APR']);
  t.equal(refNew.reference, 'MAR', '--reference');
  t.equal(refOld.reference, 'APR', '--ref, the old name');
});

t.test('a date error names the flag as typed, old name or new', async (t) => {
  const { dir } = await books(t);
  const bad = await runCliInProcess(['--data', dir, 'report', 'aged-debtors', '--as-of', '2026-02-30']);
  t.equal(bad.stderr, 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field --as-of)\n');
  const old = await runCliInProcess(['--data', dir, 'report', 'aged-debtors', '--as-of-date', '2026-02-30']);
  t.equal(old.stderr, 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field --as-of-date)\n');
});

t.test('errors name the flag or argument typed, not the API field', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob Ltd']);
  const run = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);

  const noItems = await run('invoices', 'create', '--contact-id', 'Bob');
  t.equal(noItems.status, 2);
  t.equal(noItems.stderr, 'error validation_error: --item is required (field --item)\n');

  const second = await run('invoices', 'create', '--contact-id', 'Bob', '--item', 'A;1;10.00;standard', '--item', 'B;1;10.00;luxury');
  t.equal(second.stderr, 'error validation_error: --item 2 vatRate must be one of standard, reduced, zero, exempt (field --item 2 vatRate)\n');
  const quantity = await run('invoices', 'create', '--contact-id', 'Bob', '--item', 'A;1;10.00;standard', '--item', 'B;x;10.00;standard');
  t.equal(quantity.stderr, 'error validation_error: --item 2 quantity must be a number, not x (field --item 2 quantity)\n');

  const json = await run('--json', 'invoices', 'create', '--contact-id', 'Bob', '--item', 'A;1;10.00;standard', '--currency', 'gbp');
  t.strictSame(JSON.parse(json.stderr), {
    error: { code: 'validation_error', message: '--currency must be an ISO 4217 code such as GBP', field: '--currency' },
  });

  const required = await run('dividends', 'profit-check');
  t.match(required.stderr, /\(field --financial-year-end\)\n$/, 'a required flag not given is named as a flag');

  const body = await run('--json', 'settings', 'update', '--body', '{"invoiceNextNumber":"forty"}');
  t.strictSame(
    JSON.parse(body.stderr),
    { error: { code: 'invalid_type', message: 'invoiceNextNumber must be a number, not string', field: 'invoiceNextNumber' } },
    'a field sent in --body keeps its name there',
  );

  const post = await run('post', '2026-03-01', 'Charges', '5800=5', '1200=-5x');
  t.equal(
    post.stderr,
    'error validation_error: 2nd CODE=AMOUNT 1200=-5x: the amount must be an amount in pounds such as 120.00, not -5x (field CODE=AMOUNT 2)\n',
  );
  const account = await run('post', '2026-03-01', 'Charges', '5800=5', '7777=-5');
  t.equal(account.stderr, 'error validation_error: 2nd CODE=AMOUNT 7777=-5: no account with code 7777 (field CODE=AMOUNT 2)\n');
  const zero = await run('post', '2026-11-30', 'x', '5100=0', '1200=0');
  t.equal(zero.stderr, 'error validation_error: 1st CODE=AMOUNT 5100=0: the amount must not be zero (field CODE=AMOUNT 1)\n', 'a zero line named as typed');
});

t.test('a misspelt flag gets "Did you mean", on generated and hand-written commands, near an old name too', async (t) => {
  const cases: [string[], string][] = [
    [['invoices', 'list', '--sttus', 'paid'], '--status'],
    [['invoices', 'list', '--from-dat', '2026-01-01'], '--from'],
    [['report', 'aged-debtors', '--as-of-dat', '2026-01-01'], '--as-of'],
    [['invoices', 'create', '--contact', 'Bob'], '--contact-id'],
    [['ledger', '1200', '--fron', '2026-01-01'], '--from'],
    [['post', '2026-03-01', 'x', '5800=5', '--refrence', 'X'], '--reference'],
    [['post', '2026-03-01', 'x', '5800=5', '--rf', 'X'], '--ref'],
    [['bank', 'import', 'statement.csv', '--acount', '1210'], '--account'],
    [['invoices', 'list', '--jsn'], '--json'],
  ];
  for (const [args, suggested] of cases) {
    const r = await runCliInProcess(args);
    t.equal(r.status, 2, args.join(' '));
    const flag = args.find((a) => a.startsWith('--'))!;
    const wanted = suggested === '--ref' ? '--reference' : suggested;
    t.equal(r.stderr, `error: unknown option '${flag}'\n(Did you mean ${wanted}?)\n`, args.join(' '));
  }
  const far = await runCliInProcess(['invoices', 'list', '--zzzzzz']);
  t.equal(far.stderr, "error: unknown option '--zzzzzz'\n", 'nothing near: no suggestion');
});

t.test("the command's own flags come before the global ones, and words people use for them are suggested", async (t) => {
  const cases: [string[], string][] = [
    // --date is one edit from the global --data (the data directory), which it must not suggest.
    [['report', 'profit-loss', '--date', '2026-03'], '--from and --to'],
    [['report', 'profit-loss', '--period', '2026-Q1'], '--from and --to'],
    [['report', 'profit-loss', '--as-of', '2026-03'], '--from and --to'],
    [['report', 'profit-loss', '--compare'], '--comparative'],
    [['report', 'balance-sheet', '--to', '2026-03'], '--as-of'],
    [['report', 'balance-sheet', '--date', '2026-03'], '--as-of'],
  ];
  for (const [args, wanted] of cases) {
    const r = await runCliInProcess(args);
    t.equal(r.status, 2, args.join(' '));
    const flag = args.find((a) => a.startsWith('--'))!;
    t.equal(r.stderr, `error: unknown option '${flag}'\n(Did you mean ${wanted}?)\n`, args.join(' '));
  }
  const orgs = await runCliInProcess(['admin', 'organisations']);
  t.equal(orgs.status, 2);
  t.match(orgs.stderr, /^error: unknown command 'organisations'\n\(Did you mean orgs\?\)\n$/, 'a command written out in full: its short name');
});

t.test('the real acct suggests a flag, piped and on a terminal', async (t) => {
  const piped = runCli(['invoices', 'list', '--from-dat', '2026-01-01']);
  t.equal(piped.status, 2);
  t.equal(piped.stderr, "error: unknown option '--from-dat'\n(Did you mean --from?)\n");
  const terminal = runCliOnTerminal(['invoices', 'create', '--curency', 'GBP']);
  t.equal(terminal.status, 2);
  t.match(terminal.stdout, /error: unknown option '--curency'\r?\n\(Did you mean --currency\?\)/);
});
