/**
 * Categorisation rules over HTTP: the seed (verified) rules every
 * organisation starts with, create with upsert on the normalised value,
 * the cap of 100, change, delete, reorder, the read-only global set, the
 * test endpoint's decision with its evidence, categorise-row, a
 * transaction's suggestion and the inbox of suspense lines, and scopes.
 */
import t from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from '../http/support.js';

async function world(t: Parameters<typeof newBooks>[0]) {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  return { api, id };
}

async function created(t: Parameters<typeof newBooks>[0], api: Api, body: Record<string, unknown>) {
  const r = await api.request('POST', '/v1/categorisation-rules', { body });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  return r.body.data;
}

t.test('an organisation starts with its seed rules, verified', async (t) => {
  const { api } = await world(t);
  const r = await api.request('GET', '/v1/categorisation-rules');
  t.equal(r.status, 200);
  t.equal(r.body.data.total, 6);
  t.ok(
    r.body.data.rules.every((rule: { isSeed: boolean; provenance: string }) => rule.isSeed && rule.provenance === 'verified'),
    'every seed rule is verified',
  );
  t.match(
    r.body.data.rules.find((rule: { name: string }) => rule.name === 'HMRC VAT payments'),
    { field: 'description', operator: 'contains', value: 'HMRC VAT', targetAccountCode: '2202' },
  );
});

t.test('create normalises the value and upserts on field, operator and value', async (t) => {
  const { api, id } = await world(t);
  const first = await created(t, api, {
    name: 'Tesco',
    field: 'description',
    operator: 'contains',
    value: 'card payment to tesco stores 4532',
    targetAccountId: id('5100'),
  });
  t.match(first, { value: 'TESCO STORES', targetAccountCode: '5100', provenance: 'local', isSeed: false, priority: 0, active: true });
  const again = await created(t, api, {
    name: 'Tesco supplies',
    field: 'description',
    operator: 'contains',
    value: 'TESCO STORES',
    targetAccountId: id('5000'),
  });
  t.equal(again.id, first.id, 'the same rule, updated');
  t.equal(again.targetAccountCode, '5000');
  t.equal((await api.request('GET', '/v1/categorisation-rules')).body.data.total, 7, '6 seeds + 1');

  for (const [body, field] of [
    [{ name: 'x', field: 'amount', operator: 'contains', value: '100', targetAccountId: id('5100') }, 'operator'],
    [{ name: 'x', field: 'description', operator: 'regex', value: 'SHELL(?! ENERGY)', targetAccountId: id('5100') }, 'value'],
    [{ name: 'x', field: 'description', operator: 'contains', value: 'SHELL', targetAccountId: id('9999') }, 'targetAccountId'],
    // Customers' and suppliers' money goes through their invoices and bills, never straight to the control accounts.
    [{ name: 'x', field: 'description', operator: 'contains', value: 'ACME', targetAccountId: id('1100') }, 'targetAccountId'],
    [{ name: 'x', field: 'description', operator: 'contains', value: 'ACME', targetAccountId: id('2100') }, 'targetAccountId'],
    [{ name: '', field: 'description', operator: 'contains', value: 'SHELL', targetAccountId: id('5100') }, 'name'],
  ] as const) {
    const r = await api.request('POST', '/v1/categorisation-rules', { body });
    t.equal(r.status, 400, `${JSON.stringify(body)} refused`);
    t.equal(r.body.error.field, field, r.body.error.message);
  }
  t.equal((await api.request('GET', '/v1/categorisation-rules')).body.data.total, 7, 'the refusals added nothing');
});

t.test('at most 100 rules per organisation', async (t) => {
  const { api, id } = await world(t);
  // 6 seeds + 94 = 100.
  for (let i = 0; i < 94; i++)
    await created(t, api, {
      name: `Payee ${i}`,
      field: 'description',
      operator: 'contains',
      value: `PAYEE ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`,
      targetAccountId: id('5100'),
    });
  const over = await api.request('POST', '/v1/categorisation-rules', {
    body: { name: 'One too many', field: 'description', operator: 'contains', value: 'TOO MANY', targetAccountId: id('5100') },
  });
  t.equal(over.status, 400);
  t.match(over.body.error.message, 'at most 100');
  const upsert = await api.request('POST', '/v1/categorisation-rules', {
    body: { name: 'Payee 0', field: 'description', operator: 'contains', value: 'PAYEE AA', targetAccountId: id('5000') },
  });
  t.equal(upsert.status, 201, 'an upsert of an existing rule is still allowed at the cap');
});

t.test('change, reorder, delete; a seed rule changed becomes local', async (t) => {
  const { api, id } = await world(t);
  const seeds = (await api.request('GET', '/v1/categorisation-rules')).body.data.rules as { id: number; name: string }[];
  const fee = seeds.find((r) => r.name === 'Bank account fee')!;
  const patched = await api.request('PATCH', `/v1/categorisation-rules/${fee.id}`, { body: { targetAccountId: id('5100'), priority: 50 } });
  t.same(patched.body.data, { id: fee.id, updated: true });
  const list = (await api.request('GET', '/v1/categorisation-rules')).body.data.rules as { id: number; provenance: string; priority: number }[];
  t.match(list[0], { id: fee.id, provenance: 'local', priority: 50 }, 'highest priority first; local now');

  const refused = await api.request('PATCH', `/v1/categorisation-rules/${fee.id}`, { body: { operator: 'greater_than' } });
  t.equal(refused.status, 400, 'the merged rule is validated: greater_than does not apply to a description');
  const toDebtors = await api.request('PATCH', `/v1/categorisation-rules/${fee.id}`, { body: { targetAccountId: id('1100') } });
  t.equal(toDebtors.status, 400, 'the receivables control account is refused');
  t.match(toDebtors.body.error, { field: 'targetAccountId', message: /record the payment on the invoice/ });

  const order = await api.request('POST', '/v1/categorisation-rules/reorder', {
    body: {
      rules: [
        { id: seeds[1]!.id, priority: 900 },
        { id: seeds[2]!.id, priority: 800 },
      ],
    },
  });
  t.same(order.body.data, { updated: 2 });
  const unknown = await api.request('POST', '/v1/categorisation-rules/reorder', {
    body: {
      rules: [
        { id: seeds[4]!.id, priority: 700 },
        { id: 9999, priority: 1 },
      ],
    },
  });
  t.equal(unknown.status, 404);
  const after = (await api.request('GET', '/v1/categorisation-rules')).body.data.rules as { id: number; priority: number }[];
  t.same(
    after.slice(0, 3).map((r) => r.id),
    [seeds[1]!.id, seeds[2]!.id, fee.id],
  );
  t.equal(after.find((r) => r.id === seeds[4]!.id)!.priority, 0, 'the refused reorder changed nothing');

  t.same((await api.request('DELETE', `/v1/categorisation-rules/${fee.id}`)).body.data, { id: fee.id, deleted: true });
  t.equal((await api.request('DELETE', `/v1/categorisation-rules/${fee.id}`)).status, 404);
});

t.test('test: a local rule beats the global one on the same payee, with the evidence', async (t) => {
  const { api, id } = await world(t);
  const line = { description: 'DIRECT DEBIT PAYMENT TO BRITISH GAS 88123', amount: -8_450 };
  const global = await api.request('POST', '/v1/categorisation-rules/test', { body: line });
  t.equal(global.status, 200, JSON.stringify(global.body.error ?? ''));
  t.match(global.body.data, {
    kind: 'Known',
    account: { code: '5300' },
    evidence: { provenance: 'global', matchedField: 'description', matchedValue: 'BRITISH GAS', operator: 'contains' },
  });

  const mine = await created(t, api, {
    name: 'Gas is rent here',
    field: 'description',
    operator: 'contains',
    value: 'BRITISH GAS',
    targetAccountId: id('5100'),
  });
  const local = await api.request('POST', '/v1/categorisation-rules/test', { body: line });
  t.match(local.body.data, { kind: 'Known', account: { code: '5100' }, evidence: { provenance: 'local', rule: { id: mine.id, name: 'Gas is rent here' } } });
  // The vector: provenance local 3, contains 3, description 2, "BRITISH GAS" 11 characters,
  // fit floor(100 × 11 / 11) = 100 on the normalised "BRITISH GAS", priority 0, and the tie-break.
  t.same(local.body.data.evidence.scoreVector.slice(0, 6), [3, 3, 2, 11, 100, 0]);
  t.equal(local.body.data.evidence.socialProof.globalRulesMatching, 1, 'the global British Gas rule matched too');
  t.equal(local.body.data.evidence.socialProof.globalRulesAgreeing, 0, 'and names another account');

  const none = await api.request('POST', '/v1/categorisation-rules/test', { body: { description: 'SOMETHING NOBODY KNOWS' } });
  t.match(none.body.data, { kind: 'Unknown', reason: 'NoMatch' });
});

t.test('categorise-row makes a contains rule from the keyword and names the similar rows', async (t) => {
  const { api, id } = await world(t);
  const r = await api.request('POST', '/v1/categorisation-rules/categorise-row', {
    body: {
      description: 'CARD PAYMENT TO PRET A MANGER 0423 ON 12 MAR',
      targetAccountId: id('5100'),
      batchDescriptions: [
        { description: 'CARD PAYMENT TO PRET A MANGER 0999', rowId: 7 },
        { description: 'CARD PAYMENT TO COSTA COFFEE', rowId: 8 },
      ],
    },
  });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  t.match(r.body.data, { rule: { action: 'created' }, account: { code: '5100' }, similarRowIds: [7] });
  t.ok(r.body.data.keyword.startsWith('PRET'), `keyword ${r.body.data.keyword}`);
  const test = await api.request('POST', '/v1/categorisation-rules/test', { body: { description: 'CARD PAYMENT TO PRET A MANGER 1111' } });
  t.match(test.body.data, { kind: 'Known', account: { code: '5100' }, evidence: { provenance: 'local' } });
});

t.test('global rules list; suggest-category and the inbox read suspense lines', async (t) => {
  const { api, id } = await world(t);
  const global = await api.request('GET', '/v1/categorisation-rules/global');
  t.equal(global.status, 200);
  t.ok(global.body.data.total > 20);
  t.ok(
    global.body.data.rules.every((r: { provenance: string }) => r.provenance === 'global'),
    'all global',
  );

  const post = async (description: string, amount: number) => {
    const r = await api.request('POST', '/v1/transactions', {
      body: {
        date: '2026-05-10',
        description,
        lines: [
          { accountId: id('1200'), amount },
          { accountId: id('9999'), amount: -amount },
        ],
      },
    });
    return r.body.data.id as string;
  };
  const gas = await post('DIRECT DEBIT PAYMENT TO BRITISH GAS 88123', -8_450);
  const mystery = await post('TRANSFER FROM J SMITH', 20_000);

  const s = await api.request('POST', `/v1/transactions/${gas}/suggest-category`);
  t.equal(s.status, 200, JSON.stringify(s.body.error ?? ''));
  t.match(s.body.data, {
    transactionId: gas,
    amount: -8_450,
    onSuspense: true,
    matchedOn: 'description',
    ruleType: 'global',
    decision: { kind: 'Known', account: { code: '5300' } },
  });
  t.ok(s.body.data.confidence > 0 && s.body.data.confidence <= 1);

  const inbox = await api.request('GET', '/v1/bank/inbox');
  t.equal(inbox.status, 200);
  t.same(
    inbox.body.data.map((i: { transactionId: string; decision: { kind: string } }) => [i.transactionId, i.decision.kind]),
    [
      [gas, 'Known'],
      [mystery, 'Unknown'],
    ],
  );
  t.same(inbox.body.meta, { total: 2, page: 1, limit: 100, hasMore: false }, 'convention A: two lines, 100 a page by default');
  const second = await api.request('GET', '/v1/bank/inbox?limit=1&page=2');
  t.same(
    [second.body.data.map((i: { transactionId: string }) => i.transactionId), second.body.meta],
    [[mystery], { total: 2, page: 2, limit: 1, hasMore: false }],
  );
  expectError(t, await api.request('GET', '/v1/bank/inbox?limit=501'), 400, 'validation_error', { field: 'limit' });

  const reader = (await api.request('POST', '/v1/api-keys', { body: { name: 'r', scopes: ['bank-imports:read'] } })).body.data.key as string;
  t.equal((await api.request('GET', '/v1/categorisation-rules', { key: reader })).status, 200);
  t.equal(
    (
      await api.request('POST', '/v1/categorisation-rules', {
        key: reader,
        body: { name: 'x', field: 'description', operator: 'contains', value: 'X', targetAccountId: id('5100') },
      })
    ).status,
    403,
  );
});

t.test('a contact_name rule applies to a suspense line with that contact, in suggest-category and the inbox', async (t) => {
  const { api, id } = await world(t);
  const contact = await api.request('POST', '/v1/contacts', { body: { name: 'Widget Co', contactType: 'supplier' } });
  t.equal(contact.status, 201, JSON.stringify(contact.body.error ?? ''));
  const rule = await created(t, api, { name: 'Widget Co', field: 'contact_name', operator: 'equals', value: 'Widget Co', targetAccountId: id('5100') });
  const txn = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2026-05-10',
      description: 'FASTER PAYMENT 123456',
      lines: [
        { accountId: id('1200'), amount: -12_000 },
        { accountId: id('9999'), amount: 12_000, contactId: contact.body.data.id },
      ],
    },
  });
  t.equal(txn.status, 201, JSON.stringify(txn.body.error ?? ''));
  const s = await api.request('POST', `/v1/transactions/${txn.body.data.id}/suggest-category`);
  t.equal(s.status, 200, JSON.stringify(s.body.error ?? ''));
  t.match(s.body.data, {
    matchedOn: 'contact_name',
    ruleType: 'local',
    decision: { kind: 'Known', account: { code: '5100' }, evidence: { rule: { id: rule.id }, matchedValue: 'WIDGET CO' } },
  });
  const inbox = await api.request('GET', '/v1/bank/inbox');
  t.match(inbox.body.data, [{ transactionId: txn.body.data.id, decision: { kind: 'Known', account: { code: '5100' } } }]);
});
