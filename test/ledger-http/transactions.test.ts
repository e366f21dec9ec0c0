/** Transactions over HTTP: create (posted or draft), every refusal of create, get with lines, closed periods. */
import t from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { accountIds, closeFy2025, contactOk, expectError, ledger, lineCount, outbox, post, postOk, transactionTotal } from './support.js';

t.test('POST /transactions records a posted transaction by default: 201 with totals and named lines', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    date: '2026-02-05',
    description: 'Office chairs',
    reference: 'INV-778',
    lines: [
      { accountId: acc['5100']!, amount: 12000, description: 'two chairs' },
      { accountId: acc['2201']!, amount: 2400 },
      { accountId: acc['1200']!, amount: -14400 },
    ],
  });
  t.equal(r.status, 201);
  t.equal(r.body.success, true);
  const d = r.body.data;
  t.match(d.id, /^txn_[0-9A-Za-z]+$/);
  t.equal(d.date, '2026-02-05');
  t.equal(d.description, 'Office chairs');
  t.equal(d.reference, 'INV-778');
  t.equal(d.status, 'posted', 'posted by default');
  t.equal(d.sourceType, 'manual');
  t.equal(d.isReconciled, false);
  t.equal(d.reconciledAt, null);
  t.equal(d.totalDebit, 14400);
  t.equal(d.totalCredit, 14400);
  t.equal(d.accountCodes, '5100,2201,1200');
  t.equal(d.lines.length, 3);
  t.match(d.lines[0], { accountId: acc['5100'], accountCode: '5100', accountName: 'Office Expenses', amount: 12000, description: 'two chairs' });
  t.match(d.lines[1], { accountId: acc['2201'], accountCode: '2201', accountName: 'VAT Input', amount: 2400 });
  t.match(d.lines[2], { accountId: acc['1200'], accountCode: '1200', accountName: 'Bank Account', amount: -14400 });
  for (const line of d.lines) t.match(line.id, /^line_[0-9A-Za-z]+$/);
  t.equal(new Set(d.lines.map((l: { id: string }) => l.id)).size, 3, 'line ids differ');
  t.equal(await transactionTotal(api), 1, 'stored');
});

t.test('POST /transactions with status draft records a draft', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 500 },
      { accountId: acc['1200']!, amount: -500 },
    ],
  });
  t.equal(r.status, 201);
  t.equal(r.body.data.status, 'draft');
  t.equal(r.body.data.totalDebit, 500);
  t.equal(r.body.data.totalCredit, 500);
  t.equal(await transactionTotal(api, '?status=draft'), 1);
  t.equal(await transactionTotal(api, '?status=posted'), 0);
});

t.test('an unbalanced transaction is 400 validation_error (field lines) and nothing is stored', async (t) => {
  const { books, api, acc } = await ledger(t);
  for (const lines of [
    [
      { accountId: acc['5100']!, amount: 12000 },
      { accountId: acc['1200']!, amount: -11999 },
    ],
    [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: 100 },
    ],
    [
      { accountId: acc['5100']!, amount: 12000 },
      { accountId: acc['2201']!, amount: 2400 },
      { accountId: acc['1200']!, amount: -14401 },
    ],
  ]) {
    const r = await post(api, { lines });
    expectError(t, r, 400, 'validation_error', { field: 'lines' });
  }
  // A draft is no exception: the balance rule holds for drafts too.
  const draft = await post(api, {
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 1 },
      { accountId: acc['1200']!, amount: -2 },
    ],
  });
  expectError(t, draft, 400, 'validation_error', { field: 'lines' });
  t.equal(await transactionTotal(api), 0, 'no transaction');
  t.equal(await lineCount(books), 0, 'no line');
  t.same(await outbox(books), [], 'no outbox row');
});

t.test('fewer than 2 lines is 400 validation_error, field lines', async (t) => {
  const { books, api, acc } = await ledger(t);
  expectError(t, await post(api, { lines: [{ accountId: acc['5100']!, amount: 0 }] }), 400, 'validation_error', { field: 'lines' });
  expectError(t, await post(api, { lines: [{ accountId: acc['5100']!, amount: 100 }] }), 400, 'validation_error', { field: 'lines' });
  expectError(t, await post(api, { lines: [] }), 400, 'validation_error', { field: 'lines' });
  const missing = await api.request('POST', '/v1/transactions', { body: { date: '2026-02-05', description: 'no lines' } });
  expectError(t, missing, 400, 'validation_error', { field: 'lines' });
  t.equal(await transactionTotal(api), 0);
  t.same(await outbox(books), []);
});

t.test('line amounts: 0 and 1.5 are validation_error, "100" is invalid_type', async (t) => {
  const { books, api, acc } = await ledger(t);
  const zero = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 0 },
      { accountId: acc['1200']!, amount: 0 },
    ],
  });
  expectError(t, zero, 400, 'validation_error', { field: 'lines[0].amount' });

  const zeroAmongOthers = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['5200']!, amount: 0 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  expectError(t, zeroAmongOthers, 400, 'validation_error', { field: 'lines[1].amount' });

  const fraction = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 1.5 },
      { accountId: acc['1200']!, amount: -1.5 },
    ],
  });
  expectError(t, fraction, 400, 'validation_error', { field: 'lines[0].amount' });

  const text = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: '-100' as unknown as number },
    ],
  });
  expectError(t, text, 400, 'invalid_type', { field: 'lines[1].amount' });

  const textFirst = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: '100' as unknown as number },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  expectError(t, textFirst, 400, 'invalid_type', { field: 'lines[0].amount' });
  t.equal(await transactionTotal(api), 0);
  t.equal(await lineCount(books), 0);
  t.same(await outbox(books), []);
});

t.test('accounts of lines: malformed is invalid_id; unknown, inactive or of another organisation is validation_error lines[i].accountId', async (t) => {
  const { books, api, acc } = await ledger(t);
  const malformed = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: '1200', amount: -100 },
    ],
  });
  expectError(t, malformed, 400, 'invalid_id', { field: 'lines[1].accountId' });
  const wrongPrefix = await post(api, {
    lines: [
      { accountId: acc['5100']!.replace('acc_', 'txn_'), amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  expectError(t, wrongPrefix, 400, 'invalid_id', { field: 'lines[0].accountId' });

  const unknown = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: 'acc_doesnotexist000000000000', amount: -100 },
    ],
  });
  expectError(t, unknown, 400, 'validation_error', { field: 'lines[1].accountId' });

  // 5990 Sundry Expenses is a user account; deactivate it.
  const off = await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { isActive: false } });
  t.equal(off.status, 200);
  const inactive = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['5990']!, amount: 50 },
      { accountId: acc['1200']!, amount: -150 },
    ],
  });
  expectError(t, inactive, 400, 'validation_error', { field: 'lines[1].accountId' });

  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  const otherAcc = await accountIds(t, api, other.apiKey);
  t.not(otherAcc['5100'], acc['5100']);
  const foreign = await post(api, {
    lines: [
      { accountId: otherAcc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  expectError(t, foreign, 400, 'validation_error', { field: 'lines[0].accountId' });

  t.equal(await transactionTotal(api), 0);
  t.equal(await lineCount(books), 0);
  t.same(await outbox(books), []);
});

t.test('dates: 2026-02-30 and other non-dates are 400 invalid_date, field date', async (t) => {
  const { books, api, acc } = await ledger(t);
  const lines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];
  for (const date of ['2026-02-30', '2026-13-01', '05/02/2026', '2026-2-5', '2026-02-05T10:00:00Z', '2025-02-29']) {
    expectError(t, await post(api, { date, lines }), 400, 'invalid_date', { field: 'date' });
  }
  const missing = await api.request('POST', '/v1/transactions', { body: { description: 'no date', lines } });
  expectError(t, missing, 400, 'validation_error', { field: 'date' });
  t.equal(await transactionTotal(api), 0);
  t.same(await outbox(books), []);
  // A real leap day is a date.
  t.equal((await post(api, { date: '2028-02-29', lines })).status, 201, '2028-02-29 is accepted');
});

t.test('description and reference lengths: 500 and 100 pass, 501 and 101 are 400', async (t) => {
  const { books, api, acc } = await ledger(t);
  const lines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];
  expectError(t, await post(api, { description: 'd'.repeat(501), lines }), 400, 'validation_error', { field: 'description' });
  expectError(t, await post(api, { reference: 'r'.repeat(101), lines }), 400, 'validation_error', { field: 'reference' });
  expectError(t, await post(api, { description: '', lines }), 400, 'validation_error', { field: 'description' });
  const noDescription = await api.request('POST', '/v1/transactions', { body: { date: '2026-02-05', lines } });
  expectError(t, noDescription, 400, 'validation_error', { field: 'description' });
  t.equal(await transactionTotal(api), 0);
  t.same(await outbox(books), []);

  const longest = await post(api, { description: 'd'.repeat(500), reference: 'r'.repeat(100), lines });
  t.equal(longest.status, 201);
  t.equal(longest.body.data.description.length, 500);
  t.equal(longest.body.data.reference.length, 100);
});

t.test('other body problems: an unknown status, an unknown field', async (t) => {
  const { api, acc } = await ledger(t);
  const lines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];
  expectError(t, await post(api, { status: 'void', lines }), 400, 'validation_error', { field: 'status' });
  expectError(t, await post(api, { lines, colour: 'red' }), 400, 'validation_error', { field: 'colour' });
  t.equal(await transactionTotal(api), 0);
});

t.test('a date in a closed period, or before it, is 422 and nothing is stored; the open year still takes transactions', async (t) => {
  const { books, api, acc } = await ledger(t);
  await closeFy2025(t, api);
  const lines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];
  for (const date of ['2025-04-01', '2025-12-31', '2026-03-31']) {
    expectError(t, await post(api, { date, lines }), 422, 'unprocessable_entity', { field: null });
    expectError(t, await post(api, { date, status: 'draft', lines }), 422, 'unprocessable_entity');
  }
  t.equal(await transactionTotal(api), 0);
  t.same(await outbox(books), []);
  t.equal((await post(api, { date: '2026-04-01', lines })).status, 201, 'the first day of FY 2026/27 is open');
  // The year before is closed with it, as by a lock date: a day there would move FY 2025/26's balances.
  expectError(t, await post(api, { date: '2025-03-31', lines }), 422, 'unprocessable_entity', {
    message: '2025-03-31 is before FY 2025/26, which is closed, and so closes the years before it',
  });
  t.equal(await transactionTotal(api), 1);
});

t.test('GET /transactions/{id} returns the transaction with its lines', async (t) => {
  const { api, acc } = await ledger(t);
  const client = await contactOk(t, api);
  const id = await postOk(t, api, {
    date: '2026-03-01',
    description: 'Consultancy',
    reference: 'S-1',
    lines: [
      { accountId: acc['1150']!, amount: 60000, contactId: client },
      { accountId: acc['4000']!, amount: -50000, description: 'fee' },
      { accountId: acc['2200']!, amount: -10000 },
    ],
  });
  const r = await api.request('GET', `/v1/transactions/${id}`);
  t.equal(r.status, 200);
  const d = r.body.data;
  t.match(d, {
    id,
    date: '2026-03-01',
    description: 'Consultancy',
    reference: 'S-1',
    status: 'posted',
    isReconciled: false,
    reconciledAt: null,
    sourceType: 'manual',
    totalDebit: 60000,
    totalCredit: 60000,
    accountCodes: '1150,4000,2200',
  });
  t.type(d.createdAt, 'string');
  t.type(d.updatedAt, 'string');
  t.type(d.createdBy, 'string');
  t.type(d.createdByName, 'string');
  t.equal(d.lines.length, 3);
  t.match(d.lines[0], { accountId: acc['1150'], accountCode: '1150', accountName: 'Prepayments', amount: 60000, contactId: client, vatAmount: null });
  t.match(d.lines[1], { accountId: acc['4000'], accountCode: '4000', accountName: 'Sales', amount: -50000, description: 'fee', contactId: null });
  t.match(d.lines[2], { accountId: acc['2200'], accountCode: '2200', accountName: 'VAT Output', amount: -10000 });
});

t.test('GET /transactions/{id}: malformed id 400 invalid_id, unknown 404', async (t) => {
  const { api } = await ledger(t);
  for (const id of ['123', 'acc_0123456789', 'txn_', 'txn_abc-def']) {
    expectError(t, await api.request('GET', `/v1/transactions/${id}`), 400, 'invalid_id', { field: 'id' });
  }
  expectError(t, await api.request('GET', '/v1/transactions/txn_doesnotexist0000000000'), 404, 'not_found', { field: null });
});

t.test('a transaction of another organisation behaves as nonexistent (404) and is left alone', async (t) => {
  const { books, api, acc } = await ledger(t);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  const otherAcc = await accountIds(t, api, other.apiKey);
  const theirs = await post(
    api,
    {
      status: 'draft',
      lines: [
        { accountId: otherAcc['5100']!, amount: 700 },
        { accountId: otherAcc['1200']!, amount: -700 },
      ],
    },
    other.apiKey,
  );
  t.equal(theirs.status, 201);
  const id = theirs.body.data.id as string;
  const lines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];

  expectError(t, await api.request('GET', `/v1/transactions/${id}`), 404, 'not_found');
  expectError(t, await api.request('PUT', `/v1/transactions/${id}`, { body: { description: 'mine now', lines } }), 404, 'not_found');
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } }), 404, 'not_found');
  expectError(t, await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/transactions/${id}`), 404, 'not_found');
  t.equal(await transactionTotal(api), 0, 'not listed here');

  const still = await api.request('GET', `/v1/transactions/${id}`, { key: other.apiKey });
  t.equal(still.status, 200, 'still there for its owner');
  t.equal(still.body.data.status, 'draft');
  t.equal(still.body.data.description, 'Test transaction');
  t.equal(still.body.data.lines[0].amount, 700);
  // The test dataset of the same organisation does not see live transactions either.
  expectError(t, await api.request('GET', `/v1/transactions/${id}`, { key: other.testApiKey }), 404, 'not_found');
});

t.test('a line naming a contact that does not exist is refused (400 on its contactId) and nothing is stored', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    lines: [
      { accountId: acc['1150']!, amount: 600, contactId: 'cont_nobody' },
      { accountId: acc['4000']!, amount: -600 },
    ],
  });
  expectError(t, r, 400, 'validation_error', { field: 'lines[0].contactId', message: /cont_nobody/ });
  t.equal(await transactionTotal(api), 0);
});
