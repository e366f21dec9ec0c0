/**
 * The fixed rules of a director's loan account: the sign each loan type
 * must carry, the S455 rate by the day a loan was made (both boundaries),
 * the S455 deadline, tax years and the official rate of interest.
 */
import t from 'tap';
import { signRule } from '../../src/engine/company/dla/sign-rule.js';
import { s455RateOn, taxAt } from '../../src/engine/company/dla/s455-rate.js';
import { s455Deadline } from '../../src/engine/company/dla/deadline.js';
import { taxYearDates, taxYearOf } from '../../src/engine/company/dla/tax-year.js';
import { officialRateFor } from '../../src/engine/company/dla/official-rate.js';

t.test('sign rule: company to director is positive, director to company negative', async (t) => {
  t.equal(signRule('loan_to_director', 100_000), 1);
  t.equal(signRule('repayment_to_director', 1), 1);
  t.equal(signRule('loan_from_director', -100_000), -1);
  t.equal(signRule('repayment_to_company', -1), -1);
  t.equal(signRule('dividend_offset', -250_000), -1);
  t.equal(signRule('salary_offset', -90_000), -1);
  t.equal(signRule('write_off', -5_000), -1);
});

t.test('sign rule refusals name the field', async (t) => {
  const wrong = { code: 'validation_error', field: 'amountPence' };
  t.throws(() => signRule('loan_to_director', -100_000), {
    ...wrong,
    message: 'amountPence of a loan_to_director must be positive (company to director), not -£1,000.00',
  });
  t.throws(() => signRule('repayment_to_director', -1), wrong);
  t.throws(() => signRule('loan_from_director', 100_000), wrong);
  t.throws(() => signRule('repayment_to_company', 50_000), {
    ...wrong,
    message: 'amountPence of a repayment_to_company must be negative (director to company), not £500.00',
  });
  t.throws(() => signRule('dividend_offset', 1), wrong);
  t.throws(() => signRule('salary_offset', 1), wrong);
  t.throws(() => signRule('write_off', 5_000), wrong);
  t.throws(() => signRule('loan_to_director', 0), wrong, 'zero moves nothing');
  t.throws(() => signRule('loan_to_director', 12.5), wrong, 'half a penny');
  t.throws(() => signRule('loan_to_director', Number.NaN), wrong);
  t.throws(() => signRule('gift', 100), { code: 'validation_error', field: 'loanType' });
});

t.test('S455 rate by the day the loan was made', async (t) => {
  t.equal(s455RateOn('2016-04-05'), 2500, 'before 6 April 2016: 25%');
  t.equal(s455RateOn('2016-04-06'), 3250, 'from 6 April 2016: 32.5%');
  t.equal(s455RateOn('2022-04-05'), 3250, 'the last day of 32.5%');
  t.equal(s455RateOn('2022-04-06'), 3375, 'the first day of 33.75%');
  t.equal(s455RateOn('2026-04-05'), 3375, 'the last day of 33.75%');
  t.equal(s455RateOn('2026-04-06'), 3575, 'the first day of 35.75%');
  t.equal(s455RateOn('2031-01-01'), 3575);
});

t.test('tax at a rate is rounded down to the penny', async (t) => {
  // £7,345.67 × 33.75% = £2,479.163625 → £2,479.16
  t.equal(taxAt(734_567, 3375), 247_916);
  // £10,000.00 × 32.5% = £3,250.00 exactly
  t.equal(taxAt(1_000_000, 3250), 325_000);
  // 1p × 35.75% = 0.3575p → 0
  t.equal(taxAt(1, 3575), 0);
  // £90,000,000,000.00 × 35.75% = £32,175,000,000.00: past 2^53 in hundredths of a penny, still exact
  t.equal(taxAt(9_000_000_000_000, 3575), 3_217_500_000_000);
});

t.test('S455 deadline: nine months and one day after the period end', async (t) => {
  t.equal(s455Deadline('2021-12-31'), '2022-10-01', "gap-facts' worked example");
  t.equal(s455Deadline('2024-12-31'), '2025-10-01');
  t.equal(s455Deadline('2023-03-31'), '2024-01-01');
  t.equal(s455Deadline('2023-06-30'), '2024-04-01', 'a month end lands on the first of a month');
  t.equal(s455Deadline('2023-09-30'), '2024-07-01');
  t.equal(s455Deadline('2023-02-28'), '2023-12-01');
  t.equal(s455Deadline('2024-02-29'), '2024-12-01');
  t.equal(s455Deadline('2023-01-15'), '2023-10-16');
  // 30 May: the day after is 31 May; nine months on, February 2024 has no 31st → 1 March.
  t.equal(s455Deadline('2023-05-30'), '2024-03-01');
});

t.test('tax years run from 6 April to 5 April', async (t) => {
  t.equal(taxYearOf('2026-04-05'), '2025/26');
  t.equal(taxYearOf('2026-04-06'), '2026/27');
  t.equal(taxYearOf('1999-12-31'), '1999/00');
  t.same(taxYearDates('2024/25'), { startDate: '2024-04-06', endDate: '2025-04-05' });
  t.same(taxYearDates('1999/00'), { startDate: '1999-04-06', endDate: '2000-04-05' });
  t.throws(() => taxYearDates('2024/26'), { code: 'validation_error', field: 'taxYear' });
  t.throws(() => taxYearDates('2024-25'), { code: 'validation_error', field: 'taxYear' });
});

t.test('official rate of interest by tax year (EIM26104)', async (t) => {
  const expected: [string, number][] = [
    ['2010/11', 400],
    ['2013/14', 400],
    ['2014/15', 325],
    ['2015/16', 300],
    ['2016/17', 300],
    ['2017/18', 250],
    ['2019/20', 250],
    ['2020/21', 225],
    ['2021/22', 200],
    ['2022/23', 200],
    ['2023/24', 225],
    ['2024/25', 225],
    ['2025/26', 375],
    ['2026/27', 375],
    ['2030/31', 375],
  ];
  for (const [year, basisPoints] of expected) t.equal(officialRateFor(year), basisPoints, year);
  t.throws(() => officialRateFor('2009/10'), { code: 'validation_error', field: 'taxYear' });
});
