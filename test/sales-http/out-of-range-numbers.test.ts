/**
 * JSON numbers too large for a double (1e400) parse as Infinity: refused
 * as out of range, naming the field, where they were "must be a number,
 * not number"; nothing is written.
 */
import t from 'tap';
import { contactOk, expectError, ledger } from '../ledger-http/support.js';
import { item } from './invoice-support.js';

const json = { 'content-type': 'application/json' };

t.test('1e400 in a body or a query is out of range, naming the field', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const draft = await api.request('POST', '/v1/invoices', { body: { contactId, items: [item()] } });
  t.equal(draft.status, 201);
  const id = draft.body.data.id as string;
  t.equal((await api.request('POST', `/v1/invoices/${id}/send`, { body: {} })).status, 200);

  expectError(t, await api.request('POST', `/v1/invoices/${id}/payments`, { raw: '{"amount":1e400}', headers: json }), 400, 'validation_error', {
    field: 'amount',
    message: 'amount is out of range: not a finite number',
  });
  t.equal((await api.request('GET', `/v1/invoices/${id}`)).body.data.amountPaid, 0, 'no payment recorded');

  const preview = `{"contactId":"${contactId}","items":[{"description":"Widgets","quantity":1e400,"unitPrice":100}]}`;
  expectError(t, await api.request('POST', '/v1/invoices/preview', { raw: preview, headers: json }), 400, 'validation_error', {
    field: 'items[0].quantity',
    message: 'items[0].quantity is out of range: not a finite number',
  });

  expectError(t, await api.request('GET', '/v1/invoices?page=1e400'), 400, 'validation_error', {
    field: 'page',
    message: 'page is out of range: not a finite number',
  });
});
