/** Query parameters: one an operation does not take is refused naming it, as an unknown body field is, not ignored. */
import t from 'tap';
import { contactOk, ledger } from '../ledger-http/support.js';
import { invoiceOk, invoiceTotal } from '../sales-http/invoice-support.js';
import { expectError } from './support.js';

t.test('an unknown query parameter is 400 validation_error naming it; the known ones still filter', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  await invoiceOk(t, api, contactId, { issueDate: '2026-10-01' });
  await invoiceOk(t, api, contactId, { issueDate: '2026-11-15' });

  // from is the transactions' name; the invoice list's is fromDate. Ignored, it answered both invoices as if filtered.
  const from = await api.request('GET', '/v1/invoices?from=2026-11-01');
  expectError(t, from, 400, 'validation_error', { field: 'from' });
  t.match(from.body.error.message, /from is not a query parameter of this request: it takes .*fromDate/, 'the message names the parameter it takes');

  t.equal(await invoiceTotal(api, '?fromDate=2026-11-01'), 1, 'fromDate filters: the invoice of 15 November only');
  t.equal(await invoiceTotal(api, '?fromDate=2026-11-01&status=draft&page=1&limit=10'), 1, 'with the other known parameters');
  t.equal(await invoiceTotal(api), 2, 'no parameter: both');

  // An operation that takes no query parameters at all refuses one too.
  const org = await api.request('GET', '/v1/organisation?verbose=true');
  expectError(t, org, 400, 'validation_error', { field: 'verbose' });
  t.match(org.body.error.message, /verbose is not a query parameter of this request: it takes none/);
  // And a write: the refusal comes before anything is done.
  const made = await api.request('POST', `/v1/contacts?dryRun=true`, { body: { contactType: 'customer', name: 'Query Ltd' } });
  expectError(t, made, 400, 'validation_error', { field: 'dryRun' });
  const contacts = await api.request('GET', '/v1/contacts?search=Query');
  t.equal(contacts.body.meta.total, 0, 'no contact was made');
});

t.test('an upload sent as the raw body takes its fields from the query, and still refuses a parameter that is neither', async (t) => {
  const { api } = await ledger(t);
  const csv = 'Name,Email\nHarbour Cafe Ltd,hello@harbour.example\n';
  const ok = await api.request('POST', '/v1/contact-imports/upload?filename=contacts.csv', { raw: csv, headers: { 'content-type': 'text/csv' } });
  t.equal(ok.status, 201, JSON.stringify(ok.body.error ?? ''));
  t.equal(ok.body.data.filename, 'contacts.csv', 'filename, a body field, came from the query');
  const bad = await api.request('POST', '/v1/contact-imports/upload?filename=contacts.csv&dialect=excel', {
    raw: csv,
    headers: { 'content-type': 'text/csv' },
  });
  expectError(t, bad, 400, 'validation_error', { field: 'dialect' });
});
