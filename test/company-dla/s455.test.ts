/**
 * S455 exposure, worked by hand: advances of the period still owed on the
 * deadline (period end + 9 months + 1 day), repayments before the deadline
 * matched oldest advance first, each advance at the rate in force on the
 * day it was made, the tax of each rate rounded down to the penny.
 */
import t from 'tap';
import { s455Exposure } from '../../src/engine/company/dla/s455.js';
import type { LoanGroup, LoanType, Movement } from '../../src/engine/company/dla/loan-types.js';

const mv = (date: string, amountPence: number, loanType: LoanType): Movement => ({ date, amountPence, loanType });
const alone = (...movements: Movement[]): LoanGroup => ({ director: { key: 'dir_a', movements }, connected: [] });
const year2024 = { periodStart: '2024-01-01', periodEnd: '2024-12-31' };

t.test('a loan repaid before the deadline is not charged', async (t) => {
  const group = alone(mv('2024-03-01', 2_000_000, 'loan_to_director'), mv('2025-06-30', -2_000_000, 'repayment_to_company'));
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-12-31' });
  t.same(r, {
    exposed: false,
    exposurePence: 0,
    rate: 33.75, // nothing owed: the rate of a loan made on the as-of date
    status: 'repaid',
    deadline: '2025-10-01',
    perAdvance: [{ person: 'dir_a', date: '2024-03-01', amountPence: 2_000_000, rate: 33.75, relievedPence: 2_000_000, outstandingPence: 0 }],
    byRate: [],
    bedAndBreakfast: [],
  });
});

t.test('a loan repaid after the deadline is charged at the rate of its day', async (t) => {
  const group = alone(mv('2024-03-01', 2_000_000, 'loan_to_director'), mv('2025-11-15', -2_000_000, 'repayment_to_company'));
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-12-31' });
  // £20,000.00 × 33.75% = £6,750.00
  t.equal(r.exposurePence, 675_000);
  t.equal(r.status, 'due');
  t.ok(r.exposed);
  t.equal(r.rate, 33.75);
  t.same(r.byRate, [{ rate: 33.75, outstandingPence: 2_000_000, taxPence: 675_000 }]);
  t.same(r.perAdvance[0], { person: 'dir_a', date: '2024-03-01', amountPence: 2_000_000, rate: 33.75, relievedPence: 0, outstandingPence: 2_000_000 });
});

t.test('a partial repayment and a dividend set off before the deadline reduce the charge', async (t) => {
  const group = alone(
    mv('2024-05-10', 1_234_567, 'loan_to_director'),
    mv('2025-01-20', -400_000, 'repayment_to_company'),
    mv('2025-09-30', -100_000, 'dividend_offset'),
  );
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-12-01' });
  // £12,345.67 − £4,000.00 − £1,000.00 = £7,345.67 owed on 1 October 2025
  // £7,345.67 × 33.75% = £2,479.163625 → £2,479.16 (rounded down)
  t.equal(r.perAdvance[0]?.relievedPence, 500_000);
  t.equal(r.perAdvance[0]?.outstandingPence, 734_567);
  t.equal(r.exposurePence, 247_916);
  t.equal(r.status, 'due');
});

t.test('repayments go to the oldest advance first, the earlier period included', async (t) => {
  const group = alone(
    mv('2023-06-01', 600_000, 'loan_to_director'),
    mv('2024-03-01', 400_000, 'loan_to_director'),
    mv('2024-12-15', -600_000, 'repayment_to_company'),
  );
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-10-01' });
  // The £6,000 repaid clears the 2023 loan; the 2024 loan of £4,000 is owed: × 33.75% = £1,350.00
  t.same(r.perAdvance, [{ person: 'dir_a', date: '2024-03-01', amountPence: 400_000, rate: 33.75, relievedPence: 0, outstandingPence: 400_000 }]);
  t.equal(r.exposurePence, 135_000);
  t.same(r.bedAndBreakfast, [], 'no new borrowing within 30 days of the £6,000');
});

t.test('the deadline day: a repayment the day before counts, on the day or after does not', async (t) => {
  const loan = mv('2024-06-01', 1_000_000, 'loan_to_director');
  const repaidOn = (date: string) => s455Exposure(alone(loan, mv(date, -1_000_000, 'repayment_to_company')), { ...year2024, asOfDate: '2025-10-31' });
  // Period end 31 December 2024 → deadline 1 October 2025.
  t.equal(repaidOn('2025-09-30').status, 'repaid');
  t.equal(repaidOn('2025-09-30').exposurePence, 0);
  // £10,000.00 × 33.75% = £3,375.00
  t.equal(repaidOn('2025-10-01').status, 'due');
  t.equal(repaidOn('2025-10-01').exposurePence, 337_500);
  t.equal(repaidOn('2025-10-02').exposurePence, 337_500);

  const unpaid = alone(loan);
  t.same(
    [s455Exposure(unpaid, { ...year2024, asOfDate: '2025-09-30' }).status, s455Exposure(unpaid, { ...year2024, asOfDate: '2025-10-01' }).status],
    ['at_risk', 'due'],
    'at risk up to the day before the deadline, due on it',
  );
  t.equal(s455Exposure(unpaid, { ...year2024, asOfDate: '2025-09-30' }).exposurePence, 337_500, 'at risk shows what would be charged');
});

t.test('a movement after the as-of date is not known yet', async (t) => {
  const group = alone(mv('2024-06-01', 1_000_000, 'loan_to_director'), mv('2025-09-01', -1_000_000, 'repayment_to_company'));
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-08-31' });
  t.equal(r.status, 'at_risk');
  t.equal(r.exposurePence, 337_500);
});

t.test('nothing lent in the period is clear', async (t) => {
  const r = s455Exposure(alone(mv('2023-06-01', 600_000, 'loan_to_director')), { ...year2024, asOfDate: '2025-12-31' });
  t.equal(r.status, 'clear');
  t.equal(r.exposurePence, 0);
  t.same(r.perAdvance, []);
  t.throws(() => s455Exposure(alone(), { periodStart: '2025-01-01', periodEnd: '2024-12-31', asOfDate: '2025-01-01' }), {
    code: 'validation_error',
    field: 'periodEnd',
  });
});

t.test('drawing on a credit balance lends nothing', async (t) => {
  const group = alone(mv('2024-01-10', -300_000, 'loan_from_director'), mv('2024-02-10', 500_000, 'loan_to_director'));
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-12-31' });
  // The company owed the director £3,000; £5,000 paid out makes the account overdrawn by £2,000 only.
  // £2,000.00 × 33.75% = £675.00
  t.same(
    r.perAdvance.map((a) => a.amountPence),
    [200_000],
  );
  t.equal(r.exposurePence, 67_500);
});

t.test('a write-off before the deadline relieves the charge like a repayment (s458)', async (t) => {
  const group = alone(mv('2024-03-01', 800_000, 'loan_to_director'), mv('2025-03-31', -800_000, 'write_off'));
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-12-31' });
  t.equal(r.status, 'repaid');
  t.equal(r.exposurePence, 0);
});

t.test('boundary of 6 April 2022: 32.5% the day before, 33.75% from that day', async (t) => {
  const group = alone(mv('2022-04-05', 1_000_000, 'loan_to_director'), mv('2022-04-06', 1_000_000, 'loan_to_director'));
  const r = s455Exposure(group, { periodStart: '2022-01-01', periodEnd: '2022-12-31', asOfDate: '2023-12-31' });
  // £10,000.00 × 32.5% = £3,250.00; £10,000.00 × 33.75% = £3,375.00; total £6,625.00
  t.same(r.byRate, [
    { rate: 32.5, outstandingPence: 1_000_000, taxPence: 325_000 },
    { rate: 33.75, outstandingPence: 1_000_000, taxPence: 337_500 },
  ]);
  t.equal(r.exposurePence, 662_500);
  t.equal(r.rate, 33.75, 'the rate of the latest advance owed');
  t.equal(r.deadline, '2023-10-01');
  t.equal(r.status, 'due');
});

t.test('boundary of 6 April 2026: 33.75% the day before, 35.75% from that day', async (t) => {
  const group = alone(mv('2026-04-05', 1_000_000, 'loan_to_director'), mv('2026-04-06', 1_000_000, 'loan_to_director'));
  const r = s455Exposure(group, { periodStart: '2026-01-01', periodEnd: '2026-12-31', asOfDate: '2026-12-31' });
  // £10,000.00 × 33.75% = £3,375.00; £10,000.00 × 35.75% = £3,575.00; total £6,950.00
  t.same(r.byRate, [
    { rate: 33.75, outstandingPence: 1_000_000, taxPence: 337_500 },
    { rate: 35.75, outstandingPence: 1_000_000, taxPence: 357_500 },
  ]);
  t.equal(r.exposurePence, 695_000);
  t.equal(r.rate, 35.75);
  t.equal(r.deadline, '2027-10-01');
  t.equal(r.status, 'at_risk');
});

t.test('a repayment of the older loan leaves the newer one at its own rate', async (t) => {
  // £10,000 lent 5 April 2022 (32.5%) and £10,000 on 6 April 2022 (33.75%); £10,000 repaid in time clears the older.
  const group = alone(
    mv('2022-04-05', 1_000_000, 'loan_to_director'),
    mv('2022-04-06', 1_000_000, 'loan_to_director'),
    mv('2023-01-31', -1_000_000, 'repayment_to_company'),
  );
  const r = s455Exposure(group, { periodStart: '2022-01-01', periodEnd: '2022-12-31', asOfDate: '2023-12-31' });
  // £10,000.00 × 33.75% = £3,375.00
  t.same(r.byRate, [{ rate: 33.75, outstandingPence: 1_000_000, taxPence: 337_500 }]);
});

t.test('connected persons: their loans are charged with the director’s, each loan on its own', async (t) => {
  const group: LoanGroup = {
    director: { key: 'dir_a', movements: [mv('2024-02-01', 800_000, 'loan_to_director')] },
    connected: [
      { key: 'dir_spouse', movements: [mv('2024-07-01', 300_000, 'loan_to_director'), mv('2025-03-01', -100_000, 'repayment_to_company')] },
      // The company owes the son £2,000: that credit repays nobody else's loan.
      { key: 'dir_son', movements: [mv('2024-08-01', -200_000, 'loan_from_director')] },
    ],
  };
  const r = s455Exposure(group, { ...year2024, asOfDate: '2025-10-01' });
  // Owed on 1 October 2025: £8,000 (director) + £3,000 − £1,000 (spouse) = £10,000; × 33.75% = £3,375.00
  t.same(r.perAdvance, [
    { person: 'dir_a', date: '2024-02-01', amountPence: 800_000, rate: 33.75, relievedPence: 0, outstandingPence: 800_000 },
    { person: 'dir_spouse', date: '2024-07-01', amountPence: 300_000, rate: 33.75, relievedPence: 100_000, outstandingPence: 200_000 },
  ]);
  t.equal(r.exposurePence, 337_500);
  t.equal(r.status, 'due');
});
