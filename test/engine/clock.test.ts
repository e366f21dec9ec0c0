/**
 * today(): the UK date by the summer-time rule, which must give what ICU's
 * Europe/London zone gives at every instant, across each change of the
 * clocks (either side by a minute) and at instants spread over the years.
 */
import t from 'tap';
import { fixedClock, today } from '../../src/engine/clock.js';

const london = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const at = (ms: number) => fixedClock(new Date(ms).toISOString());

t.test('around every change of the clocks, 1990 to 2040', async (t) => {
  let checked = 0;
  let wrong = 0;
  for (let year = 1990; year <= 2040; year++) {
    for (const month of [2, 9]) {
      // Each hour of the last eight days of the month, and a minute either side of it: the change is among them.
      const end = Date.UTC(year, month + 1, 1);
      for (let ms = end - 8 * 86_400_000; ms < end; ms += 3_600_000) {
        for (const d of [-60_000, 0, 60_000]) {
          checked++;
          if (today(at(ms + d)) !== london.format(new Date(ms + d))) wrong++;
        }
      }
    }
  }
  t.equal(wrong, 0, `${checked} instants`);
});

t.test('at instants spread over the years', async (t) => {
  let wrong = 0;
  const from = Date.UTC(1970, 0, 1);
  const to = Date.UTC(2100, 0, 1);
  for (let ms = from; ms < to; ms += 7_919_999) if (today(at(ms)) !== london.format(new Date(ms))) wrong++;
  t.equal(wrong, 0);
});

t.test('the evening of a summer day in the UK is still that day; after midnight BST it is the next', async (t) => {
  t.equal(today(fixedClock('2026-07-01T22:59:59Z')), '2026-07-01');
  t.equal(today(fixedClock('2026-07-01T23:00:00Z')), '2026-07-02');
  t.equal(today(fixedClock('2026-12-31T23:59:59Z')), '2026-12-31');
  t.equal(today(fixedClock('2026-03-29T00:59:59Z')), '2026-03-29', 'the clocks go forward at 01:00 UTC on 29 March 2026');
  t.equal(today(fixedClock('2026-10-24T23:00:00Z')), '2026-10-25', 'still summer time on the night before the clocks go back');
});
