/**
 * A document's number may hold a slash (invoicePrefix INV/2026/), which no
 * file name may: the PDF's file name, in Content-Disposition and as the
 * e-mail attachment, has it as a dash, while the number printed and
 * returned stays as it is. Through a real server and a real SMTP server.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import { clock, contactOk } from '../ledger-http/support.js';
import { attachments, parseMail, pdfText, row, startSmtp } from '../sales-cli/support.js';
import { safeFilename } from '../../src/engine/operation.js';

t.test('the PDF of INV/2026/0001 is the file INV-2026-0001.pdf, over HTTP and by e-mail', async (t) => {
  const smtp = await startSmtp(t);
  const api = await serveBooks(t, await newBooks(t, { clock }), { mailer: smtpMailer(smtp.url({ from: 'invoices@acme.test' })) });
  const settings = await api.request('PUT', '/v1/organisation/settings', { body: { invoicePrefix: 'INV/2026/', creditNotePrefix: 'CN/2026/' } });
  t.equal(settings.status, 200, JSON.stringify(settings.body?.error ?? ''));
  const contactId = await contactOk(t, api, { email: 'jo@client.test' });
  // 1 × £100.00 at 20%: £120.00.
  const made = await api.request('POST', '/v1/invoices', {
    body: { contactId, issueDate: '2026-11-01', items: [{ description: 'Consulting', quantity: 1, unitPrice: 10000, vatRate: 'standard' }] },
  });
  t.equal(made.status, 201, JSON.stringify(made.body?.error ?? ''));
  const invoice = made.body.data as { id: string; invoiceNumber: string };
  t.equal(invoice.invoiceNumber, 'INV/2026/0001');

  const sent = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: true } });
  t.equal(sent.status, 200, JSON.stringify(sent.body?.error ?? ''));
  t.equal(smtp.messages.length, 1, 'one message');
  const mail = parseMail(smtp.messages[0]!.raw);
  t.equal(mail.headers['subject'], 'Invoice INV/2026/0001 from Acme Widgets Ltd', 'the subject quotes the number as it is');
  const files = attachments(mail);
  t.equal(files.length, 1);
  t.equal(files[0]!.filename, 'INV-2026-0001.pdf', 'the attachment is named without slashes');

  const pdf = await api.request('GET', `/v1/invoices/${invoice.id}/pdf`);
  t.equal(pdf.status, 200);
  t.equal(pdf.headers.get('content-disposition'), 'inline; filename="INV-2026-0001.pdf"');
  t.match(pdfText(pdf.bytes), row('Invoice number', 'INV/2026/0001'), 'the PDF prints the number as it is');

  const note = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: invoice.id, amount: 1000, date: '2026-11-05' } });
  t.equal(note.status, 201, JSON.stringify(note.body?.error ?? ''));
  t.equal(note.body.data.creditNoteNumber, 'CN/2026/0001');
  const notePdf = await api.request('GET', `/v1/credit-notes/${note.body.data.id}/pdf`);
  t.equal(notePdf.status, 200);
  t.equal(notePdf.headers.get('content-disposition'), 'inline; filename="CN-2026-0001.pdf"');
});

t.test('a file name has every character a file system refuses as a dash', async (t) => {
  t.equal(safeFilename('INV/2026/0007', 'pdf'), 'INV-2026-0007.pdf');
  t.equal(safeFilename('a\\b:c*d?e"f<g>h|i\u0001j', 'pdf'), 'a-b-c-d-e-f-g-h-i-j.pdf');
  t.equal(safeFilename('DIV-0001', 'pdf'), 'DIV-0001.pdf', 'an ordinary number is left alone');
});
