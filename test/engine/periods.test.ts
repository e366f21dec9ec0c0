import t from 'tap';
import { assertDateOpen, findPeriod, listPeriods } from '../../src/engine/ledger/periods.js';
import { closePeriodOp } from '../../src/engine/reports/period-ops.js';
import { fixedClock } from '../../src/engine/clock.js';
import { newBooks } from '../helpers/index.js';

t.test('periods run from the year before creation to the current year, and follow the clock', async (t) => {
  const books = await newBooks(t, { organisation: { businessType: 'sole_trader' }, clock: '2026-11-21T10:00:00Z' });
  const db = books.store.org(books.organisationId, 'live').db;
  t.same(
    (await listPeriods(db, books.clock)).map((p) => [p.id, p.name, p.startDate, p.endDate, p.isCurrent]),
    [
      ['period_20260406', 'FY 2026/27', '2026-04-06', '2027-04-05', true],
      ['period_20250406', 'FY 2025/26', '2025-04-06', '2026-04-05', false],
    ],
  );
  // Two years later the list has grown without any write.
  const later = fixedClock('2028-05-01T10:00:00Z');
  t.same(
    (await listPeriods(db, later)).map((p) => [p.id, p.isCurrent]),
    [
      ['period_20280406', true],
      ['period_20270406', false],
      ['period_20260406', false],
      ['period_20250406', false],
    ],
  );
});

t.test('a calendar-year organisation names its periods by one year', async (t) => {
  const books = await newBooks(t, { organisation: { fiscalYearStart: '01-01' }, clock: '2026-11-21T10:00:00Z' });
  const p = await findPeriod(books.store.org(books.organisationId, 'live').db, books.clock, 'period_20260101');
  t.same(p, {
    id: 'period_20260101',
    name: 'FY 2026',
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    isCurrent: true,
    isClosed: false,
    closedAt: null,
  });
});

t.test('a closed period refuses dates inside it and before it, as a lock date does; after it they are open', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const db = books.store.org(books.organisationId, 'live').db;
  await assertDateOpen(db, '2026-03-31');
  await closePeriodOp.run(books.ctx(), { id: 'period_20250401' });
  await t.rejects(assertDateOpen(db, '2025-04-01'), { code: 'unprocessable_entity', message: '2025-04-01 falls in FY 2025/26, which is closed' });
  await t.rejects(assertDateOpen(db, '2026-03-31'), { code: 'unprocessable_entity', message: '2026-03-31 falls in FY 2025/26, which is closed' });
  await assertDateOpen(db, '2026-04-01');
  // A day before it, and a year with no closing of its own: either would change FY 2025/26's closing balances.
  const before = 'is before FY 2025/26, which is closed, and so closes the years before it';
  await t.rejects(assertDateOpen(db, '2025-03-31'), { code: 'unprocessable_entity', message: `2025-03-31 ${before}` });
  await t.rejects(assertDateOpen(db, '2019-01-01'), { code: 'unprocessable_entity', message: `2019-01-01 ${before}` });
  t.match(await findPeriod(db, books.clock, 'period_20250401'), { isClosed: true, closedAt: '2026-11-21T10:00:00.000Z' });
  t.match(
    await findPeriod(db, books.clock, 'period_20180401'),
    { isClosed: true, closedAt: '2026-11-21T10:00:00.000Z' },
    'an earlier year shows closed, when the later one was',
  );
  t.match(await findPeriod(db, books.clock, 'period_20260401'), { isClosed: false, closedAt: null });
});

t.test('closing affects only the dataset it was done in', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  await closePeriodOp.run(books.ctx({ mode: 'test' }), { id: 'period_20250401' });
  await assertDateOpen(books.store.org(books.organisationId, 'live').db, '2025-06-01');
  await t.rejects(assertDateOpen(books.store.org(books.organisationId, 'test').db, '2025-06-01'));
});
