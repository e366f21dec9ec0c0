/**
 * `acct company year-end` through the commander program: the pack printed,
 * and written as JSON and PDF where the user said; the CT600A and P11D
 * figures worked by hand.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { pdfText } from '../sales-cli/support.js';

t.test('the year-end pack for the year to 31 March 2026', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as Record<string, unknown>;
  };
  // £20,000.00 of sales in the year to 31 March 2026.
  t.equal((await acct('post', '2025-06-01', 'Consulting', '1200=20000', '4000=-20000')).status, 0);
  const jo = (await json('directors', 'add', '--full-name', 'Jo Bloggs', '--shares-held', '100')).id as string;
  // £15,000.00 lent on 10 January 2026, before 6 April 2026: S455 at 33.75% = £5,062.50, due unless repaid by 1 January 2027.
  await json('dla', 'add', '--director-id', jo, '--date', '2026-01-10', '--description', 'Loan', '--amount-pence', '15000', '--loan-type', 'loan_to_director');
  const bm = (
    await json('dividends', 'minutes', '--attendees', jo, '--date', '2026-03-20', '--financial-year-end', '2026-03-31', '--total-dividend-pence', '2000')
  ).id as string;
  const div = (await json('dividends', 'declare', '--director-id', jo, '--board-minutes-id', bm, '--amount-pence', '2000', '--date', '2026-03-20'))
    .id as string;
  await json('dividends', 'pay', div, '--date', '2026-03-25');

  const pdf = path.join(dir, 'pack.pdf');
  const file = path.join(dir, 'pack.json');
  // £6,000.00 repaid on 30 November 2026, within nine months of the year end.
  await json(
    'dla',
    'add',
    '--director-id',
    jo,
    '--date',
    '2026-11-30',
    '--description',
    'Repaid',
    '--amount-pence',
    '-6000',
    '--loan-type',
    'repayment_to_company',
  );
  // Prepared on 29 November 2026 (a fixed day: today's pack would turn due on 1 January 2027), before the repayment.
  const r = await acct('company', 'year-end', '--year', '2026', '--prepared-on', '2026-11-29', '--pdf', pdf, '--json-file', file);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, 'year-end pack, 2025-04-01 to 2026-03-31');
  // On 29 November 2026 the deadline is to come: at risk. P11D for 2025/26: £15,000.00 owed from 10 January 2026, so two whole
  // tax months (6 February to 5 April): 15,000 × 2/12 × 3.75% = £93.75.
  t.match(r.stdout, /Jo Bloggs\s+15,000\.00\s+15,000\.00\s+5,062\.50\s+2027-01-01\s+at_risk\s+93\.75 \(2025\/26\)/);
  t.match(r.stdout, 'S455 tax if not repaid in time: 5,062.50');
  t.match(r.stdout, 'Jo Bloggs: declared 2,000.00, paid 2,000.00');
  // Profit £20,000.00; £2,000.00 declared for the year leaves £18,000.00.
  t.match(r.stdout, 'retained earnings 20,000.00, declared for the year 2,000.00, available 18,000.00');

  const pack = JSON.parse(fs.readFileSync(file, 'utf8'));
  t.match(pack, {
    financialYear: { from: '2025-04-01', to: '2026-03-31' },
    totalS455ExposurePence: 506_250,
    dividends: { declaredPence: 200_000, paidPence: 200_000 },
  });
  const text = pdfText(fs.readFileSync(pdf));
  for (const want of ['YEAR-END PACK', 'Jo Bloggs', '£15,000.00', '£5,062.50', '1 January 2027', '£93.75', '£18,000.00'])
    t.match(text, want, `the PDF shows ${want}`);

  // Prepared on 1 December 2026 the repayment counts: 15,000.00 − 6,000.00 = 9,000.00 owed, × 33.75% = £3,037.50.
  const later = await acct('company', 'year-end', '--year', '2026', '--prepared-on', '2026-12-01');
  t.equal(later.status, 0, later.stderr);
  t.match(later.stdout, /Jo Bloggs\s+15,000\.00\s+15,000\.00\s+3,037\.50\s+2027-01-01\s+at_risk/);
  t.match(later.stdout, 'S455 tax if not repaid in time: 3,037.50');
  const early = await acct('company', 'year-end', '--year', '2026', '--prepared-on', '2026-03-30');
  t.equal(early.status, 2, 'before the year end');
  t.match(early.stderr, '--prepared-on');

  const again = await acct('company', 'year-end', '--year', '2026', '--pdf', pdf);
  t.equal(again.status, 4, 'never over an existing file without --force');
  const notEnded = await acct('company', 'year-end', '--year', '2027');
  t.equal(notEnded.status, 5, 'the year to 31 March 2027 has not ended');
});
