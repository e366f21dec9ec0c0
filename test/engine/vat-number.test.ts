/**
 * The organisation's VAT number: HMRC's check digits, worked by hand.
 * Weights 8 7 6 5 4 3 2 on the first seven digits; the check digits are
 * 97 − (sum mod 97), or for numbers from 100 000 000 on, 97 − ((sum + 55) mod 97).
 */
import t from 'tap';
import { checkVatNumber, passesCheckDigits } from '../../src/engine/organisation/vat-number.js';

t.test('modulus 97 and mod 9755, worked by hand', async (t) => {
  // 9·8 + 8·7 + 0·6 + 7·5 + 8·4 + 0·3 + 6·2 = 207; 207 mod 97 = 13; 97 − 13 = 84.
  t.equal(passesCheckDigits('980780684'), true, 'GB 980 7806 84 (modulus 97)');
  t.equal(passesCheckDigits('980780685'), false, 'the last digit one off');
  t.equal(passesCheckDigits('890780684'), false, 'two digits swapped: 8·8 + 9·7 = 127, not 128: the sum changes');
  // 1·8 + 2·7 + 3·6 + 4·5 + 5·4 + 6·3 + 7·2 = 112; 112 mod 97 = 15; 97 − 15 = 82.
  t.equal(passesCheckDigits('123456782'), true, '123 4567 82 (modulus 97)');
  // 112 + 55 = 167; 167 mod 97 = 70; 97 − 70 = 27.
  t.equal(passesCheckDigits('123456727'), true, '123 4567 27 (mod 9755)');
  t.equal(passesCheckDigits('123456789'), false, '89 is neither 82 nor 27');
  // 0·8 + 1·7 + 2·6 + 3·5 + 4·4 + 5·3 + 6·2 = 77; 97 − 77 = 20; with 55: 132 mod 97 = 35, 97 − 35 = 62.
  t.equal(passesCheckDigits('012345620'), true, '012 3456 20 (modulus 97)');
  t.equal(passesCheckDigits('012345662'), false, 'mod 9755 numbers start at 100 000 000');
  // 1·8 = 8; 97 − 8 = 89; with 55: 63, 97 − 63 = 34.
  t.equal(passesCheckDigits('100000089'), true, '100 0000 89 (modulus 97)');
  t.equal(passesCheckDigits('100000034'), true, '100 0000 34 (mod 9755)');
});

t.test('the forms people type, stored compact with their prefix', async (t) => {
  const cases: [string, string][] = [
    ['GB 980 7806 84', 'GB980780684'],
    ['gb980780684', 'GB980780684'],
    ['980 7806 84', 'GB980780684'],
    ['980-780-684', 'GB980780684'],
    ['XI 980 7806 84', 'XI980780684'],
    ['GB 980 7806 84 001', 'GB980780684001'],
    ['GBGD001', 'GBGD001'],
    ['GB HA 599', 'GBHA599'],
  ];
  for (const [typed, stored] of cases) {
    t.same(checkVatNumber(typed), { value: stored }, typed);
  }
});

t.test('numbers of the wrong shape or with wrong check digits are refused with the reason', async (t) => {
  for (const bad of ['GB12345678', '1234567890', 'FR40303265045', 'GB98078068A', 'GB 980 7806 84 01', '']) {
    t.match(checkVatNumber(bad), { problem: /^must be a UK VAT number: 9 digits/ }, JSON.stringify(bad));
  }
  t.same(checkVatNumber('GB 123 4567 89'), { problem: "fails HMRC's check digits (GB123456789): is a digit mistyped?" });
  t.same(
    checkVatNumber('GB 123 4567 89 001'),
    { problem: "fails HMRC's check digits (GB123456789001): is a digit mistyped?" },
    'a branch number checks its first nine digits',
  );
  t.match(checkVatNumber('GBGD500'), { problem: /GD and 000 to 499/ });
  t.match(checkVatNumber('GBHA499'), { problem: /HA and 500 to 999/ });
});
