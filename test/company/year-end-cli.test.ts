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
  // The balance sheet at 31 March 2026: profit £20,000.00 less the £2,000.00 declared by then = £18,000.00 retained.
  t.match(r.stdout, 'Retained earnings at the year end, 2026-03-31\n  profit 20,000.00, less dividends declared by then 2,000.00: 18,000.00');
  // The profit check on 29 November 2026: no dividend of another year, so £20,000.00; £2,000.00 declared for the year leaves £18,000.00.
  t.match(r.stdout, 'Profit check on 2026-11-29');
  t.match(r.stdout, "retained after other years' dividends 20,000.00, declared for the year 2,000.00, available to declare 18,000.00");

  const pack = JSON.parse(fs.readFileSync(file, 'utf8'));
  t.match(pack, {
    financialYear: { from: '2025-04-01', to: '2026-03-31' },
    totalS455ExposurePence: 506_250,
    dividends: { declaredPence: 200_000, paidPence: 200_000 },
    yearEnd: { profitPence: 2_000_000, dividendsPence: 200_000, retainedEarningsPence: 1_800_000 },
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

t.test("the pack's dividends are the balance sheet's at the year end; those declared after it are shown apart", async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'YE Ltd', '--business-type', 'limited_company', '--vat-scheme', 'not_registered']);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as Record<string, unknown>;
  };
  t.equal((await acct('post', '2025-04-01', 'Capital', '1200=100', '3000=-100')).status, 0);
  // Profit £10,000.00 in the year to 31 March 2026.
  t.equal((await acct('post', '2025-06-01', 'Sale', '1200=10000', '4000=-10000')).status, 0);
  const jo = (await json('directors', 'add', '--full-name', 'Jo D', '--shares-held', '100', '--appointed-date', '2025-04-01')).id as string;
  const dividend = async (date: string, pounds: string) => {
    const bm = (await json('dividends', 'minutes', '--attendees', jo, '--date', date, '--financial-year-end', '2026-03-31', '--total-dividend-pence', pounds))
      .id as string;
    return (await json('dividends', 'declare', '--director-id', jo, '--board-minutes-id', bm, '--amount-pence', pounds, '--date', date)).id as string;
  };
  // DIV-0001 £3,000.00 declared 25 March 2026, paid 10 April 2026 (after the year end).
  await json('dividends', 'pay', await dividend('2026-03-25', '3000'), '--date', '2026-04-10');
  // DIV-0002 £500.00 declared 28 March 2026 and voided on 5 April 2026: at the year end it still stood.
  await json('dividends', 'void', await dividend('2026-03-28', '500'), '--date', '2026-04-05');
  // DIV-0003 £4,000.00 declared 1 May 2026 for the same year's profit: after the year end.
  await dividend('2026-05-01', '4000');

  // At 31 March 2026 the ledger holds 3200 Dividends 3,000 + 500 = £3,500.00 Dr and 2500 Dividends Payable £3,500.00 Cr.
  const bs = (await json('report', 'balance-sheet', '--as-of', '2026-03-31')) as {
    liabilities: { accounts: { code: string; balance: number }[] };
    equity: { accounts: { code: string | null; balance: number }[] };
  };
  t.match(bs.liabilities.accounts, [{ code: '2500', balance: 350_000 }]);
  t.ok(bs.equity.accounts.some((a) => a.code === '3200' && a.balance === -350_000));

  const atYearEnd = await json('company', 'year-end', '--year', '2026', '--prepared-on', '2026-03-31');
  t.match(atYearEnd.dividends, {
    declaredPence: 350_000,
    paidPence: 0,
    owedAtYearEndPence: 350_000,
    byDirector: [{ fullName: 'Jo D', financialYear: '2026-03-31', totalDeclaredPence: 350_000, totalPaidPence: 0 }],
    afterYearEnd: { to: '2026-03-31', declaredPence: 0, paidPence: 0, declared: [] },
  });
  // Known on 31 March 2026: profit £10,000.00 less the £3,500.00 declared by then = £6,500.00 available.
  t.match(atYearEnd.profitCheck, { retainedEarningsPence: 1_000_000, previouslyDeclaredPence: 350_000, availableProfitPence: 650_000 });

  // Prepared on 1 June 2026 the year's figures are the same; DIV-0003 (£4,000.00) and DIV-0001's payment (£3,000.00) come after the year end.
  const later = await json('company', 'year-end', '--year', '2026', '--prepared-on', '2026-06-01');
  t.match(later.dividends, {
    declaredPence: 350_000,
    paidPence: 0,
    owedAtYearEndPence: 350_000,
    afterYearEnd: {
      to: '2026-06-01',
      declaredPence: 400_000,
      paidPence: 300_000,
      declared: [{ voucherNumber: 'DIV-0003', amountPence: 400_000, dateDeclared: '2026-05-01' }],
    },
  });
  // By then DIV-0002 is void: 3,000 + 4,000 = £7,000.00 declared for the year's profit, £3,000.00 left.
  t.match(later.profitCheck, { previouslyDeclaredPence: 700_000, availableProfitPence: 300_000 });
  // The year end's own figures do not move: profit £10,000.00 less 3,000 + 500 declared by 31 March 2026 = £6,500.00.
  t.match(later.yearEnd, { profitPence: 1_000_000, dividendsPence: 350_000, retainedEarningsPence: 650_000 });
  const text = await acct('company', 'year-end', '--year', '2026', '--prepared-on', '2026-06-01');
  t.match(text.stdout, 'Jo D: declared 3,500.00, paid 0.00');
  t.match(text.stdout, 'owed at the year end 3,500.00');
  t.match(text.stdout, 'DIV-0003 Jo D: declared 4,000.00 on 2026-05-01');
});
