/**
 * An issued invoice or credit note is printed as it was issued: the
 * seller's name, address, VAT number and company number, and the
 * customer's name, address and VAT number, as they were when it left
 * draft, whatever the organisation profile and the contact say later. A
 * draft prints them as they are now. Through GET …/pdf on a real server,
 * read back with pdftotext.
 */
import t from 'tap';
import type { Test } from 'tap';
import { contactOk, ledger } from '../ledger-http/support.js';
import { invoiceOk, item, payOk, sendOk } from './invoice-support.js';
import { pdfText } from '../sales-cli/support.js';
import type { Api } from '../helpers/index.js';

const before = {
  seller: ['Acme Widgets Ltd', '12 High Street', 'Bristol', 'BS1 4DJ', 'VAT registration number: GB980780684', 'Company number: 01234567'],
  buyer: ['Harbour Cafe Ltd', '5 Quay Street', 'Portishead', 'BS20 7AA', 'VAT registration number: GB111222333'],
};
const after = {
  seller: ['Renamed Widgets Ltd', '1 New Street', 'Glasgow', 'G1 1AA', 'VAT registration number: GB123456782', 'Company number: SC123456'],
  buyer: ['Harbour Coffee Co', '77 New Road', 'Leeds', 'LS1 1AA', 'VAT registration number: GB444555666'],
};

/** PUT that must succeed. */
async function putOk(t: Test, api: Api, path: string, body: Record<string, unknown>): Promise<void> {
  const r = await api.request('PUT', path, { body });
  t.equal(r.status, 200, `PUT ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
}

/** The PDF's text, fetched with the live key. */
async function pdfOf(t: Test, api: Api, path: string): Promise<string> {
  const r = await api.request('GET', path);
  t.equal(r.status, 200, `GET ${path}`);
  return pdfText(r.bytes);
}

/** The text prints every one of these, and none of those. */
function prints(t: Test, text: string, shown: readonly string[], notShown: readonly string[], what: string): void {
  for (const s of shown) t.ok(text.includes(s), `${what}: prints ${s}`);
  for (const s of notShown) t.notOk(text.includes(s), `${what}: does not print ${s}`);
}

const rename = async (t: Test, api: Api, contactId: string) => {
  await putOk(t, api, `/v1/contacts/${contactId}`, {
    name: 'Harbour Coffee Co',
    addressLine1: '77 New Road',
    city: 'Leeds',
    postalCode: 'LS1 1AA',
    vatNumber: 'GB444555666',
  });
  await putOk(t, api, '/v1/organisation', {
    name: 'Renamed Widgets Ltd',
    vatNumber: 'GB123456782',
    companyNumber: 'SC123456',
    addressLine1: '1 New Street',
    city: 'Glasgow',
    postalCode: 'G1 1AA',
  });
};

t.test('an issued invoice and credit note print the seller and customer as issued; a draft prints them as they are now', async (t) => {
  const { api } = await ledger(t);
  await putOk(t, api, '/v1/organisation', {
    vatNumber: 'GB980780684',
    companyNumber: '01234567',
    addressLine1: '12 High Street',
    city: 'Bristol',
    postalCode: 'BS1 4DJ',
  });
  const customer = await contactOk(t, api, {
    name: 'Harbour Cafe Ltd',
    addressLine1: '5 Quay Street',
    city: 'Portishead',
    postalCode: 'BS20 7AA',
    vatNumber: 'GB111222333',
  });
  // INV-0001: 1 × £100.00 at 20% = £100.00 + £20.00 = £120.00, sent and paid in full.
  const paid = await invoiceOk(t, api, customer, { issueDate: '2026-11-01' });
  t.equal(paid.invoiceNumber, 'INV-0001');
  await sendOk(t, api, paid.id);
  await payOk(t, api, paid.id, { amount: 12000, date: '2026-11-10' });
  // INV-0002: 2 × £50.00 at 20% = £100.00 + £20.00 = £120.00, sent; CN-0001 credits £10.00 of it.
  const credited = await invoiceOk(t, api, customer, { issueDate: '2026-11-01', items: [item({ quantity: 2, unitPrice: 5000 })] });
  await sendOk(t, api, credited.id);
  const note = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: credited.id, amount: 1000, date: '2026-11-05' } });
  t.equal(note.status, 201, JSON.stringify(note.body?.error ?? ''));
  t.equal(note.body.data.creditNoteNumber, 'CN-0001');
  // INV-0003 stays a draft while the details change.
  const draft = await invoiceOk(t, api, customer, { issueDate: '2026-11-15' });

  await rename(t, api, customer);

  const all = [...before.seller, ...before.buyer];
  const now = [...after.seller, ...after.buyer];
  prints(t, await pdfOf(t, api, `/v1/invoices/${paid.id}/pdf`), all, now, 'the paid invoice INV-0001');
  prints(t, await pdfOf(t, api, `/v1/invoices/${credited.id}/pdf`), all, now, 'the sent invoice INV-0002');
  prints(t, await pdfOf(t, api, `/v1/credit-notes/${note.body.data.id}/pdf`), all, now, 'the credit note CN-0001');
  t.match(await pdfOf(t, api, `/v1/invoices/${paid.id}/pdf`), /Acme Widgets Ltd · Invoice INV-0001 · Page 1 of 1/, 'the footer names the seller as issued');

  prints(t, await pdfOf(t, api, `/v1/invoices/${draft.id}/pdf`), now, all, 'the draft INV-0003');

  // A credit note issued after the change carries the details of its own issue.
  const later = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: credited.id, amount: 500, date: '2026-11-20' } });
  t.equal(later.status, 201, JSON.stringify(later.body?.error ?? ''));
  prints(t, await pdfOf(t, api, `/v1/credit-notes/${later.body.data.id}/pdf`), now, all, 'the credit note CN-0002, issued after the change');

  // The draft marked sent (PATCH status) keeps the details it was sent with through the next change.
  const marked = await api.request('PATCH', `/v1/invoices/${draft.id}/status`, { body: { status: 'sent' } });
  t.equal(marked.status, 200, JSON.stringify(marked.body?.error ?? ''));
  await putOk(t, api, '/v1/organisation', { name: 'Third Name Ltd', vatNumber: 'GB980780684' });
  await putOk(t, api, `/v1/contacts/${customer}`, { name: 'Third Customer Ltd' });
  prints(t, await pdfOf(t, api, `/v1/invoices/${draft.id}/pdf`), now, ['Third Name Ltd', 'Third Customer Ltd', 'GB980780684'], 'INV-0003 once sent');

  // The invoice's JSON is the contact's as it stands: only the document is frozen.
  const json = await api.request('GET', `/v1/invoices/${paid.id}`);
  t.equal(json.status, 200);
  t.notOk(JSON.stringify(json.body.data).includes('Harbour Cafe Ltd'), 'the JSON does not carry the printed particulars');
});

t.test('an invoice issued before the particulars were kept (migration 0035) prints them as they stand', async (t) => {
  const { api, books } = await ledger(t);
  const customer = await contactOk(t, api, { name: 'Harbour Cafe Ltd' });
  const invoice = await invoiceOk(t, api, customer, { issueDate: '2026-11-01' });
  await sendOk(t, api, invoice.id);
  // As a row sent before the column was added has it: null.
  await books.store.org(books.organisationId, 'live').db.updateTable('invoices').set({ issued_particulars: null }).where('id', '=', invoice.id).execute();
  await putOk(t, api, `/v1/contacts/${customer}`, { name: 'Harbour Coffee Co' });
  const text = await pdfOf(t, api, `/v1/invoices/${invoice.id}/pdf`);
  prints(t, text, ['Harbour Coffee Co', 'Acme Widgets Ltd'], ['Harbour Cafe Ltd'], 'INV-0001 without particulars kept');
});
