/**
 * Long words on documents, over HTTP: a customer's purchase-order reference
 * of 60 characters with no space, a long company name, and a shareholder's
 * long surname stay inside the page and beside the column next to them,
 * wrapped rather than cut off, and every character is printed.
 */
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { contactOk } from '../ledger-http/support.js';
import { invoiceOk, sendOk } from '../sales-http/invoice-support.js';

interface Word {
  readonly text: string;
  readonly xMin: number;
  readonly xMax: number;
  readonly yMin: number;
}

/** Every word poppler finds, with its box in points (`pdftotext -bbox`). */
function words(bytes: Uint8Array): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: bytes, encoding: 'utf8' });
  const found = html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g);
  return [...found].map((m) => ({ xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), text: m[4]! }));
}

const a4Width = 595.28;

const reference = 'PO-ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

t.test('a 60-character reference wraps inside the details column, whole, on the invoice PDF', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const client = await contactOk(t, api, { name: 'Northumberland Heritage Conservation Trust Enterprises Ltd' });
  const invoice = await invoiceOk(t, api, client, {
    reference,
    items: [{ description: 'Survey', quantity: 1, unitPrice: 10_000, vatRate: 'standard' }],
  });
  await sendOk(t, api, invoice.id);
  const pdf = await api.request('GET', `/v1/invoices/${invoice.id}/pdf`);
  t.equal(pdf.status, 200);
  const all = words(pdf.bytes);
  // The page's margins are 40 points: nothing is set past 595.28 − 40 = 555.28.
  t.same(
    all.filter((w) => w.xMax > a4Width - 40 + 0.5),
    [],
    'no word runs past the right margin',
  );
  // The reference, read down the details column from beside its label (poppler gives each character of a broken word
  // as a word of its own), is the reference itself, no character lost.
  const label = all.find((w) => w.text === 'reference')!;
  const column = all
    .filter((w) => w.xMin > label.xMax && w.yMin >= label.yMin - 1 && w.yMin < label.yMin + 50)
    .sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin);
  t.equal(column.map((w) => w.text).join(''), reference, 'every character printed, in order');
  const lines = new Set(column.map((w) => Math.round(w.yMin)));
  t.ok(lines.size > 1, `wrapped over ${lines.size} lines`);
});

t.test("a shareholder's long surname wraps beside the voucher's details, not over them or off the page", async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  // £10,000.00 of sales in the year to 31 March 2026: profit enough for a £100.00 dividend.
  const sale = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2025-06-01',
      description: 'Sales',
      lines: [
        { accountId: id('1200'), amount: 1_000_000 },
        { accountId: id('4000'), amount: -1_000_000 },
      ],
    },
  });
  t.equal(sale.status, 201);
  const name = 'Hubert Wolfeschlegelsteinhausenbergerdorffwelchevoralternwaren Senior';
  const director = await api.request('POST', '/v1/directors', { body: { fullName: name, sharesHeld: 7, appointedDate: '2020-01-01' } });
  t.equal(director.status, 201, JSON.stringify(director.body.error ?? ''));
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [director.body.data.id], date: '2026-06-01', financialYearEnd: '2026-03-31', totalDividendPence: 10_000 },
  });
  const dividend = await api.request('POST', '/v1/dividends', {
    body: { directorId: director.body.data.id, boardMinutesId: minutes.body.data.id, amountPence: 10_000, date: '2026-06-01' },
  });
  t.equal(dividend.status, 201, JSON.stringify(dividend.body.error ?? ''));
  const voucher = await api.request('GET', `/v1/dividends/${dividend.body.data.id}/voucher`);
  t.equal(voucher.status, 200);
  const all = words(voucher.bytes);
  // The voucher's margins are 50 points: nothing past 595.28 − 50 = 545.28 ("… 5 April 2027" was set to 599.9).
  t.same(
    all.filter((w) => w.xMax > a4Width - 50 + 0.5),
    [],
    'no word runs past the right margin',
  );
  // The details column starts at its first label, "Voucher Number" (the title's VOUCHER and the footer's voucher are cased otherwise).
  const first = all.find((w) => w.text === 'Hubert')!;
  const details = all.find((w) => w.text === 'Voucher')!.xMin;
  const pieces = all
    .filter((w) => w.xMin >= first.xMin - 1 && w.xMin < details && w.yMin >= first.yMin - 1 && w.yMin < first.yMin + 30)
    .sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin);
  t.ok(
    pieces.every((w) => w.xMax < details),
    'the name stays left of the details',
  );
  t.equal(pieces.map((w) => w.text).join(''), name.replaceAll(' ', ''), 'every letter of the name printed');
});
