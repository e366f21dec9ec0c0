/** PUT /organisation checks the VAT number (HMRC's check digits) and the company number (Companies House's form); a refusal writes nothing. */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

t.test('a VAT number is checked and stored compact; a company number padded to eight characters', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('PUT', '/v1/organisation', { body: { vatNumber: 'gb 980 7806 84', companyNumber: '1234567' } });
  t.equal(r.status, 200);
  t.equal(r.body.data.vatNumber, 'GB980780684');
  t.equal(r.body.data.companyNumber, '01234567', 'padded with a leading zero as Companies House writes it');
  const scottish = await api.request('PUT', '/v1/organisation', { body: { vatNumber: '123 4567 27', companyNumber: 'sc 12345' } });
  t.equal(scottish.status, 200);
  t.equal(scottish.body.data.vatNumber, 'GB123456727', 'mod 9755, GB added');
  t.equal(scottish.body.data.companyNumber, 'SC012345');
  const cleared = await api.request('PUT', '/v1/organisation', { body: { vatNumber: '', companyNumber: null } });
  t.equal(cleared.status, 200);
  t.same([cleared.body.data.vatNumber, cleared.body.data.companyNumber], [null, null], 'an empty string or null clears them');
});

t.test('a VAT number failing the check digits is 400 validation_error field vatNumber, and nothing is written', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await api.request('PUT', '/v1/organisation', { body: { vatNumber: 'GB980780684' } });
  const before = (await api.request('GET', '/v1/organisation')).body.data;
  const r = await api.request('PUT', '/v1/organisation', { body: { name: 'Renamed Ltd', vatNumber: 'GB 123 4567 89' } });
  expectError(t, r, 400, 'validation_error', { field: 'vatNumber', message: "vatNumber fails HMRC's check digits (GB123456789): is a digit mistyped?" });
  const shape = await api.request('PUT', '/v1/organisation', { body: { vatNumber: 'GB12345678' } });
  expectError(t, shape, 400, 'validation_error', { field: 'vatNumber', message: /^vatNumber must be a UK VAT number: 9 digits/ });
  t.same((await api.request('GET', '/v1/organisation')).body.data, before, 'not even the name changed');
});

t.test('a company number of the wrong form is 400 validation_error field companyNumber, and nothing is written', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const before = (await api.request('GET', '/v1/organisation')).body.data;
  for (const bad of ['123456789', 'SC1234567', 'ABC']) {
    const r = await api.request('PUT', '/v1/organisation', { body: { city: 'York', companyNumber: bad } });
    expectError(t, r, 400, 'validation_error', { field: 'companyNumber', message: /^companyNumber must be 8 characters/ });
  }
  t.same((await api.request('GET', '/v1/organisation')).body.data, before);
});
