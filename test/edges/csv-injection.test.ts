/**
 * CSV output of the CLI (--csv) against formula injection: a cell starting
 * with = + - @, a tab or a carriage return gets a ' in front and is quoted,
 * as OWASP recommends, while a negative amount such as -12.50 stays a plain
 * number a spreadsheet adds up.
 */
import t from 'tap';
import { newBooks, runCliInProcess } from '../helpers/index.js';
import { acctOk, noSmtp } from '../sales-cli/support.js';
import { renderCsv } from '../../src/cli/presenters/index.js';

const acct = (dir: string, args: readonly string[]) => runCliInProcess(['--data', dir, ...args], { env: noSmtp });

t.test('acct contacts list --csv neutralises formula-like names and leaves plain numbers alone', async (t) => {
  const dir = (await newBooks(t)).dataDir;
  const names = ['=HYPERLINK("http://x","y")', '+SUM(1,2)', '-2+3', '@cmd', 'Ada =1+1 Ltd', '-12.50'];
  const ids: string[] = [];
  for (const name of names) ids.push((await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', name])).id as string);
  const byName = new Map(names.map((n, i) => [n, ids[i]]));

  const csv = await acct(dir, ['contacts', 'list', '--csv']);
  t.equal(csv.status, 0, csv.stderr);
  const lines = csv.stdout.split('\n');
  t.equal(lines[0], 'id,type,name,company,email,terms');
  const line = (name: string) => lines.find((l) => l.startsWith(`${byName.get(name)},`));
  t.equal(line('=HYPERLINK("http://x","y")'), `${byName.get('=HYPERLINK("http://x","y")')},customer,"'=HYPERLINK(""http://x"",""y"")",,,`);
  t.equal(line('+SUM(1,2)'), `${byName.get('+SUM(1,2)')},customer,"'+SUM(1,2)",,,`);
  t.equal(line('-2+3'), `${byName.get('-2+3')},customer,"'-2+3",,,`);
  t.equal(line('@cmd'), `${byName.get('@cmd')},customer,"'@cmd",,,`);
  t.equal(line('Ada =1+1 Ltd'), `${byName.get('Ada =1+1 Ltd')},customer,Ada =1+1 Ltd,,,`, 'an = inside a cell is not a formula');
  t.equal(line('-12.50'), `${byName.get('-12.50')},customer,-12.50,,,`, 'a plain number stays a number');

  // The table and --json are not CSV: the names come through as they are.
  const json = await acctOk(t, dir, ['contacts', 'list']);
  t.same((json as { name: string }[]).map((c) => c.name).sort(), [...names].sort());
});

t.test('negative money in --csv stays a plain number', async (t) => {
  const dir = (await newBooks(t)).dataDir;
  // An expense of £12.50 paid from the bank and nothing earned: a net loss of £12.50.
  const posted = await acct(dir, ['post', '2026-03-01', '=cmd|calc', '5100=12.50', '1200=-12.50']);
  t.equal(posted.status, 0, posted.stderr);
  const pl = await acct(dir, ['report', 'profit-loss', '--from', '2026-03-01', '--to', '2026-03-31', '--csv']);
  t.equal(pl.status, 0, pl.stderr);
  t.match(pl.stdout, '\n,Net profit,-12.50\n', 'a loss of £12.50 is -12.50, unquoted');
  t.notMatch(pl.stdout, "'-12.50");
});

t.test('renderCsv: a leading tab or carriage return is neutralised too; header cells as well', async (t) => {
  const csv = renderCsv({
    title: 'Cells',
    columns: ['=label', 'amount'],
    money: [1],
    rows: [
      ['\tindented', -1250],
      ['\r=1+1', 0],
      ['+', 5],
      ['-', -5],
      ['1-2', 100],
    ],
  });
  // -1250p = -12.50, 0p = 0.00, 5p = 0.05, -5p = -0.05, 100p = 1.00.
  t.equal(csv, ['"\'=label",amount', '"\'\tindented",-12.50', '"\'\r=1+1",0.00', '"\'+",0.05', '"\'-",-0.05', '1-2,1.00', ''].join('\n'));
});
