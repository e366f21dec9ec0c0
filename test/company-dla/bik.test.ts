/**
 * Benefit in kind of an overdrawn loan account by normal averaging
 * (ITEPA 2003 s182), worked by hand: (balance at the start + balance at the
 * end) / 2 × whole tax months overdrawn / 12 × the official rate, rounded
 * down to the penny; nothing unless the balance passed £10,000 in the year.
 */
import t from 'tap';
import { beneficialLoan } from '../../src/engine/company/dla/bik.js';
import type { LoanType, Movement } from '../../src/engine/company/dla/loan-types.js';

const mv = (date: string, amountPence: number, loanType: LoanType): Movement => ({ date, amountPence, loanType });

t.test('exactly £10,000 all year: no benefit', async (t) => {
  t.same(beneficialLoan([mv('2024-01-10', 1_000_000, 'loan_to_director')], '2024/25'), {
    taxYear: '2024/25',
    applicable: false,
    threshold: 1_000_000,
    averageBalancePence: 1_000_000,
    officialRate: 2.25,
    benefitPence: 0,
  });
});

t.test('£10,000.01 all year: a benefit', async (t) => {
  // (£10,000.01 + £10,000.01) / 2 × 12/12 = £10,000.01; × 2.25% = £225.000225 → £225.00
  t.same(beneficialLoan([mv('2024-01-10', 1_000_001, 'loan_to_director')], '2024/25'), {
    taxYear: '2024/25',
    applicable: true,
    threshold: 1_000_000,
    averageBalancePence: 1_000_001,
    officialRate: 2.25,
    benefitPence: 22_500,
  });
});

t.test('over £10,000 for a moment of one day is enough', async (t) => {
  // £10,000 all year; on 1 July £1 more lent and repaid the same day: £10,001 at that moment.
  const r = beneficialLoan(
    [mv('2024-01-10', 1_000_000, 'loan_to_director'), mv('2024-07-01', 100, 'loan_to_director'), mv('2024-07-01', -100, 'repayment_to_company')],
    '2024/25',
  );
  t.equal(r.applicable, true);
  // (£10,000 + £10,000) / 2 × 12/12 × 2.25% = £225.00
  t.equal(r.benefitPence, 22_500);
});

t.test('opening and closing balances averaged', async (t) => {
  const r = beneficialLoan(
    [mv('2024-02-01', 1_200_000, 'loan_to_director'), mv('2024-09-01', 800_000, 'loan_to_director'), mv('2025-02-01', -500_000, 'repayment_to_company')],
    '2024/25',
  );
  // Opening (5 April 2024) £12,000; closing (5 April 2025) £12,000 + £8,000 − £5,000 = £15,000.
  // (£12,000 + £15,000) / 2 = £13,500; × 2.25% = £303.75
  t.equal(r.averageBalancePence, 1_350_000);
  t.equal(r.benefitPence, 30_375);
});

t.test('a loan made in the year counts from the day it was made, whole tax months only', async (t) => {
  // £24,000 lent on 6 June 2025, owed on 5 April 2026: tax months 6 June – 5 April = 10.
  // (£24,000 + £24,000) / 2 × 10/12 = £20,000; × 3.75% (2025/26) = £750.00
  const sixth = beneficialLoan([mv('2025-06-06', 2_400_000, 'loan_to_director')], '2025/26');
  t.equal(sixth.averageBalancePence, 2_000_000);
  t.equal(sixth.officialRate, 3.75);
  t.equal(sixth.benefitPence, 75_000);
  // Lent on 7 June: the month from 6 June is not whole, 9 months: £24,000 × 9/12 = £18,000; × 3.75% = £675.00
  const seventh = beneficialLoan([mv('2025-06-07', 2_400_000, 'loan_to_director')], '2025/26');
  t.equal(seventh.averageBalancePence, 1_800_000);
  t.equal(seventh.benefitPence, 67_500);
});

t.test('a loan made and repaid within the year', async (t) => {
  // £15,000 lent 6 May 2024, repaid in full 5 November 2024: 6 whole tax months (6 May – 5 November).
  // Highest on the day made £15,000 and on the day repaid £15,000 (before the repayment):
  // (£15,000 + £15,000) / 2 × 6/12 = £7,500; × 2.25% = £168.75
  const r = beneficialLoan([mv('2024-05-06', 1_500_000, 'loan_to_director'), mv('2024-11-05', -1_500_000, 'repayment_to_company')], '2024/25');
  t.equal(r.applicable, true);
  t.equal(r.averageBalancePence, 750_000);
  t.equal(r.benefitPence, 16_875);
});

t.test('the highest balance of 5 April counts, so repaying on 5 April does not lower the opening', async (t) => {
  // £20,000 owed; £8,000 repaid on 5 April 2024: the highest that day was £20,000.
  // (£20,000 + £12,000) / 2 = £16,000; × 2.25% = £360.00
  const r = beneficialLoan([mv('2024-01-10', 2_000_000, 'loan_to_director'), mv('2024-04-05', -800_000, 'repayment_to_company')], '2024/25');
  t.equal(r.averageBalancePence, 1_600_000);
  t.equal(r.benefitPence, 36_000);
});

t.test('two spells overdrawn in one year are two loans', async (t) => {
  // £12,000 lent 6 May 2024, repaid 5 August 2024: 3 whole months (6 May – 5 August).
  // £12,000 lent 6 January 2025, owed on 5 April 2025: 3 whole months (6 January – 5 April).
  // (£12,000 + £12,000) / 2 × 3/12 = £3,000 each; £6,000 in all; × 2.25% = £135.00
  const r = beneficialLoan(
    [mv('2024-05-06', 1_200_000, 'loan_to_director'), mv('2024-08-05', -1_200_000, 'repayment_to_company'), mv('2025-01-06', 1_200_000, 'loan_to_director')],
    '2024/25',
  );
  t.equal(r.averageBalancePence, 600_000);
  t.equal(r.benefitPence, 13_500);
});

t.test('the 2026/27 official rate is 3.75% and movements after the year are ignored', async (t) => {
  // £40,000 owed all of 2026/27 (repaid 6 April 2027, the next year): £40,000 × 3.75% = £1,500.00
  const r = beneficialLoan([mv('2026-01-01', 4_000_000, 'loan_to_director'), mv('2027-04-06', -4_000_000, 'repayment_to_company')], '2026/27');
  t.equal(r.officialRate, 3.75);
  t.equal(r.benefitPence, 150_000);
});

t.test('a credit balance is no loan', async (t) => {
  const r = beneficialLoan([mv('2024-01-10', -5_000_000, 'loan_from_director')], '2024/25');
  t.equal(r.applicable, false);
  t.equal(r.averageBalancePence, 0);
  t.equal(r.benefitPence, 0);
});
