/**
 * Invoice numbers under concurrent creation: 200 POST /v1/invoices sent
 * in parallel (batches of 50 in flight at once) get 200 distinct numbers,
 * exactly INV-0001..INV-0200, with no gaps and no duplicates, and the
 * counter ends at 201.
 */
import t from 'tap';
import { anotherStore, serveBooks } from '../helpers/index.js';
import { contactOk, ledger, transactionTotal } from '../ledger-http/support.js';
import { allInvoices, createInvoice } from '../sales-http/invoice-support.js';

const expected = Array.from({ length: 200 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`);

t.test('200 invoices created by parallel requests get INV-0001..INV-0200, each once', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const numbers: string[] = [];
  const statuses: number[] = [];
  for (let batch = 0; batch < 4; batch++) {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createInvoice(api, contactId, { reference: `B${batch}-${i}`, items: [{ description: 'Unit', quantity: 1, unitPrice: 1000 + i, vatRate: 'standard' }] }),
      ),
    );
    for (const r of replies) {
      statuses.push(r.status);
      if (r.status === 201) numbers.push(r.body.data.invoiceNumber as string);
    }
  }
  t.same(statuses, Array(200).fill(201), 'every request created an invoice');
  t.equal(new Set(numbers).size, 200, '200 distinct numbers');
  t.same([...numbers].sort(), expected, 'exactly INV-0001..INV-0200');

  const settings = await api.request('GET', '/v1/organisation/settings');
  t.equal(settings.body.data.invoiceNextNumber, 201, 'the counter moved once per invoice');

  const listed = await allInvoices(api);
  t.equal(listed.length, 200, 'all 200 listed');
  t.same(listed.map((i) => i.invoiceNumber).sort(), expected, 'the stored numbers are the ones returned');
  t.equal(await transactionTotal(api), 200, 'one draft transaction each');
});

t.test('two servers over the same data directory, 100 requests each at once, still share one sequence', async (t) => {
  const { books, api } = await ledger(t);
  // A second store: its own SQLite connections, as a second process would have.
  const store = await anotherStore(t, books.dataDir);
  const second = await serveBooks(t, { ...books, store });
  const contactId = await contactOk(t, api);
  const numbers: string[] = [];
  for (let batch = 0; batch < 4; batch++) {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createInvoice(i % 2 === 0 ? api : second, contactId, { items: [{ description: 'Unit', quantity: 1, unitPrice: 500, vatRate: 'zero' }] }),
      ),
    );
    for (const r of replies) {
      t.equal(r.status, 201, `created: ${JSON.stringify(r.body?.error ?? '')}`);
      if (r.status === 201) numbers.push(r.body.data.invoiceNumber as string);
    }
  }
  t.same([...numbers].sort(), expected, 'exactly INV-0001..INV-0200 across both servers');
  t.equal((await second.request('GET', '/v1/organisation/settings')).body.data.invoiceNextNumber, 201);
});
