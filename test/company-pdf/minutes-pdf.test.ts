import { execFileSync } from 'node:child_process';
import t from 'tap';
import type { MinutesData } from '../../src/pdf/voucher-data.js';
import { renderMinutes } from '../../src/pdf/minutes.js';
import { pdfText, row } from '../sales-cli/support.js';
import { company, diagonalText, flat, pdfInfo } from './support.js';

// Retained profit £12,000.00 for the year to 31 March 2026; £3,500.00 resolved:
//   Jane Smith  100 Ordinary    £2,500.00 → £2,500.00 / 100 = £25.0000 a share
//   John Smith    3 A Ordinary  £1,000.00 → £1,000.00 / 3 = £333.33333… → £333.3333 (rounded down)
//   £2,500.00 + £1,000.00 = £3,500.00, all allocated; £12,000.00 − £3,500.00 = £8,500.00 left.
const meeting: MinutesData = {
  company,
  resolutionReference: 'BM-2026-001',
  date: '2026-09-30',
  attendees: ['Jane Smith', 'John Smith'],
  chair: 'Jane Smith',
  financialYearEnd: '2026-03-31',
  retainedProfitPence: 1200000,
  totalDividendPence: 350000,
  allocations: [
    { shareholderName: 'Jane Smith', shareClass: 'Ordinary', sharesHeld: 100, amountPence: 250000, voucherNumber: 'DIV-0001' },
    { shareholderName: 'John Smith', shareClass: 'A Ordinary', sharesHeld: 3, amountPence: 100000, voucherNumber: null },
  ],
  notes: 'Payment to be made by 15 October 2026.',
};

t.test('the minutes of a meeting resolving a dividend: every particular, on one page', async (t) => {
  const pdf = await renderMinutes(meeting);
  t.type(pdf, Uint8Array);
  const text = pdfText(pdf);
  const words = flat(text);
  const info = pdfInfo(pdf);

  t.match(info, /Title:\s+Board minutes BM-2026-001/);
  t.match(info, /Keywords:\s+BM-2026-001, 01234567/);
  t.match(info, /Pages:\s+1\n/, 'one page: the chair signs under the minutes, not on a page of their own');

  for (const s of ['Acme Widgets Ltd', '12 High Street', 'Bristol', 'BS1 4DJ', 'Company number: 01234567']) t.ok(text.includes(s), `company: ${s}`);
  t.match(text, row('Acme Widgets Ltd', 'Resolution reference'));
  t.match(text, row('12 High Street', 'BM-2026-001'), 'the reference under its label');
  t.match(text, /^\s+MINUTES OF A MEETING OF THE BOARD OF DIRECTORS$/m);
  t.match(text, /^\s+held on 30 September 2026$/m);

  t.match(text, row('Present', 'Jane Smith (Chair)'));
  t.match(text, /^\s+John Smith$/m, 'the other director present, on a line of their own');
  t.ok(words.includes('Jane Smith chaired the meeting.'));

  t.ok(
    words.includes(
      "The directors considered the company's accounts for the financial year ending 31 March 2026, which show retained profit available for distribution of £12,000.00.",
    ),
  );
  t.ok(words.includes('IT WAS RESOLVED that an interim dividend of £3,500.00 in total be declared, payable to the shareholders as follows:'));
  t.match(text, row('Shareholder', 'Share Class', 'Shares', 'Per Share', 'Amount', 'Voucher'));
  t.match(text, row('Jane Smith', 'Ordinary', '100', '£25.0000', '£2,500.00', 'DIV-0001'));
  t.match(text, row('John Smith', 'A Ordinary', '3', '£333.3333', '£1,000.00'));
  t.match(text, row('Total dividend resolved', '£3,500.00'));
  t.notMatch(text, /Not yet allocated/, 'all of it allocated');
  t.ok(words.includes('Per-share figures are rounded down to four decimal places of a pound; the amounts are authoritative.'));
  t.ok(words.includes('£8,500.00 of retained profit remains after it.'));
  t.ok(words.includes('A dividend voucher is to be issued to each shareholder, quoting resolution reference BM-2026-001.'));

  t.match(text, /^\s*4\.\s+Notes$/m, 'the notes are the fourth item');
  t.ok(words.includes('Payment to be made by 15 October 2026.'));
  t.ok(words.includes('There being no further business, the meeting was closed.'));
  t.match(text, /^\s*Chair: Jane Smith$/m);
  t.ok(words.includes('Signed by the chair as a true record of the meeting.'));
  t.match(text, /^\s*Signature\s*$/m);
  t.match(text, /^\s*Date\s*$/m);
  t.equal(diagonalText(pdf), '', 'no watermark');
});

t.test('a sole director, part of the dividend not yet allocated, no notes', async (t) => {
  // £5,000.00 resolved, £2,500.00 of it to Jane Smith so far: £5,000.00 − £2,500.00 = £2,500.00 not yet allocated.
  const text = pdfText(
    await renderMinutes({
      ...meeting,
      attendees: ['Jane Smith'],
      totalDividendPence: 500000,
      allocations: [meeting.allocations[0] as MinutesData['allocations'][number]],
      notes: null,
    }),
  );
  t.ok(flat(text).includes('Jane Smith, the only director present, chaired the meeting.'));
  t.match(text, row('Present', 'Jane Smith (Chair)'));
  t.notMatch(text, /John Smith/);
  t.match(text, row('Not yet allocated', '£2,500.00'));
  t.match(text, row('Total dividend resolved', '£5,000.00'));
  // £12,000.00 − £5,000.00 = £7,000.00
  t.ok(flat(text).includes('£7,000.00 of retained profit remains after it.'));
  t.notMatch(text, /Notes/);
});

t.test('a dividend above the retained profit is said so, not passed as sufficient', async (t) => {
  // £1,000.00 of retained profit against £3,500.00 resolved: £2,500.00 over.
  const words = flat(pdfText(await renderMinutes({ ...meeting, retainedProfitPence: 100000 })));
  t.ok(words.includes('The dividend resolved exceeds the retained profit available for distribution by £2,500.00.'));
  t.notOk(words.includes('are satisfied'));
});

t.test('three directors, each allocated, and a one-line note: still one page, signed under the closing words', async (t) => {
  // £3,600.00 resolved, £1,200.00 to each of three holders of 100 shares: £12.0000 a share; £12,000.00 − £3,600.00 = £8,400.00 left.
  const names = ['Jane Smith', 'John Smith', 'Priya Patel'];
  const three: MinutesData = {
    ...meeting,
    attendees: names,
    totalDividendPence: 360000,
    allocations: names.map((name, i) => ({
      shareholderName: name,
      shareClass: 'Ordinary',
      sharesHeld: 100,
      amountPence: 120000,
      voucherNumber: `DIV-000${i + 1}`,
    })),
  };
  const pdf = await renderMinutes(three);
  t.match(pdfInfo(pdf), /Pages:\s+1\n/, 'one page, as the minutes are');
  const text = pdfText(pdf);
  t.match(text, row('Priya Patel', 'Ordinary', '100', '£12.0000', '£1,200.00', 'DIV-0003'));
  t.ok(flat(text).includes('£8,400.00 of retained profit remains after it.'));
  t.ok(flat(text).includes('Payment to be made by 15 October 2026.'));
  t.match(text, /There being no further business, the meeting was closed\.[\s\S]*Chair: Jane Smith[\s\S]*Signature[\s\S]*Date/);

  // Minutes too long for a page (twelve shareholders) go on, but the chair signs on the page of the closing words.
  const many = Array.from({ length: 12 }, (_, i) => `Shareholder ${i + 1}`);
  const long = await renderMinutes({
    ...three,
    attendees: many,
    chair: 'Shareholder 1',
    allocations: many.map((name) => ({ shareholderName: name, shareClass: 'Ordinary', sharesHeld: 100, amountPence: 30000, voucherNumber: null })),
  });
  t.match(pdfInfo(long), /Pages:\s+2\n/);
  const second = execFileSync('pdftotext', ['-f', '2', '-l', '2', '-layout', '-', '-'], { input: long, encoding: 'utf8' });
  t.match(second, /There being no further business, the meeting was closed\.[\s\S]*Chair: Shareholder 1[\s\S]*Signature/);
});
