/**
 * The media type of a request body: "POST, PUT and PATCH requests also
 * carry Content-Type: application/json" (spec, Authentication). A body sent
 * as anything else is refused, 400 validation_error on Content-Type, and
 * nothing written; uploads keep their own media types.
 */
import t from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

/** A body as bytes, so that fetch adds no Content-Type of its own (it sends text/plain with a string). */
const bytes = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'utf8'));

const contact = (name: string): string => JSON.stringify({ contactType: 'customer', name });

const contactCount = async (api: Api): Promise<number> => (await api.request('GET', '/v1/contacts')).body.meta.total as number;

t.test('a JSON body sent as another media type is 400 validation_error on Content-Type, and nothing is written', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const before = await contactCount(api);
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
    'application/json; charset=iso-8859-1',
    'text/json',
    'application/jsonp',
    'multipart/form-data; boundary=x',
  ]) {
    const r = await api.request('POST', '/v1/contacts', { raw: bytes(contact('Wrong Type Ltd')), headers: { 'content-type': type } });
    expectError(t, r, 400, 'validation_error', { field: 'Content-Type', message: /application\/json/ });
  }
  const put = await api.request('PUT', '/v1/organisation', { raw: bytes('{"name":"Form Ltd"}'), headers: { 'content-type': 'text/plain' } });
  expectError(t, put, 400, 'validation_error', { field: 'Content-Type' });
  const made = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Billed Ltd' } });
  const invoice = await api.request('POST', '/v1/invoices', {
    body: { contactId: made.body.data.id, items: [{ description: 'Work', quantity: 1, unitPrice: 10000, vatRate: 'standard' }] },
  });
  const invoiceId = invoice.body.data.id as string;
  const patch = await api.request('PATCH', `/v1/invoices/${invoiceId}/status`, {
    raw: bytes('{"status":"sent"}'),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expectError(t, patch, 400, 'validation_error', { field: 'Content-Type' });

  t.equal(await contactCount(api), before + 1, 'only the contact sent as JSON was made');
  t.equal((await api.request('GET', `/v1/invoices/${invoiceId}`)).body.data.status, 'draft', 'the PATCH sent as a form changed nothing');
  t.equal((await api.request('GET', '/v1/organisation')).body.data.name, 'Acme Widgets Ltd', 'the PUT sent as text changed nothing');
});

t.test('application/json and application/*+json, with or without charset=utf-8, and no Content-Type at all, are read', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const types = [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/merge-patch+json',
    'application/vnd.acct.contact+json; charset=utf-8',
  ];
  for (const [i, type] of types.entries()) {
    const r = await api.request('POST', '/v1/contacts', { raw: bytes(contact(`Typed ${i} Ltd`)), headers: { 'content-type': type } });
    t.equal(r.status, 201, `${type}: ${JSON.stringify(r.body?.error ?? '')}`);
  }
  // No Content-Type header: read as JSON (a lenient reading of the spec's "also carry").
  const bare = await api.request('POST', '/v1/contacts', { raw: bytes(contact('Untyped Ltd')) });
  t.equal(bare.status, 201, JSON.stringify(bare.body?.error ?? ''));
  t.equal(bare.body.data.name, 'Untyped Ltd');
});

t.test('a request with no body, or an empty one, needs no Content-Type', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const made = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Short Lived Ltd' } });
  const id = made.body.data.id as string;
  const invoice = await api.request('POST', '/v1/invoices', {
    body: { contactId: id, items: [{ description: 'Work', quantity: 1, unitPrice: 10000, vatRate: 'standard' }] },
  });
  const invoiceId = invoice.body.data.id as string;
  // An empty body whatever its declared type: the operation takes none.
  const sent = await api.request('POST', `/v1/invoices/${invoiceId}/send`, { raw: bytes(''), headers: { 'content-type': 'text/plain' } });
  t.equal(sent.status, 200, JSON.stringify(sent.body?.error ?? ''));
  const voided = await api.request('POST', `/v1/invoices/${invoiceId}/void`);
  t.equal(voided.status, 200, JSON.stringify(voided.body?.error ?? ''));
  const other = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Gone Ltd' } });
  const gone = await api.request('DELETE', `/v1/contacts/${other.body.data.id as string}`, { raw: bytes(''), headers: { 'content-type': 'text/plain' } });
  t.ok(gone.status < 300, `DELETE with an empty text/plain body: ${gone.status} ${JSON.stringify(gone.body?.error ?? '')}`);
});

t.test('uploads keep their media types: text/csv as the raw body, multipart/form-data, and JSON', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const csv = 'Name,Email\nHarbour Cafe Ltd,hello@harbour.example\n';
  const raw = await api.request('POST', '/v1/contact-imports/upload?filename=contacts.csv', { raw: csv, headers: { 'content-type': 'text/csv' } });
  t.equal(raw.status, 201, JSON.stringify(raw.body?.error ?? ''));
  const plain = await api.request('POST', '/v1/contact-imports/upload?filename=contacts.txt', { raw: csv, headers: { 'content-type': 'text/plain' } });
  t.equal(plain.status, 201, JSON.stringify(plain.body?.error ?? ''));
  const boundary = 'acct-boundary';
  const multipart = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="people.csv"',
    'Content-Type: text/csv',
    '',
    csv,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const multi = await api.request('POST', '/v1/contact-imports/upload', {
    raw: multipart,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  t.equal(multi.status, 201, JSON.stringify(multi.body?.error ?? ''));
  t.equal(multi.body.data.filename, 'people.csv');
  const json = await api.request('POST', '/v1/contact-imports/upload', { body: { file: csv, filename: 'as-json.csv' } });
  t.equal(json.status, 201, JSON.stringify(json.body?.error ?? ''));
  // JSON declared in another charset is refused here too, rather than read as UTF-8.
  const utf16 = await api.request('POST', '/v1/contact-imports/upload', {
    raw: bytes(JSON.stringify({ file: csv, filename: 'x.csv' })),
    headers: { 'content-type': 'application/json; charset=utf-16' },
  });
  expectError(t, utf16, 400, 'validation_error', { field: 'Content-Type' });
});
