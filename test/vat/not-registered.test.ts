/**
 * A business not registered for VAT, over HTTP (and once through the CLI):
 * a supplier's bill carries the supplier's VAT inside its cost, posted gross;
 * its sales (invoices, quotes, previews) carry no VAT and need no vatRate;
 * a sale claiming standard or reduced VAT is refused; it has no VAT return.
 * Today is 2026-11-21. Figures are worked by hand beside them (pence).
 */
import t, { type Test } from 'tap';
import { newBooks, runCliInProcessJson, serveBooks, type Api, type Books } from '../helpers/index.js';
import { accountIds, contactOk, expectError, transactionTotal } from '../ledger-http/support.js';
import { createInvoice, getInvoice, invoiceOk, invoiceTotal, sendOk } from '../sales-http/invoice-support.js';
import { approveOk, billOk, entries, getBill, nets, payBillOk, supplierOk } from '../sales-http/purchases-support.js';
import { pdfText } from '../sales-cli/support.js';

const clock = '2026-11-21T10:00:00Z';

async function notRegistered(t: Test): Promise<{ books: Books; api: Api; acc: Record<string, string> }> {
  const books = await newBooks(t, { clock, organisation: { vatScheme: 'not_registered' } });
  const api = await serveBooks(t, books);
  return { books, api, acc: await accountIds(t, api) };
}

/** 1 × £100.00 with no VAT rate: what a business not registered for VAT sells. */
const sale = (over: Record<string, unknown> = {}) => ({ description: 'Consulting', quantity: 1, unitPrice: 10_000, ...over });

async function quoteTotal(api: Api): Promise<number> {
  const r = await api.request('GET', '/v1/quotes');
  if (r.status !== 200) throw new Error(`GET /v1/quotes gave ${r.status}`);
  return r.body.meta.total as number;
}

t.test("a supplier's bill keeps the supplier's VAT in its cost: £100 + £20 VAT is £120, posted gross and paid in full", async (t) => {
  const { api, acc } = await notRegistered(t);
  const supplier = await supplierOk(t, api, { name: 'Laptops Direct Ltd' });
  // 1 × £100.00 at the supplier's 20%: net 10,000 + VAT 2,000 = 12,000 on 1020 Computer Equipment.
  const laptop = await billOk(t, api, supplier, {
    items: [{ description: 'Laptop', quantity: 1, unitPrice: 10_000, vatRate: 'standard', accountId: acc['1020'] }],
  });
  t.match(laptop, { subtotal: 10_000, vatAmount: 2_000, total: 12_000, amountDue: 12_000 });
  t.match(laptop.items, [{ vatRateName: 'standard', vatRate: 20, netAmount: 10_000, vatAmount: 2_000, lineTotal: 12_000 }]);
  await approveOk(t, api, laptop.id);
  // The whole 12,000 is the laptop's cost; nothing goes to 2201, since none of it is reclaimed.
  t.same(await entries(t, api, laptop.transactionId), {
    status: 'posted',
    lines: [
      ['2100', -12_000],
      ['1020', 12_000],
    ],
  });

  // An expense bill the same: 2 × £15.00 reduced (5%) on 5100: net 3,000 + VAT 150 = 3,150, all to 5100.
  const paper = await billOk(t, api, supplier, {
    items: [{ description: 'Paper', quantity: 2, unitPrice: 1_500, vatRate: 'reduced', accountId: acc['5100'] }],
  });
  t.match(paper, { subtotal: 3_000, vatAmount: 150, total: 3_150 });
  await approveOk(t, api, paper.id);
  t.same((await entries(t, api, paper.transactionId)).lines, [
    ['2100', -3_150],
    ['5100', 3_150],
  ]);

  // Paying what the supplier charged, 12,000, settles the laptop bill.
  const paid = await payBillOk(t, api, laptop.id, { amount: 12_000 });
  t.match(paid, { amount: 12_000 });
  t.match(await getBill(t, api, laptop.id), { status: 'paid', amountPaid: 12_000, amountDue: 0 });
  // 1200: −12,000 paid; 1020: 12,000; 5100: 3,150; 2100: −3,150 (the paper bill still owed); 2201 untouched.
  t.same(await nets(api, acc, ['1200', '1020', '5100', '2100', '2201']), { '1200': -12_000, '1020': 12_000, '5100': 3_150, '2100': -3_150, '2201': 0 });
});

t.test('a bill still states the VAT rate the supplier charged', async (t) => {
  const { api } = await notRegistered(t);
  const supplier = await supplierOk(t, api);
  const r = await api.request('POST', '/v1/bills', { body: { contactId: supplier, items: [{ description: 'Laptop', quantity: 1, unitPrice: 10_000 }] } });
  expectError(t, r, 400, 'validation_error', { field: 'items[0].vatRate' });
  t.equal((await api.request('GET', '/v1/bills')).body.meta.total, 0, 'no bill written');
});

t.test('a sale needs no vatRate and carries no VAT: invoices, quotes, previews', async (t) => {
  const { api, acc } = await notRegistered(t);
  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  // 2 × £100.00 with no rate + 1 × £30.00 exempt: 20,000 + 3,000 = 23,000, no VAT.
  const items = [sale({ quantity: 2 }), sale({ description: 'Training', unitPrice: 3_000, vatRate: 'exempt' })];
  const expected = [
    { description: 'Consulting', quantity: 2, unitPrice: 10_000, vatRate: 0, vatRateName: null, netAmount: 20_000, vatAmount: 0, lineTotal: 20_000 },
    { description: 'Training', quantity: 1, unitPrice: 3_000, vatRate: 0, vatRateName: 'exempt', netAmount: 3_000, vatAmount: 0, lineTotal: 3_000 },
  ];
  const invoice = await invoiceOk(t, api, client, { items });
  t.match(invoice, { subtotal: 23_000, vatAmount: 0, total: 23_000, amountDue: 23_000 });
  t.match(invoice.items, expected);
  t.same(await getInvoice(t, api, invoice.id), invoice, 'read back as created (vatRateName null is stored)');
  await sendOk(t, api, invoice.id);
  // The ledger: 1100 23,000 against 4000 (the default revenue account); no 2200 line.
  t.same((await entries(t, api, invoice.transactionId)).lines, [
    ['1100', 23_000],
    ['4000', -20_000],
    ['4000', -3_000],
  ]);
  t.same(await nets(api, acc, ['2200']), { '2200': 0 });
  // A credit note of £50.00 against it, shared over the lines 20,000 : 3,000: 5,000 × 20/23 = 4,347.83 and 5,000 × 3/23 = 652.17;
  // floors 4,347 + 652 = 4,999, the odd penny to the larger fraction: 4,348 and 652. No VAT on either.
  const note = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: invoice.id, amount: 5_000 } });
  t.equal(note.status, 201, `credit note: ${JSON.stringify(note.body?.error ?? '')}`);
  t.match(note.body.data, { subtotal: 5_000, vatAmount: 0, total: 5_000 });
  t.match(note.body.data.items, [
    { vatRateName: null, vatRate: 0, netAmount: 4_348, vatAmount: 0 },
    { vatRateName: 'exempt', vatRate: 0, netAmount: 652, vatAmount: 0 },
  ]);
  t.same(await nets(api, acc, ['1100', '2200']), { '1100': 18_000, '2200': 0 }, '23,000 − 5,000 still owed; still no VAT');

  // A zero-rated line is accepted too (no VAT to charge), and the update of a draft keeps the lines' rates.
  const draft = await invoiceOk(t, api, client, { items: [sale({ vatRate: 'zero' }), sale({ description: 'Support', unitPrice: 500 })] });
  t.match(draft.items, [
    { vatRateName: 'zero', vatRate: 0 },
    { vatRateName: null, vatRate: 0 },
  ]);
  const updated = await api.request('PUT', `/v1/invoices/${draft.id}`, { body: { notes: 'Thanks' } });
  t.equal(updated.status, 200, 'a draft with rate-less lines can be changed');
  // 10,000 + 500 = 10,500.
  t.match(updated.body.data, { notes: 'Thanks', total: 10_500, vatAmount: 0 });
  t.match(updated.body.data.items, [{ vatRateName: 'zero' }, { vatRateName: null }]);

  const preview = await api.request('POST', '/v1/invoices/preview', { body: { items } });
  t.equal(preview.status, 200, 'invoice preview');
  t.match(preview.body.data, { subtotal: 23_000, vatAmount: 0, total: 23_000 });
  t.match(preview.body.data.items, expected);
  const withContact = await api.request('POST', '/v1/invoices/preview', { body: { contactId: client, items } });
  t.match(withContact.body.data, { contactId: client, total: 23_000, vatAmount: 0 });

  const quote = await api.request('POST', '/v1/quotes', { body: { contactId: client, items } });
  t.equal(quote.status, 201, `quote: ${JSON.stringify(quote.body?.error ?? '')}`);
  t.match(quote.body.data, { subtotal: 23_000, vatAmount: 0, total: 23_000 });
  t.match(quote.body.data.items, expected);
  const quotePreview = await api.request('POST', '/v1/quotes/preview', { body: { items } });
  t.equal(quotePreview.status, 200, 'quote preview');
  t.match(quotePreview.body.data, { subtotal: 23_000, vatAmount: 0, total: 23_000 });

  // The accepted quote converts into an invoice with the same rate-less lines.
  for (const status of ['sent', 'accepted']) {
    t.equal((await api.request('PATCH', `/v1/quotes/${quote.body.data.id}/status`, { body: { status } })).status, 200, status);
  }
  const converted = await api.request('POST', `/v1/quotes/${quote.body.data.id}/convert`);
  t.equal(converted.status, 201, `converted: ${JSON.stringify(converted.body?.error ?? '')}`);
  t.match(converted.body.data.invoice, { total: 23_000, vatAmount: 0 });
  t.match(converted.body.data.invoice.items, expected);
});

t.test('a sale claiming standard or reduced VAT is refused, naming the line, and nothing is written', async (t) => {
  const { api } = await notRegistered(t);
  const client = await contactOk(t, api);
  const transactions = await transactionTotal(api);
  const message = /items\[1\]\.vatRate: not registered for VAT: a sale carries no VAT/;
  const items = [sale(), sale({ vatRate: 'standard' })];
  expectError(t, await createInvoice(api, client, { items }), 400, 'validation_error', { field: 'items[1].vatRate', message });
  expectError(t, await api.request('POST', '/v1/invoices/preview', { body: { items } }), 400, 'validation_error', { field: 'items[1].vatRate', message });
  const reduced = [sale(), sale({ vatRate: 'reduced' })];
  expectError(t, await api.request('POST', '/v1/quotes', { body: { contactId: client, items: reduced } }), 400, 'validation_error', {
    field: 'items[1].vatRate',
    message,
  });
  expectError(t, await api.request('POST', '/v1/quotes/preview', { body: { items: reduced } }), 400, 'validation_error', { field: 'items[1].vatRate' });

  // Nor can a draft be changed to charge VAT.
  const draft = await invoiceOk(t, api, client, { items: [sale()] });
  expectError(t, await api.request('PUT', `/v1/invoices/${draft.id}`, { body: { items } }), 400, 'validation_error', { field: 'items[1].vatRate' });
  t.match(await getInvoice(t, api, draft.id), { total: 10_000, vatAmount: 0 }, 'the draft is unchanged');

  t.equal(await invoiceTotal(api), 1, 'only the good draft was written');
  t.equal(await quoteTotal(api), 0, 'no quote was written');
  // The good draft's own draft transaction is the one transaction more.
  t.equal(await transactionTotal(api), transactions + 1, 'no transaction but the draft’s');
});

t.test('a business registered for VAT must state each sales line’s rate', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const client = await contactOk(t, api);
  expectError(t, await createInvoice(api, client, { items: [{ ...sale(), vatRate: 'standard' }, sale()] }), 400, 'validation_error', {
    field: 'items[1].vatRate',
    message: /items\[1\]\.vatRate is required: the organisation is registered for VAT/,
  });
  expectError(t, await api.request('POST', '/v1/quotes/preview', { body: { items: [sale()] } }), 400, 'validation_error', { field: 'items[0].vatRate' });
  t.equal(await invoiceTotal(api), 0, 'nothing written');
});

t.test('no VAT return: the VAT report and the VAT periods are 422', async (t) => {
  const { api } = await notRegistered(t);
  for (const path of ['/v1/reports/vat?from=2026-08-01&to=2026-10-31', '/v1/vat/periods', '/v1/vat/periods/2026-09']) {
    expectError(t, await api.request('GET', path), 422, 'unprocessable_entity', { message: /not registered for VAT/ });
  }
});

t.test('the invoice PDF claims no VAT: no VAT columns, totals, summary or tax point', async (t) => {
  const { api } = await notRegistered(t);
  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  const invoice = await invoiceOk(t, api, client, { items: [sale({ quantity: 2 })] });
  await sendOk(t, api, invoice.id);
  const r = await api.request('GET', `/v1/invoices/${invoice.id}/pdf`);
  t.equal(r.status, 200);
  const text = pdfText(r.bytes);
  // 2 × £100.00 = £200.00, the total and the amount due.
  t.match(text, /Consulting\s+2\s+£100\.00\s+£200\.00/);
  t.match(text, /Total\s+£200\.00/);
  t.notMatch(text, /VAT/, 'the word VAT appears nowhere');
  t.notMatch(text, /Tax point|Subtotal/);
});

t.test('through the CLI: --item without a rate makes a VAT-free invoice', async (t) => {
  const books = await newBooks(t, { clock, organisation: { vatScheme: 'not_registered' } });
  const cli = (args: string[]) => runCliInProcessJson(['--data', books.dataDir, '--json', ...args]);
  const contact = await cli(['contacts', 'create', '--contact-type', 'customer', '--name', 'Client One Ltd']);
  t.equal(contact.status, 0, contact.stderr);
  const contactId = (contact.data as { id: string }).id;
  // 1.5 × £200.00 = £300.00, no VAT.
  const r = await cli(['invoices', 'create', '--contact-id', contactId, '--item', 'Design work;1.5;200.00']);
  t.equal(r.status, 0, r.stderr);
  t.match(r.data, {
    subtotal: 30_000,
    vatAmount: 0,
    total: 30_000,
    items: [{ description: 'Design work', quantity: 1.5, vatRateName: null, lineTotal: 30_000 }],
  });
  const refused = await cli(['invoices', 'create', '--contact-id', contactId, '--item', 'Design work;1.5;200.00;standard']);
  t.equal(refused.status, 2, 'a usage error');
  t.match(JSON.parse(refused.stderr), {
    error: { code: 'validation_error', field: '--item 1 vatRate', message: /not registered for VAT: a sale carries no VAT/ },
  });
  const listed = await cli(['invoices', 'list']);
  t.equal((listed.data as unknown[]).length, 1, 'only the first invoice was written');
});

t.test('registering later leaves an earlier invoice as it was issued: its PDF claims no VAT, and shows no VAT number', async (t) => {
  const { api } = await notRegistered(t);
  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  const before = await invoiceOk(t, api, client, { items: [sale()] });
  await sendOk(t, api, before.id);
  // The business registers: standard scheme from today, with its VAT number.
  const settings = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'standard' } });
  t.equal(settings.status, 200, JSON.stringify(settings.body));
  const number = await api.request('PUT', '/v1/organisation', { body: { vatNumber: 'GB980780684' } });
  t.equal(number.status, 200, JSON.stringify(number.body));

  // Issued before registering: 1 × £100.00, no VAT; a copy printed now is the same document.
  const old = pdfText((await api.request('GET', `/v1/invoices/${before.id}/pdf`)).bytes);
  t.match(old, /Consulting\s+1\s+£100\.00\s+£100\.00/);
  t.match(old, /Total\s+£100\.00/);
  t.notMatch(old, /VAT/, 'no VAT column, summary or registration number');
  t.notMatch(old, /Tax point|Subtotal/);

  // Issued after: 1 × £100.00 at 20% = £20.00 VAT, £120.00, with the number.
  const after = await invoiceOk(t, api, client, { items: [sale({ vatRate: 'standard' })] });
  await sendOk(t, api, after.id);
  const fresh = pdfText((await api.request('GET', `/v1/invoices/${after.id}/pdf`)).bytes);
  t.match(fresh, /VAT registration number: GB980780684/);
  t.match(fresh, /Tax point/);
  t.match(fresh, /Total\s+£120\.00/);
});

t.test('zero-rated or exempt lines of a sale made while not registered do not make it a VAT invoice, then or after registering', async (t) => {
  const { api } = await notRegistered(t);
  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  // 1 × £100.00 with no rate + 1 × £80.00 sent as zero: £180.00, no VAT; and one exempt line alone, £100.00.
  const mixed = await invoiceOk(t, api, client, { items: [sale(), sale({ description: 'Materials', unitPrice: 8_000, vatRate: 'zero' })] });
  const exempt = await invoiceOk(t, api, client, { items: [sale({ description: 'Training', vatRate: 'exempt' })] });
  await sendOk(t, api, mixed.id);
  await sendOk(t, api, exempt.id);
  // £80.00 credited by amount, shared over the lines: 80 × 100/180 = £44.44 and 80 × 80/180 = £35.56.
  const note = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: mixed.id, amount: 8_000, reason: 'Materials returned' } });
  t.equal(note.status, 201, JSON.stringify(note.body));
  const plain = (text: string, total: string) => {
    t.match(text, new RegExp(`Total(?: credit)?\\s+£${total}`));
    t.notMatch(text, /VAT|Tax point|Subtotal|Zero|Exempt|0%/, 'no VAT column, rate, summary, tax point or registration number');
  };
  const pdf = async (path: string) => pdfText((await api.request('GET', path)).bytes);
  plain(await pdf(`/v1/invoices/${mixed.id}/pdf`), '180\\.00');
  plain(await pdf(`/v1/invoices/${exempt.id}/pdf`), '100\\.00');
  plain(await pdf(`/v1/credit-notes/${note.body.data.id}/pdf`), '80\\.00');

  // The business registers, with its number: copies printed now are the documents as they were issued.
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'standard' } })).status, 200);
  t.equal((await api.request('PUT', '/v1/organisation', { body: { vatNumber: 'GB980780684' } })).status, 200);
  plain(await pdf(`/v1/invoices/${mixed.id}/pdf`), '180\\.00');
  plain(await pdf(`/v1/credit-notes/${note.body.data.id}/pdf`), '80\\.00');
  // A zero-rated sale made now is a VAT invoice: 1 × £100.00 at 0%, with the number and the tax point.
  const registered = await invoiceOk(t, api, client, { items: [sale({ vatRate: 'zero' })] });
  await sendOk(t, api, registered.id);
  const fresh = await pdf(`/v1/invoices/${registered.id}/pdf`);
  t.match(fresh, /VAT registration number: GB980780684/);
  t.match(fresh, /Tax point/);
});

t.test('a draft made before registering is not sent without VAT once its date falls after the registration date', async (t) => {
  const { api } = await notRegistered(t);
  const client = await contactOk(t, api, { name: 'Client One Ltd' });
  // Two drafts of 1 × £100.00 with no rate: one dated after the registration date to come, one before it.
  const after = await invoiceOk(t, api, client, { items: [sale(), sale({ description: 'Travel' })], issueDate: '2026-11-20' });
  const before = await invoiceOk(t, api, client, { items: [sale()], issueDate: '2026-11-02' });
  const settings = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'standard', vatRegistrationDate: '2026-11-10' } });
  t.equal(settings.status, 200, JSON.stringify(settings.body));
  const transactions = await transactionTotal(api);

  // Dated 20 November, after registering on 10 November: a sale that must charge VAT, refused until its lines state rates.
  const refused = await api.request('POST', `/v1/invoices/${after.id}/send`, { body: {} });
  // A 422 carries no field member (the spec gives one to 400s only): the message names the line.
  expectError(t, refused, 422, 'unprocessable_entity', {
    field: null,
    message: /invoice INV-0001 is dated 2026-11-20 and the organisation registered for VAT on 2026-11-10, but items\[0\]\.vatRate states no VAT rate/,
  });
  t.match(await getInvoice(t, api, after.id), { status: 'draft', total: 20_000, vatAmount: 0, sentAt: null }, 'still a draft, unchanged');
  t.equal(await transactionTotal(api), transactions, 'nothing posted');

  // With no registration date every sale counts as registered, and the refusal says how to send one made before.
  const noDate = await api.request('PUT', '/v1/organisation/settings', { body: { vatRegistrationDate: null } });
  t.equal(noDate.status, 200, JSON.stringify(noDate.body));
  expectError(t, await api.request('POST', `/v1/invoices/${before.id}/send`, { body: {} }), 422, 'unprocessable_entity', {
    message: /registered for VAT, but items\[0\]\.vatRate states no VAT rate .*; if the sale came before registering, set vatRegistrationDate in the settings$/,
  });
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { vatRegistrationDate: '2026-11-10' } })).status, 200);

  // Dated 2 November, before the registration date: a sale made unregistered, sent as it is (£100.00, no VAT).
  await sendOk(t, api, before.id);
  t.match(await getInvoice(t, api, before.id), { status: 'sent', total: 10_000, vatAmount: 0 });

  // With its rates stated: 2 × £100.00 at 20% = £40.00 VAT, £240.00; now it goes.
  const fixed = await api.request('PUT', `/v1/invoices/${after.id}`, {
    body: { items: [sale({ vatRate: 'standard' }), sale({ description: 'Travel', vatRate: 'standard' })] },
  });
  t.equal(fixed.status, 200, JSON.stringify(fixed.body));
  await sendOk(t, api, after.id);
  t.match(await getInvoice(t, api, after.id), { status: 'sent', total: 24_000, vatAmount: 4_000 });
});
