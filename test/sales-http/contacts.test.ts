/**
 * Contacts over real HTTP: create with defaults, validation, email
 * uniqueness, read, list (pagination A, type, search, active, sort),
 * partial update, delete or deactivate, the invoicing summary, events and
 * scopes. Every expected figure is written out by hand.
 */
import t, { type Test } from 'tap';
import { movingClock, type Api, type Books, type Reply } from '../helpers/index.js';
import { contactOk, createKey, expectError, ledger, outbox, post } from '../ledger-http/support.js';

const at = '2026-11-21T10:00:00.000Z';

/** A contact id that is well formed but names nobody. */
const nobody = 'cont_0000000000nobodyhere00000';

/** GET /v1/contacts meta.total (active contacts unless the query says otherwise). */
async function contactTotal(api: Api, query = ''): Promise<number> {
  const r = await api.request('GET', `/v1/contacts${query}`);
  if (r.status !== 200) throw new Error(`GET /v1/contacts${query} gave ${r.status}`);
  return r.body.meta.total as number;
}

/** The contact.* rows of the outbox, oldest first. */
async function contactEvents(books: Books): Promise<{ event: string; payload: Record<string, unknown> }[]> {
  return (await outbox(books)).filter((e) => e.event.startsWith('contact.'));
}

/** The names of a list reply's contacts, in order. */
const namesOf = (r: Reply): string[] => (r.body.data as { name: string }[]).map((c) => c.name);

/** POST /v1/invoices for one line; the invoice id. */
async function invoiceOk(
  t: Test,
  api: Api,
  contactId: string,
  item: { quantity: number; unitPrice: number; vatRate: string },
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await api.request('POST', '/v1/invoices', { body: { contactId, items: [{ description: 'Work', ...item }], ...extra } });
  t.equal(r.status, 201, `invoice created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.id as string;
}

async function sendOk(t: Test, api: Api, invoiceId: string): Promise<void> {
  const r = await api.request('POST', `/v1/invoices/${invoiceId}/send`, { body: {} });
  t.equal(r.status, 200, `invoice sent: ${JSON.stringify(r.body?.error ?? '')}`);
}

async function payOk(t: Test, api: Api, invoiceId: string, amount: number): Promise<Reply> {
  const r = await api.request('POST', `/v1/invoices/${invoiceId}/payments`, { body: { amount, date: '2026-11-21' } });
  t.equal(r.status, 201, `payment recorded: ${JSON.stringify(r.body?.error ?? '')}`);
  return r;
}

const fullBody = {
  contactType: 'both',
  name: 'Harbour Supplies',
  company: 'Harbour Supplies Ltd',
  email: 'accounts@harbour.example',
  phone: '0161 496 0000',
  addressLine1: '1 Quay Street',
  addressLine2: 'Unit 4',
  city: 'Manchester',
  region: 'Greater Manchester',
  postalCode: 'M3 3JE',
  country: 'Ireland',
  vatNumber: 'GB123456789',
  companyNumber: 'SC123456',
  paymentTerms: 14,
  currency: 'EUR',
  bankName: 'Northern Bank',
  bankSortCode: '12-34-56',
  bankAccount: '12345678',
  bankIban: 'GB29NWBK60161331926819',
  notes: 'Deliveries before noon',
};

t.test('POST /contacts', async (t) => {
  t.test('201 with every field echoed, active, timestamps from the clock', async (t) => {
    const { api } = await ledger(t);
    const r = await api.request('POST', '/v1/contacts', { body: fullBody });
    t.equal(r.status, 201);
    t.equal(r.body.success, true);
    t.match(r.body.data.id, /^cont_[0-9a-z]+$/, 'id starts cont_');
    const { contactType, ...rest } = fullBody;
    t.strictSame(r.body.data, { id: r.body.data.id, contactType, ...rest, isActive: true, createdAt: at, updatedAt: at });
    t.strictSame((await api.request('GET', `/v1/contacts/${r.body.data.id}`)).body.data, r.body.data, 'GET reads back the same contact');
  });

  t.test('defaults: country United Kingdom, currency GBP, optional fields null, paymentTerms null', async (t) => {
    const { api } = await ledger(t);
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Jo Bloggs' } });
    t.equal(r.status, 201);
    t.strictSame(r.body.data, {
      id: r.body.data.id,
      contactType: 'customer',
      name: 'Jo Bloggs',
      company: null,
      email: null,
      phone: null,
      addressLine1: null,
      addressLine2: null,
      city: null,
      region: null,
      postalCode: null,
      country: 'United Kingdom',
      vatNumber: null,
      companyNumber: null,
      paymentTerms: null,
      currency: 'GBP',
      bankName: null,
      bankSortCode: null,
      bankAccount: null,
      bankIban: null,
      isActive: true,
      notes: null,
      createdAt: at,
      updatedAt: at,
    });
    t.match(r.body.data.id, /^cont_/);
  });

  t.test('a supplier and paymentTerms 0 and 365 are accepted', async (t) => {
    const { api } = await ledger(t);
    const a = await api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Paper Co', paymentTerms: 0 } });
    t.equal(a.status, 201);
    t.equal(a.body.data.contactType, 'supplier');
    t.equal(a.body.data.paymentTerms, 0);
    const b = await api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Ink Co', paymentTerms: 365 } });
    t.equal(b.status, 201);
    t.equal(b.body.data.paymentTerms, 365);
  });

  t.test('name of 200 characters is accepted; 201 is refused', async (t) => {
    const { api } = await ledger(t);
    const ok = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'n'.repeat(200) } });
    t.equal(ok.status, 201);
    t.equal(ok.body.data.name.length, 200);
    const long = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'n'.repeat(201) } });
    expectError(t, long, 400, 'validation_error', { field: 'name' });
    t.equal(await contactTotal(api), 1);
  });
});

t.test('refused creates: the error, and no contact and no event left behind', async (t) => {
  const cases: { what: string; body: unknown; code: string; field: string }[] = [
    { what: 'name missing', body: { contactType: 'customer' }, code: 'validation_error', field: 'name' },
    { what: 'name empty', body: { contactType: 'customer', name: '' }, code: 'validation_error', field: 'name' },
    { what: 'name blank', body: { contactType: 'customer', name: '   ' }, code: 'validation_error', field: 'name' },
    { what: 'name 201 characters', body: { contactType: 'customer', name: 'x'.repeat(201) }, code: 'validation_error', field: 'name' },
    { what: 'contactType missing', body: { name: 'No Type' }, code: 'validation_error', field: 'contactType' },
    { what: 'contactType vendor', body: { contactType: 'vendor', name: 'Vendor' }, code: 'validation_error', field: 'contactType' },
    { what: 'email not an email', body: { contactType: 'customer', name: 'Bad Mail', email: 'not-an-email' }, code: 'validation_error', field: 'email' },
    { what: 'paymentTerms as a string', body: { contactType: 'customer', name: 'Terms', paymentTerms: '30' }, code: 'invalid_type', field: 'paymentTerms' },
    { what: 'paymentTerms 1.5', body: { contactType: 'customer', name: 'Terms', paymentTerms: 1.5 }, code: 'validation_error', field: 'paymentTerms' },
    { what: 'paymentTerms negative', body: { contactType: 'customer', name: 'Terms', paymentTerms: -1 }, code: 'validation_error', field: 'paymentTerms' },
    { what: 'unknown field', body: { contactType: 'customer', name: 'Extra', nickname: 'Ex' }, code: 'validation_error', field: 'nickname' },
    { what: 'currency lower case', body: { contactType: 'customer', name: 'Lower', currency: 'gbp' }, code: 'validation_error', field: 'currency' },
    { what: 'name a number', body: { contactType: 'customer', name: 42 }, code: 'invalid_type', field: 'name' },
  ];
  const { books, api } = await ledger(t);
  await contactOk(t, api, { name: 'Existing Ltd' });
  t.equal((await contactEvents(books)).length, 1, 'the one contact.created');
  const rows = (await outbox(books)).length;
  for (const c of cases) {
    t.test(c.what, async (t) => {
      const r = await api.request('POST', '/v1/contacts', { body: c.body });
      expectError(t, r, 400, c.code, { field: c.field });
      t.equal(await contactTotal(api), 1, 'no contact added');
      t.equal(await contactTotal(api, '?active=false'), 0, 'no inactive contact added');
      t.equal((await outbox(books)).length, rows, 'no event written');
    });
  }
  t.test('the unknown field is named in the message', async (t) => {
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Extra', nickname: 'Ex' } });
    expectError(t, r, 400, 'validation_error', { field: 'nickname', message: /nickname/ });
  });
  t.test('isActive is not a create field', async (t) => {
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Sleeper', isActive: false } });
    expectError(t, r, 400, 'validation_error', { field: 'isActive' });
    t.equal(await contactTotal(api), 1);
  });
});

t.test('email is unique across contacts, ignoring case', async (t) => {
  const { books, api } = await ledger(t);
  const first = await contactOk(t, api, { name: 'First', email: 'billing@shared.example' });
  const second = await contactOk(t, api, { name: 'Second', email: 'second@shared.example' });
  // Contacts without an email do not collide.
  await contactOk(t, api, { name: 'No Mail One' });
  await contactOk(t, api, { name: 'No Mail Two' });
  const eventsBefore = (await outbox(books)).length;

  t.test('the same email on create: 409 conflict, no field member', async (t) => {
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Copycat', email: 'billing@shared.example' } });
    expectError(t, r, 409, 'conflict', { field: null });
    const upper = await api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'Copycat', email: 'Billing@SHARED.example' } });
    expectError(t, upper, 409, 'conflict', { field: null });
    t.equal(await contactTotal(api), 4, 'nothing added');
    t.equal((await outbox(books)).length, eventsBefore, 'no event');
  });

  t.test("PUT to another contact's email: 409, unchanged", async (t) => {
    const r = await api.request('PUT', `/v1/contacts/${second}`, { body: { email: 'BILLING@shared.example' } });
    expectError(t, r, 409, 'conflict', { field: null });
    t.equal((await api.request('GET', `/v1/contacts/${second}`)).body.data.email, 'second@shared.example');
    t.equal((await outbox(books)).length, eventsBefore, 'no event');
  });

  t.test('PUT keeping its own email (even recased) is fine', async (t) => {
    const same = await api.request('PUT', `/v1/contacts/${first}`, { body: { email: 'billing@shared.example', phone: '0800 000' } });
    t.equal(same.status, 200);
    const recased = await api.request('PUT', `/v1/contacts/${first}`, { body: { email: 'Billing@Shared.example' } });
    t.equal(recased.status, 200);
    t.equal((await api.request('GET', `/v1/contacts/${first}`)).body.data.email, 'Billing@Shared.example');
  });

  t.test('a cleared email is free for another contact', async (t) => {
    t.equal((await api.request('PUT', `/v1/contacts/${second}`, { body: { email: null } })).status, 200);
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Heir', email: 'second@shared.example' } });
    t.equal(r.status, 201);
  });
});

t.test('GET /contacts/{id}', async (t) => {
  const { api } = await ledger(t);
  const id = await contactOk(t, api, { name: 'Reader Ltd', email: 'r@reader.example' });
  const r = await api.request('GET', `/v1/contacts/${id}`);
  t.equal(r.status, 200);
  t.equal(r.body.success, true);
  t.equal(r.body.data.id, id);
  t.equal(r.body.data.name, 'Reader Ltd');
  t.equal(r.body.data.email, 'r@reader.example');
  t.equal(r.body.data.contactType, 'customer');
  t.notOk('meta' in r.body, 'no meta on a single resource');

  expectError(t, await api.request('GET', `/v1/contacts/${nobody}`), 404, 'not_found', { field: null });
  expectError(t, await api.request('GET', '/v1/contacts/acc_1'), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('GET', '/v1/contacts/abc'), 400, 'invalid_id', { field: 'id' });
  // The other id-taking routes check the id the same way.
  expectError(t, await api.request('PUT', '/v1/contacts/acc_1', { body: { name: 'X' } }), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('DELETE', '/v1/contacts/abc'), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('GET', '/v1/contacts/inv_1/summary'), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('PUT', `/v1/contacts/${nobody}`, { body: { name: 'X' } }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/contacts/${nobody}`), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/contacts/${nobody}/summary`), 404, 'not_found');
});

t.test('list: pagination A', async (t) => {
  const { api } = await ledger(t);

  t.test('empty: an empty array with total 0', async (t) => {
    const r = await api.request('GET', '/v1/contacts');
    t.equal(r.status, 200);
    t.strictSame(r.body.data, []);
    t.strictSame(r.body.meta, { total: 0, page: 1, limit: 50, hasMore: false });
  });

  t.test('51 contacts: default limit 50, page 2 holds the last', async (t) => {
    for (let i = 1; i <= 51; i++) await contactOk(t, api, { name: `Contact ${String(i).padStart(2, '0')}` });
    const first = await api.request('GET', '/v1/contacts');
    t.equal(first.body.data.length, 50);
    t.strictSame(first.body.meta, { total: 51, page: 1, limit: 50, hasMore: true });
    const second = await api.request('GET', '/v1/contacts?page=2');
    t.equal(second.body.data.length, 1);
    t.strictSame(second.body.meta, { total: 51, page: 2, limit: 50, hasMore: false });
    const small = await api.request('GET', '/v1/contacts?limit=20&page=3&sort=name');
    t.strictSame(small.body.meta, { total: 51, page: 3, limit: 20, hasMore: false });
    t.strictSame(
      namesOf(small),
      Array.from({ length: 11 }, (_, i) => `Contact ${String(i + 41)}`),
    );
    const exact = await api.request('GET', '/v1/contacts?limit=17&page=3');
    t.strictSame(exact.body.meta, { total: 51, page: 3, limit: 17, hasMore: false }, '3 × 17 = 51: no more');
    const beyond = await api.request('GET', '/v1/contacts?page=9');
    t.strictSame(beyond.body.data, []);
    t.strictSame(beyond.body.meta, { total: 51, page: 9, limit: 50, hasMore: false });
    const max = await api.request('GET', '/v1/contacts?limit=100');
    t.equal(max.body.data.length, 51);
    t.strictSame(max.body.meta, { total: 51, page: 1, limit: 100, hasMore: false });
  });

  t.test('bad page and limit: 400', async (t) => {
    expectError(t, await api.request('GET', '/v1/contacts?limit=101'), 400, 'validation_error', { field: 'limit' });
    expectError(t, await api.request('GET', '/v1/contacts?limit=0'), 400, 'validation_error', { field: 'limit' });
    expectError(t, await api.request('GET', '/v1/contacts?page=0'), 400, 'validation_error', { field: 'page' });
    expectError(t, await api.request('GET', '/v1/contacts?page=abc'), 400, 'invalid_type', { field: 'page' });
    expectError(t, await api.request('GET', '/v1/contacts?sort=email'), 400, 'validation_error', { field: 'sort' });
    expectError(t, await api.request('GET', '/v1/contacts?type=vendor'), 400, 'validation_error', { field: 'type' });
  });
});

t.test('list: type filter (customer and supplier include both)', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api } = await ledger(t, { clock });
  await contactOk(t, api, { contactType: 'customer', name: 'Cust' });
  clock.advance(1000);
  await contactOk(t, api, { contactType: 'supplier', name: 'Supp' });
  clock.advance(1000);
  await contactOk(t, api, { contactType: 'both', name: 'Both' });
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts')), ['Both', 'Supp', 'Cust']);
  const customers = await api.request('GET', '/v1/contacts?type=customer');
  t.strictSame(namesOf(customers), ['Both', 'Cust']);
  t.equal(customers.body.meta.total, 2);
  const suppliers = await api.request('GET', '/v1/contacts?type=supplier');
  t.strictSame(namesOf(suppliers), ['Both', 'Supp']);
  t.equal(suppliers.body.meta.total, 2);
  const both = await api.request('GET', '/v1/contacts?type=both');
  t.strictSame(namesOf(both), ['Both']);
  t.equal(both.body.meta.total, 1);
});

t.test('list: search over name, company and email, case-insensitive, % and _ literal', async (t) => {
  const { api } = await ledger(t);
  await contactOk(t, api, { name: 'Alpha Bakery', email: 'orders@alpha.example' });
  await contactOk(t, api, { name: 'Beta Ltd', company: 'Gamma Holdings' });
  await contactOk(t, api, { name: 'Delta', email: 'accounts@gammaray.example' });
  await contactOk(t, api, { name: '100% Organic', contactType: 'supplier' });
  await contactOk(t, api, { name: 'Under_score Ltd', contactType: 'supplier' });
  await contactOk(t, api, { name: 'Plain Trading', contactType: 'supplier' });
  const search = async (q: string, extra = '') => {
    const r = await api.request('GET', `/v1/contacts?sort=name&search=${encodeURIComponent(q)}${extra}`);
    t.equal(r.status, 200, `search ${q}`);
    t.equal(r.body.meta.total, r.body.data.length, `total of ${q} counts the filtered set`);
    return namesOf(r);
  };
  t.strictSame(await search('bakery'), ['Alpha Bakery'], 'name');
  t.strictSame(await search('GAMMA'), ['Beta Ltd', 'Delta'], 'company and email, any case');
  t.strictSame(await search('holdings'), ['Beta Ltd'], 'company only');
  t.strictSame(await search('@alpha.'), ['Alpha Bakery'], 'email only');
  t.strictSame(await search('%'), ['100% Organic'], '% is literal');
  t.strictSame(await search('_'), ['Under_score Ltd'], '_ is literal');
  t.strictSame(await search('0% o'), ['100% Organic']);
  t.strictSame(await search('ltd'), ['Beta Ltd', 'Under_score Ltd']);
  t.strictSame(await search('ltd', '&type=customer'), ['Beta Ltd'], 'search with type');
  t.strictSame(await search('nothing like it'), [], 'no match: empty');
});

t.test('list: active defaults to true; active=false lists only inactive ones; reactivation brings a contact back', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api } = await ledger(t, { clock });
  await contactOk(t, api, { name: 'Stays' });
  clock.advance(1000);
  const leaver = await contactOk(t, api, { name: 'Leaves' });
  await invoiceOk(t, api, leaver, { quantity: 1, unitPrice: 1000, vatRate: 'standard' });
  clock.advance(1000);
  const del = await api.request('DELETE', `/v1/contacts/${leaver}`);
  t.equal(del.body.data.deactivated, true);

  const active = await api.request('GET', '/v1/contacts');
  t.strictSame(namesOf(active), ['Stays']);
  t.equal(active.body.meta.total, 1);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?active=true')), ['Stays']);
  const inactive = await api.request('GET', '/v1/contacts?active=false');
  t.strictSame(namesOf(inactive), ['Leaves']);
  t.equal(inactive.body.meta.total, 1);
  t.equal(inactive.body.data[0].isActive, false);
  expectError(t, await api.request('GET', '/v1/contacts?active=maybe'), 400, 'invalid_type', { field: 'active' });

  clock.advance(1000);
  const back = await api.request('PUT', `/v1/contacts/${leaver}`, { body: { isActive: true } });
  t.strictSame(back.body.data, { id: leaver, updatedAt: '2026-11-21T10:00:03.000Z' });
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts')), ['Leaves', 'Stays']);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?active=false')), []);
  t.equal((await api.request('GET', `/v1/contacts/${leaver}`)).body.data.isActive, true);
  // And PUT isActive false deactivates it by hand.
  t.equal((await api.request('PUT', `/v1/contacts/${leaver}`, { body: { isActive: false } })).status, 200);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?active=false')), ['Leaves']);
});

t.test('list: sort -createdAt by default (newest first), createdAt, name, -name', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api } = await ledger(t, { clock });
  await contactOk(t, api, { name: 'Bravo' });
  clock.advance(60_000);
  await contactOk(t, api, { name: 'Alpha' });
  clock.advance(60_000);
  await contactOk(t, api, { name: 'Charlie' });
  const byDefault = await api.request('GET', '/v1/contacts');
  t.strictSame(namesOf(byDefault), ['Charlie', 'Alpha', 'Bravo']);
  t.strictSame(
    (byDefault.body.data as { createdAt: string }[]).map((c) => c.createdAt),
    ['2026-11-21T10:02:00.000Z', '2026-11-21T10:01:00.000Z', '2026-11-21T10:00:00.000Z'],
  );
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?sort=-createdAt')), ['Charlie', 'Alpha', 'Bravo']);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?sort=createdAt')), ['Bravo', 'Alpha', 'Charlie']);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?sort=name')), ['Alpha', 'Bravo', 'Charlie']);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?sort=-name')), ['Charlie', 'Bravo', 'Alpha']);
  t.strictSame(namesOf(await api.request('GET', '/v1/contacts?sort=name&limit=2&page=2')), ['Charlie']);
});

t.test('PUT /contacts/{id}: partial update', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { books, api } = await ledger(t, { clock });
  const id = (await api.request('POST', '/v1/contacts', { body: fullBody })).body.data.id as string;
  const created = (await api.request('GET', `/v1/contacts/${id}`)).body.data;

  t.test('fields left out are unchanged; response is id and updatedAt', async (t) => {
    clock.advance(5000);
    const r = await api.request('PUT', `/v1/contacts/${id}`, { body: { phone: '020 7946 0000', city: 'Salford' } });
    t.equal(r.status, 200);
    t.strictSame(r.body.data, { id, updatedAt: '2026-11-21T10:00:05.000Z' });
    const after = (await api.request('GET', `/v1/contacts/${id}`)).body.data;
    t.strictSame(after, { ...created, phone: '020 7946 0000', city: 'Salford', updatedAt: '2026-11-21T10:00:05.000Z' });
    t.equal(after.createdAt, at, 'createdAt kept');
  });

  t.test('every create field can change', async (t) => {
    clock.advance(5000);
    const changes = {
      contactType: 'supplier',
      name: 'Harbour Trading',
      company: 'Harbour Trading plc',
      email: 'ap@harbour.example',
      addressLine1: '2 Dock Road',
      addressLine2: 'Floor 2',
      region: 'Lancashire',
      postalCode: 'M5 4WT',
      country: 'United Kingdom',
      vatNumber: 'GB987654321',
      paymentTerms: 60,
      currency: 'GBP',
      bankName: 'Southern Bank',
      bankSortCode: '65-43-21',
      bankAccount: '87654321',
      bankIban: 'GB82WEST12345698765432',
      notes: 'Call first',
    };
    const r = await api.request('PUT', `/v1/contacts/${id}`, { body: changes });
    t.equal(r.status, 200);
    const after = (await api.request('GET', `/v1/contacts/${id}`)).body.data;
    t.strictSame(after, { ...created, ...changes, phone: '020 7946 0000', city: 'Salford', updatedAt: '2026-11-21T10:00:10.000Z' });
  });

  t.test('"" or null clears a field', async (t) => {
    clock.advance(5000);
    const r = await api.request('PUT', `/v1/contacts/${id}`, { body: { company: '', email: null, phone: '', notes: null, paymentTerms: null, bankIban: '' } });
    t.equal(r.status, 200);
    const after = (await api.request('GET', `/v1/contacts/${id}`)).body.data;
    t.equal(after.company, null);
    t.equal(after.email, null);
    t.equal(after.phone, null);
    t.equal(after.notes, null);
    t.equal(after.paymentTerms, null);
    t.equal(after.bankIban, null);
    t.equal(after.name, 'Harbour Trading', 'name untouched');
    t.equal(after.city, 'Salford', 'city untouched');
  });

  t.test('validation as on create; nothing changes and no event', async (t) => {
    const before = (await api.request('GET', `/v1/contacts/${id}`)).body.data;
    const events = (await outbox(books)).length;
    const refused: { body: unknown; code: string; field: string }[] = [
      { body: { name: '' }, code: 'validation_error', field: 'name' },
      { body: { name: '   ' }, code: 'validation_error', field: 'name' },
      { body: { name: 'y'.repeat(201) }, code: 'validation_error', field: 'name' },
      { body: { name: null }, code: 'validation_error', field: 'name' },
      { body: { contactType: 'vendor' }, code: 'validation_error', field: 'contactType' },
      { body: { email: 'not-an-email' }, code: 'validation_error', field: 'email' },
      { body: { paymentTerms: '30' }, code: 'invalid_type', field: 'paymentTerms' },
      { body: { paymentTerms: 1.5 }, code: 'validation_error', field: 'paymentTerms' },
      { body: { currency: 'gbp' }, code: 'validation_error', field: 'currency' },
      { body: { isActive: 'yes' }, code: 'invalid_type', field: 'isActive' },
      { body: { nickname: 'H' }, code: 'validation_error', field: 'nickname' },
      { body: { city: 'Bolton', id: 'cont_other' }, code: 'validation_error', field: 'id' },
    ];
    for (const c of refused) {
      expectError(t, await api.request('PUT', `/v1/contacts/${id}`, { body: c.body }), 400, c.code, { field: c.field });
    }
    t.strictSame((await api.request('GET', `/v1/contacts/${id}`)).body.data, before, 'contact unchanged');
    t.equal((await outbox(books)).length, events, 'no event');
  });

  t.test('200 characters is a valid new name', async (t) => {
    const r = await api.request('PUT', `/v1/contacts/${id}`, { body: { name: 'z'.repeat(200) } });
    t.equal(r.status, 200);
    t.equal((await api.request('GET', `/v1/contacts/${id}`)).body.data.name, 'z'.repeat(200));
  });
});

t.test('DELETE /contacts/{id}', async (t) => {
  t.test('nothing linked: deleted, then 404', async (t) => {
    const { books, api } = await ledger(t);
    const keep = await contactOk(t, api, { name: 'Keeper' });
    const id = await contactOk(t, api, { name: 'Short Lived' });
    const events = (await contactEvents(books)).length;
    const r = await api.request('DELETE', `/v1/contacts/${id}`);
    t.equal(r.status, 200);
    t.strictSame(r.body, { success: true, data: { id, deleted: true } });
    expectError(t, await api.request('GET', `/v1/contacts/${id}`), 404, 'not_found');
    expectError(t, await api.request('DELETE', `/v1/contacts/${id}`), 404, 'not_found');
    t.equal(await contactTotal(api), 1);
    t.equal(await contactTotal(api, '?active=false'), 0, 'not kept as inactive');
    t.equal((await api.request('GET', `/v1/contacts/${keep}`)).status, 200, 'the other contact untouched');
    t.equal((await contactEvents(books)).length, events, 'no contact.updated for a deletion');
  });

  t.test('with an invoice: deactivated, readable, hidden from the default list; reactivation', async (t) => {
    const { books, api } = await ledger(t);
    const id = await contactOk(t, api, { name: 'Invoiced Ltd' });
    await invoiceOk(t, api, id, { quantity: 1, unitPrice: 10000, vatRate: 'standard' });
    const r = await api.request('DELETE', `/v1/contacts/${id}`);
    t.equal(r.status, 200);
    t.equal(r.body.data.id, id);
    t.equal(r.body.data.deactivated, true);
    t.type(r.body.data.message, 'string');
    t.match(r.body.data.message, /deactivated/);
    t.not(r.body.data.deleted, true, 'not reported as deleted');
    const got = await api.request('GET', `/v1/contacts/${id}`);
    t.equal(got.status, 200, 'still readable');
    t.equal(got.body.data.isActive, false);
    t.equal(got.body.data.name, 'Invoiced Ltd');
    t.equal(await contactTotal(api), 0, 'hidden from the default list');
    t.equal(await contactTotal(api, '?active=false'), 1);
    // Deleting again changes nothing more.
    const events = (await contactEvents(books)).length;
    const again = await api.request('DELETE', `/v1/contacts/${id}`);
    t.equal(again.status, 200);
    t.equal(again.body.data.deactivated, true);
    t.equal((await contactEvents(books)).length, events, 'no second event');

    t.equal((await api.request('PUT', `/v1/contacts/${id}`, { body: { isActive: true } })).status, 200);
    t.strictSame(namesOf(await api.request('GET', '/v1/contacts')), ['Invoiced Ltd']);
    t.equal((await api.request('GET', `/v1/contacts/${id}`)).body.data.isActive, true);
  });

  t.test('with only a bill or only a quote: deactivated, not deleted', async (t) => {
    const { api } = await ledger(t);
    const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Billing Supplier' });
    const bill = await api.request('POST', '/v1/bills', {
      body: { contactId: supplier, items: [{ description: 'Stock', quantity: 1, unitPrice: 9000, vatRate: 'standard' }] },
    });
    t.equal(bill.status, 201, `bill created: ${JSON.stringify(bill.body?.error ?? '')}`);
    const customer = await contactOk(t, api, { name: 'Quoted Customer' });
    const quote = await api.request('POST', '/v1/quotes', {
      body: { contactId: customer, items: [{ description: 'Estimate', quantity: 1, unitPrice: 5000, vatRate: 'standard' }] },
    });
    t.equal(quote.status, 201, `quote created: ${JSON.stringify(quote.body?.error ?? '')}`);
    for (const [id, linked] of [
      [supplier, /bills/],
      [customer, /quotes/],
    ] as const) {
      const r = await api.request('DELETE', `/v1/contacts/${id}`);
      t.equal(r.status, 200);
      t.equal(r.body.data.deactivated, true);
      t.match(r.body.data.message, linked);
      t.equal((await api.request('GET', `/v1/contacts/${id}`)).body.data.isActive, false);
    }
    t.equal(await contactTotal(api), 0);
    t.equal(await contactTotal(api, '?active=false'), 2);
  });

  t.test('referenced by a manual transaction line: deactivated, not deleted', async (t) => {
    const { api, acc } = await ledger(t);
    const id = await contactOk(t, api, { name: 'Ledger Only' });
    const p = await post(api, {
      lines: [
        // 1150, not 1100: manual journals may not post to the receivables control account.
        { accountId: acc['1150']!, amount: 5000, contactId: id },
        { accountId: acc['4000']!, amount: -5000 },
      ],
    });
    t.equal(p.status, 201, `transaction posted: ${JSON.stringify(p.body?.error ?? '')}`);
    const r = await api.request('DELETE', `/v1/contacts/${id}`);
    t.equal(r.status, 200);
    t.equal(r.body.data.deactivated, true);
    t.match(r.body.data.message, /transactions/);
    t.equal((await api.request('GET', `/v1/contacts/${id}`)).body.data.isActive, false);
    t.equal(await contactTotal(api), 0);
  });
});

t.test('GET /contacts/{id}/summary', async (t) => {
  t.test('no invoices: zeros', async (t) => {
    const { api } = await ledger(t);
    const id = await contactOk(t, api, { name: 'Newcomer', company: null });
    const r = await api.request('GET', `/v1/contacts/${id}/summary`);
    t.equal(r.status, 200);
    t.strictSame(r.body.data, {
      contact: { id, contactType: 'customer', name: 'Newcomer', company: null, email: null, phone: null, isActive: true },
      summary: { totalInvoices: 0, openInvoices: 0, totalInvoiced: 0, totalCredited: 0, unallocatedCredit: 0, outstanding: 0 },
    });
  });

  t.test('invoices in every state, worked by hand', async (t) => {
    const { api } = await ledger(t);
    const id = await contactOk(t, api, {
      contactType: 'both',
      name: 'Summit Ltd',
      company: 'Summit Holdings',
      email: 'ar@summit.example',
      phone: '0113 496 0000',
    });
    const other = await contactOk(t, api, { name: 'Someone Else' });

    // Draft: 1 × £100.00 + 20% = £120.00 (12000), never issued: left out.
    await invoiceOk(t, api, id, { quantity: 1, unitPrice: 10000, vatRate: 'standard' });
    // Sent: 2 × £25.00 = 5000 + 1000 VAT = 6000, nothing paid.
    const sent = await invoiceOk(t, api, id, { quantity: 2, unitPrice: 2500, vatRate: 'standard' });
    await sendOk(t, api, sent);
    // Part paid: 1 × £200.00 = 20000 + 4000 VAT = 24000; £40.00 paid leaves 20000.
    const part = await invoiceOk(t, api, id, { quantity: 1, unitPrice: 20000, vatRate: 'standard' });
    await sendOk(t, api, part);
    const payment = await payOk(t, api, part, 4000);
    t.equal(payment.body.data.amountDue, 20000);
    t.equal(payment.body.data.invoiceStatus, 'sent');
    // Paid: 1 × £50.00 zero-rated = 5000, paid in full.
    const paid = await invoiceOk(t, api, id, { quantity: 1, unitPrice: 5000, vatRate: 'zero' });
    await sendOk(t, api, paid);
    t.equal((await payOk(t, api, paid, 5000)).body.data.invoiceStatus, 'paid');
    // Void: 1 × £70.00 + 20% = 8400, sent then voided: left out.
    const voided = await invoiceOk(t, api, id, { quantity: 1, unitPrice: 7000, vatRate: 'standard' });
    await sendOk(t, api, voided);
    t.equal((await api.request('POST', `/v1/invoices/${voided}/void`)).status, 200, 'voided');
    // Overdue: 3 × £10.00 at 5% = 3000 + 150 VAT = 3150, due 2026-10-31, before today (2026-11-21).
    const late = await invoiceOk(t, api, id, { quantity: 3, unitPrice: 1000, vatRate: 'reduced' }, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
    await sendOk(t, api, late);
    const moved = await api.request('PATCH', `/v1/invoices/${late}/status`, { body: { status: 'overdue' } });
    t.equal(moved.body.data?.status, 'overdue', `overdue: ${JSON.stringify(moved.body?.error ?? '')}`);
    // An approved bill from the same contact (it is both): a purchase, not invoicing; never counted.
    const bill = await api.request('POST', '/v1/bills', {
      body: { contactId: id, items: [{ description: 'Supplies', quantity: 1, unitPrice: 9000, vatRate: 'standard' }] },
    });
    t.equal(bill.status, 201, `bill created: ${JSON.stringify(bill.body?.error ?? '')}`);
    t.equal((await api.request('POST', `/v1/bills/${bill.body.data.id}/approve`)).status, 200, 'bill approved');
    // Another contact's invoice (1200) never counts here.
    const theirs = await invoiceOk(t, api, other, { quantity: 1, unitPrice: 1000, vatRate: 'standard' });
    await sendOk(t, api, theirs);

    const r = await api.request('GET', `/v1/contacts/${id}/summary`);
    t.equal(r.status, 200);
    t.strictSame(r.body.data, {
      contact: {
        id,
        contactType: 'both',
        name: 'Summit Ltd',
        company: 'Summit Holdings',
        email: 'ar@summit.example',
        phone: '0113 496 0000',
        isActive: true,
      },
      summary: {
        // sent, part paid, paid, overdue
        totalInvoices: 4,
        // sent, part paid, overdue
        openInvoices: 3,
        // 6000 + 24000 + 5000 + 3150
        totalInvoiced: 38150,
        totalCredited: 0,
        unallocatedCredit: 0,
        // 6000 + 20000 + 3150
        outstanding: 29150,
      },
    });

    const theirSummary = await api.request('GET', `/v1/contacts/${other}/summary`);
    t.strictSame(theirSummary.body.data.summary, {
      totalInvoices: 1,
      openInvoices: 1,
      totalInvoiced: 1200,
      totalCredited: 0,
      unallocatedCredit: 0,
      outstanding: 1200,
    });

    // A deactivated contact still has its summary.
    t.equal((await api.request('DELETE', `/v1/contacts/${id}`)).body.data.deactivated, true);
    const inactive = await api.request('GET', `/v1/contacts/${id}/summary`);
    t.equal(inactive.body.data.contact.isActive, false);
    t.equal(inactive.body.data.summary.outstanding, 29150);
  });
});

t.test('events', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { books, api } = await ledger(t, { clock });

  const created = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Eventful Ltd', email: 'e@eventful.example' } });
  const id = created.body.data.id as string;
  let events = await contactEvents(books);
  t.equal(events.length, 1);
  t.equal(events[0]?.event, 'contact.created');
  t.strictSame(events[0]?.payload, created.body.data, 'contact.created carries the contact');

  t.test('a PUT that changes something: contact.updated with changedFields', async (t) => {
    clock.advance(1000);
    t.equal((await api.request('PUT', `/v1/contacts/${id}`, { body: { phone: '0161 000', notes: 'VIP', name: 'Eventful Ltd' } })).status, 200);
    events = await contactEvents(books);
    t.equal(events.length, 2);
    t.equal(events[1]?.event, 'contact.updated');
    const payload = events[1]?.payload ?? {};
    t.strictSame([...(payload['changedFields'] as string[])].sort(), ['notes', 'phone'], 'only what differs');
    t.equal(payload['id'], id);
    t.equal(payload['phone'], '0161 000');
    t.equal(payload['notes'], 'VIP');
    t.equal(payload['updatedAt'], '2026-11-21T10:00:01.000Z');
  });

  t.test('a PUT that changes nothing: no event, and updatedAt stays at the last change (10:00:01)', async (t) => {
    clock.advance(1000);
    const same = await api.request('PUT', `/v1/contacts/${id}`, { body: { phone: '0161 000', name: 'Eventful Ltd' } });
    t.strictSame(same.body.data, { id, updatedAt: '2026-11-21T10:00:01.000Z' });
    const empty = await api.request('PUT', `/v1/contacts/${id}`, { body: {} });
    t.strictSame(empty.body.data, { id, updatedAt: '2026-11-21T10:00:01.000Z' });
    t.equal((await api.request('GET', `/v1/contacts/${id}`)).body.data.updatedAt, '2026-11-21T10:00:01.000Z');
    t.equal((await contactEvents(books)).length, 2);
  });

  t.test('clearing a field is a change', async (t) => {
    // Each step a second later, so the outbox (ordered by time) is in step order.
    clock.advance(1000);
    t.equal((await api.request('PUT', `/v1/contacts/${id}`, { body: { email: '' } })).status, 200);
    events = await contactEvents(books);
    t.equal(events.length, 3);
    t.strictSame(events[2]?.payload['changedFields'], ['email']);
    t.equal(events[2]?.payload['email'], null);
  });

  t.test('deactivation by DELETE: contact.updated with isActive false', async (t) => {
    clock.advance(1000);
    await invoiceOk(t, api, id, { quantity: 1, unitPrice: 100, vatRate: 'standard' });
    t.equal((await api.request('DELETE', `/v1/contacts/${id}`)).body.data.deactivated, true);
    events = await contactEvents(books);
    t.equal(events.length, 4);
    t.equal(events[3]?.event, 'contact.updated');
    t.equal(events[3]?.payload['id'], id);
    t.equal(events[3]?.payload['isActive'], false);
    t.strictSame(events[3]?.payload['changedFields'], ['isActive']);
  });

  t.test('reactivation: contact.updated with isActive true', async (t) => {
    clock.advance(1000);
    t.equal((await api.request('PUT', `/v1/contacts/${id}`, { body: { isActive: true } })).status, 200);
    events = await contactEvents(books);
    t.equal(events.length, 5);
    t.equal(events[4]?.payload['isActive'], true);
    t.strictSame(events[4]?.payload['changedFields'], ['isActive']);
  });
});

t.test('scopes', async (t) => {
  const { books, api } = await ledger(t);
  const id = await contactOk(t, api, { name: 'Scoped Ltd' });

  t.test('contacts:read reads but does not write', async (t) => {
    const { key } = await createKey(t, api, { name: 'contacts reader', scopes: ['contacts:read'] });
    t.equal((await api.request('GET', '/v1/contacts', { key })).status, 200);
    t.equal((await api.request('GET', `/v1/contacts/${id}`, { key })).status, 200);
    t.equal((await api.request('GET', `/v1/contacts/${id}/summary`, { key })).status, 200);
    const events = (await outbox(books)).length;
    const denied = { message: /contacts:write/ };
    expectError(t, await api.request('POST', '/v1/contacts', { key, body: { contactType: 'customer', name: 'Sneaky' } }), 403, 'insufficient_scope', denied);
    expectError(t, await api.request('PUT', `/v1/contacts/${id}`, { key, body: { name: 'Renamed' } }), 403, 'insufficient_scope', denied);
    expectError(t, await api.request('DELETE', `/v1/contacts/${id}`, { key }), 403, 'insufficient_scope', denied);
    t.equal(await contactTotal(api), 1, 'nothing created or deleted');
    t.equal((await api.request('GET', `/v1/contacts/${id}`)).body.data.name, 'Scoped Ltd', 'not renamed');
    t.equal((await outbox(books)).length, events, 'no event');
  });

  t.test('contacts:write without contacts:read writes but does not read', async (t) => {
    const { key } = await createKey(t, api, { name: 'contacts writer', scopes: ['contacts:write'] });
    const r = await api.request('POST', '/v1/contacts', { key, body: { contactType: 'supplier', name: 'Written' } });
    t.equal(r.status, 201);
    const denied = { message: /contacts:read/ };
    expectError(t, await api.request('GET', '/v1/contacts', { key }), 403, 'insufficient_scope', denied);
    expectError(t, await api.request('GET', `/v1/contacts/${id}`, { key }), 403, 'insufficient_scope', denied);
    expectError(t, await api.request('GET', `/v1/contacts/${id}/summary`, { key }), 403, 'insufficient_scope', denied);
  });

  t.test('a key with other scopes only: 403 on every contacts route', async (t) => {
    const { key } = await createKey(t, api, { name: 'invoices reader', scopes: ['invoices:read', 'transactions:read'] });
    expectError(t, await api.request('GET', '/v1/contacts', { key }), 403, 'insufficient_scope', { message: /contacts:read/ });
    expectError(t, await api.request('GET', `/v1/contacts/${id}`, { key }), 403, 'insufficient_scope', { message: /contacts:read/ });
    expectError(t, await api.request('POST', '/v1/contacts', { key, body: { contactType: 'customer', name: 'X' } }), 403, 'insufficient_scope', {
      message: /contacts:write/,
    });
  });

  t.test('no key: 401', async (t) => {
    expectError(t, await api.request('GET', '/v1/contacts', { key: null }), 401, 'unauthorized');
  });
});

t.test('list: search with accented letters', async (t) => {
  const { api } = await ledger(t);
  await contactOk(t, api, { name: 'Café Élan', company: 'Société Générale' });
  await contactOk(t, api, { name: 'Cafe Plain' });
  const names = async (q: string) => namesOf(await api.request('GET', `/v1/contacts?sort=name&search=${encodeURIComponent(q)}`));
  t.strictSame(await names('Café'), ['Café Élan'], 'as written');
  t.strictSame(await names('Générale'), ['Café Élan'], 'company as written');
  t.test('case is ignored for accented letters too', async (t) => {
    t.strictSame(await names('CAFÉ'), ['Café Élan']);
    t.strictSame(await names('élan'), ['Café Élan']);
    t.strictSame(await names('SOCIÉTÉ'), ['Café Élan']);
  });
});

t.test('a contact with open invoices stays a customer, one with open bills a supplier; both is always open', async (t) => {
  const { api } = await ledger(t);
  const customer = await contactOk(t, api, { name: 'Harbour Cafe Ltd' });
  // 1 × £100.00 at 20% = £120.00, sent: open.
  const inv = await invoiceOk(t, api, customer, { quantity: 1, unitPrice: 10000, vatRate: 'standard' });
  await sendOk(t, api, inv);
  const before = (await api.request('GET', `/v1/contacts/${customer}`)).body.data;
  const refused = await api.request('PUT', `/v1/contacts/${customer}`, { body: { contactType: 'supplier', phone: '0161 000 0000' } });
  expectError(t, refused, 422, 'unprocessable_entity', { message: /Harbour Cafe Ltd has open invoices \(INV-0001\).*make it both/ });
  t.strictSame((await api.request('GET', `/v1/contacts/${customer}`)).body.data, before, 'nothing changed, the phone neither');
  t.equal((await api.request('PUT', `/v1/contacts/${customer}`, { body: { contactType: 'both' } })).status, 200, 'both is allowed');
  // Paid in full (£120.00): nothing open, so it may become a supplier only.
  await payOk(t, api, inv, 12000);
  t.equal((await api.request('PUT', `/v1/contacts/${customer}`, { body: { contactType: 'supplier' } })).status, 200, 'paid: no longer open');

  const supplier = await contactOk(t, api, { name: 'Paper Supplies Ltd', contactType: 'supplier' });
  const bill = await api.request('POST', '/v1/bills', {
    body: { contactId: supplier, billNumber: 'PS-1', items: [{ description: 'Paper', quantity: 1, unitPrice: 5000, vatRate: 'standard' }] },
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body.error ?? ''));
  // A draft bill is open too: it would be approved under a customer.
  expectError(t, await api.request('PUT', `/v1/contacts/${supplier}`, { body: { contactType: 'customer' } }), 422, 'unprocessable_entity', {
    message: /Paper Supplies Ltd has open bills \(PS-1\)/,
  });
});
