/**
 * A client generated from the OpenAPI document (openapi-typescript, types in
 * test/fixtures/acct-api.d.ts) calls operations of every area against a real
 * server. The calls type-check against the generated types (npm test runs
 * tsc over test/), the `@ts-expect-error` lines prove the types are not
 * `any`, and each reply passes the contract check on the way back.
 */
import fs from 'node:fs';
import t from 'tap';
import createClient from 'openapi-fetch';
import type { paths } from '../fixtures/acct-api.js';
import { checkContract, newBooks, serveBooks } from '../helpers/index.js';
import { clientTypes, fixture } from './generate.js';

t.test('the committed client types are those of the registry today (else: npm run client)', async (t) => {
  t.equal(fs.readFileSync(fixture, 'utf8'), await clientTypes(), 'test/fixtures/acct-api.d.ts is current');
});

t.test('typed calls to operations of each area', async (t) => {
  const books = await newBooks(t, { clock: '2026-03-02T10:00:00Z' });
  const api = await serveBooks(t, books);
  const client = createClient<paths>({
    baseUrl: `${api.url}/v1`,
    headers: { authorization: `Bearer ${books.apiKey}` },
    fetch: async (request: Request) => {
      const res = await fetch(request);
      const body: unknown = await res
        .clone()
        .json()
        .catch(() => undefined);
      checkContract(t, request.method, new URL(request.url).pathname, res, body);
      return res;
    },
  });

  // 1. platform
  const health = await client.GET('/health');
  t.equal(health.data?.data.status, 'operational');

  // 2. integration: API keys
  const keys = await client.GET('/api-keys', { params: { query: { limit: 5 } } });
  t.equal(keys.data?.meta.page, 1);
  t.ok((keys.data?.data.length ?? 0) >= 1, 'the organisation has its key');

  // 3. integration: webhooks
  const hooks = await client.GET('/webhooks');
  t.strictSame(hooks.data?.data.endpoints, []);
  t.ok(hooks.data?.data.availableEvents.includes('invoice.paid'));

  // 4. sales: contacts
  const contact = await client.POST('/contacts', { body: { contactType: 'customer', name: 'Bright Ideas Ltd', email: 'accounts@bright.example' } });
  const contactId = contact.data?.data.id ?? '';
  t.match(contactId, /^cont_/);

  // 5. sales: invoices. 3 × £450.00 = £1,350.00 net; VAT 20% = £270.00; total £1,620.00 = 162000p
  const created = await client.POST('/invoices', {
    body: { contactId, issueDate: '2026-03-02', items: [{ description: 'Design work', quantity: 3, unitPrice: 45000, vatRate: 'standard' }] },
  });
  const invoice = created.data?.data;
  t.equal(invoice?.total, 162000);
  t.equal(invoice?.vatAmount, 27000);
  // @ts-expect-error a field the invoice does not have: the generated types know its fields
  t.equal(invoice?.grandTotal, undefined);
  const invoiceId = invoice?.id ?? '';

  // 6. sending it
  const sent = await client.POST('/invoices/{id}/send', { params: { path: { id: invoiceId } }, body: { sendEmail: false } });
  t.equal(sent.data?.data.status, 'sent');

  // 7. a payment of £620.00 leaves £1,620.00 − £620.00 = £1,000.00 = 100000p due
  const paid = await client.POST('/invoices/{id}/payments', { params: { path: { id: invoiceId } }, body: { amount: 62000, date: '2026-03-02' } });
  t.equal(paid.data?.data.amountDue, 100000);

  // 8. reading it back
  const got = await client.GET('/invoices/{id}', { params: { path: { id: invoiceId } } });
  t.equal(got.data?.data.amountPaid, 62000);
  // @ts-expect-error status is one of the invoice statuses, not any string
  const notAStatus: typeof got.data.data.status = 'settled';
  t.ok(notAStatus);

  // 9. sales: quotes. 2 × £100.00 = £200.00 net; VAT 20% = £40.00; total £240.00 = 24000p
  const quote = await client.POST('/quotes', { body: { contactId, items: [{ description: 'Audit', quantity: 2, unitPrice: 10000, vatRate: 'standard' }] } });
  t.equal(quote.data?.data.total, 24000);

  // 10. reports: so far debtors 1100 owe £1,000.00 and the bank 1200 holds the £620.00 received
  const trial = await client.GET('/reports/trial-balance', { params: { query: { asOf: '2026-03-31' } } });
  const byCode = new Map((trial.data?.data.accounts ?? []).map((a) => [a.code, a]));
  t.equal(byCode.get('1100')?.debit, 100000);
  t.equal(byCode.get('1200')?.debit, 62000);
  t.equal(trial.data?.data.balanced, true);

  // 11. organisation: its settings
  const settings = await client.GET('/organisation/settings');
  t.equal(settings.data?.data.invoicePrefix, 'INV-');

  // 12. ledger: the flat chart, then a journal of £75.00 = 7500p of stationery (an expense account) paid from the bank 1200
  const chart = await client.GET('/accounts', { params: { query: { flat: true } } });
  const accountId = (code: string) => (chart.data?.data.accounts ?? []).find((a) => a.code === code)?.id ?? '';
  const expense = (chart.data?.data.accounts ?? []).find((a) => a.accountType === 'expense' && !a.isControlAccount);
  t.ok(expense, 'the chart has an expense account');
  const journal = await client.POST('/transactions', {
    body: {
      date: '2026-03-02',
      description: 'Stationery',
      lines: [
        { accountId: expense?.id ?? '', amount: 7500 },
        { accountId: accountId('1200'), amount: -7500 },
      ],
    },
  });
  t.equal(journal.data?.data.totalDebit, 7500);
  t.equal(journal.data?.data.status, 'posted');

  // 13. imports: none yet
  const imports = await client.GET('/imports');
  t.equal(imports.data?.meta.total, 0);

  // 14. an error comes back typed as the error envelope
  const missing = await client.GET('/invoices/{id}', { params: { path: { id: 'inv_00000000000000000000000000' } } });
  t.equal(missing.response.status, 404);
  t.equal(missing.error?.error.code, 'not_found');
});
