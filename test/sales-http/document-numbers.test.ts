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
