/** drCr and formatBalance: a debit − credit balance as accountants print it, for acct ledger and the reports. */
import t from 'tap';
import { debitMinusCredit, drCr, formatBalance } from '../../src/cli/balance-side.js';

t.test('drCr: the amount without its sign, and its side', async (t) => {
  t.same(drCr(12_345), { amount: 12_345, side: 'Dr' }, 'a debit balance');
  t.same(drCr(-500), { amount: 500, side: 'Cr' }, 'a credit balance is negative inside');
  t.same(drCr(0), { amount: 0, side: '' }, 'nil is on neither side');
  t.same(drCr(-1), { amount: 1, side: 'Cr' }, 'a penny');
});

t.test('formatBalance: pounds, grouped, and the side', async (t) => {
  t.equal(formatBalance(123_456), '1,234.56 Dr');
  t.equal(formatBalance(-123_456_789), '1,234,567.89 Cr');
  t.equal(formatBalance(0), '0.00');
  t.equal(formatBalance(-5), '0.05 Cr');
});

t.test('debitMinusCredit: a natural balance put back as debit − credit', async (t) => {
  t.equal(debitMinusCredit(17_040, true), -17_040, 'VAT output, a credit: Cr');
  t.equal(debitMinusCredit(-2_400, true), 2_400, 'VAT input among the liabilities: Dr');
  t.equal(debitMinusCredit(72_240, false), 72_240, 'an asset: Dr');
  t.equal(formatBalance(debitMinusCredit(-2_400, true)), '24.00 Dr');
});
