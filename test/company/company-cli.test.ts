/**
 * The company commands through the commander program: a director added, a
 * loan recorded in pounds, board minutes, a dividend declared with
 * --dry-run (the journal and the profit check, nothing written) and then
 * for real, paid and voided. Figures worked by hand.
 */
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';

t.test('directors, dla, dividends on the command line', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as Record<string, unknown>;
  };
  // A year's profit of £4,000.00 to 31 March 2026.
  t.equal((await acct('post', '2025-07-01', 'Consulting', '1200=4000', '4000=-4000')).status, 0);
  const jo = (await json('directors', 'add', '--full-name', 'Jo Bloggs', '--shares-held', '100')).id as string;
  const loan = await json(
    'dla',
    'add',
    '--director-id',
    jo,
    '--date',
    '2026-04-10',
    '--description',
    'Car',
    '--amount-pence',
    '1500.00',
    '--loan-type',
    'loan_to_director',
  );
  t.equal(loan.amountPence, 150_000, '£1,500.00 typed in pounds is 150000p');
  const bm = (
    await json('dividends', 'minutes', '--attendees', jo, '--date', '2026-05-01', '--financial-year-end', '2026-03-31', '--total-dividend-pence', '2500')
  ).id as string;

  const dry = await acct('dividends', 'declare', '--director-id', jo, '--board-minutes-id', bm, '--amount-pence', '2500', '--date', '2026-05-01', '--dry-run');
  t.equal(dry.status, 0, dry.stderr);
  t.match(dry.stdout, /availableProfit\s+4,000\.00/);
  t.notMatch(dry.stdout, /Pence/, 'money fields are named in pounds, as the amounts are printed');
  t.match(dry.stdout, /3200\s+2,500\.00/);
  t.equal(((await json('dividends', 'list')) as unknown as unknown[]).length, 0, 'the dry run declared nothing');

  const declared = await json('dividends', 'declare', '--director-id', jo, '--board-minutes-id', bm, '--amount-pence', '2500', '--date', '2026-05-01');
  t.match(declared, { voucherNumber: 'DIV-0001', amountPence: 250_000, status: 'declared' });
  t.match(await json('dividends', 'pay', declared.id as string, '--date', '2026-05-02'), { status: 'paid' });
  t.match(await json('dividends', 'void', declared.id as string), { status: 'void' });
  const again = await acct('dividends', 'void', declared.id as string);
  t.equal(again.status, 4, 'voiding twice is a conflict: exit 4');
});

t.test('acct dividends tax is for limited companies, as the other dividend commands are', async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'Jo Bloggs', '--business-type', 'sole_trader', '--vat-scheme', 'not_registered']);
  const r = await runCliInProcess(['--data', dir, 'dividends', 'tax', '--gross-dividend', '20,000.00', '--tax-year', '2025/26']);
  t.equal(r.status, 5, r.stderr);
  t.match(r.stderr, 'for limited companies');
  t.equal(r.stdout, '');
});
