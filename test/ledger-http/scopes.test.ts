/** Scopes of the ledger: transactions:read/write and accounts:read/write are each checked, and a refusal names the scope. */
import t from 'tap';
import { balanceOf, createKey, expectError, ledger, outbox, post, postOk, transactionTotal } from './support.js';

t.test('a key with only accounts:read cannot create a transaction: 403 naming transactions:write, nothing stored', async (t) => {
  const { books, api, acc } = await ledger(t);
  const { key } = await createKey(t, api, { name: 'chart reader', scopes: ['accounts:read'] });
  const r = await post(
    api,
    {
      lines: [
        { accountId: acc['5100']!, amount: 100 },
        { accountId: acc['1200']!, amount: -100 },
      ],
    },
    key,
  );
  expectError(t, r, 403, 'insufficient_scope', { message: /transactions:write/ });
  t.equal(await transactionTotal(api), 0);
  t.same(await outbox(books), []);
  // What it holds it may do.
  t.equal((await api.request('GET', '/v1/accounts', { key })).status, 200);
  t.equal((await api.request('GET', '/v1/accounts/types', { key })).status, 200);
  t.equal((await api.request('GET', `/v1/accounts/${acc['1200']}`, { key })).status, 200);
  t.equal((await api.request('GET', `/v1/accounts/${acc['1200']}/balance`, { key })).status, 200);
  // And nothing more.
  expectError(t, await api.request('GET', '/v1/transactions', { key }), 403, 'insufficient_scope', { message: /transactions:read/ });
  expectError(t, await api.request('GET', `/v1/transactions/account/${acc['1200']}`, { key }), 403, 'insufficient_scope', { message: /transactions:read/ });
  expectError(t, await api.request('POST', '/v1/accounts', { key, body: { code: '6000', name: 'Other', accountType: 'expense' } }), 403, 'insufficient_scope', {
    message: /accounts:write/,
  });
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5990']}`, { key, body: { isActive: false } }), 403, 'insufficient_scope', {
    message: /accounts:write/,
  });
  expectError(t, await api.request('DELETE', `/v1/accounts/${acc['5920']}`, { key }), 403, 'insufficient_scope', { message: /accounts:write/ });
  const chart = await api.request('GET', '/v1/accounts?flat=true');
  t.equal(chart.body.data.meta.total, 48, 'no account created or deleted');
  t.equal((await api.request('GET', `/v1/accounts/${acc['5990']}`)).body.data.isActive, true, 'no account deactivated');
});

t.test('transactions:read reads transactions but changes none; it does not read accounts', async (t) => {
  const { api, acc } = await ledger(t);
  const draft = await postOk(t, api, {
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  const posted = await postOk(t, api, {
    lines: [
      { accountId: acc['5100']!, amount: 200 },
      { accountId: acc['1200']!, amount: -200 },
    ],
  });
  const { key } = await createKey(t, api, { name: 'auditor', scopes: ['transactions:read'] });
  t.equal((await api.request('GET', '/v1/transactions', { key })).body.meta.total, 2);
  t.equal((await api.request('GET', `/v1/transactions/${draft}`, { key })).status, 200);
  t.equal((await api.request('GET', `/v1/transactions/account/${acc['1200']}`, { key })).status, 200);

  const denied = /transactions:write/;
  expectError(t, await api.request('PUT', `/v1/transactions/${draft}`, { key, body: { description: 'x' } }), 403, 'insufficient_scope', { message: denied });
  expectError(t, await api.request('PATCH', `/v1/transactions/${draft}/status`, { key, body: { status: 'posted' } }), 403, 'insufficient_scope', {
    message: denied,
  });
  expectError(t, await api.request('PATCH', `/v1/transactions/${posted}/reconcile`, { key, body: { reconciled: true } }), 403, 'insufficient_scope', {
    message: denied,
  });
  expectError(t, await api.request('DELETE', `/v1/transactions/${draft}`, { key }), 403, 'insufficient_scope', { message: denied });
  const d = (await api.request('GET', `/v1/transactions/${draft}`)).body.data;
  t.equal(d.status, 'draft');
  t.equal(d.description, 'Test transaction');
  t.equal((await api.request('GET', `/v1/transactions/${posted}`)).body.data.isReconciled, false);
  t.same(await balanceOf(api, acc['5100']!), { debit: 200, credit: 0, net: 200 });

  const accountsRead = /accounts:read/;
  expectError(t, await api.request('GET', '/v1/accounts', { key }), 403, 'insufficient_scope', { message: accountsRead });
  expectError(t, await api.request('GET', '/v1/accounts/types', { key }), 403, 'insufficient_scope', { message: accountsRead });
  expectError(t, await api.request('GET', `/v1/accounts/${acc['1200']}`, { key }), 403, 'insufficient_scope', { message: accountsRead });
  expectError(t, await api.request('GET', `/v1/accounts/${acc['1200']}/balance`, { key }), 403, 'insufficient_scope', { message: accountsRead });
});

t.test('transactions:write writes transactions; reading them needs transactions:read', async (t) => {
  const { api, acc } = await ledger(t);
  const { key } = await createKey(t, api, { name: 'poster', scopes: ['transactions:write'] });
  const r = await post(
    api,
    {
      status: 'draft',
      lines: [
        { accountId: acc['5100']!, amount: 100 },
        { accountId: acc['1200']!, amount: -100 },
      ],
    },
    key,
  );
  t.equal(r.status, 201);
  const id = r.body.data.id as string;
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/status`, { key, body: { status: 'posted' } })).status, 200);
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { key, body: { reconciled: true } })).status, 200);
  expectError(t, await api.request('GET', `/v1/transactions/${id}`, { key }), 403, 'insufficient_scope', { message: /transactions:read/ });
  expectError(t, await api.request('GET', '/v1/transactions', { key }), 403, 'insufficient_scope', { message: /transactions:read/ });
  const d = (await api.request('GET', `/v1/transactions/${id}`)).body.data;
  t.equal(d.status, 'posted');
  t.equal(d.isReconciled, true);
});

t.test('accounts:write changes the chart; reading it needs accounts:read', async (t) => {
  const { api, acc } = await ledger(t);
  const { key } = await createKey(t, api, { name: 'chart editor', scopes: ['accounts:write'] });
  const created = await api.request('POST', '/v1/accounts', { key, body: { code: '6000', name: 'Other costs', accountType: 'expense' } });
  t.equal(created.status, 201);
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5990']}`, { key, body: { name: 'Miscellaneous' } })).status, 200);
  t.equal((await api.request('DELETE', `/v1/accounts/${created.body.data.id}`, { key })).body.data.deleted, true);
  expectError(t, await api.request('GET', '/v1/accounts', { key }), 403, 'insufficient_scope', { message: /accounts:read/ });
  expectError(
    t,
    await post(
      api,
      {
        lines: [
          { accountId: acc['5100']!, amount: 1 },
          { accountId: acc['1200']!, amount: -1 },
        ],
      },
      key,
    ),
    403,
    'insufficient_scope',
    { message: /transactions:write/ },
  );
  t.equal((await api.request('GET', `/v1/accounts/${acc['5990']}`)).body.data.name, 'Miscellaneous');
  t.equal(await transactionTotal(api), 0);
});

t.test('without a key every ledger route is 401', async (t) => {
  const { api, acc } = await ledger(t);
  for (const [method, path] of [
    ['GET', '/v1/transactions'],
    ['POST', '/v1/transactions'],
    ['GET', '/v1/accounts'],
    ['POST', '/v1/accounts'],
    ['GET', `/v1/accounts/${acc['1200']}/balance`],
    ['GET', `/v1/transactions/account/${acc['1200']}`],
  ] as const) {
    expectError(t, await api.request(method, path, { key: null, body: method === 'POST' ? {} : undefined }), 401, 'unauthorized');
  }
  t.equal(await transactionTotal(api), 0);
});
