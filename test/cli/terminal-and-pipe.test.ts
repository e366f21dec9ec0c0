/**
 * Issue 19's items through the real bin/acct, each twice: on a
 * pseudo-terminal (as a person types it) and piped (as a script runs it).
 * Natural keys, the streamed ledger, complete JSON lists, period words and
 * the version behave the same both ways; only colour differs.
 */
import fs from 'node:fs';
import t from 'tap';
import { runCli, runCliOnTerminal } from '../helpers/index.js';
import { acctJson, books, runCliOnTerminalAt } from './support.js';

/** What a pseudo-terminal gives back, as a pipe would: \r\n line ends become \n. */
const plain = (text: string): string => text.replace(/\r\n/g, '\n');
const ansi = /\u001b\[\d+m/;

t.test('natural keys, the ledger, lists, dates and the version: the same on a terminal and in a pipe', async (t) => {
  const { dir } = await books(t);
  const bob = await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob Ltd']);
  const invoice = await acctJson(t, dir, ['invoices', 'create', '--contact-id', 'Bob', '--issue-date', '2026-02-10', '--item', 'Consulting;1;500.00;standard']);
  await acctJson(t, dir, ['invoices', 'send', 'INV-0001']);
  await acctJson(t, dir, ['invoices', 'pay', 'INV-0001', '--amount', '600.00', '--date', '2026-02-20']);

  const both = (args: string[]) => ({ terminal: runCliOnTerminal(['--data', dir, ...args]), piped: runCli(['--data', dir, ...args]) });

  // 1. An invoice by its number, a contact by the start of its name.
  const got = both(['--json', 'invoices', 'get', 'INV-0001']);
  for (const [how, r] of Object.entries(got)) {
    t.equal(r.status, 0, `${how}: ${r.stderr}`);
    t.match(JSON.parse(plain(r.stdout)), { id: invoice.id, contactId: bob.id, total: 60000 }, `${how}: INV-0001 is the invoice`);
  }

  // 2. The ledger streamed: £500.00 + 20% VAT = £600.00 received on 20 February.
  const csv = both(['ledger', '1200', '--csv']);
  const expected = 'date,description,reference,debit,credit,balance\n,Opening balance,,,,0.00\n';
  for (const [how, r] of Object.entries(csv)) {
    t.equal(r.status, 0, how);
    t.match(plain(r.stdout), expected, `${how}: the header and the opening row`);
    t.match(plain(r.stdout), /^2026-02-20,[^,\n]*,[^,\n]*,600\.00,,600\.00$/m, `${how}: the receipt with its running balance`);
    t.notMatch(r.stdout, ansi, `${how}: CSV is never coloured`);
  }
  const table = both(['ledger', '1200']);
  t.match(table.terminal.stdout, ansi, 'the table on a terminal has a bold header');
  t.notMatch(table.piped.stdout, ansi, 'piped, no colour');
  t.match(table.piped.stdout, /^\s*Closing balance\s+600\.00\s+0\.00\s+600\.00\s+Dr/m, 'a debit balance says Dr');
  const sales = both(['ledger', '4000']);
  // The invoice's £500.00 net is a credit on 4000 Sales: 500.00 Cr, not -500.00.
  t.match(sales.piped.stdout, /^\s*Closing balance\s+0\.00\s+500\.00\s+500\.00\s+Cr/m);
  t.match(plain(sales.terminal.stdout), /Closing balance\s+0\.00\s+500\.00\s+500\.00\s+Cr/);

  // 3. Every list under --json is an array, the wrapped ones too.
  for (const args of [
    ['contacts', 'list'],
    ['accounts', 'list', '--flat', 'true'],
    ['periods', 'list'],
  ]) {
    const r = both(['--json', ...args]);
    t.ok(Array.isArray(JSON.parse(plain(r.terminal.stdout))), `${args.join(' ')} on a terminal: an array`);
    t.same(JSON.parse(plain(r.terminal.stdout)), JSON.parse(r.piped.stdout), `${args.join(' ')}: the same both ways`);
  }

  // 6. Period words, and a day-first date's hint.
  const quarter = both(['--json', 'report', 'profit-loss', '--from', '2026-Q1']);
  for (const [how, r] of Object.entries(quarter)) {
    // The invoice's £500.00 net is the quarter's revenue.
    t.match(JSON.parse(plain(r.stdout)), { period: { from: '2026-01-01', to: '2026-03-31' }, revenue: { total: 50000 } }, `${how}: 2026-Q1`);
  }
  const dayFirst = both(['report', 'profit-loss', '--from', '31/03/2026']);
  t.equal(dayFirst.piped.status, 2);
  t.match(dayFirst.piped.stderr, /2026-03-31/, 'piped: the hint names the date meant');
  t.match(plain(dayFirst.terminal.stdout), /2026-03-31/, 'on a terminal too (standard error is the terminal)');

  // 10. The version, as package.json says.
  const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const v = both(['--version']);
  t.equal(plain(v.terminal.stdout), `${version}\n`);
  t.equal(v.piped.stdout, `${version}\n`);
});

t.test('acct ledger on a narrow terminal cuts the description to fit; piped or --wide it is whole', async (t) => {
  const { dir } = await books(t);
  const long = 'Quarterly maintenance of the kiln, glaze room extractor fans and the loading bay door';
  await acctJson(t, dir, ['post', '2026-05-01', long, '5100=250.00', '1200=-250.00']);
  const narrow = runCliOnTerminalAt(70, ['--data', dir, 'ledger', '1200']);
  t.equal(narrow.status, 0);
  const lines = narrow.stdout.trimEnd().split('\n');
  t.ok(
    // Trailing spaces count: a line one column too wide wraps, and the terminal shows a blank line under every row.
    lines.every((l) => l.length <= 70),
    'no line past 70 columns, its trailing spaces included',
  );
  t.match(narrow.stdout, /  Quarterly maint…  /, 'the description cut with … to 16 columns, the least it keeps');
  t.match(narrow.stdout, /250\.00 +250\.00 +Cr/, 'the amounts whole: £250.00 out of the bank leaves it 250.00 Cr');
  t.ok(runCli(['--data', dir, 'ledger', '1200']).stdout.includes(long), 'piped: whole');
  t.ok(runCliOnTerminalAt(70, ['--data', dir, '--wide', 'ledger', '1200']).stdout.includes(long), '--wide: whole');
});

t.test('acct ledger at 60 and 56 columns: the reference goes, then the description narrows; dates and amounts stay whole', async (t) => {
  const { dir } = await books(t);
  const long = 'Quarterly maintenance of the kiln, glaze room extractor fans and the loading bay door';
  await acctJson(t, dir, ['post', '2026-05-01', long, '5100=1,250.00', '1200=-1,250.00', '--reference', 'KILN-2026-Q2-0042']);
  // 10 date + 8 description + 5 debit + 8 credit + 8 balance + 5 Dr/Cr + 5 gaps of 2 = 54 columns at the least.
  for (const columns of [60, 56]) {
    const narrow = runCliOnTerminalAt(columns, ['--data', dir, 'ledger', '1200']);
    t.equal(narrow.status, 0);
    const lines = narrow.stdout.trimEnd().split('\n');
    t.ok(
      lines.every((l) => l.length <= columns),
      `no line past ${columns} columns: ${JSON.stringify(lines.filter((l) => l.length > columns))}`,
    );
    t.notMatch(narrow.stdout, /reference|KILN/, 'the reference column gives way first');
    // £1,250.00 out of the bank on 1 May: the row keeps its date, its credit and the balance, 1,250.00 Cr.
    t.match(narrow.stdout, /2026-05-01 +Qu[^\n]*?… +1,250\.00 +1,250\.00 +Cr/, 'the date, the cut description, the amounts whole');
  }
  t.match(runCliOnTerminalAt(80, ['--data', dir, 'ledger', '1200']).stdout, /KILN/, 'at 80 columns the reference still fits, cut');

  // The general ledger at 70 columns keeps each row's date (the reference goes, account and description are cut).
  const report = runCliOnTerminalAt(70, ['--data', dir, 'report', 'general-ledger', '--from', '2026-05-01', '--to', '2026-05-31']);
  t.equal(report.status, 0);
  const rows = report.stdout.trimEnd().split('\n');
  t.ok(
    rows.every((l) => l.length <= 70),
    `no line past 70 columns: ${JSON.stringify(rows.filter((l) => l.length > 70))}`,
  );
  t.match(report.stdout, /2026-05-01 +Qu[^\n]*?… +1,250\.00/, 'the date kept beside the cut description and the amount');
});

t.test('acct use lists the organisations within a narrow terminal; piped, every column', async (t) => {
  const { dir } = await books(t, { name: 'The Long-Established Wensleydale Cheese and Pottery Company Limited' });
  const narrow = runCliOnTerminalAt(60, ['--data', dir, 'use']);
  t.equal(narrow.status, 0);
  t.ok(
    narrow.stdout
      .trimEnd()
      .split('\n')
      .every((l) => l.length <= 60),
    'no line past 60 columns',
  );
  t.match(narrow.stdout, /The Long-Establish\S*…/, 'the name cut with …');
  t.match(narrow.stdout, /left out, --wide shows/, 'what was left out is said');
  const piped = runCli(['--data', dir, 'use']);
  t.ok(piped.stdout.includes('The Long-Established Wensleydale Cheese and Pottery Company Limited'), 'piped: the whole name');
  t.notMatch(piped.stdout, /left out/);
});
