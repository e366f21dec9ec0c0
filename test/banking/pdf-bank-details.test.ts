/**
 * The primary bank account's payment details on invoice and credit note
 * PDFs, read back with pdftotext: none until the account has a sort code
 * and account number (or an IBAN), then the holder's name, sort code,
 * account number and IBAN grouped in fours, as a customer pays from them.
 */
import t from 'tap';
import { contactOk, ledger } from '../ledger-http/support.js';
import { invoiceOk, item, sendOk } from '../sales-http/invoice-support.js';
import { pdfText, row } from '../sales-cli/support.js';

t.test('invoice and credit note PDFs print the primary bank account’s details', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // 1 × £450.00 at 20%: £450.00 + £90.00 = £540.00.
  const inv = await invoiceOk(t, l.api, customer, {
    items: [item({ description: 'Oak table', quantity: 1, unitPrice: 45000 })],
    issueDate: '2026-10-01',
    dueDate: '2026-10-31',
  });
  await sendOk(t, l.api, inv.id);
  const pdf = async (path: string) => pdfText((await l.api.request('GET', path, { key: l.books.apiKey })).bytes);

  t.notMatch(await pdf(`/v1/invoices/${inv.id}/pdf`), 'Pay by bank transfer', 'no details yet, nothing printed');

  const set = await l.api.request('PATCH', '/v1/bank-accounts/1', {
    body: { bankName: 'Starling', holderName: 'Test Trading Ltd', sortCode: '60-83-71', accountNumber: '12345678', iban: 'GB82WEST12345698765432' },
  });
  t.equal(set.status, 200, JSON.stringify(set.body.error ?? ''));
  const text = await pdf(`/v1/invoices/${inv.id}/pdf`);
  t.match(text, 'Pay by bank transfer');
  t.match(text, row('Account name', 'Test Trading Ltd'));
  t.match(text, row('Bank', 'Starling'));
  t.match(text, row('Sort code', '60-83-71'));
  t.match(text, row('Account number', '12345678'));
  t.match(text, row('IBAN', 'GB82 WEST 1234 5698 7654 32'));

  const lines = (await l.api.request('GET', `/v1/invoices/${inv.id}`)).body.data.items as { id: string }[];
  const note = await l.api.request('POST', '/v1/credit-notes', { body: { invoiceId: inv.id, lineIds: [lines[0]!.id], date: '2026-10-05', reason: 'Damaged' } });
  t.equal(note.status, 201, JSON.stringify(note.body.error ?? ''));
  const noteText = await pdf(`/v1/credit-notes/${note.body.data.id}/pdf`);
  t.match(noteText, 'Our bank details');
  t.match(noteText, row('Sort code', '60-83-71'));
});
