/**
 * Events in the outbox: transaction.created for every create, and
 * transaction.posted when a transaction is created posted or a draft is
 * posted. Refused requests leave no row.
 */
import t from 'tap';
import type { Books } from '../helpers/index.js';
import { closeFy2025, createKey, expectError, ledger, outbox, post, postOk } from './support.js';

/** The outbox as sorted "event id" strings (events of one request share a timestamp, so their order is not compared). */
async function events(books: Books): Promise<string[]> {
  return (await outbox(books)).map((r) => `${r.event} ${r.payload.id}`).sort();
}

t.test('a posted create writes transaction.created and transaction.posted, carrying the transaction', async (t) => {
  const { books, api, acc } = await ledger(t);
  t.same(await outbox(books), [], 'a new organisation has an empty outbox');
  const r = await post(api, {
    description: 'Office chairs',
    lines: [
      { accountId: acc['5100']!, amount: 12000 },
      { accountId: acc['1200']!, amount: -12000 },
    ],
  });
  t.equal(r.status, 201);
  const id = r.body.data.id as string;
  const rows = await outbox(books);
  t.same(rows.map((x) => x.event).sort(), ['transaction.created', 'transaction.posted']);
  for (const row of rows) {
    t.match(row.payload, { id, status: 'posted', description: 'Office chairs', totalDebit: 12000 }, `${row.event} carries the transaction`);
    t.match(
      row.payload,
      {
        lines: [
          { accountCode: '5100', amount: 12000 },
          { accountCode: '1200', amount: -12000 },
        ],
      },
      `${row.event} carries the lines`,
    );
  }
});

t.test('a draft create writes transaction.created only; posting it later writes transaction.posted', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, {
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 500 },
      { accountId: acc['1200']!, amount: -500 },
    ],
  });
  const afterCreate = await outbox(books);
  t.same(
    afterCreate.map((x) => [x.event, x.payload.id, x.payload.status]),
    [['transaction.created', id, 'draft']],
  );
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } })).status, 200);
  t.same(await events(books), [`transaction.created ${id}`, `transaction.posted ${id}`]);
  const posted = (await outbox(books)).find((x) => x.event === 'transaction.posted');
  t.equal(posted?.payload.status, 'posted', 'the posted event shows the posted state');
});

t.test('posting a draft through PUT with status posted writes transaction.posted', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, {
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 500 },
      { accountId: acc['1200']!, amount: -500 },
    ],
  });
  const put = await api.request('PUT', `/v1/transactions/${id}`, { body: { description: 'edited, still a draft' } });
  t.equal(put.status, 200);
  t.same(await events(books), [`transaction.created ${id}`], 'editing a draft is not a create or a post');
  const postIt = await api.request('PUT', `/v1/transactions/${id}`, { body: { status: 'posted' } });
  t.equal(postIt.status, 200);
  t.same(await events(books), [`transaction.created ${id}`, `transaction.posted ${id}`]);
});

t.test('every create writes its own events: three transactions, five rows', async (t) => {
  const { books, api, acc } = await ledger(t);
  const lines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];
  const a = await postOk(t, api, { lines });
  const b = await postOk(t, api, { lines, status: 'draft' });
  const c = await postOk(t, api, { lines, status: 'posted' });
  t.same(
    await events(books),
    [`transaction.created ${a}`, `transaction.created ${b}`, `transaction.created ${c}`, `transaction.posted ${a}`, `transaction.posted ${c}`].sort(),
  );
});

t.test('reverting to draft, reconciling and deleting write no transaction event', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  const before = await events(books);
  t.equal(before.length, 2);
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: true } })).status, 200);
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: false } })).status, 200);
  t.equal((await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'draft' } })).status, 200);
  t.equal((await api.request('DELETE', `/v1/transactions/${id}`)).status, 200);
  t.same(await events(books), before);
});

t.test('refused requests add no outbox row', async (t) => {
  const { books, api, acc } = await ledger(t);
  const posted = await postOk(t, api, {
    date: '2026-04-10',
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  const reconciled = await postOk(t, api, {
    date: '2026-04-11',
    lines: [
      { accountId: acc['5100']!, amount: 200 },
      { accountId: acc['1200']!, amount: -200 },
    ],
  });
  t.equal((await api.request('PATCH', `/v1/transactions/${reconciled}/reconcile`, { body: { reconciled: true } })).status, 200);
  const draft = await postOk(t, api, {
    date: '2026-04-12',
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 300 },
      { accountId: acc['5990']!, amount: -300 },
    ],
  });
  await closeFy2025(t, api);
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { isActive: false } })).status, 200);
  const reader = await createKey(t, api, { name: 'reader', scopes: ['transactions:read'] });
  const before = await events(books);
  t.equal(before.length, 5);

  const twoLines = [
    { accountId: acc['5100']!, amount: 100 },
    { accountId: acc['1200']!, amount: -100 },
  ];
  expectError(t, await post(api, { lines: [twoLines[0]!, { ...twoLines[1]!, amount: -99 }] }), 400, 'validation_error');
  expectError(t, await post(api, { lines: [twoLines[0]!] }), 400, 'validation_error');
  expectError(t, await post(api, { date: '2026-02-30', lines: twoLines }), 400, 'invalid_date');
  expectError(t, await post(api, { date: '2026-01-15', lines: twoLines }), 422, 'unprocessable_entity');
  expectError(t, await post(api, { lines: twoLines }, reader.key), 403, 'insufficient_scope');
  expectError(t, await api.request('PATCH', `/v1/transactions/${draft}/status`, { body: { status: 'posted' } }), 400, 'validation_error');
  expectError(t, await api.request('PUT', `/v1/transactions/${posted}`, { body: { status: 'posted' } }), 422, 'unprocessable_entity');
  expectError(t, await api.request('PUT', `/v1/transactions/${reconciled}`, { body: { description: 'x' } }), 409, 'already_reconciled');
  expectError(t, await api.request('PATCH', '/v1/transactions/txn_nothere000000000000/status', { body: { status: 'posted' } }), 404, 'not_found');
  t.same(await events(books), before, 'no row was added');
});

t.test('the transaction a create answers and its events carry is the one stored: every field, as GET reads it back', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contact = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Bob Ltd' } });
  t.equal(contact.status, 201);
  const bodies = [
    // Plain, no reference: nulls where nothing was given.
    {
      date: '2026-02-05',
      description: 'Office chairs',
      lines: [
        { accountId: acc['5100']!, amount: 12000 },
        { accountId: acc['1200']!, amount: -12000 },
      ],
    },
    // A draft with a reference, a contact, line descriptions and VAT facts on a line.
    {
      date: '2026-02-06',
      description: 'Consulting',
      reference: 'INV-9',
      status: 'draft',
      lines: [
        { accountId: acc['1150']!, amount: 12000, contactId: contact.body.data.id, description: 'Bob prepaid' },
        { accountId: acc['4000']!, amount: -10000, vatRate: 20, vatTreatment: 'exclusive', description: 'fees' },
        { accountId: acc['2200']!, amount: -2000 },
      ],
    },
    // Four lines, given in an order that is not the chart's.
    {
      date: '2026-02-07',
      description: 'Split',
      lines: [
        { accountId: acc['1200']!, amount: -300 },
        { accountId: acc['5100']!, amount: 100 },
        { accountId: acc['4000']!, amount: -100 },
        { accountId: acc['5100']!, amount: 300 },
      ],
    },
  ];
  for (const body of bodies) {
    const created = await post(api, body);
    t.equal(created.status, 201, JSON.stringify(created.body.error ?? ''));
    const stored = await api.request('GET', `/v1/transactions/${created.body.data.id}`);
    t.same(created.body.data, stored.body.data, `${body.description}: the create's answer is what GET reads`);
    for (const row of (await outbox(books)).filter((r) => r.payload.id === created.body.data.id)) {
      t.same(row.payload, stored.body.data, `${body.description}: ${row.event} carries what GET reads`);
    }
  }
});
