/**
 * The credit note PDF over HTTP, read back with pdftotext: the particulars
 * HMRC asks of a credit note (number, date, the invoice it credits, the
 * lines with VAT), and where its credit went. Figures worked by hand.
 */
import t from 'tap';
import { contactOk, ledger } from '../ledger-http/support.js';
import { getInvoice, invoiceOk, item, payOk, sendOk } from '../sales-http/invoice-support.js';
import { pdfText, row } from '../sales-cli/support.js';

t.test('a credit note for a line of a part-paid invoice, as a PDF', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // 3 × £450.00 at 20% = £1,350.00 + £270.00; 1 × £100.00 at 0%. Total £1,720.00; £500.00 paid.
  const inv = await invoiceOk(t, l.api, customer, {
    items: [item({ description: 'Oak tables', quantity: 3, unitPrice: 45000 }), item({ description: 'Delivery', unitPrice: 10000, vatRate: 'zero' })],
    issueDate: '2026-10-01',
    dueDate: '2026-10-31',
  });
  await sendOk(t, l.api, inv.id);
  await payOk(t, l.api, inv.id, { amount: 50000, date: '2026-10-15' });
  const lines = (await getInvoice(t, l.api, inv.id)).items as { id: string }[];
  const created = await l.api.request('POST', '/v1/credit-notes', {
    body: { invoiceId: inv.id, lineIds: [lines[0]!.id], date: '2026-11-02', reason: 'Tables returned damaged' },
  });
  t.equal(created.status, 201);
  const note = created.body.data;

  const res = await l.api.request('GET', `/v1/credit-notes/${note.id}/pdf`, { key: l.books.apiKey });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/pdf');
  t.match(res.headers.get('content-disposition') ?? '', /CN-0001\.pdf/);
  const text = pdfText(res.bytes);
  t.match(text, 'CREDIT NOTE');
  t.match(text, row('Credit note number', 'CN-0001'));
  t.match(text, row('Credit note date', '2 November 2026'));
  t.match(text, row('Tax point', '2 November 2026'));
  t.match(text, row('Credits invoice', 'INV-0001'));
  t.match(text, row('Oak tables', '3', '£450.00', '20%', '£1,350.00', '£270.00'));
  t.notMatch(text, 'Delivery', 'only the credited line');
  t.match(text, row('Total credit', '£1,620.00'));
  // £1,720.00 − £500.00 = £1,220.00 set against INV-0001; £1,620.00 − £1,220.00 = £400.00 left.
  t.match(text, row('Set against invoices', '£1,220.00'));
  t.match(text, row('Credit remaining', '£400.00'));
  t.match(text, 'Reason: Tables returned damaged');
  t.notMatch(text, 'Due date');

  // The invoice's own PDF shows the credit and that it is settled.
  const invoicePdf = await l.api.request('GET', `/v1/invoices/${inv.id}/pdf`, { key: l.books.apiKey });
  const invoiceText = pdfText(invoicePdf.bytes);
  t.match(invoiceText, row('Amount paid', '£500.00'));
  t.match(invoiceText, row('Credited', '£1,220.00'));
  t.match(invoiceText, row('Amount due', '£0.00'));
  // Which credit note, when and how much, as the payments are listed: CN-0001's £1,220.00 of 2 November 2026.
  t.match(invoiceText, row('Payments received'));
  t.match(invoiceText, row('15 October 2026', 'bank transfer', '£500.00'));
  t.match(invoiceText, row('Credit notes applied'));
  t.match(invoiceText, row('2 November 2026', 'CN-0001', '£1,220.00'));
  t.match(invoiceText, 'Settled in full on 2 November 2026 by payments and credit notes');

  t.equal((await l.api.request('GET', `/v1/credit-notes/${note.id}/pdf`, { key: l.books.testApiKey })).status, 404, 'not in the test books');
});
