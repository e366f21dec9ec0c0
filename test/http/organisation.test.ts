/** GET and PUT /organisation: nested address out, flat address in, validation. */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

t.test('GET /organisation shows the profile, nested address, settings and subscription', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/organisation');
  t.equal(r.status, 200);
  const org = r.body.data;
  t.equal(org.id, books.organisationId);
  t.match(org.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'an unprefixed UUID');
  t.equal(org.name, 'Acme Widgets Ltd');
  t.equal(org.businessType, 'limited_company');
  t.equal(org.email, null);
  t.equal(org.vatNumber, null);
  t.equal(org.companyNumber, null);
  t.same(org.address, { line1: null, line2: null, city: null, region: null, postalCode: null, country: 'GB' });
  t.notOk('addressLine1' in org, 'the address is not flat in the response');
  t.same(org.settings, {
    currency: 'GBP',
    vatScheme: 'standard',
    vatRegistered: true,
    vatFlatRatePercent: null,
    vatSchemeFrom: null,
    vatRegistrationDate: null,
    vatStagger: 'quarterly',
    vatPeriodMonth: 3,
    vatAccountingBasis: 'accrual',
    fiscalYearStart: '04-01',
    invoicePrefix: 'INV-',
    invoiceNextNumber: 1,
    quotePrefix: 'QT-',
    quoteNextNumber: 1,
    creditNotePrefix: 'CN-',
    creditNoteNextNumber: 1,
    defaultPaymentTerms: 30,
    quoteValidityDays: 30,
  });
  // First organisation of the data directory: an early-access 90-day trial from 2026-11-21T10:00Z.
  t.equal(org.subscription.trialDays, 90);
  t.equal(org.subscription.earlyAccess, true);
  t.equal(org.subscription.status, 'trialing');
  t.equal(new Date(org.subscription.trialEndsAt).toISOString(), '2027-02-19T10:00:00.000Z');
  t.equal(org.subscription.trialDaysRemaining, 90);
  t.equal(new Date(org.createdAt).toISOString(), '2026-11-21T10:00:00.000Z');
});

t.test('PUT /organisation with flat address fields updates them; GET shows them nested', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const put = await api.request('PUT', '/v1/organisation', {
    body: {
      addressLine1: '1 Park Row',
      addressLine2: 'Floor 3',
      city: 'Leeds',
      region: 'West Yorkshire',
      postalCode: 'LS1 5AB',
      country: 'GB',
      vatNumber: 'GB123456782',
      companyNumber: '01234567',
    },
  });
  t.equal(put.status, 200);
  const expected = { line1: '1 Park Row', line2: 'Floor 3', city: 'Leeds', region: 'West Yorkshire', postalCode: 'LS1 5AB', country: 'GB' };
  t.same(put.body.data.address, expected, 'the response shows the address nested');

  const get = await api.request('GET', '/v1/organisation');
  t.same(get.body.data.address, expected, 'GET shows the stored address nested');
  t.equal(get.body.data.vatNumber, 'GB123456782');
  t.equal(get.body.data.companyNumber, '01234567');
  t.equal(get.body.data.name, 'Acme Widgets Ltd', 'fields not sent stay as they were');
  t.notOk('addressLine1' in get.body.data);
});

t.test('PUT /organisation with the nested address object is 400 field address and changes nothing', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await api.request('PUT', '/v1/organisation', { body: { addressLine1: '1 Park Row', city: 'Leeds' } });
  const before = await api.request('GET', '/v1/organisation');

  const r = await api.request('PUT', '/v1/organisation', {
    body: {
      name: 'Nested Ltd',
      address: { line1: '2 Other Street', line2: null, city: 'York', region: null, postalCode: 'YO1 7HH', country: 'GB' },
    },
  });
  expectError(t, r, 400, 'validation_error', { field: 'address' });

  // Even the GET shape sent straight back is refused.
  const roundTrip = await api.request('PUT', '/v1/organisation', { body: { address: before.body.data.address } });
  expectError(t, roundTrip, 400, 'validation_error', { field: 'address' });

  const after = await api.request('GET', '/v1/organisation');
  t.same(after.body.data, before.body.data, 'nothing changed, not even the name');
  t.equal(after.body.data.name, 'Acme Widgets Ltd');
  t.equal(after.body.data.address.city, 'Leeds');
});

t.test('PUT /organisation with a wrong type is 400 invalid_type naming the field', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const cases: Array<[string, unknown]> = [
    ['name', 123],
    ['city', 42],
    ['email', true],
    ['addressLine1', ['1 Park Row']],
    ['postalCode', { code: 'LS1' }],
  ];
  for (const [field, value] of cases) {
    const r = await api.request('PUT', '/v1/organisation', { body: { [field]: value } });
    t.equal(r.status, 400, `400 for ${field}`);
    t.equal(r.body?.error?.code, 'invalid_type', `invalid_type for ${field}`);
    t.equal(r.body?.error?.field, field, `field ${field}`);
    t.match(r.body?.error?.message, field, `message names ${field}`);
  }
  const org = await api.request('GET', '/v1/organisation');
  t.equal(org.body.data.name, 'Acme Widgets Ltd');
});

t.test('PUT /organisation with an empty name is 400 validation_error', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  expectError(t, await api.request('PUT', '/v1/organisation', { body: { name: '' } }), 400, 'validation_error', { field: 'name' });
  expectError(t, await api.request('PUT', '/v1/organisation', { body: { name: '   ' } }), 400, 'validation_error', { field: 'name' });
  expectError(t, await api.request('PUT', '/v1/organisation', { body: { name: null } }), 400, 'validation_error', { field: 'name' });
  const org = await api.request('GET', '/v1/organisation');
  t.equal(org.body.data.name, 'Acme Widgets Ltd');
});

t.test('PUT /organisation with an invalid email is 400 validation_error field email', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  for (const email of ['not-an-email', 'a@', '@example.com', 'two words@example.com']) {
    const r = await api.request('PUT', '/v1/organisation', { body: { email } });
    t.equal(r.status, 400, `400 for ${email}`);
    t.equal(r.body?.error?.code, 'validation_error', `validation_error for ${email}`);
    t.equal(r.body?.error?.field, 'email', `field email for ${email}`);
  }
  const ok = await api.request('PUT', '/v1/organisation', { body: { email: 'accounts@acme.example' } });
  t.equal(ok.status, 200);
  t.equal(ok.body.data.email, 'accounts@acme.example');
});

t.test('an empty string clears an optional field to null', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const set = await api.request('PUT', '/v1/organisation', {
    body: { email: 'accounts@acme.example', phone: '0113 496 0000', website: 'https://acme.example', addressLine2: 'Floor 3', vatNumber: 'GB123456782' },
  });
  t.equal(set.status, 200);
  t.equal(set.body.data.phone, '0113 496 0000');

  const clear = await api.request('PUT', '/v1/organisation', { body: { email: '', phone: '', addressLine2: '' } });
  t.equal(clear.status, 200);
  const get = await api.request('GET', '/v1/organisation');
  t.equal(get.body.data.email, null);
  t.equal(get.body.data.phone, null);
  t.equal(get.body.data.address.line2, null);
  t.equal(get.body.data.website, 'https://acme.example', 'a field not sent is kept');
  t.equal(get.body.data.vatNumber, 'GB123456782', 'a field not sent is kept');
});

t.test('country is stored upper case; a code that is not two letters is refused', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const ie = await api.request('PUT', '/v1/organisation', { body: { country: 'ie' } });
  t.equal(ie.status, 200);
  t.equal(ie.body.data.address.country, 'IE');

  const gb = await api.request('PUT', '/v1/organisation', { body: { country: 'gb' } });
  t.equal(gb.status, 200);
  t.equal(gb.body.data.address.country, 'GB');
  t.equal((await api.request('GET', '/v1/organisation')).body.data.address.country, 'GB');

  expectError(t, await api.request('PUT', '/v1/organisation', { body: { country: 'GBR' } }), 400, 'validation_error', { field: 'country' });
  expectError(t, await api.request('PUT', '/v1/organisation', { body: { country: 'G1' } }), 400, 'validation_error', { field: 'country' });
  t.equal((await api.request('GET', '/v1/organisation')).body.data.address.country, 'GB');
});
