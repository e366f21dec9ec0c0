/**
 * Quotes over HTTP: create (numbering, pricing, validity), validation,
 * preview, list, update and delete of drafts, the status moves, conversion
 * into a draft invoice, and scopes. A quote never touches the ledger.
 * Figures are worked by hand in the comments beside them. Today is
 * 2026-11-21 (the clock of ledger()).
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Api, Books, Reply } from '../helpers/index.js';
import { balanceOf, contactOk, createKey, expectError, ledger, transactionTotal } from '../ledger-http/support.js';
import { item } from './invoice-support.js';
import { movingClock } from '../helpers/index.js';

/** POST /v1/quotes for the contact, 1 × £100.00 standard unless the body says otherwise. */
function createQuote(api: Api, contactId: string | undefined, body: Record<string, unknown> = {}, key?: string): Promise<Reply> {
  return api.request('POST', '/v1/quotes', {
    body: { ...(contactId === undefined ? {} : { contactId }), items: [item()], ...body },
    ...(key === undefined ? {} : { key }),
  });
}

async function quoteOk(t: Test, api: Api, contactId: string, body: Record<string, unknown> = {}): Promise<Reply['body']> {
  const r = await createQuote(api, contactId, body);
  t.equal(r.status, 201, `quote created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

function setStatus(api: Api, id: string, status: string, key?: string): Promise<Reply> {
  return api.request('PATCH', `/v1/quotes/${id}/status`, { body: { status }, ...(key === undefined ? {} : { key }) });
}

async function statusOk(t: Test, api: Api, id: string, ...path: string[]): Promise<void> {
  for (const status of path) {
    const r = await setStatus(api, id, status);
    t.equal(r.status, 200, `moved to ${status}: ${JSON.stringify(r.body?.error ?? '')}`);
  }
}

async function getQuote(t: Test, api: Api, id: string): Promise<Reply['body']> {
  const r = await api.request('GET', `/v1/quotes/${id}`);
  t.equal(r.status, 200, `quote ${id} readable`);
  return r.body.data;
}

async function quoteTotal(api: Api, query = ''): Promise<number> {
  const r = await api.request('GET', `/v1/quotes${query}`);
  if (r.status !== 200) throw new Error(`GET /v1/quotes${query} gave ${r.status}`);
  return r.body.meta.total as number;
}

/** The quote and invoice events of the live outbox, in the order written (ids count up within a process: the clock stands still). */
async function events(books: Books): Promise<{ event: string; payload: Record<string, unknown> }[]> {
  const rows = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('outbox')
    .select(['event', 'payload'])
    .where((eb) => eb.or([eb('event', 'like', 'quote.%'), eb('event', 'like', 'invoice.%')]))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ event: r.event, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

/** The net balances a quote must never move. */
async function ledgerState(api: Api, acc: Readonly<Record<string, string>>) {
  const out: Record<string, number> = { transactions: await transactionTotal(api) };
  for (const code of ['1100', '4000', '2200', '1200']) out[code] = (await balanceOf(api, acc[code]!)).net;
  return out;
}

const untouched = { transactions: 0, '1100': 0, '4000': 0, '2200': 0, '1200': 0 };

t.test('create: 201 draft QT-0001 then QT-0002, lines priced like invoices, validUntil = issueDate + 30, quote.created, no ledger effect', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const r = await createQuote(api, contactId, {
    issueDate: '2026-11-10',
    notes: 'Valid for new work only',
    terms: 'Half up front',
    reference: 'RFQ-9',
    items: [
      // 4 × 2499 standard: net 9996, VAT 20% 1999.2 → 1999, line 11995
      item({ description: 'Widgets', quantity: 4, unitPrice: 2499, vatRate: 'standard' }),
      // 3 × 1250 reduced: net 3750, VAT 5% 187.5 → 188 (halves away from zero), line 3938
      item({ description: 'Child seats', quantity: 3, unitPrice: 1250, vatRate: 'reduced' }),
      // 2.5 × 4000 zero: net 10000, VAT 0, line 10000
      item({ description: 'Books', quantity: 2.5, unitPrice: 4000, vatRate: 'zero' }),
      // 1 × 6000 exempt: net 6000, no VAT, line 6000
      item({ description: 'Training', quantity: 1, unitPrice: 6000, vatRate: 'exempt' }),
    ],
  });
  t.equal(r.status, 201, 'created');
  const q = r.body.data;
  t.match(q.id, /^quo_/);
  t.match(q, {
    quoteNumber: 'QT-0001',
    status: 'draft',
    contactId,
    contactName: 'Client One Ltd',
    contact: { id: contactId, name: 'Client One Ltd' },
    currency: 'GBP',
    issueDate: '2026-11-10',
    // 10 November + 30 days
    validUntil: '2026-12-10',
    // 9996 + 3750 + 10000 + 6000
    subtotal: 29746,
    // 1999 + 188
    vatAmount: 2187,
    // 29746 + 2187
    total: 31933,
    notes: 'Valid for new work only',
    terms: 'Half up front',
    reference: 'RFQ-9',
    convertedInvoiceId: null,
    convertedInvoiceNumber: null,
    createdAt: '2026-11-21T10:00:00.000Z',
  });
  t.same(
    q.items.map((i: Record<string, unknown>) => [
      i['description'],
      i['quantity'],
      i['unitPrice'],
      i['vatRate'],
      i['vatRateName'],
      i['netAmount'],
      i['vatAmount'],
      i['lineTotal'],
    ]),
    [
      ['Widgets', 4, 2499, 20, 'standard', 9996, 1999, 11995],
      ['Child seats', 3, 1250, 5, 'reduced', 3750, 188, 3938],
      ['Books', 2.5, 4000, 0, 'zero', 10000, 0, 10000],
      ['Training', 1, 6000, 0, 'exempt', 6000, 0, 6000],
    ],
    'lines: rate, name, net, VAT and lineTotal = net + VAT',
  );
  t.same(await getQuote(t, api, q.id), q, 'GET shows what create returned');

  const second = await quoteOk(t, api, contactId);
  // 1 × 10000 standard: 10000 + 2000; issued today, valid 30 days
  t.match(second, {
    quoteNumber: 'QT-0002',
    status: 'draft',
    subtotal: 10000,
    vatAmount: 2000,
    total: 12000,
    issueDate: '2026-11-21',
    validUntil: '2026-12-21',
  });

  t.same(await ledgerState(api, acc), untouched, 'no transaction and no balance moved');
  t.same(
    (await events(books)).map((e) => [e.event, e.payload['id'], e.payload['quoteNumber'], e.payload['status']]),
    [
      ['quote.created', q.id, 'QT-0001', 'draft'],
      ['quote.created', second.id, 'QT-0002', 'draft'],
    ],
    'one quote.created each',
  );
});

t.test('numbering and validity follow the organisation settings: quotePrefix, quoteNextNumber, quoteValidityDays', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  t.equal((await quoteOk(t, api, contactId)).quoteNumber, 'QT-0001');
  const put = await api.request('PUT', '/v1/organisation/settings', { body: { quotePrefix: 'EST-', quoteNextNumber: 41, quoteValidityDays: 14 } });
  t.equal(put.status, 200, 'settings changed');
  t.match(put.body.data, { quotePrefix: 'EST-', quoteNextNumber: 41, quoteValidityDays: 14 });
  const a = await quoteOk(t, api, contactId, { issueDate: '2026-11-25' });
  // 25 November + 14 days
  t.match(a, { quoteNumber: 'EST-0041', validUntil: '2026-12-09' });
  t.equal((await quoteOk(t, api, contactId)).quoteNumber, 'EST-0042', 'the counter moves on');
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.quoteNextNumber, 43);
  // An explicit validUntil wins over the default.
  t.match(await quoteOk(t, api, contactId, { issueDate: '2026-11-25', validUntil: '2027-01-31' }), { validUntil: '2027-01-31' });
  // The same day is allowed.
  t.match(await quoteOk(t, api, contactId, { issueDate: '2026-11-25', validUntil: '2026-11-25' }), { validUntil: '2026-11-25' });
  // Quote numbering is separate from invoice numbering.
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.invoiceNextNumber, 1);

  // A counter set back onto numbers already used skips them: EST-0041 to EST-0044 are the four quotes above.
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { quoteNextNumber: 41 } })).status, 200);
  t.equal((await quoteOk(t, api, contactId)).quoteNumber, 'EST-0045');
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.quoteNextNumber, 46);
});

t.test('create is validated: contact, items, validUntil; nothing stored on a refusal', async (t) => {
  const { books, api, acc } = await ledger(t);
  const customer = await contactOk(t, api);
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Supplies Ltd' });
  const both = await contactOk(t, api, { contactType: 'both', name: 'Both Ways Ltd' });

  expectError(t, await createQuote(api, undefined), 400, 'validation_error', { field: 'contactId' });
  expectError(t, await createQuote(api, 'cont_0000000000000000000000unknown'), 400, 'validation_error', { field: 'contactId' });
  expectError(t, await createQuote(api, 'not-an-id'), 400, 'invalid_id', { field: 'contactId' });
  expectError(t, await createQuote(api, supplier), 400, 'validation_error', { field: 'contactId', message: /supplier/ });
  expectError(t, await createQuote(api, customer, { items: [] }), 400, 'validation_error', { field: 'items' });
  expectError(t, await createQuote(api, customer, { items: undefined }), 400, 'validation_error', { field: 'items' });
  expectError(t, await createQuote(api, customer, { items: [item({ vatRate: 'luxury' })] }), 400, 'validation_error', { field: 'items[0].vatRate' });
  expectError(t, await createQuote(api, customer, { items: [item({ quantity: 0 })] }), 400, 'validation_error', { field: 'items[0].quantity' });
  // A quote's lines are sales lines: an expense account is refused.
  expectError(t, await createQuote(api, customer, { items: [item({ accountId: acc['5100'] })] }), 400, 'validation_error', { field: 'items[0].accountId' });
  // -5000 + 2000 × 1.2 = -2600: the total must be positive
  expectError(t, await createQuote(api, customer, { items: [item({ unitPrice: -5000 }), item({ unitPrice: 2000 })] }), 400, 'validation_error', {
    field: 'items',
  });
  expectError(t, await createQuote(api, customer, { issueDate: '2026-11-10', validUntil: '2026-11-09' }), 400, 'validation_error', { field: 'validUntil' });
  // 1,000,000 × £100m = £100bn a line, over the £10bn limit
  expectError(t, await createQuote(api, customer, { items: [item({ quantity: 1_000_000, unitPrice: 10_000_000_000 })] }), 400, 'validation_error', {
    field: 'items[0].unitPrice',
  });
  expectError(t, await createQuote(api, customer, { validUntil: '2026-02-30' }), 400, 'invalid_date', { field: 'validUntil' });
  expectError(t, await createQuote(api, customer, { status: 'sent' }), 400, 'validation_error', { field: 'status' });

  t.equal(await quoteTotal(api), 0, 'no quote stored');
  t.same(await events(books), [], 'no event');
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.quoteNextNumber, 1, 'no number used');
  // A contact of type both may have quotes.
  t.equal((await quoteOk(t, api, both)).quoteNumber, 'QT-0001', 'the first number, unspent by the refusals');

  expectError(t, await api.request('GET', '/v1/quotes/not-an-id'), 400, 'invalid_id');
  expectError(t, await api.request('GET', '/v1/quotes/inv_00000000000000000000000000'), 400, 'invalid_id');
  expectError(t, await api.request('GET', '/v1/quotes/quo_00000000000000000000000000'), 404, 'not_found');
  expectError(t, await api.request('PUT', '/v1/quotes/quo_00000000000000000000000000', { body: { notes: 'x' } }), 404, 'not_found');
  expectError(t, await api.request('DELETE', '/v1/quotes/quo_00000000000000000000000000'), 404, 'not_found');
  expectError(t, await setStatus(api, 'quo_00000000000000000000000000', 'sent'), 404, 'not_found');
  expectError(t, await api.request('POST', '/v1/quotes/quo_00000000000000000000000000/convert'), 404, 'not_found');
});

t.test('preview prices the lines and stores nothing', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const r = await api.request('POST', '/v1/quotes/preview', {
    body: {
      issueDate: '2026-12-01',
      items: [
        // 7.5 × 3333 standard: net 24997.5 → 24998, VAT 4999.6 → 5000, line 29998
        item({ description: 'Hours', quantity: 7.5, unitPrice: 3333 }),
        // 1 × 1999 reduced: net 1999, VAT 99.95 → 100, line 2099
        item({ description: 'Fuel', quantity: 1, unitPrice: 1999, vatRate: 'reduced' }),
      ],
    },
  });
  t.equal(r.status, 200, 'previewed');
  t.same(
    r.body.data,
    {
      contactId: null,
      issueDate: '2026-12-01',
      // 1 December + 30
      validUntil: '2026-12-31',
      items: [
        {
          description: 'Hours',
          quantity: 7.5,
          unitPrice: 3333,
          vatRate: 20,
          vatRateName: 'standard',
          netAmount: 24998,
          vatAmount: 5000,
          lineTotal: 29998,
          accountId: null,
        },
        {
          description: 'Fuel',
          quantity: 1,
          unitPrice: 1999,
          vatRate: 5,
          vatRateName: 'reduced',
          netAmount: 1999,
          vatAmount: 100,
          lineTotal: 2099,
          accountId: null,
        },
      ],
      // 24998 + 1999
      subtotal: 26997,
      // 5000 + 100
      vatAmount: 5100,
      total: 32097,
    },
    'the worked quote',
  );
  expectError(t, await api.request('POST', '/v1/quotes/preview', { body: { items: [] } }), 400, 'validation_error', { field: 'items' });
  t.equal(await quoteTotal(api), 0, 'no quote stored');
  t.same(await events(books), [], 'no event');
  t.same(await ledgerState(api, acc), untouched);
  t.equal((await quoteOk(t, api, contactId)).quoteNumber, 'QT-0001', 'no number spent');
});

t.test('preview takes the create body (man/acct-api.7: "take the create body (contactId optional)")', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const r = await api.request('POST', '/v1/quotes/preview', {
    body: { contactId, issueDate: '2026-11-10', validUntil: '2026-11-24', notes: 'n', terms: 'x', reference: 'r', items: [item()] },
  });
  t.equal(r.status, 200, `the create body is accepted: ${JSON.stringify(r.body?.error ?? '')}`);
  // 1 × 10000 standard: 10000 + 2000; the validUntil sent, as create would store it
  t.match(r.body?.data, { issueDate: '2026-11-10', validUntil: '2026-11-24', subtotal: 10000, vatAmount: 2000, total: 12000 });
  t.equal(await quoteTotal(api), 0, 'no quote stored');
});

t.test('list: pagination A, filters by status and contact, sorts; no lines in the list', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api } = await ledger(t, { clock });
  const first = await contactOk(t, api);
  const other = await contactOk(t, api, { name: 'Other Client Ltd' });
  // Created a minute apart; totals 1 × 30000, 1 × 10000, 1 × 20000 standard = 36000, 12000, 24000.
  const a = await quoteOk(t, api, first, { items: [item({ unitPrice: 30000 })], issueDate: '2026-11-01' });
  clock.advance(60_000);
  const b = await quoteOk(t, api, first, { items: [item({ unitPrice: 10000 })], issueDate: '2026-11-03' });
  clock.advance(60_000);
  const c = await quoteOk(t, api, other, { items: [item({ unitPrice: 20000 })], issueDate: '2026-11-02' });
  await statusOk(t, api, b.id, 'sent');
  await statusOk(t, api, c.id, 'sent', 'accepted');

  const page1 = await api.request('GET', '/v1/quotes?limit=2');
  t.equal(page1.status, 200);
  t.same(page1.body.meta, { total: 3, page: 1, limit: 2, hasMore: true });
  t.same(
    page1.body.data.map((q: { id: string }) => q.id),
    [c.id, b.id],
    'newest first by default',
  );
  t.notOk('items' in page1.body.data[0], 'the list has no lines');
  t.match(page1.body.data[0], { quoteNumber: 'QT-0003', status: 'accepted', contactId: other, contactName: 'Other Client Ltd', total: 24000 });
  const page2 = await api.request('GET', '/v1/quotes?limit=2&page=2');
  t.same(page2.body.meta, { total: 3, page: 2, limit: 2, hasMore: false });
  t.same(
    page2.body.data.map((q: { id: string }) => q.id),
    [a.id],
  );
  const beyond = await api.request('GET', '/v1/quotes?page=5');
  t.same(beyond.body.meta, { total: 3, page: 5, limit: 20, hasMore: false });
  t.same(beyond.body.data, []);

  const sent = await api.request('GET', '/v1/quotes?status=sent');
  t.same(
    sent.body.data.map((q: { id: string }) => q.id),
    [b.id],
  );
  t.equal(sent.body.meta.total, 1);
  t.same((await api.request('GET', '/v1/quotes?status=rejected')).body, { success: true, data: [], meta: { total: 0, page: 1, limit: 20, hasMore: false } });
  const byContact = await api.request(`GET`, `/v1/quotes?contactId=${first}`);
  t.same(
    byContact.body.data.map((q: { id: string }) => q.id),
    [b.id, a.id],
  );
  const both = await api.request(`GET`, `/v1/quotes?contactId=${first}&status=draft`);
  t.same(
    both.body.data.map((q: { id: string }) => q.id),
    [a.id],
  );

  const ids = async (sort: string) => ((await api.request('GET', `/v1/quotes?sort=${sort}`)).body.data as { id: string }[]).map((q) => q.id);
  t.same(await ids('total'), [b.id, c.id, a.id], 'total ascending: 12000, 24000, 36000');
  t.same(await ids('-total'), [a.id, c.id, b.id]);
  t.same(await ids('issueDate'), [a.id, c.id, b.id], '1, 2, 3 November');
  t.same(await ids('quoteNumber'), [a.id, b.id, c.id]);
  t.same(await ids('-quoteNumber'), [c.id, b.id, a.id]);
  t.same(await ids('createdAt'), [a.id, b.id, c.id]);

  expectError(t, await api.request('GET', '/v1/quotes?sort=dueDate'), 400, 'validation_error', { field: 'sort' });
  expectError(t, await api.request('GET', '/v1/quotes?status=converted2'), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('GET', '/v1/quotes?contactId=nope'), 400, 'invalid_id', { field: 'contactId' });
  expectError(t, await api.request('GET', '/v1/quotes?limit=101'), 400, 'validation_error', { field: 'limit' });
});

t.test('PUT changes a draft only (422 otherwise); fields left out stay; items replace all lines', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const other = await contactOk(t, api, { name: 'Other Client Ltd' });
  const q = await quoteOk(t, api, contactId, { issueDate: '2026-11-10', notes: 'First', terms: 'Net 30', reference: 'R1' });
  const r = await api.request('PUT', `/v1/quotes/${q.id}`, {
    body: {
      contactId: other,
      notes: 'Second',
      validUntil: '2026-12-31',
      // 2 × 4550 standard: net 9100, VAT 1820, line 10920; 1 × 1010 reduced: net 1010, VAT 50.5 → 51, line 1061
      items: [
        item({ description: 'Fitting', quantity: 2, unitPrice: 4550 }),
        item({ description: 'Car seat', quantity: 1, unitPrice: 1010, vatRate: 'reduced' }),
      ],
    },
  });
  t.equal(r.status, 200, 'updated');
  t.match(r.body.data, {
    id: q.id,
    quoteNumber: 'QT-0001',
    status: 'draft',
    contactId: other,
    contact: { id: other, name: 'Other Client Ltd' },
    issueDate: '2026-11-10',
    validUntil: '2026-12-31',
    notes: 'Second',
    terms: 'Net 30',
    reference: 'R1',
    // 9100 + 1010
    subtotal: 10110,
    // 1820 + 51
    vatAmount: 1871,
    total: 11981,
  });
  t.same(
    r.body.data.items.map((i: Record<string, unknown>) => [i['description'], i['netAmount'], i['vatAmount'], i['lineTotal']]),
    [
      ['Fitting', 9100, 1820, 10920],
      ['Car seat', 1010, 51, 1061],
    ],
  );
  const notesOnly = await api.request('PUT', `/v1/quotes/${q.id}`, { body: { terms: '', reference: null } });
  t.equal(notesOnly.status, 200);
  t.match(
    notesOnly.body.data,
    { notes: 'Second', terms: null, reference: null, total: 11981, validUntil: '2026-12-31', contactId: other },
    'cleared fields; the rest kept',
  );
  t.equal(notesOnly.body.data.items.length, 2);
  t.same(await getQuote(t, api, q.id), notesOnly.body.data, 'stored');
  expectError(t, await api.request('PUT', `/v1/quotes/${q.id}`, { body: { validUntil: '2026-11-01' } }), 400, 'validation_error', { field: 'validUntil' });
  expectError(t, await api.request('PUT', `/v1/quotes/${q.id}`, { body: { items: [] } }), 400, 'validation_error', { field: 'items' });
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Supplies Ltd' });
  expectError(t, await api.request('PUT', `/v1/quotes/${q.id}`, { body: { contactId: supplier } }), 400, 'validation_error', { field: 'contactId' });
  t.same(await getQuote(t, api, q.id), notesOnly.body.data, 'the refusals changed nothing');

  for (const path of [['sent'], ['sent', 'accepted'], ['sent', 'rejected'], ['sent', 'expired']]) {
    const other = await quoteOk(t, api, contactId);
    await statusOk(t, api, other.id, ...path);
    const before = await getQuote(t, api, other.id);
    expectError(t, await api.request('PUT', `/v1/quotes/${other.id}`, { body: { notes: 'Late change' } }), 422, 'unprocessable_entity', {
      message: new RegExp(path.at(-1)!),
    });
    t.same(await getQuote(t, api, other.id), before, `a ${path.at(-1)} quote is unchanged`);
  }
  t.same(await ledgerState(api, acc), untouched, 'still nothing in the ledger');
  t.equal((await events(books)).filter((e) => e.event === 'quote.created').length, 5, 'an update raises no event');
});

t.test('DELETE removes a draft only (422 otherwise)', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const draft = await quoteOk(t, api, contactId);
  const sent = await quoteOk(t, api, contactId);
  await statusOk(t, api, sent.id, 'sent');
  const accepted = await quoteOk(t, api, contactId);
  await statusOk(t, api, accepted.id, 'sent', 'accepted');

  const r = await api.request('DELETE', `/v1/quotes/${draft.id}`);
  t.equal(r.status, 200);
  t.same(r.body.data, { id: draft.id, deleted: true });
  expectError(t, await api.request('GET', `/v1/quotes/${draft.id}`), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/quotes/${draft.id}`), 404, 'not_found', {});
  for (const q of [sent, accepted]) {
    expectError(t, await api.request('DELETE', `/v1/quotes/${q.id}`), 422, 'unprocessable_entity');
    t.equal((await getQuote(t, api, q.id)).id, q.id, 'still there');
  }
  t.equal(await quoteTotal(api), 2);
  // Numbers are not reused after a delete.
  t.equal((await quoteOk(t, api, contactId)).quoteNumber, 'QT-0004');
});

t.test('status: draft → sent → accepted, rejected or expired; other moves 422; the same status is a no-op; converted is not a status to ask for', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { books, api, acc } = await ledger(t, { clock });
  const contactId = await contactOk(t, api);
  const q = await quoteOk(t, api, contactId);
  clock.advance(1000);

  expectError(t, await setStatus(api, q.id, 'accepted'), 422, 'unprocessable_entity', { message: /draft to accepted/ });
  expectError(t, await setStatus(api, q.id, 'rejected'), 422, 'unprocessable_entity');
  expectError(t, await setStatus(api, q.id, 'expired'), 422, 'unprocessable_entity');
  expectError(t, await setStatus(api, q.id, 'converted'), 400, 'validation_error', { field: 'status' });
  expectError(t, await setStatus(api, q.id, 'void'), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('PATCH', `/v1/quotes/${q.id}/status`, { body: {} }), 400, 'validation_error', { field: 'status' });
  t.equal((await getQuote(t, api, q.id)).status, 'draft', 'the refusals left it a draft');

  const same = await setStatus(api, q.id, 'draft');
  t.equal(same.status, 200, 'draft → draft is accepted');
  t.match(same.body.data, { status: 'draft', updatedAt: '2026-11-21T10:00:00.000Z' }, 'and changes nothing');

  const sent = await setStatus(api, q.id, 'sent');
  t.equal(sent.status, 200);
  t.match(sent.body.data, { id: q.id, status: 'sent', updatedAt: '2026-11-21T10:00:01.000Z' });
  clock.advance(1000);
  t.match((await setStatus(api, q.id, 'sent')).body.data, { status: 'sent', updatedAt: '2026-11-21T10:00:01.000Z' }, 'sent → sent: unchanged');
  expectError(t, await setStatus(api, q.id, 'draft'), 422, 'unprocessable_entity', { message: /sent to draft/ });

  const accepted = await setStatus(api, q.id, 'accepted');
  t.equal(accepted.status, 200);
  t.match(accepted.body.data, { status: 'accepted' });
  for (const to of ['sent', 'draft', 'rejected', 'expired']) {
    expectError(t, await setStatus(api, q.id, to), 422, 'unprocessable_entity', { message: new RegExp(`accepted to ${to}`) });
  }
  t.equal((await setStatus(api, q.id, 'accepted')).status, 200, 'accepted → accepted: unchanged');

  const r = await quoteOk(t, api, contactId);
  await statusOk(t, api, r.id, 'sent', 'rejected');
  expectError(t, await setStatus(api, r.id, 'accepted'), 422, 'unprocessable_entity');
  expectError(t, await setStatus(api, r.id, 'sent'), 422, 'unprocessable_entity');
  const e = await quoteOk(t, api, contactId);
  await statusOk(t, api, e.id, 'sent', 'expired');
  t.equal((await getQuote(t, api, e.id)).status, 'expired');
  expectError(t, await setStatus(api, e.id, 'accepted'), 422, 'unprocessable_entity');

  t.same(
    (await events(books)).map((ev) => [ev.event, ev.payload['id'], ev.payload['status']]),
    [
      ['quote.created', q.id, 'draft'],
      ['quote.accepted', q.id, 'accepted'],
      ['quote.created', r.id, 'draft'],
      ['quote.rejected', r.id, 'rejected'],
      ['quote.created', e.id, 'draft'],
    ],
    'accepted and rejected raise their events, once; sent, expired and no-op moves raise none',
  );
  t.same(await ledgerState(api, acc), untouched, 'no status touches the ledger');
});

t.test('convert: an accepted quote becomes a draft invoice once; deleting that invoice lets it convert again', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const q = await quoteOk(t, api, contactId, {
    issueDate: '2026-11-02',
    notes: 'As discussed',
    reference: 'RFQ-12',
    items: [
      // 3 × 3750 standard: net 11250, VAT 2250, line 13500
      item({ description: 'Survey', quantity: 3, unitPrice: 3750, accountId: acc['4100'] }),
      // 1 × 2010 reduced: net 2010, VAT 100.5 → 101, line 2111
      item({ description: 'Insulation', quantity: 1, unitPrice: 2010, vatRate: 'reduced' }),
    ],
  });
  // 11250 + 2010 = 13260 net; 2250 + 101 = 2351 VAT; 15611 total
  t.match(q, { subtotal: 13260, vatAmount: 2351, total: 15611 });

  expectError(t, await api.request('POST', `/v1/quotes/${q.id}/convert`), 422, 'unprocessable_entity', { message: /draft/ });
  await statusOk(t, api, q.id, 'sent');
  expectError(t, await api.request('POST', `/v1/quotes/${q.id}/convert`), 422, 'unprocessable_entity', { message: /sent/ });
  await statusOk(t, api, q.id, 'accepted');
  t.same(await ledgerState(api, acc), untouched, 'nothing in the ledger before the conversion');

  const r = await api.request('POST', `/v1/quotes/${q.id}/convert`);
  t.equal(r.status, 201, 'converted');
  t.match(r.body.data, { quoteId: q.id, quoteNumber: 'QT-0001', invoiceNumber: 'INV-0001' });
  const invoiceId = r.body.data.invoiceId as string;
  t.match(invoiceId, /^inv_/);
  const inv = (await api.request('GET', `/v1/invoices/${invoiceId}`)).body.data;
  t.match(inv, {
    id: invoiceId,
    invoiceNumber: 'INV-0001',
    status: 'draft',
    contactId,
    quoteId: q.id,
    subtotal: 13260,
    vatAmount: 2351,
    total: 15611,
    amountDue: 15611,
    // dated today, due by the organisation's 30 days
    issueDate: '2026-11-21',
    dueDate: '2026-12-21',
    notes: 'As discussed',
    reference: 'RFQ-12',
  });
  t.same(r.body.data.invoice, inv, 'the response carries the invoice as stored');
  t.same(
    inv.items.map((i: Record<string, unknown>) => [
      i['description'],
      i['quantity'],
      i['unitPrice'],
      i['vatRateName'],
      i['netAmount'],
      i['vatAmount'],
      i['lineTotal'],
      i['accountId'],
    ]),
    q.items.map((i: Record<string, unknown>) => [
      i['description'],
      i['quantity'],
      i['unitPrice'],
      i['vatRateName'],
      i['netAmount'],
      i['vatAmount'],
      i['lineTotal'],
      i['accountId'],
    ]),
    'the same lines, accounts included',
  );
  t.equal(inv.items[0].accountId, acc['4100'], 'the line account named on the quote');

  t.match(await getQuote(t, api, q.id), { status: 'converted', convertedInvoiceId: invoiceId, convertedInvoiceNumber: 'INV-0001' });
  expectError(t, await api.request('POST', `/v1/quotes/${q.id}/convert`), 409, 'conflict');
  expectError(t, await setStatus(api, q.id, 'accepted'), 422, 'unprocessable_entity', { message: /converted to accepted/ });
  expectError(t, await api.request('PUT', `/v1/quotes/${q.id}`, { body: { notes: 'x' } }), 422, 'unprocessable_entity');
  expectError(t, await api.request('DELETE', `/v1/quotes/${q.id}`), 422, 'unprocessable_entity');
  t.equal((await api.request('GET', `/v1/invoices?limit=100`)).body.meta.total, 1, 'the refused conversion made no invoice');
  // The draft invoice brings a draft transaction, which moves no balance.
  t.same(await ledgerState(api, acc), { ...untouched, transactions: 1 });

  const del = await api.request('DELETE', `/v1/invoices/${invoiceId}`);
  t.equal(del.status, 200, 'the draft invoice deleted');
  t.match(await getQuote(t, api, q.id), { status: 'accepted', convertedInvoiceId: null, convertedInvoiceNumber: null }, 'the quote is accepted again');
  t.same(await ledgerState(api, acc), untouched, 'its draft transaction went with it');

  const again = await api.request('POST', `/v1/quotes/${q.id}/convert`);
  t.equal(again.status, 201, 'converted again');
  t.match(again.body.data, { invoiceNumber: 'INV-0002', invoice: { quoteId: q.id, total: 15611, status: 'draft' } });
  t.match(await getQuote(t, api, q.id), { status: 'converted', convertedInvoiceId: again.body.data.invoiceId, convertedInvoiceNumber: 'INV-0002' });

  // Once the invoice is sent it can no longer be deleted, so the quote stays converted.
  t.equal((await api.request('POST', `/v1/invoices/${again.body.data.invoiceId}/send`, { body: {} })).status, 200);
  t.equal((await api.request('DELETE', `/v1/invoices/${again.body.data.invoiceId}`)).status, 422);
  t.match(await getQuote(t, api, q.id), { status: 'converted' });

  t.same(
    (await events(books)).map((e) => [e.event, e.payload['id']]),
    [
      ['quote.created', q.id],
      ['quote.accepted', q.id],
      ['invoice.created', invoiceId],
      ['invoice.created', again.body.data.invoiceId],
      ['invoice.sent', again.body.data.invoiceId],
    ],
    'a conversion raises invoice.created',
  );
  const created = (await events(books)).find((e) => e.event === 'invoice.created');
  t.match(created?.payload, { invoiceNumber: 'INV-0001', quoteId: q.id, total: 15611 });
});

t.test('converting rejected or expired quotes is refused (422)', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  for (const end of ['rejected', 'expired']) {
    const q = await quoteOk(t, api, contactId);
    await statusOk(t, api, q.id, 'sent', end);
    expectError(t, await api.request('POST', `/v1/quotes/${q.id}/convert`), 422, 'unprocessable_entity', { message: new RegExp(end) });
    t.equal((await getQuote(t, api, q.id)).status, end);
  }
  t.equal((await api.request('GET', '/v1/invoices')).body.meta.total, 0, 'no invoice made');
});

t.test('scopes: quotes:read reads but cannot write; a key without quote scopes gets 403; preview needs only a key', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const draft = await quoteOk(t, api, contactId);
  const accepted = await quoteOk(t, api, contactId);
  await statusOk(t, api, accepted.id, 'sent', 'accepted');
  const reader = (await createKey(t, api, { name: 'quote reader', scopes: ['quotes:read'] })).key;
  const none = (await createKey(t, api, { name: 'invoices only', scopes: ['invoices:read', 'invoices:write', 'contacts:read'] })).key;
  const writer = (await createKey(t, api, { name: 'quote writer', scopes: ['quotes:write'] })).key;

  t.equal((await api.request('GET', '/v1/quotes', { key: reader })).status, 200, 'list with quotes:read');
  t.equal((await api.request('GET', '/v1/quotes', { key: reader })).body.meta.total, 2);
  t.equal((await api.request('GET', `/v1/quotes/${draft.id}`, { key: reader })).status, 200, 'get with quotes:read');

  const writes: [string, string, unknown][] = [
    ['POST', '/v1/quotes', { contactId, items: [item()] }],
    ['PUT', `/v1/quotes/${draft.id}`, { notes: 'x' }],
    ['DELETE', `/v1/quotes/${draft.id}`, undefined],
    ['PATCH', `/v1/quotes/${draft.id}/status`, { status: 'sent' }],
    ['POST', `/v1/quotes/${accepted.id}/convert`, undefined],
  ];
  for (const [method, path, body] of writes) {
    expectError(t, await api.request(method, path, { key: reader, body }), 403, 'insufficient_scope', { message: /quotes:write/ });
    expectError(t, await api.request(method, path, { key: none, body }), 403, 'insufficient_scope', { message: /quotes:write/ });
  }
  expectError(t, await api.request('GET', '/v1/quotes', { key: none }), 403, 'insufficient_scope', { message: /quotes:read/ });
  expectError(t, await api.request('GET', `/v1/quotes/${draft.id}`, { key: none }), 403, 'insufficient_scope', { message: /quotes:read/ });
  expectError(t, await api.request('GET', '/v1/quotes', { key: writer }), 403, 'insufficient_scope', { message: /quotes:read/ });

  t.same(
    (await api.request('GET', '/v1/quotes?sort=quoteNumber')).body.data.map((q: { status: string }) => q.status),
    ['draft', 'accepted'],
    'the refused writes changed nothing',
  );
  t.equal((await api.request('GET', '/v1/quotes')).body.meta.total, 2);
  t.equal((await api.request('GET', '/v1/invoices')).body.meta.total, 0, 'no conversion happened');

  // quotes:write alone creates, moves and converts.
  const made = await createQuote(api, contactId, {}, writer);
  t.equal(made.status, 201, 'create with quotes:write');
  t.equal((await setStatus(api, made.body.data.id, 'sent', writer)).status, 200);
  const converted = await api.request('POST', `/v1/quotes/${accepted.id}/convert`, { key: writer });
  t.equal(converted.status, 201, 'convert with quotes:write');
  // A quote without a reference gives its number as the invoice's reference.
  t.match(converted.body.data.invoice, { reference: 'QT-0002', notes: null, quoteId: accepted.id });

  // The preview is open to any key of the organisation (gap facts: "quote preview needs only a valid key").
  t.equal((await api.request('POST', '/v1/quotes/preview', { key: none, body: { items: [item()] } })).status, 200);
  expectError(t, await api.request('GET', '/v1/quotes', { key: null }), 401, 'unauthorized');
});

t.test('PUT with a new issueDate and no validUntil keeps the quote valid for as many days as before', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  // Issued 10 November, valid until 10 December: 30 days.
  const q = await quoteOk(t, api, contactId, { issueDate: '2026-11-10' });
  t.equal(q.validUntil, '2026-12-10');
  const r = await api.request('PUT', `/v1/quotes/${q.id}`, { body: { issueDate: '2026-12-20' } });
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  // 20 December + 30 days = 19 January.
  t.equal(r.body.data.validUntil, '2027-01-19');
  const explicit = await api.request('PUT', `/v1/quotes/${q.id}`, { body: { issueDate: '2026-12-21', validUntil: '2026-12-31' } });
  t.equal(explicit.body.data.validUntil, '2026-12-31', 'a validUntil sent wins');
});

// Voiding the draft a quote became discards it as deleting it does: the quote is
// accepted again and can be converted anew. Voiding a sent invoice leaves the quote
// converted (the invoice was issued from it).
t.test('voiding the draft invoice a quote became returns the quote to accepted; voiding a sent one does not', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const q = await quoteOk(t, api, contactId);
  await statusOk(t, api, q.id, 'sent', 'accepted');
  const first = await api.request('POST', `/v1/quotes/${q.id}/convert`);
  t.equal(first.status, 201);
  t.equal((await api.request('POST', `/v1/invoices/${first.body.data.invoiceId}/void`, { body: {} })).status, 200, 'the draft voided');
  t.match(await getQuote(t, api, q.id), { status: 'accepted', convertedInvoiceId: null }, 'the quote is accepted again');

  const second = await api.request('POST', `/v1/quotes/${q.id}/convert`);
  t.equal(second.status, 201, 'converted again');
  t.equal((await api.request('POST', `/v1/invoices/${second.body.data.invoiceId}/send`, { body: {} })).status, 200);
  t.equal((await api.request('POST', `/v1/invoices/${second.body.data.invoiceId}/void`, { body: {} })).status, 200, 'the sent invoice voided');
  t.match(await getQuote(t, api, q.id), { status: 'converted', convertedInvoiceId: second.body.data.invoiceId }, 'the quote stays converted');
});

t.test('converting a quote whose customer was archived is 422 (a business rule, not bad input): nothing written, no number used', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api, { name: 'Bob Arch' });
  const q = await quoteOk(t, api, contactId);
  await statusOk(t, api, q.id, 'sent', 'accepted');
  const archived = await api.request('DELETE', `/v1/contacts/${contactId}`);
  t.equal(archived.status, 200, 'deactivated rather than deleted: a quote refers to it');
  t.equal((await api.request('GET', `/v1/contacts/${contactId}`)).body.data.isActive, false);
  const before = (await events(books)).length;

  expectError(t, await api.request('POST', `/v1/quotes/${q.id}/convert`), 422, 'unprocessable_entity', {
    message: 'contact Bob Arch is inactive; reactivate it first',
    field: null,
  });
  t.match(await getQuote(t, api, q.id), { status: 'accepted', convertedInvoiceId: null }, 'the quote stays accepted');
  t.equal((await api.request('GET', '/v1/invoices')).body.meta.total, 0, 'no invoice made');
  t.equal((await events(books)).length, before, 'no event');
  t.same(await ledgerState(api, acc), untouched, 'nothing in the ledger');

  t.equal((await api.request('PUT', `/v1/contacts/${contactId}`, { body: { isActive: true } })).status, 200, 'reactivated');
  const r = await api.request('POST', `/v1/quotes/${q.id}/convert`);
  t.equal(r.status, 201, 'then it converts');
  t.match(r.body.data, { invoiceNumber: 'INV-0001' }, 'the refusal used no invoice number');

  // Likewise a customer made a supplier since the quote was accepted (one with no open invoice: Bob Arch's INV-0001 would keep him a customer).
  const other = await contactOk(t, api, { name: 'Bea Quote' });
  const q2 = await quoteOk(t, api, other);
  await statusOk(t, api, q2.id, 'sent', 'accepted');
  t.equal((await api.request('PUT', `/v1/contacts/${other}`, { body: { contactType: 'supplier' } })).status, 200, 'now a supplier');
  expectError(t, await api.request('POST', `/v1/quotes/${q2.id}/convert`), 422, 'unprocessable_entity', {
    message: 'contact Bea Quote is now a supplier; an invoice needs a customer (or both)',
    field: null,
  });
  t.match(await getQuote(t, api, q2.id), { status: 'accepted', convertedInvoiceId: null });
  t.equal((await api.request('GET', '/v1/invoices')).body.meta.total, 1, 'still the one invoice');
});

t.test('a draft invoice for a customer archived since is sent as before (only a new document needs an active contact)', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api, { name: 'Bob Arch' });
  const draft = await api.request('POST', '/v1/invoices', { body: { contactId, items: [item()] } });
  t.equal(draft.status, 201, 'draft made');
  t.equal((await api.request('DELETE', `/v1/contacts/${contactId}`)).status, 200, 'deactivated: an invoice refers to it');
  const sent = await api.request('POST', `/v1/invoices/${draft.body.data.id}/send`, { body: {} });
  t.equal(sent.status, 200, `sent: ${JSON.stringify(sent.body?.error ?? '')}`);
  t.match(sent.body.data, { invoiceNumber: 'INV-0001', status: 'sent' });
});

t.test('create and PUT take currency as invoices do: the books’ own (GBP) is taken and shown, any other is 400 on currency and writes nothing', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const quote = await quoteOk(t, api, contactId, { currency: 'GBP' });
  t.equal(quote.currency, 'GBP');
  // 1 × £100.00 standard: £100.00 + 20% = £120.00, as without currency.
  t.equal(quote.total, 12000);
  expectError(t, await createQuote(api, contactId, { currency: 'EUR' }), 400, 'validation_error', { field: 'currency' });
  t.equal(await quoteTotal(api), 1, 'the refused quote was not stored');
  const put = await api.request('PUT', `/v1/quotes/${quote.id}`, { body: { currency: 'GBP' } });
  t.equal(put.status, 200, JSON.stringify(put.body?.error ?? ''));
  expectError(t, await api.request('PUT', `/v1/quotes/${quote.id}`, { body: { currency: 'USD' } }), 400, 'validation_error', { field: 'currency' });
});

t.test('preview checks currency as create does, with or without a contact', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  for (const body of [
    { items: [item()], currency: 'EUR' },
    { contactId, items: [item()], currency: 'EUR' },
  ]) {
    expectError(t, await api.request('POST', '/v1/quotes/preview', { body }), 400, 'validation_error', { field: 'currency', message: /quotes in EUR/ });
  }
});
