/**
 * One resolution, one rate per share for a class (Model Articles art.
 * 30(4)), through the commander program: a split that pays one holder
 * more per share is refused, as is a rate the class's holdings would take
 * beyond the minutes' total, and a second dividend to the same holder.
 * Figures worked by hand.
 */
import t from 'tap';
import { company } from './support.js';

t.test('one resolution, one class: the same amount per share for every holder', async (t) => {
  const { acct, json, post, director, minutes, declare, id } = await company(t);
  await post('2025-06-30', 'Sales', '1200=40000', '4000=-40000');
  const alice = await director('Alice', 90);
  const dan = await director('Dan', 10);
  const bm = await minutes(alice, '2026-05-01', '2026-03-31', '10000');
  t.equal(bm.status, 0, bm.stderr);

  // £10,000.00 to Dan is £1,000.00 on each of his 10 shares: the 100 Ordinary shares at that rate would take £100,000.00.
  const all = await declare(dan, id(bm), '10000', '2026-05-01');
  t.equal(all.status, 2, 'refused: 400 validation_error');
  t.match(all.stderr, /"field":"--amount-pence"/);
  t.match(all.stderr, /100,000\.00/);
  t.match(all.stderr, /at most £1,000\.00 on Dan's 10/, 'and says what fits: £10,000.00 × 10 / 100 = £1,000.00');
  // £10,000.00 over 100 shares is £100.00 a share: Dan's 10 take £1,000.00.
  const danOk = await declare(dan, id(bm), '1000', '2026-05-01');
  t.equal(danOk.status, 0, danOk.stderr);
  // Alice's 90 shares at £100.00 are £9,000.00: £8,000.00 (£88.8888 a share) and £8,999.50 (£99.9944) are refused.
  for (const pounds of ['8000', '8999.50']) {
    const r = await declare(alice, id(bm), pounds, '2026-05-01');
    t.equal(r.status, 2, `£${pounds} to Alice: refused`);
    t.match(r.stderr, /"field":"--amount-pence"/);
    t.match(r.stderr, /on Alice's 90 is £9,000\.00"/, 'the rate of Dan’s: £1,000.00 / 10 × 90 = £9,000.00');
  }
  const twice = await declare(dan, id(bm), '1000', '2026-05-01');
  t.equal(twice.status, 2, 'a second dividend to Dan under the same minutes: refused');
  t.match(twice.stderr, /"field":"--director-id"/);
  const aliceOk = await declare(alice, id(bm), '9000', '2026-05-01');
  t.equal(aliceOk.status, 0, aliceOk.stderr);
  t.same(((await json('dividends', 'list')) as unknown as { amountPence: number; sharesHeld: number }[]).map((d) => [d.sharesHeld, d.amountPence]).sort(), [
    [10, 100_000],
    [90, 900_000],
  ]);

  // Voided, Dan's dividend no longer counts: declared again at the same rate.
  t.equal((await acct('dividends', 'void', id(danOk))).status, 0);
  const danAgain = await declare(dan, id(bm), '1000', '2026-05-02');
  t.equal(danAgain.status, 0, danAgain.stderr);
});

t.test('the same rate per share to the penny: each holding times one rate, rounded down', async (t) => {
  const { post, director, minutes, declare, id } = await company(t);
  await post('2025-06-30', 'Sales', '1200=40000', '4000=-40000');
  const bob = await director('Bob', 3);
  const cat = await director('Cat', 7);
  // £33.33 over 10 shares: at most 333.3p a share.
  const bm = await minutes(bob, '2026-05-01', '2026-03-31', '33.33');
  t.equal(bm.status, 0, bm.stderr);
  // Bob £10.00 on 3 shares is 333.33p a share: × 10 shares = £33.33⅓, beyond £33.33.
  t.equal((await declare(bob, id(bm), '10.00', '2026-05-01')).status, 2);
  // £9.99 is 333p a share: × 10 = £33.30.
  const b = await declare(bob, id(bm), '9.99', '2026-05-01');
  t.equal(b.status, 0, b.stderr);
  // Cat's 7 shares: £23.34 is 333.43p a share, more than any rate that gives Bob £9.99 (below 1000p / 3 = 333.33p).
  t.equal((await declare(cat, id(bm), '23.34', '2026-05-01')).status, 2, '£23.34: refused');
  // £23.33 is 333.29p a share; at 333.3p Bob's 3 shares come to 999.9p (£9.99 rounded down) and Cat's 7 to 2333.1p (£23.33):
  // one rate, though the vouchers print £3.3300 and £3.3328. £9.99 + £23.33 = £33.32 of the £33.33.
  const c = await declare(cat, id(bm), '23.33', '2026-05-01');
  t.equal(c.status, 0, c.stderr);
});
