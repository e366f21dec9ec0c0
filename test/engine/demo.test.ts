import t from 'tap';
import { openTestStore } from '../helpers/test-store.js';
import { fixedClock } from '../../src/engine/clock.js';
import { ensureDemoOrganisation, issueDemoKey } from '../../src/engine/platform/demo.js';
import { authenticate } from '../../src/engine/integration/api-keys.js';

t.test('the demo organisation is made once, with four months of balanced trading up to today', async (t) => {
  const store = await openTestStore(t, t.testdir());
  const clock = fixedClock('2026-11-21T10:00:00Z');
  const first = await ensureDemoOrganisation(store, clock);
  t.equal(first.created, true);
  t.same(await ensureDemoOrganisation(store, clock), { id: first.id, created: false }, 'a second start reuses it');
  const db = store.org(first.id, 'live').db;
  const txns = await db.selectFrom('transactions').selectAll().orderBy('date').execute();
  t.ok(txns.length >= 30, `${txns.length} transactions`);
  t.equal(txns[0]?.date, '2026-07-24', 'it starts 120 days back');
  t.equal(txns[0]?.description, 'Capital introduced by the directors');
  t.ok(
    txns.every((x) => x.date <= '2026-11-21'),
    'nothing in the future',
  );
  t.same(
    txns.filter((x) => x.status === 'draft').map((x) => [x.date, x.description]),
    [
      ['2026-11-20', 'Invoice INV-0004 to Calder Valley Homes'],
      ['2026-11-21', 'Card payment to be categorised'],
    ],
    'a draft invoice and a card payment to categorise',
  );
  t.ok(
    txns.some((x) => x.is_reconciled === 1),
    'older bank lines are reconciled',
  );
  t.ok(
    txns.filter((x) => x.is_reconciled === 1).every((x) => x.date < '2026-10-22'),
    'only those over a month old',
  );
  const sum = await db
    .selectFrom('lines')
    .where('posted', '=', 1)
    .select((eb) => eb.fn.sum<number>('amount').as('s'))
    .executeTakeFirstOrThrow();
  t.equal(Number(sum.s), 0, 'the posted ledger balances');
  const rent = txns.filter((x) => x.description === 'Workshop rent, Calder Works');
  t.same(
    rent.map((x) => [x.date, x.total_debit]),
    [
      ['2026-08-01', 150_000],
      ['2026-09-01', 150_000],
      ['2026-10-01', 150_000],
      ['2026-11-01', 150_000],
    ],
    'rent of 1,250.00 plus VAT on the first of each month',
  );
  // Sales: INV-0001 paid, INV-0002 part paid (due in 10 days), INV-0003 overdue (40 days old on 14-day terms), INV-0004 a draft; a bill due soon.
  const invoices = await db.selectFrom('invoices').select(['number', 'status', 'total', 'amount_paid']).where('kind', '=', 'sales').orderBy('number').execute();
  t.same(
    invoices.map((i) => [i.number, i.status, i.total, i.amount_paid]),
    [
      ['INV-0001', 'paid', 504_000, 504_000],
      // 6 × 185.00 + 7.5 × 38.00 = 1,395.00 net, VAT 279.00
      ['INV-0002', 'sent', 167_400, 60_000],
      ['INV-0003', 'overdue', 198_000, 0],
      ['INV-0004', 'draft', 180_000, 0],
    ],
  );
  const bills = await db.selectFrom('invoices').select(['number', 'status', 'total']).where('kind', '=', 'purchase').execute();
  t.same(bills, [{ number: 'PT-4471', status: 'approved', total: 103_200 }], '40 × 21.50 + VAT');
  const test = await store.org(first.id, 'test').db.selectFrom('transactions').select('id').execute();
  t.same(test, [], 'the test books start empty');
});

t.test('each demo start issues a new key and revokes the one before', async (t) => {
  const store = await openTestStore(t, t.testdir());
  const clock = fixedClock('2026-11-21T10:00:00Z');
  const { id } = await ensureDemoOrganisation(store, clock);
  const one = await issueDemoKey(store, clock, id);
  const two = await issueDemoKey(store, clock, id);
  await t.rejects(authenticate(store.platform.db, one), { code: 'unauthorized' });
  t.match(await authenticate(store.platform.db, two), { organisationId: id, mode: 'live' });
});
