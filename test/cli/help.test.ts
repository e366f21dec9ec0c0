/**
 * Help that teaches: every generated flag names its format and gives an
 * example, groups and common actions show examples (in --help and in
 * acct(1)), and every example is a command the program accepts.
 */
import t from 'tap';
import type { Command } from 'commander';
import { operations } from '../../src/engine/registry.js';
import { flagsOf } from '../../src/cli/generate.js';
import { jsonSchemaOf } from '../../src/engine/input.js';
import { isDateProp } from '../../src/cli/date-flags.js';
import { groupExamples, operationExamples } from '../../src/cli/examples.js';
import { handWritten } from '../../src/cli/help.js';
import { buildProgram } from '../../src/cli/main.js';
import { renderAcct1 } from '../../src/cli/man.js';
import { runCli, runCliInProcess, runCliOnTerminal } from '../helpers/index.js';
import { runCliOnTerminalAt } from './support.js';

/** The help of one flag: its line and the lines it wraps onto, joined. */
function flagHelp(help: string, flag: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(`${flag} `));
  if (start < 0) return '';
  const out = [lines[start]!.trim()];
  for (const l of lines.slice(start + 1)) {
    if (!/^\s{10,}\S/.test(l)) break;
    out.push(l.trim());
  }
  return out.join(' ');
}

t.test("a bill's --item is a purchase: the supplier's rate, an expense account, a purchase for its example", async (t) => {
  for (const action of ['create', 'update']) {
    const r = await runCliInProcess(['bills', action, '--help']);
    t.equal(r.status, 0);
    const item = flagHelp(r.stdout, '--item');
    // It read as an invoice's: "left out on a sale of a business not registered for VAT", e.g. "Consulting;1.5;500.00;standard;4100" (4100 Other Income, a revenue account).
    t.notMatch(item, /sale|Consulting|4100/, `bills ${action}`);
    t.match(item, /the supplier's rate: standard, reduced, zero or exempt/, `bills ${action}`);
    t.match(item, /expense or asset account .*5000 Cost of Sales when left out/, `bills ${action}`);
    t.match(item, /e\.g\. "Printer paper;10;4\.50;standard;5100"$/, `bills ${action}`);
  }
  const invoice = flagHelp((await runCliInProcess(['invoices', 'create', '--help'])).stdout, '--item');
  t.match(invoice, /left out on a sale of a business not registered for VAT.*e\.g\. "Consulting;1\.5;500\.00;standard;4100"$/, 'an invoice keeps the sale');
});

t.test('acct invoices create --help: each flag names its format, what it is, and an example', async (t) => {
  const r = await runCliInProcess(['invoices', 'create', '--help']);
  t.equal(r.status, 0);
  t.notMatch(r.stdout, /<value>/, 'no flag is a bare <value>');
  t.match(flagHelp(r.stdout, '--currency'), /^--currency <code> +ISO 4217 currency code; e\.g\. GBP$/);
  t.match(flagHelp(r.stdout, '--notes'), /^--notes <text> +notes; up to 2000 characters; null clears it; e\.g\. "Thank you for your business"$/);
  t.match(flagHelp(r.stdout, '--issue-date'), /^--issue-date <date> +issue date; YYYY-MM-DD, today or yesterday; e\.g\. 2026-03-31$/);
  t.match(flagHelp(r.stdout, '--due-days'), /^--due-days <n> +due days; whole number; 0 to 365; e\.g\. 30$/);
  t.match(flagHelp(r.stdout, '--contact-id'), /^--contact-id <name\|id> +.*e\.g\. "Bob Ltd"$/);
  t.match(r.stdout, /\nExamples:\n {2}\$ acct invoices create --contact-id "Bob Ltd" --item "Consulting;1\.5;500\.00;standard;4100"\n/);
});

t.test('placeholders name the format: pounds, an enum, an e-mail, a list, a key', async (t) => {
  const pay = (await runCliInProcess(['invoices', 'pay', '--help'])).stdout;
  t.match(flagHelp(pay, '--amount'), /^--amount <pounds> +amount; in pounds; e\.g\. 1,250\.00$/);
  t.match(
    flagHelp(pay, '--method'),
    /^--method <bank_transfer\|card\|cash\|other> +method; one of bank_transfer, card, cash, other; default "bank_transfer"; e\.g\. bank_transfer$/,
  );
  t.match(flagHelp(pay, '--account-id'), /^--account-id <code\|id> +.*e\.g\. 4000$/);
  const contact = (await runCliInProcess(['contacts', 'create', '--help'])).stdout;
  t.match(flagHelp(contact, '--email'), /^--email <email> +.*e-mail address.*e\.g\. jo@example\.com$/);
  const key = (await runCliInProcess(['keys', 'create', '--help'])).stdout;
  t.match(flagHelp(key, '--scopes'), /^--scopes <list> +.*comma-separated list.*e\.g\. reports:read,invoices:write$/);
  const list = (await runCliInProcess(['accounts', 'list', '--help'])).stdout;
  t.match(flagHelp(list, '--flat'), /^--flat \[bool\] +flat; true or false \(the flag alone: true\); default false; e\.g\. true$/);
});

t.test('every generated flag has a description with its example, and a placeholder that names a format', async (t) => {
  const missing: string[] = [];
  for (const op of operations) {
    if (op.cli.custom) continue;
    for (const f of flagsOf(op)) {
      if (/<value>/.test(f.flag) || f.example === null || !f.description.includes(`e.g. ${f.example}`)) missing.push(`${op.name} ${f.flag}: ${f.description}`);
    }
  }
  t.strictSame(missing, [], 'flags without a format or an example');
});

/** The words of a command line's first command as a shell splits them (quotes; no expansions; up to a redirection or pipe). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.replace(/\s+#.*$/, '').matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    if (m[3] !== undefined && /^(>|<|\||&&|;)/.test(m[3])) break;
    words.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return words;
}

/** Why the program would refuse an example (a command or flag it does not have), or null. */
function refusal(program: Command, example: string): string | null {
  const words = shellWords(example);
  if (words[0] !== 'acct') return `does not start with acct`;
  let command = program;
  const known = (c: Command, flag: string): boolean => {
    for (let at: Command | null = c; at; at = at.parent) if (at.options.some((o) => o.long === flag || o.short === flag)) return true;
    return false;
  };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('-')) {
      if (!known(command, word.split('=')[0]!)) return `${word} is not a flag of acct ${command.name()}`;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word);
    if (sub) command = sub;
  }
  return command === program ? 'names no command' : null;
}

t.test('every example names a command and only flags it has', async (t) => {
  const program = await buildProgram();
  const examples = [
    ...Object.values(groupExamples).flat(),
    ...Object.values(operationExamples).flat(),
    ...Object.values(handWritten)
      .flatMap((d) => d.examples)
      .filter((e) => e.startsWith('acct ')),
  ];
  t.ok(examples.length > 100, `${examples.length} examples`);
  const bad = examples.map((e) => [e, refusal(program, e)]).filter(([, why]) => why !== null);
  t.strictSame(bad, [], 'examples the program would refuse');
  t.equal(refusal(program, 'acct invoices create --contact "Bob"'), '--contact is not a flag of acct create', 'the check itself refuses a wrong flag');
  const names = new Set(operations.map((o) => o.name));
  t.strictSame(
    Object.keys(operationExamples).filter((n) => !names.has(n)),
    [],
    'examples keyed by operations that exist',
  );
});

const filledDates = new Set(['from', 'to', 'fromDate', 'toDate', 'startDate', 'endDate', 'periodStart', 'periodEnd', 'asOf', 'asOfDate']);

/**
 * The required fields of the operation an example runs that it gives no flag for, as "--flag" (empty when it gives them all,
 * names a hand-written command, or passes --body, which may carry them).
 */
function missingRequired(program: Command, example: string): string[] {
  const words = shellWords(example);
  let command = program;
  for (const word of words.slice(1)) {
    const sub = word.startsWith('-') ? undefined : command.commands.find((c) => c.name() === word);
    if (sub) command = sub;
  }
  const group = command.parent === program ? command.name() : command.parent?.name();
  const action = command.parent === program ? null : command.name();
  const op = operations.find((o) => !o.cli.custom && o.cli.group === group && o.cli.action === action);
  if (!op || words.includes('--body')) return [];
  const given = new Set(words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0]!));
  const flags = flagsOf(op);
  const schemas = [op.schemas.query, op.schemas.body].flatMap((s) => (s ? [jsonSchemaOf(s)] : []));
  const required = schemas.flatMap((s) => (s.required ?? []).map((field) => [field, s.properties?.[field]] as const));
  return required.flatMap(([field, prop]) => {
    if (field === 'items' && given.has('--item')) return [];
    // A report's range and as-of date, left out, are the financial year to date and today (expandDates in date-flags.ts).
    if (isDateProp(prop) && filledDates.has(field)) return [];
    const flag = flags.find((f) => f.field === field);
    if (!flag) return [];
    return flag.names.some((n) => given.has(`--${n}`)) ? [] : [`--${flag.names[0]}`];
  });
}

t.test('every example gives the flags its command requires', async (t) => {
  const program = await buildProgram();
  const examples = [...Object.values(groupExamples).flat(), ...Object.values(operationExamples).flat()];
  const bad = examples.map((e) => [e, missingRequired(program, e)] as const).filter(([, missing]) => missing.length > 0);
  t.strictSame(bad, [], 'examples that would be refused for a required flag they leave out');
  t.strictSame(missingRequired(program, 'acct invoices pay INV-0001 --amount 500.00'), ['--date'], 'the check itself sees a missing --date');
});

t.test('every group the issue names, and the actions it names, show examples', async (t) => {
  const groups = ['organisation', 'settings', 'accounts', 'transactions', 'contacts', 'invoices', 'bills', 'quotes', 'credit-notes', 'report'];
  const more = ['keys', 'periods', 'webhooks', 'bank', 'dla', 'dividends', 'migrations'];
  for (const group of [...groups, ...more]) {
    const r = await runCliInProcess([group, '--help']);
    t.match(r.stdout, new RegExp(`\\nExamples:\\n {2}\\$ acct `), `acct ${group} --help`);
  }
  const actions = [
    ['invoices', 'create'],
    ['invoices', 'send'],
    ['invoices', 'pay'],
    ['invoices', 'list'],
    ['invoices', 'get'],
    ...['profit-loss', 'balance-sheet', 'trial-balance', 'general-ledger', 'vat', 'dashboard', 'aged-debtors', 'aged-creditors'].map((r) => ['report', r]),
  ];
  for (const words of actions) {
    const r = await runCliInProcess([...words, '--help']);
    t.match(r.stdout, new RegExp(`\\nExamples:\\n {2}\\$ acct ${words.join(' ')}`), `acct ${words.join(' ')} --help`);
  }
});

t.test('acct(1) carries the same examples and flag help', async (t) => {
  const page = renderAcct1();
  t.match(page, 'acct invoices create \\-\\-contact\\-id "Bob Ltd" \\-\\-item "Consulting;1.5;500.00;standard;4100"');
  t.match(page, '.B \\-\\-currency <code>\nISO 4217 currency code; e.g. GBP');
  t.match(page, 'acct invoices list \\-\\-status overdue', 'a group example');
  t.match(page, 'acct completion bash|zsh|fish');
});

t.test('the real acct invoices create --help shows examples, piped and on a terminal', async (t) => {
  for (const [how, r] of [
    ['piped', runCli(['invoices', 'create', '--help'])],
    ['terminal', runCliOnTerminal(['invoices', 'create', '--help'])],
  ] as const) {
    t.equal(r.status, 0, how);
    const out = r.stdout.replace(/\r\n/g, '\n');
    t.match(out, /--currency <code> +ISO 4217 currency code; e\.g\. GBP/, how);
    t.match(out, /\nExamples:\n {2}\$ acct invoices create --contact-id "Bob Ltd"/, how);
  }
});

t.test("help names a field by the flag that carries it, not by the API's JSON name", async (t) => {
  /** Help as one line: commander wraps it at the width. */
  const helpOf = async (words: string[]) => (await runCliInProcess([...words, '--help'])).stdout.replace(/\s+/g, ' ');
  const send = await helpOf(['invoices', 'send']);
  // The summary and the notes: a boolean's "sendEmail true" is the flag alone.
  t.match(send, 'Send a draft invoice: its entries are posted; --send-email e-mails the PDF');
  t.match(send, ' --send-email needs an SMTP server');
  t.notMatch(send, /sendEmail/);
  t.match(await helpOf(['invoices', 'pay']), 'Posts debit the bank account (--account-id, a bank account, 1200 by default;');
  t.match(await helpOf(['invoices', 'create']), 'The due date is --due-date, else --issue-date + --due-days');
  t.match(await helpOf(['invoices']), 'Send a draft invoice: its entries are posted; --send-email e-mails', 'the group lists the summary so too');
  // A JSON body written out in the notes keeps its field names: it is what --body takes.
  t.match(await helpOf(['bank-imports', 'upload']), '{file, filename?, bankAccountId?}');
  t.match(renderAcct1(), 'Send a draft invoice: its entries are posted; \\-\\-send\\-email e\\-mails the PDF', 'and acct(1)');

  // Every generated command: no camelCase field that a flag carries is left in its summary or notes outside a JSON body.
  const left: string[] = [];
  for (const op of operations) {
    if (op.cli.custom) continue;
    const words = [op.cli.group, ...(op.cli.action === null ? [] : [op.cli.action])];
    const help = (await runCliInProcess([...words, '--help'])).stdout.replace(/\{[^}]*\}/g, '');
    const prose = help.slice(0, help.indexOf('\nOptions:')) + help.slice(help.indexOf('\n\n', help.indexOf('\nOptions:') + 1));
    for (const f of flagsOf(op)) if (/[A-Z]/.test(f.field) && new RegExp(`\\b${f.field}\\b`).test(prose)) left.push(`${words.join(' ')}: ${f.field}`);
  }
  t.strictSame(left, [], 'fields named in JSON terms');
});

t.test('help says pounds where the flag takes pounds, though the API (and --body) takes pence', async (t) => {
  const helpOf = async (words: string[]) => (await runCliInProcess([...words, '--help'])).stdout.replace(/\s+/g, ' ');
  const supplierCredit = await helpOf(['supplier-credit-notes', 'create']);
  t.match(supplierCredit, 'amount (pounds, VAT included) is shared over the lines');
  t.notMatch(supplierCredit, /amount \(pence/);
  t.match(supplierCredit, 'Issue a supplier credit note against an approved, overdue or paid bill');
  t.match(await helpOf(['credit-notes', 'create']), 'amount (pounds, VAT included) is shared over the lines');
  const invoice = await helpOf(['invoices', 'create']);
  t.match(invoice, 'Items: description, quantity, unitPrice (pounds), vatRate');
  t.notMatch(invoice, /\(pence\)/);
  t.match(renderAcct1(), 'amount (pounds, VAT included) is shared over the lines', 'and acct(1)');
  t.notMatch(renderAcct1(), /unitPrice \(pence|amount \(pence/, 'acct(1) nowhere says pence for a flag in pounds');

  // The API's own words stay pence.
  const { openApiDocument } = await import('../../src/http/openapi.js');
  const api = JSON.stringify(openApiDocument(operations));
  t.match(api, 'amount (pence, VAT included) is shared over the lines');
  t.match(api, 'Items: description, quantity, unitPrice (pence)');
});

t.test('help fits the terminal: descriptions wrap beside their terms, a long term has its own line, the notes wrap too', async (t) => {
  for (const [how, width, run] of [
    ['a terminal of 80 columns', 80, (args: string[]) => runCliOnTerminalAt(80, args)],
    ['a terminal of 60 columns', 60, (args: string[]) => runCliOnTerminalAt(60, args)],
    ['piped (80, as commander wraps for a pipe)', 80, (args: string[]) => runCli(args)],
  ] as const) {
    for (const args of [['--help'], ['invoices', 'pay', '--help'], ['post', '--help']]) {
      const r = run(args);
      t.equal(r.status, 0, `${how}: acct ${args.join(' ')}`);
      // Examples are kept whole, and so is a word longer than the room (a URL at 60 columns).
      const over = r.stdout.split('\n').filter((line) => line.length > width && !/^ {2}\$ acct /.test(line) && !/^\s*\S+$/.test(line));
      t.same(over, [], `${how}: acct ${args.join(' ')}: no line past ${width} columns (examples aside)`);
    }
  }
  /** The column where the descriptions of a help text start, read from one item's line. */
  const columnOf = (help: string, term: string): number => new RegExp(`\\n {2}${term} +`).exec(help)![0].length - 1;
  const top = runCliOnTerminalAt(80, ['--help']).stdout;
  const topColumn = columnOf(top, '--org <org>');
  // The longest command term takes a line of its own; its description starts in the column, under the others'.
  t.match(top, new RegExp(`\\n {2}post \\[options\\] <date> <description> <lines\\.\\.\\.>\\n {${topColumn}}Record a transaction by account`));
  t.match(top, new RegExp(`\\n {2}--org <org> +organisation to work on: its id, its name or the\\n {${topColumn}}start of either`));
  t.match(top, /\nMoney: every amount flag and argument is in pounds \(450, 450\.00, 1,234\.56 or\n£1,234\.56;/, 'the rules wrap at 80');
  const pay = runCliOnTerminalAt(80, ['invoices', 'pay', '--help']).stdout;
  const payColumn = columnOf(pay, '--amount <pounds>');
  // The column as wide as the terms that stay on their line (--account-id <code|id>, 22), not the 40 of --method's.
  t.equal(payColumn, 2 + '--account-id <code|id>'.length + 2);
  t.match(pay, new RegExp(`\\n {2}--method <bank_transfer\\|card\\|cash\\|other>\\n {${payColumn}}method; one of bank_transfer, card, cash`));
});

t.test('the organisation, contacts, quotes and bills examples run as written, in order, on new books dated today', async (t) => {
  const { books } = await import('./support.js');
  const { dir } = await books(t);
  const run = async (example: string) => {
    const r = await runCliInProcess(['--data', dir, ...shellWords(example).slice(1)]);
    t.equal(r.status, 0, `${example}: ${r.stderr}`);
  };
  await run(groupExamples['organisation']![1]!); // --vat-number must pass HMRC's check digits
  await run('acct contacts create --contact-type customer --name "Bob Ltd"');
  for (const e of operationExamples['contacts.create']!.slice(1)) await run(e); // Paper Supplies
  for (const e of groupExamples['quotes']!) await run(e); // create, sent, accepted, convert
  for (const e of operationExamples['quotes.create']!) await run(e); // no --valid-until already past
  for (const e of groupExamples['bills']!) await run(e); // create, approve, pay today
});
