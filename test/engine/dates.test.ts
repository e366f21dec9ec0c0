import t from 'tap';
import { addDays, daysBetween, fiscalYearContaining, isMonthDay } from '../../src/engine/dates.js';
import { fixedClock, today } from '../../src/engine/clock.js';

t.test('fiscal years around their start date', async (t) => {
  t.same(fiscalYearContaining('2026-04-05', '04-06'), { startDate: '2025-04-06', endDate: '2026-04-05' });
  t.same(fiscalYearContaining('2026-04-06', '04-06'), { startDate: '2026-04-06', endDate: '2027-04-05' });
  t.same(fiscalYearContaining('2026-12-31', '01-01'), { startDate: '2026-01-01', endDate: '2026-12-31' });
  t.same(fiscalYearContaining('2024-02-29', '03-01'), { startDate: '2023-03-01', endDate: '2024-02-29' });
  t.same(fiscalYearContaining('2025-03-01', '03-01'), { startDate: '2025-03-01', endDate: '2026-02-28' });
});

t.test('month-day starts: 29 February does not recur', async (t) => {
  t.ok(isMonthDay('04-06'));
  t.ok(isMonthDay('12-31'));
  t.notOk(isMonthDay('02-29'));
  t.notOk(isMonthDay('04-31'));
  t.notOk(isMonthDay('13-01'));
  t.notOk(isMonthDay('4-6'));
});

t.test('day arithmetic crosses month, year and leap day', async (t) => {
  t.equal(addDays('2024-02-28', 1), '2024-02-29');
  t.equal(addDays('2026-12-31', 1), '2027-01-01');
  t.equal(addDays('2026-03-01', -1), '2026-02-28');
  t.equal(daysBetween('2026-01-31', '2026-03-02'), 30);
});

t.test("today is the UK's date, not UTC's", async (t) => {
  // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
  t.equal(today(fixedClock('2026-06-30T23:30:00Z')), '2026-07-01');
  // In winter London is on UTC.
  t.equal(today(fixedClock('2026-12-31T23:30:00Z')), '2026-12-31');
});
