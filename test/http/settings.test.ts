/** GET and PUT /organisation/settings. */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from './support.js';

const clock = '2026-11-21T10:00:00Z';

const defaults = {
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
};

t.test('GET /organisation/settings shows the settings of a new limited company', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const r = await api.request('GET', '/v1/organisation/settings');
  t.equal(r.status, 200);
  t.same(r.body.data, defaults);
});

t.test('PUT /organisation/settings is partial: fields left out stay as they are', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const put = await api.request('PUT', '/v1/organisation/settings', { body: { invoicePrefix: 'ACME-', invoiceNextNumber: 42 } });
  t.equal(put.status, 200);
  t.same(put.body.data, { ...defaults, invoicePrefix: 'ACME-', invoiceNextNumber: 42 });

  const second = await api.request('PUT', '/v1/organisation/settings', { body: { defaultPaymentTerms: 14 } });
  t.equal(second.status, 200);
  const get = await api.request('GET', '/v1/organisation/settings');
  t.same(get.body.data, { ...defaults, invoicePrefix: 'ACME-', invoiceNextNumber: 42, defaultPaymentTerms: 14 });
  t.same((await api.request('GET', '/v1/organisation')).body.data.settings, get.body.data, 'the organisation shows the same settings');
});

t.test('the flat_rate scheme needs a percentage; leaving it clears the percentage', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const missing = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate' } });
  expectError(t, missing, 400, 'validation_error', { field: 'vatFlatRatePercent' });
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.vatScheme, 'standard', 'scheme unchanged');

  const nulled = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: null } });
  expectError(t, nulled, 400, 'validation_error', { field: 'vatFlatRatePercent' });

  const flat = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: 12.5 } });
  t.equal(flat.status, 200);
  t.equal(flat.body.data.vatScheme, 'flat_rate');
  t.equal(flat.body.data.vatFlatRatePercent, 12.5);
  t.equal(flat.body.data.vatRegistered, true);
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.vatFlatRatePercent, 12.5);

  // Still flat_rate: the percentage alone may change.
  const changed = await api.request('PUT', '/v1/organisation/settings', { body: { vatFlatRatePercent: 16.5 } });
  t.equal(changed.status, 200);
  t.equal(changed.body.data.vatFlatRatePercent, 16.5);

  const standard = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'standard' } });
  t.equal(standard.status, 200);
  t.equal(standard.body.data.vatScheme, 'standard');
  t.equal(standard.body.data.vatFlatRatePercent, null);
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.vatFlatRatePercent, null);

  const notRegistered = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: 9 } });
  t.equal(notRegistered.body.data.vatFlatRatePercent, 9);
  const off = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered' } });
  t.equal(off.status, 200);
  t.equal(off.body.data.vatFlatRatePercent, null);
  t.equal(off.body.data.vatRegistered, false);
});

t.test('vatFlatRatePercent with another scheme is 400', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const both = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'standard', vatFlatRatePercent: 10 } });
  expectError(t, both, 400, 'validation_error', { field: 'vatFlatRatePercent' });

  // The current scheme is standard: a percentage alone is refused as well.
  const alone = await api.request('PUT', '/v1/organisation/settings', { body: { vatFlatRatePercent: 10 } });
  expectError(t, alone, 400, 'validation_error', { field: 'vatFlatRatePercent' });

  const get = await api.request('GET', '/v1/organisation/settings');
  t.equal(get.body.data.vatScheme, 'standard');
  t.equal(get.body.data.vatFlatRatePercent, null);
});

t.test('invoiceNextNumber must be a whole number of at least 1', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const text = await api.request('PUT', '/v1/organisation/settings', { body: { invoiceNextNumber: '5' } });
  expectError(t, text, 400, 'invalid_type', { field: 'invoiceNextNumber' });

  const zero = await api.request('PUT', '/v1/organisation/settings', { body: { invoiceNextNumber: 0 } });
  expectError(t, zero, 400, 'validation_error', { field: 'invoiceNextNumber' });

  const negative = await api.request('PUT', '/v1/organisation/settings', { body: { invoiceNextNumber: -3 } });
  expectError(t, negative, 400, 'validation_error', { field: 'invoiceNextNumber' });

  const fraction = await api.request('PUT', '/v1/organisation/settings', { body: { invoiceNextNumber: 1.5 } });
  expectError(t, fraction, 400, 'validation_error', { field: 'invoiceNextNumber' });

  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.invoiceNextNumber, 1, 'unchanged');

  const ok = await api.request('PUT', '/v1/organisation/settings', { body: { invoiceNextNumber: 5 } });
  t.equal(ok.status, 200);
  t.equal(ok.body.data.invoiceNextNumber, 5);
});

t.test('fiscalYearStart must be a recurring MM-DD date', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  for (const fiscalYearStart of ['13-01', '02-29', '04-31', '00-10', '4-1', '2026-04-01']) {
    const r = await api.request('PUT', '/v1/organisation/settings', { body: { fiscalYearStart } });
    t.equal(r.status, 400, `400 for ${fiscalYearStart}`);
    t.equal(r.body?.error?.code, 'validation_error', `validation_error for ${fiscalYearStart}`);
    t.equal(r.body?.error?.field, 'fiscalYearStart', `field fiscalYearStart for ${fiscalYearStart}`);
  }
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.fiscalYearStart, '04-01');

  const ok = await api.request('PUT', '/v1/organisation/settings', { body: { fiscalYearStart: '02-28' } });
  t.equal(ok.status, 200);
  t.equal(ok.body.data.fiscalYearStart, '02-28');
});

t.test('fiscalYearStart can change before any period is closed, and not after', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  const before = await api.request('PUT', '/v1/organisation/settings', { body: { fiscalYearStart: '01-01' } });
  t.equal(before.status, 200, 'no period closed yet: the change is allowed');
  t.equal(before.body.data.fiscalYearStart, '01-01');

  // With a calendar year, FY 2025 (2025-01-01..2025-12-31) has ended by 2026-11-21.
  const close = await api.request('POST', '/v1/reports/periods/period_20250101/close');
  t.equal(close.status, 200);

  const after = await api.request('PUT', '/v1/organisation/settings', { body: { fiscalYearStart: '04-01' } });
  expectError(t, after, 422, 'unprocessable_entity');
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.fiscalYearStart, '01-01', 'unchanged');

  // Other settings still change after a close.
  const other = await api.request('PUT', '/v1/organisation/settings', { body: { quotePrefix: 'Q-' } });
  t.equal(other.status, 200);
  t.equal(other.body.data.quotePrefix, 'Q-');
  t.equal(other.body.data.fiscalYearStart, '01-01');
});

// acct keeps single-currency books: £12.00 and $12.00 on 1100 read as 24.00 of nothing.
// The currency is set while the books are empty; after that it is fixed.
t.test('the currency changes only while the books hold no transaction or document; it must be a real ISO 4217 code', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { currency: 'EUR' } })).status, 200, 'empty books: EUR');
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { currency: 'GBP' } })).status, 200, 'and back to GBP');
  for (const code of ['QQQ', 'ZZZ', 'XXX']) {
    expectError(t, await api.request('PUT', '/v1/organisation/settings', { body: { currency: code } }), 400, 'validation_error', { field: 'currency' });
    expectError(
      t,
      await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: `Cur ${code}`, currency: code } }),
      400,
      'validation_error',
      {
        field: 'currency',
      },
    );
  }

  const contact = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Jo Bloggs' } });
  const quote = await api.request('POST', '/v1/quotes', {
    body: { contactId: contact.body.data.id, items: [{ description: 'Work', quantity: 1, unitPrice: 1000, vatRate: 'standard' }] },
  });
  t.equal(quote.status, 201, JSON.stringify(quote.body.error ?? ''));
  const refused = await api.request('PUT', '/v1/organisation/settings', { body: { currency: 'USD', defaultPaymentTerms: 14 } });
  expectError(t, refused, 422, 'unprocessable_entity', { field: null });
  t.match(refused.body.error.message, /GBP/);
  const settings = await api.request('GET', '/v1/organisation/settings');
  t.equal(settings.body.data.currency, 'GBP', 'still GBP');
  t.equal(settings.body.data.defaultPaymentTerms, 30, 'nothing else of the refused request was written');
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { currency: 'GBP' } })).status, 200, 'the same currency again is no change');
});
