/**
 * The invoice errors of the spec over HTTP, each with its code and field,
 * and each leaving nothing behind: no invoice, transaction or outbox row.
 * Then ids, other organisations and the test dataset, and scopes.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Api, Books } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { balanceOf, closeFy2025, contactOk, createKey, expectError, fileVat, ledger } from '../ledger-http/support.js';
import { counts, createInvoice, getInvoice, invoiceOk, invoiceTotal, item, pay, payOk, sendOk } from './invoice-support.js';

/** Send `body` to POST /v1/invoices and expect a 400 with the code and field, leaving nothing stored. */
async function refusedCreate(t: Test, api: Api, books: Books, body: Record<string, unknown>, code: string, field: string | null | undefined): Promise<void> {
  const before = await counts(api, books);
  const r = await api.request('POST', '/v1/invoices', { body });
  expectError(t, r, 400, code, field === undefined ? {} : { field });
  t.same(await counts(api, books), before, 'nothing stored');
}

t.test('create: every validation error names its field and stores nothing', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Paper Supplies Ltd' });
  const inactive = await contactOk(t, api, { name: 'Gone Away Ltd' });
  t.equal((await api.request('PUT', `/v1/contacts/${inactive}`, { body: { isActive: false } })).status, 200, 'contact deactivated');
  const good = { contactId, items: [item()] };
  const cases: [string, Record<string, unknown>, string, string | null][] = [
    ['contactId missing', { items: [item()] }, 'validation_error', 'contactId'],
    ['contactId null', { ...good, contactId: null }, 'validation_error', 'contactId'],
    ['contactId malformed', { ...good, contactId: 'client-one' }, 'invalid_id', 'contactId'],
    ['contactId of another kind of id', { ...good, contactId: acc['1100']! }, 'invalid_id', 'contactId'],
    ['contactId unknown', { ...good, contactId: 'cont_01m7yrrt804cb3z1c4w9b5twjz' }, 'validation_error', 'contactId'],
    ['contactId a supplier only', { ...good, contactId: supplier }, 'validation_error', 'contactId'],
    ['contactId inactive', { ...good, contactId: inactive }, 'validation_error', 'contactId'],
    ['items missing', { contactId }, 'validation_error', 'items'],
    ['items empty', { contactId, items: [] }, 'validation_error', 'items'],
    ['items not an array', { contactId, items: item() }, 'invalid_type', 'items'],
    ['vatRate unknown', { contactId, items: [item({ vatRate: 'super' })] }, 'validation_error', 'items[0].vatRate'],
    ['vatRate as a number', { contactId, items: [item({ vatRate: 20 })] }, 'validation_error', 'items[0].vatRate'],
    ['vatRate missing', { contactId, items: [{ description: 'Work', quantity: 1, unitPrice: 100 }] }, 'validation_error', 'items[0].vatRate'],
    ['quantity as a string', { contactId, items: [item({ quantity: '2' })] }, 'invalid_type', 'items[0].quantity'],
    ['quantity zero', { contactId, items: [item({ quantity: 0 })] }, 'validation_error', 'items[0].quantity'],
    ['quantity negative', { contactId, items: [item({ quantity: -1 })] }, 'validation_error', 'items[0].quantity'],
    ['quantity with 5 decimals', { contactId, items: [item({ quantity: 1.00001 })] }, 'validation_error', 'items[0].quantity'],
    ['unitPrice in pounds', { contactId, items: [item({ unitPrice: 10.5 })] }, 'validation_error', 'items[0].unitPrice'],
    ['unitPrice as a string', { contactId, items: [item({ unitPrice: '1000' })] }, 'invalid_type', 'items[0].unitPrice'],
    ['description missing', { contactId, items: [{ quantity: 1, unitPrice: 100, vatRate: 'standard' }] }, 'validation_error', 'items[0].description'],
    ['description blank', { contactId, items: [item({ description: '   ' })] }, 'validation_error', 'items[0].description'],
    ['second item broken', { contactId, items: [item(), item({ quantity: '3' })] }, 'invalid_type', 'items[1].quantity'],
    ['an unknown item field', { contactId, items: [item({ discount: 10 })] }, 'validation_error', 'items[0].discount'],
    ['item account not revenue', { contactId, items: [item({ accountId: acc['5000']! })] }, 'validation_error', 'items[0].accountId'],
    ['a total of zero', { contactId, items: [item({ unitPrice: 0 })] }, 'validation_error', 'items'],
    ['a negative total', { contactId, items: [item({ unitPrice: -100 })] }, 'validation_error', 'items'],
    ['issueDate in UK order', { ...good, issueDate: '21/11/2026' }, 'invalid_date', 'issueDate'],
    ['issueDate not a day', { ...good, issueDate: '2026-02-30' }, 'invalid_date', 'issueDate'],
    ['dueDate with a time', { ...good, dueDate: '2026-12-01T00:00:00Z' }, 'invalid_date', 'dueDate'],
    ['dueDays as a string', { ...good, dueDays: '14' }, 'invalid_type', 'dueDays'],
    ['currency lower case', { ...good, currency: 'gbp' }, 'validation_error', 'currency'],
    ['currency other than the books', { ...good, currency: 'EUR' }, 'validation_error', 'currency'],
    ['reference too long', { ...good, reference: 'R'.repeat(101) }, 'validation_error', 'reference'],
    ['an unknown field', { ...good, status: 'sent' }, 'validation_error', 'status'],
    // 2999-12-31 + 30 days = 3000-01-30, past the last date the books keep (a dueDate sent so is refused too).
    ['dueDays past the last year', { ...good, issueDate: '2999-12-31', dueDays: 30 }, 'validation_error', 'dueDays'],
    // The contact's terms (30 days, the organisation's default): 2999-12-20 + 30 = 3000-01-19.
    ['the terms past the last year', { ...good, issueDate: '2999-12-20' }, 'validation_error', 'issueDate'],
    // Nine items of 100 × £100m = £10bn net each, + 20% VAT = £12bn each: £108bn in all, past the £100bn a ledger line holds.
    [
      'items past what a ledger line holds',
      { contactId, items: Array(9).fill(item({ quantity: 100, unitPrice: 10_000_000_000 })) },
      'validation_error',
      'items',
    ],
  ];
  for (const [name, body, code, field] of cases) {
    await t.test(name, (t) => refusedCreate(t, api, books, body, code, field));
  }
  const malformed = await api.request('POST', '/v1/invoices', { raw: '{"contactId": ', headers: { 'content-type': 'application/json' } });
  expectError(t, malformed, 400, 'validation_error');
  t.equal(await invoiceTotal(api), 0, 'no invoice at all');
  const settings = await api.request('GET', '/v1/organisation/settings');
  t.equal(settings.body.data.invoiceNextNumber, 1, 'no number was taken by a refused create');
  t.equal((await invoiceOk(t, api, contactId)).invoiceNumber, 'INV-0001', 'the first good create gets the first number');
});

t.test('update: the same field errors on a draft, and nothing changes', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Paper Supplies Ltd' });
  const inv = await invoiceOk(t, api, contactId);
  const cases: [Record<string, unknown>, string, string][] = [
    [{ contactId: supplier }, 'validation_error', 'contactId'],
    [{ items: [] }, 'validation_error', 'items'],
    [{ items: [item({ vatRate: 'super' })] }, 'validation_error', 'items[0].vatRate'],
    [{ items: [item({ quantity: '2' })] }, 'invalid_type', 'items[0].quantity'],
    [{ dueDate: '01/12/2026' }, 'invalid_date', 'dueDate'],
    [{ dueDate: '2026-11-01' }, 'validation_error', 'dueDate'],
    [{ invoiceNumber: 'INV-9999' }, 'validation_error', 'invoiceNumber'],
  ];
  for (const [body, code, field] of cases) {
    const before = { invoice: await getInvoice(t, api, inv.id), counts: await counts(api, books) };
    expectError(t, await api.request('PUT', `/v1/invoices/${inv.id}`, { body }), 400, code, { field });
    t.same({ invoice: await getInvoice(t, api, inv.id), counts: await counts(api, books) }, before, `${JSON.stringify(body)}: nothing changed`);
  }
});

t.test('ids: a malformed id is 400 invalid_id; an unknown one 404 on every invoice route', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId);
  await sendOk(t, api, inv.id);
  const before = await counts(api, books);
  for (const bad of ['xyz', 'txn_01m7yrrt80s5x78bb1tc06sdd3', 'inv_', 'INV-0001']) {
    expectError(t, await api.request('GET', `/v1/invoices/${bad}`), 400, 'invalid_id', { field: 'id' });
  }
  const unknown = 'inv_01m7yrrt80qaambh04arqqaxk0';
  const routes: [string, string, unknown][] = [
    ['GET', `/v1/invoices/${unknown}`, undefined],
    ['GET', `/v1/invoices/${unknown}/pdf`, undefined],
    ['PUT', `/v1/invoices/${unknown}`, { notes: 'x' }],
    ['DELETE', `/v1/invoices/${unknown}`, undefined],
    ['POST', `/v1/invoices/${unknown}/send`, {}],
    ['POST', `/v1/invoices/${unknown}/payments`, { amount: 100, date: '2026-11-21' }],
    ['POST', `/v1/invoices/${unknown}/void`, undefined],
    ['PATCH', `/v1/invoices/${unknown}/status`, { status: 'sent' }],
  ];
  for (const [method, path, body] of routes) {
    expectError(t, await api.request(method, path, body === undefined ? {} : { body }), 404, 'not_found');
  }
  expectError(t, await api.request('POST', '/v1/invoices/not-an-id/payments', { body: { amount: 100, date: '2026-11-21' } }), 400, 'invalid_id', {
    field: 'id',
  });
  t.same(await counts(api, books), before, 'nothing stored');
});

t.test('another organisation, and the test dataset, see none of these invoices', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId);
  await sendOk(t, api, inv.id);
  const other = await createOrganisation(books.store, books.clock, { name: 'Jo Bloggs Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const before = await counts(api, books);
  for (const key of [other.apiKey, books.testApiKey]) {
    expectError(t, await api.request('GET', `/v1/invoices/${inv.id}`, { key }), 404, 'not_found');
    expectError(t, await api.request('GET', `/v1/invoices/${inv.id}/pdf`, { key }), 404, 'not_found');
    expectError(t, await pay(api, inv.id, { amount: 100 }, key), 404, 'not_found');
    expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/void`, { key }), 404, 'not_found');
    expectError(t, await api.request('PUT', `/v1/invoices/${inv.id}`, { key, body: { notes: 'x' } }), 404, 'not_found');
    expectError(t, await api.request('DELETE', `/v1/invoices/${inv.id}`, { key }), 404, 'not_found');
    const list = await api.request('GET', '/v1/invoices', { key });
    t.equal(list.status, 200);
    t.equal(list.body.meta.total, 0, 'their list is empty');
    // The first organisation's customer is not theirs to invoice.
    expectError(t, await createInvoice(api, contactId, {}, key), 400, 'validation_error', { field: 'contactId' });
  }
  t.same(await counts(api, books), before, 'the first organisation is untouched');
  t.match(await getInvoice(t, api, inv.id), { status: 'sent', amountDue: 12000 });
  // Numbering is per organisation (and per dataset).
  const theirContact = await api.request('POST', '/v1/contacts', { key: other.apiKey, body: { contactType: 'customer', name: 'Their Client' } });
  // Not registered for VAT: its sales lines carry no vatRate.
  const theirs = await createInvoice(
    api,
    theirContact.body.data.id,
    { items: [{ description: 'Boiler service', quantity: 1, unitPrice: 10000 }] },
    other.apiKey,
  );
  t.equal(theirs.status, 201);
  t.equal(theirs.body.data.invoiceNumber, 'INV-0001', 'the other organisation starts at INV-0001');
  t.equal(theirs.body.data.total, 10000, 'not VAT registered: no VAT');
});

t.test('scopes: invoices:read reads, lists and downloads but changes nothing; without it nothing is readable', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const draft = await invoiceOk(t, api, contactId);
  const sent = await invoiceOk(t, api, contactId);
  await sendOk(t, api, sent.id);
  const { key: reader } = await createKey(t, api, { name: 'invoice reader', scopes: ['invoices:read'] });
  const before = await counts(api, books);
  const snapshot = async () => [await getInvoice(t, api, draft.id), await getInvoice(t, api, sent.id)];
  const invoicesBefore = await snapshot();

  const writes: [string, string, unknown][] = [
    ['POST', '/v1/invoices', { contactId, items: [item()] }],
    ['PUT', `/v1/invoices/${draft.id}`, { notes: 'x' }],
    ['DELETE', `/v1/invoices/${draft.id}`, undefined],
    ['POST', `/v1/invoices/${draft.id}/send`, {}],
    ['PATCH', `/v1/invoices/${draft.id}/status`, { status: 'sent' }],
    ['POST', `/v1/invoices/${sent.id}/payments`, { amount: 100, date: '2026-11-21' }],
    ['POST', `/v1/invoices/${sent.id}/void`, undefined],
    ['POST', '/v1/invoices/sweep', undefined],
  ];
  for (const [method, path, body] of writes) {
    const r = await api.request(method, path, { key: reader, ...(body === undefined ? {} : { body }) });
    expectError(t, r, 403, 'insufficient_scope', { message: /invoices:write/ });
  }
  t.same(await counts(api, books), before, 'nothing stored');
  t.same(await snapshot(), invoicesBefore, 'nothing changed');

  const one = await api.request('GET', `/v1/invoices/${sent.id}`, { key: reader });
  t.equal(one.status, 200);
  t.equal(one.body.data.invoiceNumber, 'INV-0002');
  const list = await api.request('GET', '/v1/invoices', { key: reader });
  t.equal(list.status, 200);
  t.equal(list.body.meta.total, 2);
  const pdf = await api.request('GET', `/v1/invoices/${sent.id}/pdf`, { key: reader });
  t.equal(pdf.status, 200);
  t.match(pdf.headers.get('content-type'), /^application\/pdf/);
  t.match(String(pdf.body), /^%PDF-/, 'a PDF document');

  const { key: stranger } = await createKey(t, api, { name: 'contacts only', scopes: ['contacts:read', 'contacts:write', 'invoices:write'] });
  for (const path of [`/v1/invoices/${sent.id}`, '/v1/invoices', `/v1/invoices/${sent.id}/pdf`]) {
    expectError(t, await api.request('GET', path, { key: stranger }), 403, 'insufficient_scope', { message: /invoices:read/ });
  }
});

t.test('closed periods are read-only: no invoice dated in one, no void or payment that would change one', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  // Issued 10 March 2026, in FY 2025/26, sent before the year is closed.
  const march = await invoiceOk(t, api, contactId, { issueDate: '2026-03-10', dueDate: '2026-04-09' });
  await sendOk(t, api, march.id);
  // Its VAT is on the return for January to March 2026, filed before the year may be closed.
  await fileVat(t, api, '2026-03');
  await closeFy2025(t, api);
  const before = { counts: await counts(api, books), invoice: await getInvoice(t, api, march.id), receivable: await balanceOf(api, acc['1100']!) };
  const settings = (await api.request('GET', '/v1/organisation/settings')).body.data;

  expectError(t, await createInvoice(api, contactId, { issueDate: '2026-03-31' }), 422, 'unprocessable_entity');
  expectError(t, await api.request('POST', `/v1/invoices/${march.id}/void`), 422, 'unprocessable_entity');
  expectError(t, await pay(api, march.id, { amount: 100, date: '2026-03-20' }), 422, 'unprocessable_entity');
  t.same(
    { counts: await counts(api, books), invoice: await getInvoice(t, api, march.id), receivable: await balanceOf(api, acc['1100']!) },
    before,
    'nothing changed',
  );
  t.same((await api.request('GET', '/v1/organisation/settings')).body.data, settings, 'no number taken by the refused create');

  // Paid in the open year it is fine.
  await payOk(t, api, march.id, { amount: 12000, date: '2026-11-21' });
  t.equal((await balanceOf(api, acc['1100']!)).net, 0);
  t.equal((await invoiceOk(t, api, contactId)).invoiceNumber, 'INV-0002');
});

t.test('an account the invoice posts to, made inactive, is a 422 naming it, not a field of journal lines the caller never sent', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  t.equal((await api.request('PUT', `/v1/accounts/${acc['2200']}`, { body: { isActive: false } })).status, 200, '2200 VAT Output deactivated');
  const before = await counts(api, books);
  expectError(t, await createInvoice(api, contactId), 422, 'unprocessable_entity', {
    field: null,
    message: /account 2200 VAT Output is inactive: this invoice posts to it/,
  });
  t.same(await counts(api, books), before, 'nothing stored');
  // The line's own account, named by the caller, is refused by its field as before.
  t.equal((await api.request('PUT', `/v1/accounts/${acc['2200']}`, { body: { isActive: true } })).status, 200);
  t.equal((await api.request('PUT', `/v1/accounts/${acc['4000']}`, { body: { isActive: false } })).status, 200);
  expectError(t, await createInvoice(api, contactId, { items: [item({ accountId: acc['4000'] })] }), 400, 'validation_error', {
    field: 'items[0].accountId',
    message: 'items[0].accountId: account 4000 Sales is inactive',
  });
  t.same(await counts(api, books), before, 'nothing stored');
});

t.test("an invoice's entries and its payments' are its own: the transactions API refuses to change or delete them", async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const draft = await invoiceOk(t, api, contactId);
  const sent = await invoiceOk(t, api, contactId);
  await sendOk(t, api, sent.id);
  const payment = await payOk(t, api, sent.id, { amount: 2000 });
  const snapshot = async () => ({
    counts: await counts(api, books),
    invoices: [await getInvoice(t, api, draft.id), await getInvoice(t, api, sent.id)],
    receivable: await balanceOf(api, acc['1100']!),
  });
  const before = await snapshot();
  const lines = [
    { accountId: acc['1100']!, amount: 1 },
    { accountId: acc['4000']!, amount: -1 },
  ];
  for (const txn of [draft.transactionId as string, sent.transactionId as string, payment.transactionId as string]) {
    expectError(t, await api.request('DELETE', `/v1/transactions/${txn}`), 422, 'unprocessable_entity');
    expectError(t, await api.request('PUT', `/v1/transactions/${txn}`, { body: { lines } }), 422, 'unprocessable_entity');
    expectError(
      t,
      await api.request('PATCH', `/v1/transactions/${txn}/status`, { body: { status: txn === draft.transactionId ? 'posted' : 'draft' } }),
      422,
      'unprocessable_entity',
    );
  }
  t.same(await snapshot(), before, 'the invoices and 1100 are as they were');
  // 12000 − 2000 paid
  t.equal(before.receivable.net, 10000);
});

t.test('a payment dated after today is refused, for invoices, bills and bank matches alike: 400 naming date, nothing written', async (t) => {
  // Today is 3 December 2026.
  const { books, api } = await ledger(t, { clock: '2026-12-03T12:00:00Z' });
  const contactId = await contactOk(t, api);
  // 1 × £500.00 at 20%: 50,000 + 10,000 VAT = 60,000, due 31 October: overdue today.
  const inv = await invoiceOk(t, api, contactId, { issueDate: '2026-10-01', dueDate: '2026-10-31', items: [item({ unitPrice: 50000 })] });
  await sendOk(t, api, inv.id);
  const before = { counts: await counts(api, books), invoice: await getInvoice(t, api, inv.id) };
  t.equal(before.invoice.status, 'overdue');
  for (const date of ['2027-06-30', '2026-12-04']) {
    expectError(t, await pay(api, inv.id, { amount: 60000, date }), 400, 'validation_error', {
      field: 'date',
      message: /a payment cannot be dated after today, 2026-12-03/,
    });
  }
  t.same({ counts: await counts(api, books), invoice: await getInvoice(t, api, inv.id) }, before, 'nothing written; still overdue');
  // The dashboard's overdue figure is the aged debtors' 31–60 days: 60,000.
  t.match((await api.request('GET', '/v1/reports/dashboard')).body.data.overdueInvoices, { count: 1, total: 60000 });

  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Paper Supplies Ltd' });
  const bill = await api.request('POST', '/v1/bills', {
    body: { contactId: supplier, billNumber: 'PS-1', issueDate: '2026-11-01', dueDate: '2026-11-30', items: [item()] },
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body.error ?? ''));
  t.equal((await api.request('POST', `/v1/bills/${bill.body.data.id}/approve`, { body: {} })).status, 200);
  const payBill = await api.request('POST', `/v1/bills/${bill.body.data.id}/payments`, {
    body: { amount: 12000, date: '2027-01-05', method: 'bank_transfer' },
  });
  expectError(t, payBill, 400, 'validation_error', { field: 'date', message: /after today, 2026-12-03/ });

  // Dated today it is taken: 60,000 − 60,000 = 0 due, paid.
  await payOk(t, api, inv.id, { amount: 60000, date: '2026-12-03' });
  t.equal((await getInvoice(t, api, inv.id)).status, 'paid');
});
