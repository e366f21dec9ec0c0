/**
 * Balances (positive = overdrawn), the aggregated balance with connected
 * persons, the warning level and the year-end snapshot, worked by hand;
 * and a property: without bed and breakfasting, what the advances still
 * owe is the overdrawn balance exactly, whatever the movements.
 */
import fc from 'fast-check';
import t from 'tap';
import { aggregatedBalanceAt, balanceAt } from '../../src/engine/company/dla/balance.js';
import { warningLevel } from '../../src/engine/company/dla/warning-level.js';
import { yearEndSnapshot } from '../../src/engine/company/dla/snapshot.js';
import { loanLedger } from '../../src/engine/company/dla/loan-ledger.js';
import { outstanding } from '../../src/engine/company/dla/advances.js';
import { loanSign } from '../../src/engine/company/dla/sign-rule.js';
import { loanTypes, type LoanGroup, type LoanType, type Movement } from '../../src/engine/company/dla/loan-types.js';

const mv = (date: string, amountPence: number, loanType: LoanType): Movement => ({ date, amountPence, loanType });

const director = [mv('2024-03-01', 2_000_000, 'loan_to_director'), mv('2025-03-01', -500_000, 'repayment_to_company')];
const group: LoanGroup = {
  director: { key: 'dir_a', movements: director },
  connected: [{ key: 'dir_spouse', movements: [mv('2024-07-01', 300_000, 'loan_to_director')] }],
};

t.test('balance at a date takes movements of that day and before', async (t) => {
  t.equal(balanceAt(director, '2024-02-29'), 0);
  t.equal(balanceAt(director, '2024-03-01'), 2_000_000);
  // £20,000 − £5,000 = £15,000 overdrawn
  t.equal(balanceAt(director, '2025-03-01'), 1_500_000);
  t.equal(balanceAt([mv('2024-01-01', -250_000, 'loan_from_director')], '2024-12-31'), -250_000, 'the company owes the director');
});

t.test('aggregated balance adds connected persons, signed', async (t) => {
  // £15,000 (director) + £3,000 (spouse) = £18,000
  t.equal(aggregatedBalanceAt(group, '2025-03-01'), 1_800_000);
  const withCredit: LoanGroup = {
    ...group,
    connected: [...group.connected, { key: 'dir_son', movements: [mv('2024-08-01', -200_000, 'loan_from_director')] }],
  };
  // £18,000 − £2,000 owed to the son = £16,000
  t.equal(aggregatedBalanceAt(withCredit, '2025-03-01'), 1_600_000);
});

t.test('warning levels', async (t) => {
  const calm = { balancePence: 0, s455Status: 'clear', bedAndBreakfasted: false, bikApplicable: false } as const;
  t.equal(warningLevel(calm), 'green');
  t.equal(warningLevel({ ...calm, balancePence: -100_000 }), 'green', 'in credit');
  t.equal(warningLevel({ ...calm, s455Status: 'repaid' }), 'green');
  t.equal(warningLevel({ ...calm, balancePence: 1 }), 'amber', 'overdrawn by a penny');
  t.equal(warningLevel({ ...calm, s455Status: 'at_risk', balancePence: 500_000 }), 'amber');
  t.equal(warningLevel({ ...calm, bikApplicable: true }), 'amber');
  t.equal(warningLevel({ ...calm, s455Status: 'due', balancePence: 500_000 }), 'red');
  t.equal(warningLevel({ ...calm, s455Status: 'due' }), 'red', 'due even if repaid since: the tax was charged');
  t.equal(warningLevel({ ...calm, bedAndBreakfasted: true }), 'red');
});

t.test('year-end snapshot', async (t) => {
  t.same(yearEndSnapshot(group, { periodStart: '2024-01-01', periodEnd: '2024-12-31', asOfDate: '2025-10-01' }), {
    periodEndDate: '2024-12-31',
    // The director's £20,000 at 31 December 2024; with the spouse's £3,000: £23,000.
    balancePence: 2_000_000,
    aggregatedBalancePence: 2_300_000,
    // Owed on 1 October 2025: £20,000 − £5,000 + £3,000 = £18,000; × 33.75% = £6,075.00
    s455ExposurePence: 607_500,
    deadline: '2025-10-01',
    deadlineStatus: 'due',
    // 2024/25: £20,000 on 5 April 2024, £15,000 on 5 April 2025: (£20,000 + £15,000) / 2 = £17,500; × 2.25% = £393.75
    bikTaxYear: '2024/25',
    bikBenefitPence: 39_375,
  });
  t.throws(() => yearEndSnapshot(group, { periodStart: '2024-01-01', periodEnd: '2024-12-31', asOfDate: '2024-12-30' }), {
    code: 'validation_error',
    field: 'asOfDate',
  });
});

t.test('property: without bed and breakfasting the advances owe the overdrawn balance', async (t) => {
  // Movements under £5,000 each can never be matched, so every repayment goes oldest first.
  const movement = fc
    .record({
      day: fc.integer({ min: 0, max: 1_000 }),
      pence: fc.integer({ min: 1, max: 499_999 }),
      loanType: fc.constantFrom(...loanTypes),
    })
    .map(({ day, pence, loanType }) => mv(new Date(Date.UTC(2023, 0, 1 + day)).toISOString().slice(0, 10), loanSign[loanType] * pence, loanType));
  fc.assert(
    fc.property(fc.array(movement, { maxLength: 40 }), (movements) => {
      const asOf = '2025-06-30';
      const ledger = loanLedger({ director: { key: 'dir_a', movements }, connected: [] }, asOf);
      const owed = outstanding(ledger.advances);
      if (owed !== Math.max(0, balanceAt(movements, asOf))) throw new Error(`advances owe ${owed}, the balance is ${balanceAt(movements, asOf)}`);
      if (ledger.advances.some((a) => a.remainingPence < 0)) throw new Error('an advance owes less than nothing');
    }),
    { numRuns: 300 },
  );
  t.pass('held');
});

t.test('property: a director and a connected person, bed and breakfasting included, owe their overdrawn balances', async (t) => {
  // Large amounts and close dates, so that repayments are matched against either person's borrowing.
  const movement = fc
    .record({
      day: fc.integer({ min: 0, max: 120 }),
      pence: fc.oneof(fc.integer({ min: 1, max: 499_999 }), fc.integer({ min: 500_000, max: 3_000_000 })),
      loanType: fc.constantFrom(...loanTypes),
    })
    .map(({ day, pence, loanType }) => mv(new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10), loanSign[loanType] * pence, loanType));
  fc.assert(
    fc.property(fc.array(movement, { maxLength: 25 }), fc.array(movement, { maxLength: 25 }), (mine, theirs) => {
      const asOf = '2024-12-31';
      const ledger = loanLedger({ director: { key: 'dir_a', movements: mine }, connected: [{ key: 'dir_b', movements: theirs }] }, asOf);
      const owed = outstanding(ledger.advances);
      const overdrawn = Math.max(0, balanceAt(mine, asOf)) + Math.max(0, balanceAt(theirs, asOf));
      if (owed !== overdrawn) throw new Error(`advances owe ${owed}, the overdrawn balances are ${overdrawn}`);
      if (ledger.advances.some((a) => a.remainingPence < 0)) throw new Error('an advance owes less than nothing');
    }),
    { numRuns: 300 },
  );
  t.pass('held');
});
