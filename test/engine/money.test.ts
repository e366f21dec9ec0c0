import t from 'tap';
import { displayPounds, formatPounds, parsePounds, sterling } from '../../src/engine/money.js';

t.test('parsePounds reads pounds as people write them', async (t) => {
  t.equal(parsePounds('450', 'amount'), 45000, '£450 = 45000p');
  t.equal(parsePounds('450.00', 'amount'), 45000);
  t.equal(parsePounds('450.5', 'amount'), 45050, 'one decimal is tens of pence');
  t.equal(parsePounds('1,234.56', 'amount'), 123456);
  t.equal(parsePounds('£1,234.56', 'amount'), 123456);
  t.equal(parsePounds('-£5.00', 'amount'), -500);
  t.equal(parsePounds('1,234,567.89', 'amount'), 123456789);
});

t.test('parsePounds refuses anything else, naming the field', async (t) => {
  for (const text of ['4.505', '12,34.00', '1.2.3', '', 'abc', '£', '1e3', '0x10']) {
    t.throws(() => parsePounds(text, 'amount'), { code: 'validation_error', field: 'amount' }, JSON.stringify(text));
  }
  t.throws(() => parsePounds('4.505', 'amount'), { message: 'amount must be an amount in pounds such as 120.00, not 4.505' });
});

t.test('formatPounds stays plain, for files that programs read', async (t) => {
  t.equal(formatPounds(123456), '1234.56');
  t.equal(formatPounds(-5), '-0.05');
  t.equal(formatPounds(0), '0.00');
});

t.test('displayPounds groups thousands for tables', async (t) => {
  t.equal(displayPounds(162000), '1,620.00');
  t.equal(displayPounds(123456789), '1,234,567.89');
  t.equal(displayPounds(100000), '1,000.00');
  t.equal(displayPounds(99999), '999.99');
  t.equal(displayPounds(-500), '-5.00');
  t.equal(displayPounds(-123456), '-1,234.56');
  t.equal(displayPounds(-5), '-0.05');
  t.equal(displayPounds(0), '0.00');
});

t.test('sterling puts the pound sign after any minus, for messages', async (t) => {
  t.equal(sterling(12000), '£120.00');
  t.equal(sterling(-2400), '-£24.00');
  t.equal(sterling(10_000_000_000_000), '£100,000,000,000.00', 'the largest line, £100bn');
});
