/**
 * Bed and breakfasting: a repayment of £5,000 or more that new borrowing
 * of £5,000 or more follows (s464C) or precedes within 30 days repays the
 * new borrowing, not the old loan, and is flagged.
 *
 * Each case: £20,000 lent on 1 March 2024 (period 2024, deadline
 * 1 October 2025) and £20,000 repaid on 1 September 2025, in time; looked
 * at on 31 December 2025. Unmatched, nothing is charged; matched, the 2024
 * loan is charged: £20,000.00 × 33.75% = £6,750.00.
 */
import t from 'tap';
import { s455Exposure } from '../../src/engine/company/dla/s455.js';
import { loanLedger } from '../../src/engine/company/dla/loan-ledger.js';
import type { LoanGroup, LoanType, Movement } from '../../src/engine/company/dla/loan-types.js';

const mv = (date: string, amountPence: number, loanType: LoanType): Movement => ({ date, amountPence, loanType });
const query = { periodStart: '2024-01-01', periodEnd: '2024-12-31', asOfDate: '2025-12-31' };
const lent = mv('2024-03-01', 2_000_000, 'loan_to_director');
const repaid = mv('2025-09-01', -2_000_000, 'repayment_to_company');
const alone = (...movements: Movement[]): LoanGroup => ({ director: { key: 'dir_a', movements }, connected: [] });

t.test('new borrowing 30 days after the repayment: matched, the old loan stays charged', async (t) => {
  // 1 September 2025 + 30 days = 1 October 2025
  const r = s455Exposure(alone(lent, repaid, mv('2025-10-01', 2_000_000, 'loan_to_director')), query);
  t.equal(r.exposurePence, 675_000);
  t.equal(r.status, 'due');
  t.same(r.bedAndBreakfast, [
    {
      person: 'dir_a',
      repaymentDate: '2025-09-01',
      repaymentPence: 2_000_000,
      direction: 'after',
      matchedPence: 2_000_000,
      borrowing: [{ person: 'dir_a', date: '2025-10-01', pence: 2_000_000 }],
    },
  ]);
});

t.test('new borrowing 31 days after: not matched, the repayment clears the loan', async (t) => {
  const r = s455Exposure(alone(lent, repaid, mv('2025-10-02', 2_000_000, 'loan_to_director')), query);
  t.equal(r.exposurePence, 0);
  t.equal(r.status, 'repaid');
  t.same(r.bedAndBreakfast, []);
});

t.test('new borrowing under £5,000 within 30 days is not matched', async (t) => {
  const r = s455Exposure(alone(lent, repaid, mv('2025-09-10', 499_999, 'loan_to_director')), query);
  t.equal(r.status, 'repaid');
  t.same(r.bedAndBreakfast, []);
});

t.test('a repayment under £5,000 is never matched', async (t) => {
  // £4,999.99 repaid of a £4,999.99 loan, then £20,000 borrowed the next day.
  const r = s455Exposure(
    alone(mv('2024-03-01', 499_999, 'loan_to_director'), mv('2025-09-01', -499_999, 'repayment_to_company'), mv('2025-09-02', 2_000_000, 'loan_to_director')),
    query,
  );
  t.equal(r.status, 'repaid');
  t.same(r.bedAndBreakfast, []);
});

t.test('only the lesser amount is matched: £20,000 repaid against £8,000 borrowed', async (t) => {
  const r = s455Exposure(alone(lent, repaid, mv('2025-09-15', 800_000, 'loan_to_director')), query);
  // £8,000 of the repayment goes to the new loan, £12,000 to the 2024 loan: £8,000 of it owed.
  // £8,000.00 × 33.75% = £2,700.00
  t.equal(r.perAdvance[0]?.outstandingPence, 800_000);
  t.equal(r.exposurePence, 270_000);
  t.equal(r.bedAndBreakfast[0]?.matchedPence, 800_000);
});

t.test('new borrowing 30 days before the repayment: matched (the rule as implemented goes both ways)', async (t) => {
  // 1 September 2025 − 30 days = 2 August 2025
  const r = s455Exposure(alone(lent, mv('2025-08-02', 2_000_000, 'loan_to_director'), repaid), query);
  t.equal(r.exposurePence, 675_000);
  t.same(r.bedAndBreakfast, [
    {
      person: 'dir_a',
      repaymentDate: '2025-09-01',
      repaymentPence: 2_000_000,
      direction: 'before',
      matchedPence: 2_000_000,
      borrowing: [{ person: 'dir_a', date: '2025-08-02', pence: 2_000_000 }],
    },
  ]);
});

t.test('new borrowing 31 days before: not matched', async (t) => {
  const r = s455Exposure(alone(lent, mv('2025-08-01', 2_000_000, 'loan_to_director'), repaid), query);
  t.equal(r.exposurePence, 0);
  t.equal(r.status, 'repaid');
  t.same(r.bedAndBreakfast, []);
});

t.test('a loan repaid within 30 days with no older debt is simply repaid', async (t) => {
  const r = s455Exposure(alone(mv('2024-12-01', 600_000, 'loan_to_director'), mv('2024-12-20', -600_000, 'repayment_to_company')), query);
  t.equal(r.status, 'repaid');
  t.same(r.bedAndBreakfast, []);
});

t.test('a dividend set against the loan is not matched (it is taxed as income)', async (t) => {
  const r = s455Exposure(alone(lent, mv('2025-09-01', -2_000_000, 'dividend_offset'), mv('2025-09-10', 2_000_000, 'loan_to_director')), query);
  t.equal(r.status, 'repaid');
  t.same(r.bedAndBreakfast, []);
});

t.test("a connected person's new borrowing is matched against the director's repayment", async (t) => {
  const group: LoanGroup = {
    director: { key: 'dir_a', movements: [lent, repaid] },
    connected: [{ key: 'dir_spouse', movements: [mv('2025-09-15', 2_000_000, 'loan_to_director')] }],
  };
  const r = s455Exposure(group, query);
  t.equal(r.exposurePence, 675_000);
  t.same(r.bedAndBreakfast[0]?.borrowing, [{ person: 'dir_spouse', date: '2025-09-15', pence: 2_000_000 }]);
  // The spouse's £20,000 counts as repaid by the director's money, so the ledger owes £20,000 in all, the director's.
  const ledger = loanLedger(group, '2025-12-31');
  t.same(
    ledger.advances.map((a) => [a.person, a.date, a.remainingPence]),
    [
      ['dir_a', '2024-03-01', 2_000_000],
      ['dir_spouse', '2025-09-15', 0],
    ],
  );
});

t.test("the connected person repaying that borrowing repays the loan the director's money left owed", async (t) => {
  const group: LoanGroup = {
    director: { key: 'dir_a', movements: [lent, repaid] },
    connected: [{ key: 'dir_spouse', movements: [mv('2025-09-15', 2_000_000, 'loan_to_director'), mv('2025-09-20', -2_000_000, 'repayment_to_company')] }],
  };
  // Both accounts are clear on 20 September 2025, before the deadline: nothing is owed, nothing charged.
  const r = s455Exposure(group, query);
  t.equal(r.exposurePence, 0);
  t.equal(r.status, 'repaid');
  t.equal(r.bedAndBreakfast.length, 1, 'the matching is still reported');
  t.same(
    loanLedger(group, '2025-12-31').advances.map((a) => a.remainingPence),
    [0, 0],
  );
});
