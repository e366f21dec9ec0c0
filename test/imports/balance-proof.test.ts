import t from 'tap';
import fc from 'fast-check';
import { balanceProof, roundingLine, roundingTolerance } from '../../src/engine/imports/balances/balance-proof.js';

t.test('a balanced trial balance needs no rounding', async (t) => {
  // debits 12,500.00 + 3,600.00 = 16,100.00; credits 16,000.00 + 100.00 = 16,100.00
  const proof = balanceProof([
    { debit: 1250000, credit: 0 },
    { debit: 360000, credit: 0 },
    { debit: 0, credit: 1600000 },
    { debit: 0, credit: 10000 },
  ]);
  t.same(proof, { balanced: true, totalDebit: 1610000, totalCredit: 1610000, delta: 0, roundingInjected: false, roundingAmount: 0 });
  t.equal(roundingLine(proof), null);
});

t.test('exactly 5p out either way: a rounding line to 7999 balances it', async (t) => {
  t.equal(roundingTolerance, 5);
  // debits 100.05, credits 100.00: delta +5p, so the rounding line credits 5p
  const over = balanceProof([
    { debit: 10005, credit: 0 },
    { debit: 0, credit: 10000 },
  ]);
  t.same(over, { balanced: true, totalDebit: 10005, totalCredit: 10000, delta: 5, roundingInjected: true, roundingAmount: -5 });
  t.same(roundingLine(over), { code: '7999', debit: 0, credit: 5 });
  // debits 100.00, credits 100.05: delta -5p, so the rounding line debits 5p
  const under = balanceProof([
    { debit: 10000, credit: 0 },
    { debit: 0, credit: 10005 },
  ]);
  t.same(under, { balanced: true, totalDebit: 10000, totalCredit: 10005, delta: -5, roundingInjected: true, roundingAmount: 5 });
  t.same(roundingLine(under), { code: '7999', debit: 5, credit: 0 });
  // 1p out: 33.33 + 33.33 + 33.33 = 99.99 against 100.00
  const penny = balanceProof([
    { debit: 3333, credit: 0 },
    { debit: 3333, credit: 0 },
    { debit: 3333, credit: 0 },
    { debit: 0, credit: 10000 },
  ]);
  t.same(penny, { balanced: true, totalDebit: 9999, totalCredit: 10000, delta: -1, roundingInjected: true, roundingAmount: 1 });
});

t.test('6p out or more: not balanced, nothing injected, nothing balanced automatically', async (t) => {
  // debits 100.06, credits 100.00: delta +6p
  t.same(
    balanceProof([
      { debit: 10006, credit: 0 },
      { debit: 0, credit: 10000 },
    ]),
    { balanced: false, totalDebit: 10006, totalCredit: 10000, delta: 6, roundingInjected: false, roundingAmount: 0 },
  );
  // a missing Retained Earnings row: debits 5,000.00 against credits 1,000.00, 4,000.00 out
  const proof = balanceProof([
    { debit: 500000, credit: 0 },
    { debit: 0, credit: 100000 },
  ]);
  t.same(proof, { balanced: false, totalDebit: 500000, totalCredit: 100000, delta: 400000, roundingInjected: false, roundingAmount: 0 });
  t.equal(roundingLine(proof), null);
  t.equal(balanceProof([{ debit: 0, credit: 6 }]).balanced, false, 'delta -6p');
});

t.test('no lines: nothing to balance', async (t) => {
  t.same(balanceProof([]), { balanced: true, totalDebit: 0, totalCredit: 0, delta: 0, roundingInjected: false, roundingAmount: 0 });
});

t.test('property: balanced exactly when 5p or less out, and the rounding line always closes the gap', async (t) => {
  const line = fc.record({ debit: fc.nat({ max: 10_000_000 }), credit: fc.nat({ max: 10_000_000 }) });
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const proof = balanceProof(lines);
        const rounding = roundingLine(proof);
        const closed = proof.totalDebit + (rounding?.debit ?? 0) === proof.totalCredit + (rounding?.credit ?? 0);
        return proof.balanced === Math.abs(proof.delta) <= 5 && proof.balanced === closed && proof.roundingInjected === (rounding !== null);
      }),
    ),
  );
});
