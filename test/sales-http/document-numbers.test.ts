/**
 * A numbering counter set back onto numbers already taken, over HTTP:
 * invoices, quotes and credit notes skip the taken numbers, as Xero does,
 * and the counter stands past the number given. Today is 2026-11-21.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Api } from '../helpers/index.js';
import { contactOk, ledger } from '../ledger-http/support.js';
import { invoiceOk, item, sendOk } from './invoice-support.js';

async function settingsOk(t: Test, api: Api, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await api.request('PUT', '/v1/organisation/settings', { body });
  t.equal(r.status, 200, `settings updated: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

async function counters(api: Api): Promise<Record<string, unknown>> {
  const { invoiceNextNumber, quoteNextNumber, creditNoteNextNumber } = (await api.request('GET', '/v1/organisation/settings')).body.data;
  return { invoiceNextNumber, quoteNextNumber, creditNoteNextNumber };
}

t.test('invoice numbers: a counter set back skips the numbers taken, and gives the free ones', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const number = async () => (await invoiceOk(t, api, contactId)).invoiceNumber as string;
  t.same([await number(), await number(), await number()], ['INV-0001', 'INV-0002', 'INV-0003']);

  await settingsOk(t, api, { invoiceNextNumber: 2 });
  t.equal(await number(), 'INV-0004', 'INV-0002 and INV-0003 are taken');
  t.equal((await counters(api)).invoiceNextNumber, 5, 'the counter stands past the number given');

  // A hole: INV-0007 taken, then the counter set back to 5: INV-0005 and INV-0006 are free, INV-0007 is skipped.
  await settingsOk(t, api, { invoiceNextNumber: 7 });
  t.equal(await number(), 'INV-0007');
  await settingsOk(t, api, { invoiceNextNumber: 5 });
  t.same([await number(), await number(), await number()], ['INV-0005', 'INV-0006', 'INV-0008']);
  t.equal((await counters(api)).invoiceNextNumber, 9);
  t.equal((await api.request('GET', '/v1/invoices')).body.meta.total, 8, 'eight invoices, no refusal');
});

t.test('quote and credit note numbers skip the numbers taken too', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const quote = async () => {
    const r = await api.request('POST', '/v1/quotes', { body: { contactId, items: [item()] } });
    t.equal(r.status, 201, `quote created: ${JSON.stringify(r.body?.error ?? '')}`);
    return r.body.data.quoteNumber as string;
  };
  t.same([await quote(), await quote()], ['QT-0001', 'QT-0002']);

  // £100.00 + 20% = £120.00; two credit notes of £10.00 each.
  const inv = await invoiceOk(t, api, contactId);
  await sendOk(t, api, inv.id);
  const credit = async () => {
    const r = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: inv.id, amount: 1000 } });
    t.equal(r.status, 201, `credit note issued: ${JSON.stringify(r.body?.error ?? '')}`);
    return r.body.data.creditNoteNumber as string;
  };
  t.same([await credit(), await credit()], ['CN-0001', 'CN-0002']);

  await settingsOk(t, api, { quoteNextNumber: 1, creditNoteNextNumber: 1 });
  t.equal(await quote(), 'QT-0003');
  t.equal(await credit(), 'CN-0003');
  t.same(await counters(api), { invoiceNextNumber: 2, quoteNextNumber: 4, creditNoteNextNumber: 4 });
});

t.test('sorted by number, numbers count as people count them: INV-9999 before INV-10000', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const number = async () => (await invoiceOk(t, api, contactId)).invoiceNumber as string;
  await settingsOk(t, api, { invoiceNextNumber: 9999 });
  t.same([await number(), await number()], ['INV-9999', 'INV-10000'], 'the counter outgrows its four digits');
  await settingsOk(t, api, { invoiceNextNumber: 998 });
  t.equal(await number(), 'INV-0998', 'padded to four digits');
  const sorted = async (sort: string) =>
    ((await api.request('GET', `/v1/invoices?sort=${sort}`)).body.data as { invoiceNumber: string }[]).map((i) => i.invoiceNumber);
  t.same(await sorted('invoiceNumber'), ['INV-0998', 'INV-9999', 'INV-10000']);
  t.same(await sorted('-invoiceNumber'), ['INV-10000', 'INV-9999', 'INV-0998']);

  await settingsOk(t, api, { quoteNextNumber: 9999 });
  for (let i = 0; i < 2; i++) t.equal((await api.request('POST', '/v1/quotes', { body: { contactId, items: [item()] } })).status, 201);
  const quotes = (await api.request('GET', '/v1/quotes?sort=-quoteNumber')).body.data as { quoteNumber: string }[];
  t.same(
    quotes.map((q) => q.quoteNumber),
    ['QT-10000', 'QT-9999'],
  );
});

/** POST /v1/credit-notes of £1.00 against the invoice that must succeed; its number. */
async function creditNumber(t: Test, api: Api, invoiceId: string): Promise<string> {
  const r = await api.request('POST', '/v1/credit-notes', { body: { invoiceId, amount: 100 } });
  t.equal(r.status, 201, `credit note issued: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.creditNoteNumber as string;
}

/** POST /v1/quotes that must succeed; its number. */
async function quoteNumber(t: Test, api: Api, contactId: string): Promise<string> {
  const r = await api.request('POST', '/v1/quotes', { body: { contactId, items: [item()] } });
  t.equal(r.status, 201, `quote created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.quoteNumber as string;
}

t.test("a credit note given the invoices' prefix skips the invoices' numbers, and the invoices skip the credit note's", async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const invoice = async () => (await invoiceOk(t, api, contactId)).invoiceNumber as string;
  // INV-0001 sent (a credit note needs an issued invoice), INV-0002 a draft: invoice counter 3.
  const first = await invoiceOk(t, api, contactId);
  t.equal(first.invoiceNumber, 'INV-0001');
  await sendOk(t, api, first.id);
  t.equal(await invoice(), 'INV-0002');

  await settingsOk(t, api, { creditNotePrefix: 'INV-', creditNoteNextNumber: 1 });
  // INV-0001 and INV-0002 are invoices: the credit note takes INV-0003, its counter stands at 4.
  t.equal(await creditNumber(t, api, first.id), 'INV-0003', 'the invoices’ numbers are taken');
  // The invoice counter is still 3: INV-0003 is the credit note's, so the invoice takes INV-0004.
  t.equal(await invoice(), 'INV-0004', 'the credit note’s number is taken for the invoices');
  // Credit note counter 4: INV-0004 is an invoice now, so INV-0005.
  t.equal(await creditNumber(t, api, first.id), 'INV-0005');
  // Invoice counter 5: INV-0005 is the credit note's, so INV-0006.
  t.equal(await invoice(), 'INV-0006');
  t.same(await counters(api), { invoiceNextNumber: 7, quoteNextNumber: 1, creditNoteNextNumber: 6 });

  const invoices = ((await api.request('GET', '/v1/invoices?sort=invoiceNumber')).body.data as { invoiceNumber: string }[]).map((i) => i.invoiceNumber);
  const credits = ((await api.request('GET', '/v1/credit-notes')).body.data as { creditNoteNumber: string }[]).map((c) => c.creditNoteNumber).sort();
  t.same(invoices, ['INV-0001', 'INV-0002', 'INV-0004', 'INV-0006']);
  t.same(credits, ['INV-0003', 'INV-0005'], 'no number on two documents');
});

t.test("a quote given the invoices' prefix skips the invoices' and credit notes' numbers, and the invoices skip the quote's", async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const invoice = async () => (await invoiceOk(t, api, contactId)).invoiceNumber as string;
  // INV-0001 sent; a credit note CN-0001 against it; then a credit note numbered in the invoices' series.
  const first = await invoiceOk(t, api, contactId);
  await sendOk(t, api, first.id);
  t.equal(await creditNumber(t, api, first.id), 'CN-0001');
  await settingsOk(t, api, { creditNotePrefix: 'INV-', creditNoteNextNumber: 2 });
  // Invoice counter 2; credit note counter 2: INV-0002 is free, so the credit note takes it.
  t.equal(await creditNumber(t, api, first.id), 'INV-0002');

  await settingsOk(t, api, { quotePrefix: 'INV-', quoteNextNumber: 1 });
  // INV-0001 is an invoice, INV-0002 a credit note: the quote takes INV-0003, its counter stands at 4.
  t.equal(await quoteNumber(t, api, contactId), 'INV-0003', 'the invoices’ and credit notes’ numbers are taken');
  // Invoice counter 2: INV-0002 is the credit note's, INV-0003 the quote's, so INV-0004.
  t.equal(await invoice(), 'INV-0004', 'the credit note’s and the quote’s numbers are taken for the invoices');
  // Quote counter 4: INV-0004 is an invoice now, so INV-0005.
  t.equal(await quoteNumber(t, api, contactId), 'INV-0005');
  // Credit note counter 3: INV-0003 quote, INV-0004 invoice, INV-0005 quote, so INV-0006.
  t.equal(await creditNumber(t, api, first.id), 'INV-0006', 'the quotes’ numbers are taken for the credit notes');
  t.same(await counters(api), { invoiceNextNumber: 5, quoteNextNumber: 6, creditNoteNextNumber: 7 });

  // Back to the quotes' own prefix: QT-0001 is free (no document of another series carries it).
  await settingsOk(t, api, { quotePrefix: 'QT-', quoteNextNumber: 1 });
  t.equal(await quoteNumber(t, api, contactId), 'QT-0001');
});
