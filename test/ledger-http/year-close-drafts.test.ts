/**
 * Closing a year holding a draft journal, over HTTP: the draft could never
 * be posted, changed or deleted once its year is closed, so the close is
 * refused (422, nothing written) until it is posted or deleted. A draft
 * invoice is no bar: it may still be re-dated out of the closed year.
 */
import t from 'tap';
import { closeFy2025, contactOk, expectError, ledger, postOk } from './support.js';

const close = '/v1/reports/periods/period_20250401/close';

t.test('a draft journal dated in the year: the close is refused until it is posted or deleted', async (t) => {
  const { api, acc } = await ledger(t);
  // £50.00 of stationery paid from the bank on 10 March 2026, in FY 2025/26, left as a draft.
  const draft = await postOk(t, api, {
    date: '2026-03-10',
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 5_000 },
      { accountId: acc['1200']!, amount: -5_000 },
    ],
  });
  expectError(t, await api.request('POST', close), 422, 'unprocessable_entity', {
    message: 'FY 2025/26 cannot be closed yet: 1 draft journal is dated in it or before: post or delete it first',
  });
  t.equal((await api.request('GET', '/v1/reports/periods/period_20250401')).body.data.isClosed, false, 'still open');

  t.equal((await api.request('DELETE', `/v1/transactions/${draft}`)).status, 200, 'the draft deleted');
  await closeFy2025(t, api);
});

t.test('a draft invoice dated in the year is no bar', async (t) => {
  const { api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const draft = await api.request('POST', '/v1/invoices', {
    body: { contactId, issueDate: '2026-03-10', items: [{ description: 'Work', quantity: 1, unitPrice: 10_000, vatRate: 'standard' }] },
  });
  t.equal(draft.status, 201, JSON.stringify(draft.body?.error ?? ''));
  await closeFy2025(t, api);
});
