import t from 'tap';
import type { VoucherData } from '../../src/pdf/voucher-data.js';
import { renderVoucher, voucherDocument } from '../../src/pdf/voucher.js';
import { formatPerShare, formatTaxYear } from '../../src/pdf/format.js';
import { pdfText, row } from '../sales-cli/support.js';
import { company, diagonalText, flat, pdfInfo, straightText } from './support.js';

// 100 Ordinary shares, £2,500.00 gross: £2,500.00 / 100 = £25.0000 a share exactly.
const declared: VoucherData = {
  company,
  voucherNumber: 'DIV-0001',
  status: 'declared',
  shareholder: { name: 'Jane Smith', address: '5 Market Place\nLeeds\nLS1 6AA' },
  shareClass: 'Ordinary',
  sharesHeld: 100,
  amountPence: 250000,
  declaredDate: '2026-10-01',
  paidDate: null,
  paymentMethod: 'bank_transfer',
  resolution: { reference: 'BM-2026-001', minutesDate: '2026-09-30' },
};

// 3 A Ordinary shares, £1,000.00 gross: £1,000.00 / 3 = £333.33333… rounded DOWN to £333.3333 a share;
// 3 × £333.3333 = £999.9999, a hundredth of a penny short: the total £1,000.00 is what is paid.
const paidAcrossTaxYears: VoucherData = {
  company,
  voucherNumber: 'DIV-0002',
  status: 'paid',
  shareholder: { name: 'Zoë Brontë', address: '9 Moor Road\nHaworth\nBD22 8DR' },
  shareClass: 'A Ordinary',
  sharesHeld: 3,
  amountPence: 100000,
  // Declared in 2026/27 (before 6 April 2027), paid on 6 April 2027: income of 2027/28, the year it was paid.
  declaredDate: '2027-03-20',
  paidDate: '2027-04-06',
  paymentMethod: 'cheque',
  resolution: { reference: 'BM-2027-002', minutesDate: '2027-03-20' },
};

t.test('per share rounded down to four places of a pound; tax years turn on 6 April', async (t) => {
  t.equal(formatPerShare(250000, 100), '£25.0000', '£2,500.00 / 100');
  t.equal(formatPerShare(100000, 3), '£333.3333', '£1,000.00 / 3 = £333.33333…, down');
  t.equal(formatPerShare(200000, 3), '£666.6666', '£2,000.00 / 3 = £666.66666…, down, not up to £666.6667');
  t.equal(formatPerShare(1, 3), '£0.0033', '1p / 3 = £0.003333…');
  t.equal(formatPerShare(123456789, 1), '£1,234,567.8900', 'thousands separated');
  t.equal(formatPerShare(100000, 0), '—', 'no shares: no rate');
  t.equal(formatTaxYear('2026-04-05'), '2025/26');
  t.equal(formatTaxYear('2026-04-06'), '2026/27');
  t.equal(formatTaxYear('2027-01-31'), '2026/27');
  t.equal(formatTaxYear('2099-12-31'), '2099/00');
});

t.test('a declared voucher: every particular, no PAID mark', async (t) => {
  const pdf = await renderVoucher(declared);
  t.type(pdf, Uint8Array);
  const text = pdfText(pdf);
  const info = pdfInfo(pdf);

  t.match(info, /Title:\s+Dividend voucher DIV-0001/);
  t.match(info, /Keywords:\s+DIV-0001, 01234567, BM-2026-001/);
  t.match(info, /Pages:\s+1\n/, 'one page');
  t.match(info, /Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);

  for (const s of ['Acme Widgets Ltd', '12 High Street', 'Unit 4', 'Bristol', 'BS1 4DJ', 'United Kingdom', 'Company number: 01234567']) {
    t.ok(text.includes(s), `company: ${s}`);
  }
  t.match(text, row('Acme Widgets Ltd', 'DIVIDEND VOUCHER'));
  t.match(text, /^\s+DIV-0001$/m, 'the voucher number under the title');
  for (const s of ['Shareholder', 'Jane Smith', '5 Market Place', 'Leeds', 'LS1 6AA']) t.ok(text.includes(s), `shareholder: ${s}`);

  t.match(text, row('Voucher Number', 'DIV-0001'));
  t.match(text, row('Date Declared', '1 October 2026'));
  t.notMatch(text, /Date Paid/, 'not paid: no Date Paid');
  // 1 October 2026 is in 2026/27 (6 April 2026 – 5 April 2027): its tax year if paid by 5 April 2027.
  t.match(text, row('Tax Year of Payment', '2026/27, if paid by 5 April 2027'));

  t.match(text, row('Share Class', 'Shares Held', 'Dividend per Share', 'Total (Gross)'));
  t.match(text, row('Ordinary', '100', '£25.0000', '£2,500.00'));
  const words = flat(text);
  t.ok(words.includes('The dividend per share is rounded down to four decimal places of a pound; the total is authoritative.'));
  t.ok(
    words.includes(
      'Declared by resolution of the board of directors, reference BM-2026-001, recorded in the minutes of the meeting held on 30 September 2026.',
    ),
    'the resolution and the minutes date',
  );
  t.ok(words.includes('Payable by bank transfer: £2,500.00.'));
  t.ok(words.includes('No tax has been deducted from this dividend.'));

  t.match(text, row('Authorised Director', 'Shareholder Acknowledgement'));
  t.ok(words.includes('I acknowledge receipt of this dividend voucher.'));
  t.match(text, row('Signature', 'Signature'), 'a line to sign in each block');

  // The hash of the particulars above, worked out by hand (see voucher-hash.test.ts for the canonical JSON):
  // echo -n '{"amountPence":250000,…,"voucherNumber":"DIV-0001"}' | sha256sum → d87c89a5b035c99e…
  t.match(text, row('Verification hash:', 'D87C-89A5-B035-C99E'));

  t.notMatch(text, /PAID|VOID/, 'no mark');
  t.equal(diagonalText(pdf), '', 'no watermark');
  t.equal(voucherDocument(declared).watermark, undefined);
});

t.test('a paid voucher: both dates, the tax year it was paid in, a diagonal PAID watermark, the same hash', async (t) => {
  const pdf = await renderVoucher(paidAcrossTaxYears);
  const text = straightText(pdf);
  const words = flat(text);

  t.match(pdfInfo(pdf), /Keywords:\s+DIV-0002, 01234567, BM-2027-002/);
  t.match(text, /^\s+DIV-0002$/m);
  for (const s of ['Zoë Brontë', '9 Moor Road', 'Haworth', 'BD22 8DR']) t.ok(text.includes(s), `shareholder: ${s}`);
  t.match(text, row('Date Declared', '20 March 2027'));
  t.match(text, row('Date Paid', '6 April 2027'));
  t.match(text, row('Tax Year of Payment', '2027/28'), 'paid on 6 April 2027: the first day of 2027/28');
  t.match(text, row('A Ordinary', '3', '£333.3333', '£1,000.00'));
  t.ok(words.includes('the total is authoritative'));
  t.ok(words.includes('Paid in full by cheque on 6 April 2027: £1,000.00.'));
  t.ok(words.includes('reference BM-2027-002, recorded in the minutes of the meeting held on 20 March 2027.'));

  t.match(text.slice(0, text.indexOf('Shareholder')), /\bPAID\b/, 'PAID under the title');
  t.equal(diagonalText(pdf), 'PAID', 'the diagonal watermark reads PAID');

  // Canonical JSON {"amountPence":100000,"companyName":"Acme Widgets Ltd","companyNumber":"01234567","declaredDate":"2027-03-20",
  // "resolutionReference":"BM-2027-002","shareClass":"A Ordinary","shareholderName":"Zoë Brontë","sharesHeld":3,"voucherNumber":"DIV-0002"}
  // | sha256sum → b9e41a29d60819a3…
  t.match(text, row('Verification hash:', 'B9E4-1A29-D608-19A3'));
  const unpaid = pdfText(await renderVoucher({ ...paidAcrossTaxYears, status: 'declared', paidDate: null }));
  t.match(unpaid, row('Verification hash:', 'B9E4-1A29-D608-19A3'), 'the voucher issued before payment carries the same hash');
  t.match(unpaid, row('Tax Year of Payment', '2026/27, if paid by 5 April 2027'));
});

t.test('a voided voucher: VOID mark and watermark, nothing payable, no tax year', async (t) => {
  const pdf = await renderVoucher({ ...declared, status: 'void', voidedDate: '2026-10-20' });
  const text = straightText(pdf);
  t.match(text.slice(0, text.indexOf('Shareholder')), /\bVOID\b/, 'VOID under the title');
  t.equal(diagonalText(pdf), 'VOID');
  t.notMatch(text, /PAID/);
  t.match(text, row('Date Declared', '1 October 2026'));
  t.match(text, row('Date Voided', '20 October 2026'));
  t.notMatch(text, /Tax Year/, 'never paid: income of no tax year');
  t.ok(flat(text).includes('This dividend has been voided: nothing is payable under this voucher.'));
  t.notMatch(text, /Payable by|No tax has been deducted/);
  t.match(text, row('Ordinary', '100', '£25.0000', '£2,500.00'), 'the particulars stay legible');
  t.match(text, row('Verification hash:', 'D87C-89A5-B035-C99E'), 'the same dividend, the same hash');
});

t.test('paid by credit to the loan account; a company without a recorded number', async (t) => {
  const pdf = await renderVoucher({
    ...declared,
    company: { ...company, companyNumber: null },
    status: 'paid',
    paidDate: '2026-10-02',
    paymentMethod: 'dla_offset',
  });
  const text = straightText(pdf);
  t.ok(flat(text).includes("Paid in full by credit to the director's loan account on 2 October 2026: £2,500.00."));
  t.notMatch(text, /Company number/);
  t.match(pdfInfo(pdf), /Keywords:\s+DIV-0001, BM-2026-001\n/);
  t.equal(diagonalText(pdf), 'PAID');
});
