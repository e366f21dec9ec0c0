import t from 'tap';
import { cutoverError, defaultCutover, isMonthEnd } from '../../src/engine/imports/balances/cutover.js';

t.test('the default cutover is the last day of the month before today', async (t) => {
  t.equal(defaultCutover('2025-04-07'), '2025-03-31');
  t.equal(defaultCutover('2025-03-01'), '2025-02-28');
  t.equal(defaultCutover('2024-03-15'), '2024-02-29', 'a leap year');
  t.equal(defaultCutover('2025-01-10'), '2024-12-31', 'across the year');
  t.equal(defaultCutover('2025-05-31'), '2025-04-30', 'today a month end is still this month');
});

t.test('month ends', async (t) => {
  for (const date of ['2025-03-31', '2025-04-30', '2024-02-29', '2025-02-28', '2025-12-31']) t.equal(isMonthEnd(date), true, date);
  for (const date of ['2025-03-30', '2024-02-28', '2025-02-29', '2025-04-31', '2025-03-01', '31/03/2025', '2025-3-31', ''])
    t.equal(isMonthEnd(date), false, date);
});

t.test('the cutover date must be a month end', async (t) => {
  t.equal(cutoverError('2025-03-31'), null);
  t.equal(cutoverError('2025-03-15'), 'the cutover date must be the last day of a month: 2025-03-15 is not (that month ends on 2025-03-31)');
  t.equal(cutoverError('2024-02-28'), 'the cutover date must be the last day of a month: 2024-02-28 is not (that month ends on 2024-02-29)');
  t.equal(cutoverError('2025-02-30'), 'the cutover date must be a date such as 2025-03-31, not "2025-02-30"');
  t.equal(cutoverError('31/03/2025'), 'the cutover date must be a date such as 2025-03-31, not "31/03/2025"');
});
