import t from 'tap';
import { parseAmountText } from '../../src/engine/tabular/amount-text.js';

t.test('amounts as banks print them, exactly in pence', async (t) => {
  const cases: [string, number][] = [
    ['12.50', 1250],
    ['-12.50', -1250],
    ['+12.50', 1250],
    ['1,234.56', 123456], // 1,234 pounds and 56 pence
    ['-1,234.56', -123456],
    ['£12.50', 1250],
    ['-£12.50', -1250],
    ['£-12.50', -1250],
    ['(12.50)', -1250], // accountants' brackets
    ['(£1,000.00)', -100000],
    ['12.50 DR', -1250],
    ['12.50DR', -1250],
    ['12.50 dr', -1250],
    ['12.50 CR', 1250],
    ['12.50-', -1250], // a trailing minus
    ['12.5', 1250], // one decimal is tens of pence
    ['12', 1200],
    ['0.01', 1],
    ['12.500', 1250], // zeros beyond the pence are exact
    ['GBP 7.00', 700],
    ['0.00', 0],
    ['-0.00', 0],
    ['1,000,000.00', 100000000],
    ['0.1', 10],
    ['19.99', 1999], // 19.99 * 100 is 1998.9999999999998 as a float: read as a decimal it is 1999
    ['1.15', 115], // 1.15 * 100 = 114.99999999999999 as a float
  ];
  for (const [text, pence] of cases) t.equal(parseAmountText(text), pence, JSON.stringify(text));
  t.equal(Object.is(parseAmountText('-0.00'), 0), true, 'no negative zero');
});

t.test('anything else is not an amount', async (t) => {
  for (const text of ['', 'abc', '12.505', '1.2.3', '12,34.00', '-12.50 DR', '(-5.00)', '--5', 'DR', '£', '1e3', '0x10', '12.50 EUR', 'N/A', '-']) {
    t.equal(parseAmountText(text), null, JSON.stringify(text));
  }
});
