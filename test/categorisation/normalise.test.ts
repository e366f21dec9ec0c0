import t from 'tap';
import { extractKeyword } from '../../src/engine/categorisation/keyword.js';
import { normaliseDescription, normaliseText } from '../../src/engine/categorisation/normalise.js';

t.test('bank prefixes and trailing reference digits go; the payee stays', async (t) => {
  const cases: [string, string][] = [
    ['CARD PAYMENT TO TESCO STORES 4532', 'TESCO STORES'],
    ['TESCO STORES 4532', 'TESCO STORES'],
    ['Tesco Stores   4532', 'TESCO STORES'],
    ['CARD PAYMENT TO TESCO STORES 4532 ON 12 MAR', 'TESCO STORES'],
    ['DIRECT DEBIT PAYMENT TO BRITISH GAS 0811', 'BRITISH GAS'],
    ['FASTER PAYMENT RECEIVED FROM J SMITH REF 12/03/2026', 'J SMITH'],
    ['DD HMRC VAT 123456789', 'HMRC VAT'],
    ['SO LANDLORD RENT', 'LANDLORD RENT'],
    ['BGC ACME LTD INV 1042', 'ACME LTD INV'],
    ['FPO\tJ\u00a0BLOGGS #0042', 'J BLOGGS'],
    ['VIS SHELL FOREST HILL 2026-03-14', 'SHELL FOREST HILL'],
    ['))) COSTA COFFEE 12MAR26', 'COSTA COFFEE'],
    ['CONTACTLESS PRET A MANGER 14/03', 'PRET A MANGER'],
    ['CHQ 000123', '000123'],
  ];
  for (const [raw, normalised] of cases) t.equal(normaliseDescription(raw), normalised, raw);
});

t.test('a word always survives: prefixes need a word after them, digits need a word before', async (t) => {
  t.equal(normaliseDescription('DD'), 'DD', 'a prefix alone is the description');
  t.equal(normaliseDescription('4532'), '4532', 'a number alone stays');
  t.equal(normaliseDescription('DD 4532'), '4532');
  t.equal(normaliseDescription('DD SO TFR PAYPAL'), 'PAYPAL', 'prefixes are stripped repeatedly');
  t.equal(normaliseDescription('   '), '', 'white space is nothing');
});

t.test('only whole words are prefixes, and BP (a fuel company) is not one', async (t) => {
  t.equal(normaliseDescription('DDB ARCHITECTS'), 'DDB ARCHITECTS');
  t.equal(normaliseDescription('SOHO HOUSE'), 'SOHO HOUSE');
  t.equal(normaliseDescription('BP CONNECT 1234'), 'BP CONNECT');
});

t.test('normalising is idempotent', async (t) => {
  for (const raw of ['CARD PAYMENT TO TESCO STORES 4532 ON 12 MAR', 'DD 4532', 'FPI J SMITH REF 99']) {
    const once = normaliseDescription(raw);
    t.equal(normaliseDescription(once), once, raw);
  }
});

t.test('other text fields are only upper-cased with single spaces', async (t) => {
  t.equal(normaliseText('  dd  Acme\tLtd 4532 '), 'DD ACME LTD 4532');
});

t.test('the keyword is the distinctive leading words of the normalised description', async (t) => {
  const cases: [string, string][] = [
    ['CARD PAYMENT TO TESCO STORES 4532', 'TESCO STORES'],
    ['DIRECT DEBIT PAYMENT TO BRITISH GAS SERVICES LTD 0811', 'BRITISH GAS'],
    ['EE LIMITED', 'EE'],
    ['MARKS & SPENCER PLC 0412', 'MARKS & SPENCER'],
    ['THE WORKS 0412', 'THE WORKS'],
    ['VIS AMZN MKTP UK*AB12CD', 'AMZN MKTP'],
    ['VIS AMAZON.CO.UK*AB12CD', 'AMAZON.CO.UK'],
    ['DD HMRC VAT 123456789', 'HMRC VAT'],
    ['FPI LTD 123', 'LTD'], // nothing distinctive: the whole normalised description
  ];
  for (const [raw, keyword] of cases) t.equal(extractKeyword(raw), keyword, raw);
});
