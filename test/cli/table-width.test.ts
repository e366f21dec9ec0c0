/**
 * Tables fit the terminal: on one, as wide as $COLUMNS or the window (80
 * when neither says), columns of little use left out first and long text
 * cut with …, a dim line naming what was left out; --wide, or output piped
 * to a program, shows every column.
 */
import t from 'tap';
import { essential, fitColumns, hiddenNote, tableWidth, truncate } from '../../src/cli/fit-table.js';
import { runCli, runCliInProcess } from '../helpers/index.js';
import { books, runCliOnTerminalAt } from './support.js';

t.test('tableWidth: the terminal only, $COLUMNS first, 80 when nothing says', async (t) => {
  t.equal(tableWidth(false, { isTTY: false, columns: 120 }, {}), undefined, 'piped: no limit');
  t.equal(tableWidth(true, { isTTY: true, columns: 120 }, {}), undefined, '--wide: no limit');
  t.equal(tableWidth(false, { isTTY: true, columns: 120 }, {}), 120, "the window's width");
  t.equal(tableWidth(false, { isTTY: true, columns: 120 }, { COLUMNS: '72' }), 72, '$COLUMNS, the user’s preference, first');
  t.equal(tableWidth(false, { isTTY: true, columns: 0 }, { COLUMNS: 'wide' }), 80, 'a terminal of no known size: 80');
});

t.test('fitColumns: the least useful go first, the rightmost of equals, essential columns stay', async (t) => {
  // Widths 10, 20, 5, 5: a line is the four with two spaces between them, 10 + 20 + 5 + 5 + 3 × 2 = 46 in all.
  const plans = [
    { keep: essential, shrink: false },
    { keep: 4, shrink: true },
    { keep: 1, shrink: false },
    { keep: 1, shrink: false },
  ];
  t.same(fitColumns([10, 20, 5, 5], plans, undefined), { shown: [0, 1, 2, 3], hidden: [], cut: new Map() }, 'no limit: all');
  t.same(fitColumns([10, 20, 5, 5], plans, 46), { shown: [0, 1, 2, 3], hidden: [], cut: new Map() }, 'exactly fits');
  // 45: one of the keep-1 columns goes, the rightmost (3): 10 + 20 + 5 + 2 × 2 = 39 left.
  t.same(fitColumns([10, 20, 5, 5], plans, 45), { shown: [0, 1, 2], hidden: [3], cut: new Map() });
  // 28: both keep-1 columns go (10 + 20 + 2 = 32 left), then the text is cut by 4 to 16.
  t.same(fitColumns([10, 20, 5, 5], plans, 28), { shown: [0, 1], hidden: [2, 3], cut: new Map([[1, 16]]) });
  // 9: the text column goes too, rather than be cut below 16; the essential one (10) stays even past the limit.
  t.same(fitColumns([10, 20, 5, 5], plans, 9), { shown: [0], hidden: [1, 2, 3], cut: new Map() });
});

t.test('truncate and the note under a narrowed table', async (t) => {
  t.equal(truncate('Receivables Migration Clearing', 10), 'Receivabl…', '9 characters and …');
  t.equal(truncate('Sales', 10), 'Sales', 'short text as it is');
  t.equal(truncate('Annual subscription', 8), 'Annual…', 'no blank before …: the 7 columns before it end in one');
  t.equal(truncate('Café Nero ☕ and more', 11), 'Café Nero…', 'the cup is two columns wide: it does not fit in the 10 before …, nor does the blank stay');
  t.equal(hiddenNote([], 80), '');
  t.equal(hiddenNote(['id'], 80), '1 column left out, --wide shows it: id');
  t.equal(hiddenNote(['createdAt', 'updatedAt'], undefined), '2 columns left out, --wide shows them: createdAt, updatedAt');
});

/** Run in process with standard output posing as a terminal `columns` wide. */
async function onTerminal(columns: number, args: readonly string[]) {
  const out = process.stdout as { isTTY?: boolean; columns?: number };
  const had = { isTTY: Object.getOwnPropertyDescriptor(out, 'isTTY'), columns: Object.getOwnPropertyDescriptor(out, 'columns') };
  Object.defineProperty(out, 'isTTY', { value: true, configurable: true, writable: true });
  Object.defineProperty(out, 'columns', { value: columns, configurable: true, writable: true });
  try {
    return await runCliInProcess(args, { env: { COLUMNS: undefined } });
  } finally {
    for (const key of ['isTTY', 'columns'] as const) {
      const before = had[key];
      if (before) Object.defineProperty(out, key, before);
      else delete out[key];
    }
  }
}

const widest = (text: string): number => Math.max(...text.split('\n').map((l) => [...l].length));

t.test('accounts list on an 80-column terminal: the tree fits, and says what --wide adds', async (t) => {
  const { dir } = await books(t);
  const narrow = await onTerminal(80, ['--data', dir, 'accounts', 'list']);
  t.equal(narrow.status, 0, narrow.stderr);
  t.ok(widest(narrow.stdout) <= 80, `no line over 80 columns (${widest(narrow.stdout)})`);
  const lines = narrow.stdout.split('\n');
  t.match(lines[1], /^code +name +type +flags$/, 'code, name, type and flags');
  t.match(narrow.stdout, /^1000  Fixed Assets +asset$/m, 'a parent');
  t.match(narrow.stdout, /^1010 {4}Office Equipment +asset$/m, 'its child, indented under it');
  t.match(narrow.stdout, /^1200  Bank Account +asset +system, bank control$/m, 'the flags that matter');
  t.match(narrow.stdout, /^1198  Receivables Migration Clearing +asset +system$/m, 'a long name whole');
  t.match(narrow.stdout, '\n4 columns left out, --wide shows them: VAT rate, parent, description, id\n');
  t.notMatch(narrow.stdout, /children|items\)/, 'no (N items)');

  const wide = await onTerminal(80, ['--data', dir, '--wide', 'accounts', 'list']);
  t.match(wide.stdout.split('\n')[1], /^code +name +type +flags +VAT rate +parent +description +id$/, '--wide: every column');
  t.match(wide.stdout, /^1010 {4}Office Equipment +asset +1000 +acc_\w+$/m, 'the parent’s code');
  t.notMatch(wide.stdout, 'left out');

  const piped = await runCliInProcess(['--data', dir, 'accounts', 'list']);
  t.equal(piped.stdout, wide.stdout, 'piped: every column, as --wide');
});

t.test('a generic list on a narrow terminal: the id and name stay, the rest is named under the table', async (t) => {
  const { dir } = await books(t);
  const narrow = await onTerminal(60, ['--data', dir, 'keys', 'list']);
  t.equal(narrow.status, 0, narrow.stderr);
  t.ok(widest(narrow.stdout) <= 60, `no line over 60 columns (${widest(narrow.stdout)})`);
  t.match(narrow.stdout, /^id +name +mode$/m, 'the id and the name stay');
  t.match(narrow.stdout, /^7 columns left out, --wide shows them: prefix, keyPreview,…$/m, 'the note, cut to the width itself');
  const piped = await runCliInProcess(['--data', dir, 'keys', 'list']);
  t.match(piped.stdout, /createdAt/, 'piped: createdAt is there');
  t.notMatch(piped.stdout, 'left out');
});

t.test('long text is cut with … before a column worth keeping goes', async (t) => {
  const { dir } = await books(t);
  const long = 'Annual subscription to the Federation of Small Businesses, renewed for three years';
  t.equal((await runCliInProcess(['--data', dir, 'post', '2026-03-01', long, '5100=450', '1200=-450'])).status, 0);
  const narrow = await onTerminal(80, ['--data', dir, 'transactions', 'list']);
  t.ok(widest(narrow.stdout) <= 80, `no line over 80 columns (${widest(narrow.stdout)})`);
  // date 10 + 2, amount 6 + 2, id 30 (last: nothing after it): 50, which leaves the description 80 − 50 − 2 = 28 columns,
  // 27 and …: "Annual subscription to the " without its blank.
  t.match(narrow.stdout, /^2026-03-01  Annual subscription to the…  +450\.00  txn_\w{26}$/m);
  t.match(narrow.stdout, 'left out, --wide shows them: status, accounts, reference');
  const wide = await onTerminal(80, ['--data', dir, '--wide', 'transactions', 'list']);
  t.match(wide.stdout, long, '--wide: the whole description');
});

t.test('the real bin/acct: accounts list fits an 80-column terminal; piped, it prints every column', async (t) => {
  const { dir } = await books(t);
  const terminal = runCliOnTerminalAt(80, ['--data', dir, 'accounts', 'list']);
  t.equal(terminal.status, 0, terminal.stdout);
  t.ok(widest(terminal.stdout) <= 80, `no line over 80 columns (${widest(terminal.stdout)})`);
  t.match(terminal.stdout, /^1010 {4}Office Equipment +asset$/m);
  t.match(terminal.stdout, 'left out, --wide shows them');
  const piped = runCli(['--data', dir, 'accounts', 'list']);
  t.equal(piped.status, 0, piped.stderr);
  t.match(piped.stdout.split('\n')[1], /^code +name +type +flags +VAT rate +parent +description +id$/);
  t.ok(widest(piped.stdout) > 80, 'wider than the terminal, uncut');
  t.notMatch(piped.stdout, 'left out');
});
