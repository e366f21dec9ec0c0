/**
 * The profit a dividend may come out of, through the commander program
 * (CA 2006 s830): every dividend not void comes off it, whatever year it
 * is charged to, and it is read from the books as they stand: a later
 * loss counts, and so does the year so far on the day of the meeting or
 * declaration. Figures worked by hand.
 */
import t from 'tap';
import { company } from './support.js';

t.test('a dividend charged to a later year uses the same profit: £40,000.00 can be distributed once', async (t) => {
  const { post, director, minutes, declare, check, id } = await company(t);
  // £40,000.00 of sales on 30 June 2025, in the year to 31 March 2026; nothing since.
  await post('2025-06-30', 'Sales', '1200=40000', '4000=-40000');
  const alice = await director('Alice', 100);
  // Two resolutions, nothing declared yet: each may consider the £40,000.00.
  const later = await minutes(alice, '2026-05-01', '2027-03-31', '40000');
  t.equal(later.status, 0, later.stderr);
  const earlier = await minutes(alice, '2026-05-01', '2026-03-31', '40000');
  t.equal(earlier.status, 0, earlier.stderr);

  const first = await declare(alice, id(later), '40000', '2026-05-01');
  t.equal(first.status, 0, first.stderr);
  // Profit to 31 March 2026 £40,000.00, less the £40,000.00 charged to the year to 31 March 2027: nothing left.
  t.same(await check('2026-03-31'), {
    financialYearEnd: '2026-03-31',
    retainedEarningsPence: 0,
    previouslyDeclaredPence: 0,
    availableProfitPence: 0,
    canDeclareDividend: false,
  });
  // The same from the later year's side: £40,000.00 − £40,000.00 declared for it = £0.00.
  t.match(await check('2027-03-31'), { retainedEarningsPence: 4_000_000, previouslyDeclaredPence: 4_000_000, availableProfitPence: 0 });

  for (const pounds of ['40000', '0.01']) {
    const again = await declare(alice, id(earlier), pounds, '2026-05-02');
    t.equal(again.status, 5, `£${pounds} more for the earlier year: refused`);
    t.match(again.stderr, /"code":"insufficient_profit"/);
  }
  const third = await minutes(alice, '2026-05-02', '2026-03-31', '40000');
  t.equal(third.status, 5, 'new minutes cannot resolve the £40,000.00 again');
  t.match(third.stderr, /"code":"insufficient_profit"/);
});

t.test('a loss after the year end: what the books now hold is the most that is available', async (t) => {
  const { post, director, minutes, declare, check, id } = await company(t);
  await post('2025-06-30', 'Sales', '1200=40000', '4000=-40000');
  const alice = await director('Alice', 100);
  const bm = await minutes(alice, '2026-05-01', '2026-03-31', '40000');
  t.equal(bm.status, 0, bm.stderr);
  t.equal((await declare(alice, id(bm), '31000', '2026-05-01')).status, 0);
  // £40,000.00 − £31,000.00 = £9,000.00 left after the year's accounts.
  t.match(await check('2026-03-31'), { retainedEarningsPence: 4_000_000, previouslyDeclaredPence: 3_100_000, availableProfitPence: 900_000 });
  // A £30,000.00 loss on 31 August 2026: the profit on the books falls to £40,000.00 − £30,000.00 = £10,000.00,
  // and £31,000.00 of it is distributed already: £10,000.00 − £31,000.00 = −£21,000.00 (the reserves on the balance sheet).
  await post('2026-08-31', 'Rent', '5200=30000', '1200=-30000');
  t.same(await check('2026-03-31'), {
    financialYearEnd: '2026-03-31',
    retainedEarningsPence: 1_000_000,
    previouslyDeclaredPence: 3_100_000,
    availableProfitPence: -2_100_000,
    canDeclareDividend: false,
  });
  const more = await minutes(alice, '2026-09-01', '2026-03-31', '9000');
  t.equal(more.status, 5, 'the £9,000.00 the year end showed has been lost since');
  t.match(more.stderr, /"code":"insufficient_profit"/);
});

t.test('the year so far counts on the day of the meeting: profit made after it is not there yet', async (t) => {
  const { post, director, minutes, check } = await company(t);
  // £40,000.00 in the year to 31 March 2026, and £10,000.00 more on 1 October 2026.
  await post('2025-06-30', 'Sales', '1200=40000', '4000=-40000');
  await post('2026-10-01', 'Sales', '1200=10000', '4000=-10000');
  const alice = await director('Alice', 100);
  // The year to 31 March 2027 as the books stand: £40,000.00 + £10,000.00 = £50,000.00.
  t.match(await check('2027-03-31'), { availableProfitPence: 5_000_000 });
  // A meeting on 1 June 2026 has only the £40,000.00 made by then.
  const early = await minutes(alice, '2026-06-01', '2027-03-31', '50000');
  t.equal(early.status, 5, early.stderr);
  t.match(early.stderr, /40,000\.00/);
  const late = await minutes(alice, '2026-10-15', '2027-03-31', '50000');
  t.equal(late.status, 0, late.stderr);
});
