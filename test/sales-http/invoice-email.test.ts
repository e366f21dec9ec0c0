/**
 * POST /v1/invoices/{id}/send with sendEmail: the PDF goes to the contact
 * through a real SMTP server before anything is posted; without a mailer,
 * without an address, or when the SMTP server fails, the invoice stays a
 * draft and nothing is posted or announced.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api, type Books } from '../helpers/index.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import type { AppError } from '../../src/engine/errors.js';
import { clock, contactOk, expectError, outbox } from '../ledger-http/support.js';
import { attachments, mailText, parseMail, pdfText, row, startSmtp, type Smtp } from '../sales-cli/support.js';

/**
 * A real HTTP server over the books with a mailer. Failures of status 500
 * and above are collected (a refused SMTP delivery is a 503 and is logged),
 * so a test can tell them from an unexpected internal error.
 */
function serveWithMailer(t: Test, books: Books, smtpUrl: string): Promise<Api & { logged: AppError[] }> {
  return serveBooks(t, books, {
    mailer: smtpMailer(smtpUrl),
    onLogError: (e) => {
      if (e.code === 'internal_error') t.fail(`unexpected internal error: ${String(e.cause)}`);
    },
  });
}

/** The mailer URL the tests serve with: this SMTP server, sender invoices@acme.test. */
const mailerUrl = (smtp: Smtp) => smtp.url({ from: 'invoices@acme.test' });

/**
 * A draft for the contact, worked by hand: 1.5 × £500.00 at 20% (net
 * 750.00, VAT 150.00) and 2 × £10.00 at 0%: total £920.00, due 30 days
 * after 2026-11-01.
 */
async function draftOk(t: Test, api: Api, contactId: string): Promise<{ id: string; invoiceNumber: string; transactionId: string }> {
  const r = await api.request('POST', '/v1/invoices', {
    body: {
      contactId,
      issueDate: '2026-11-01',
      items: [
        { description: 'Consulting', quantity: 1.5, unitPrice: 50000, vatRate: 'standard' },
        { description: 'Books', quantity: 2, unitPrice: 1000, vatRate: 'zero' },
      ],
    },
  });
  t.equal(r.status, 201, `invoice created: ${JSON.stringify(r.body?.error ?? '')}`);
  t.match(r.body.data, { status: 'draft', subtotal: 77000, vatAmount: 15000, total: 92000, dueDate: '2026-12-01' });
  return r.body.data;
}

/** The invoice is still a draft, its entries are not posted, and no invoice.sent was raised. */
async function stillDraft(t: Test, api: Api, books: Books, invoice: { id: string; transactionId: string }): Promise<void> {
  const got = await api.request('GET', `/v1/invoices/${invoice.id}`);
  t.equal(got.body.data.status, 'draft', 'the invoice is still a draft');
  t.equal(got.body.data.sentAt, null, 'not marked sent');
  const txn = await api.request('GET', `/v1/transactions/${invoice.transactionId}`);
  t.equal(txn.status, 200);
  t.equal(txn.body.data.status, 'draft', 'its entries are not posted');
  t.notOk(
    (await outbox(books)).some((r) => r.event === 'invoice.sent'),
    'no invoice.sent event',
  );
}

t.test('sendEmail true e-mails the PDF to the contact and sends the invoice', async (t) => {
  const smtp = await startSmtp(t);
  const books = await newBooks(t, { clock });
  const api = await serveWithMailer(t, books, mailerUrl(smtp));
  t.equal((await api.request('PUT', '/v1/organisation', { body: { email: 'accounts@acme.test' } })).status, 200);
  const contactId = await contactOk(t, api, { email: 'jo@client.test' });
  const invoice = await draftOk(t, api, contactId);
  t.equal(invoice.invoiceNumber, 'INV-0001');

  const r = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: true } });
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  t.match(r.body.data, { id: invoice.id, invoiceNumber: 'INV-0001', status: 'sent', emailed: true });
  t.equal((await api.request('GET', `/v1/transactions/${invoice.transactionId}`)).body.data.status, 'posted', 'its entries are posted');
  t.same(
    (await outbox(books)).filter((e) => e.event === 'invoice.sent').map((e) => e.payload.id),
    [invoice.id],
    'one invoice.sent',
  );

  t.equal(smtp.messages.length, 1, 'exactly one message');
  const message = smtp.messages[0]!;
  t.same(message.rcptTo, ['jo@client.test'], 'to the contact');
  t.equal(message.mailFrom, 'invoices@acme.test', 'envelope sender from the URL');
  const mail = parseMail(message.raw);
  t.match(mail.headers['from'], /^"?Acme Widgets Ltd"? <invoices@acme\.test>$/, 'From: the organisation by name, the URL address');
  t.equal(mail.headers['to'], 'jo@client.test');
  t.equal(mail.headers['reply-to'], 'accounts@acme.test', "replies go to the organisation's address");
  t.equal(mail.headers['subject'], 'Invoice INV-0001 from Acme Widgets Ltd');
  const text = mailText(mail);
  t.match(text, 'Dear Client One Ltd,');
  t.match(text, 'Please find attached invoice INV-0001 for £920.00, due on 2026-12-01.');

  const files = attachments(mail);
  t.equal(files.length, 1, 'one attachment');
  const pdf = files[0]!;
  t.equal(pdf.contentType, 'application/pdf');
  t.equal(pdf.filename, 'INV-0001.pdf');
  t.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'the decoded bytes are a PDF');
  const layout = pdfText(pdf.bytes);
  t.match(layout, row('Invoice number', 'INV-0001'));
  t.match(layout, row('Total', '£920.00'));
  t.match(layout, row('Consulting', '1.5', '£500.00', '20%', '£750.00', '£150.00'));
  t.notMatch(layout, /DRAFT/, 'the PDF shows the invoice as sent, not as a draft');
});

t.test('without a mailer sendEmail is refused (422) and nothing changes', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const contactId = await contactOk(t, api, { email: 'jo@client.test' });
  const invoice = await draftOk(t, api, contactId);
  const r = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: true } });
  expectError(t, r, 422, 'unprocessable_entity', { message: /SMTP/ });
  await stillDraft(t, api, books, invoice);
  // sending without e-mail still works
  const plain = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: {} });
  t.equal(plain.status, 200);
  t.match(plain.body.data, { status: 'sent', emailed: false });
});

t.test('a contact without an e-mail address: 422, still a draft, nothing sent', async (t) => {
  const smtp = await startSmtp(t);
  const books = await newBooks(t, { clock });
  const api = await serveWithMailer(t, books, mailerUrl(smtp));
  const contactId = await contactOk(t, api);
  const invoice = await draftOk(t, api, contactId);
  const r = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: true } });
  expectError(t, r, 422, 'unprocessable_entity', { message: /Client One Ltd has no email address.*INV-0001/ });
  await stillDraft(t, api, books, invoice);
  t.equal(smtp.messages.length, 0, 'no message');
});

t.test('an SMTP server refusing the message: 503, still a draft; a later send goes through', async (t) => {
  const smtp = await startSmtp(t, { refuse: 'mailbox unavailable' });
  const books = await newBooks(t, { clock });
  const api = await serveWithMailer(t, books, mailerUrl(smtp));
  const contactId = await contactOk(t, api, { email: 'jo@client.test' });
  const invoice = await draftOk(t, api, contactId);
  const r = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: true } });
  expectError(t, r, 503, 'service_unavailable', { message: /could not be e-mailed.*mailbox unavailable.*still a draft/ });
  t.equal(smtp.refused(), 1, 'the SMTP server was asked once');
  t.same(
    api.logged.map((e) => e.code),
    ['service_unavailable'],
    'logged as a service failure, not an internal error',
  );
  await stillDraft(t, api, books, invoice);
  const plain = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: false } });
  t.match(plain.body.data, { status: 'sent', emailed: false }, 'the draft can still be sent');
});

t.test('an SMTP server that is gone: 503, still a draft', async (t) => {
  const smtp = await startSmtp(t);
  const url = mailerUrl(smtp);
  await smtp.close(); // nothing listens on its port now
  const books = await newBooks(t, { clock });
  const api = await serveWithMailer(t, books, url);
  const contactId = await contactOk(t, api, { email: 'jo@client.test' });
  const invoice = await draftOk(t, api, contactId);
  const r = await api.request('POST', `/v1/invoices/${invoice.id}/send`, { body: { sendEmail: true } });
  expectError(t, r, 503, 'service_unavailable', { message: /could not be e-mailed/ });
  await stillDraft(t, api, books, invoice);
});

t.test('sendEmail false or left out sends no message', async (t) => {
  const smtp = await startSmtp(t);
  const books = await newBooks(t, { clock });
  const api = await serveWithMailer(t, books, mailerUrl(smtp));
  const contactId = await contactOk(t, api, { email: 'jo@client.test' });
  const first = await draftOk(t, api, contactId);
  const second = await draftOk(t, api, contactId);
  const third = await draftOk(t, api, contactId);
  const a = await api.request('POST', `/v1/invoices/${first.id}/send`, { body: { sendEmail: false } });
  t.match(a.body.data, { status: 'sent', emailed: false });
  const b = await api.request('POST', `/v1/invoices/${second.id}/send`, { body: {} });
  t.match(b.body.data, { status: 'sent', emailed: false });
  const c = await api.request('PATCH', `/v1/invoices/${third.id}/status`, { body: { status: 'sent' } });
  t.match(c.body.data, { status: 'sent' });
  t.equal(smtp.messages.length, 0, 'no message');
  t.same(api.logged, []);
});
