/**
 * An invoice or credit note PDF made from the test books is marked TEST
 * (a banner beside the title and a footer line on every page); one made
 * from the live books is not. Through GET …/pdf on a real server.
 */
import t from 'tap';
import type { Test } from 'tap';
import { ledger } from '../ledger-http/support.js';
import { pdfText } from '../sales-cli/support.js';
import type { Api } from '../helpers/index.js';

/** A sent invoice and a credit note against it, in the books the key opens; the text of both PDFs. */
async function pdfsOf(t: Test, api: Api, key: string): Promise<{ invoice: string; creditNote: string }> {
  const as = { key };
  const contact = await api.request('POST', '/v1/contacts', { ...as, body: { contactType: 'customer', name: 'Harbour Cafe Ltd' } });
  t.equal(contact.status, 201, 'customer made');
  const made = await api.request('POST', '/v1/invoices', {
    ...as,
    body: { contactId: contact.body.data.id, items: [{ description: 'Tables', quantity: 1, unitPrice: 10000, vatRate: 'standard' }] },
  });
  t.equal(made.status, 201, 'invoice made');
  const id = made.body.data.id as string;
  t.equal((await api.request('POST', `/v1/invoices/${id}/send`, { ...as, body: {} })).status, 200, 'invoice sent');
  const note = await api.request('POST', '/v1/credit-notes', { ...as, body: { invoiceId: id, amount: 1000 } });
  t.equal(note.status, 201, 'credit note issued');
  const invoicePdf = await api.request('GET', `/v1/invoices/${id}/pdf`, as);
  const notePdf = await api.request('GET', `/v1/credit-notes/${note.body.data.id}/pdf`, as);
  t.equal(invoicePdf.status, 200);
  t.equal(notePdf.status, 200);
  return { invoice: pdfText(invoicePdf.bytes), creditNote: pdfText(notePdf.bytes) };
}

t.test('the test books mark their PDFs TEST; the live books do not', async (t) => {
  const { books, api } = await ledger(t);
  const test = await pdfsOf(t, api, books.testApiKey);
  t.match(test.invoice, /INVOICE\s+TEST\b/, 'the invoice: TEST under the title, where PAID/VOID/DRAFT go');
  t.match(test.invoice, /Test books — not a real invoice/, 'the invoice: the footer says so');
  t.match(test.creditNote, /CREDIT NOTE\s+TEST\b/, 'the credit note: TEST under the title');
  t.match(test.creditNote, /Test books — not a real credit note/, 'the credit note: the footer says so');

  const live = await pdfsOf(t, api, books.apiKey);
  for (const [name, text] of Object.entries(live)) {
    t.notMatch(text, /\bTEST\b/, `${name} from the live books: no TEST banner`);
    t.notMatch(text, /Test books/, `${name} from the live books: no test footer`);
  }
});
