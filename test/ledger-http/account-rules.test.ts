/** Changing the chart over HTTP: create, update and delete, with every rule and the Account state table. */
import t from 'tap';
import type { Api } from '../helpers/index.js';
import { movingClock } from '../helpers/clock.js';
import { balanceOf, clock as ledgerClock, expectError, ledger, outbox, post, postOk, transactionTotal } from './support.js';

async function accountTotal(api: Api): Promise<number> {
  const r = await api.request('GET', '/v1/accounts?flat=true');
  return r.body.data.meta.total as number;
}

t.test('POST /accounts creates a user account: 201 with the account object', async (t) => {
  const { api } = await ledger(t);
  const r = await api.request('POST', '/v1/accounts', {
    body: { code: '5960', name: 'Staff Training', accountType: 'expense', description: 'Courses and books', defaultVatRate: 20 },
  });
  t.equal(r.status, 201);
  t.match(r.body.data.id, /^acc_[0-9A-Za-z]+$/);
  t.match(r.body.data, {
    code: '5960',
    name: 'Staff Training',
    accountType: 'expense',
    parentId: null,
    description: 'Courses and books',
    defaultVatRate: 20,
    isActive: true,
    isSystem: false,
    isControlAccount: false,
    controlType: null,
  });
  const got = await api.request('GET', `/v1/accounts/${r.body.data.id}`);
  t.same(got.body.data, r.body.data, 'GET shows what was created');
  t.equal(await accountTotal(api), 49);
});

t.test('a child account takes its parent type and appears under its parent in the tree', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await api.request('POST', '/v1/accounts', { body: { code: '1040', name: 'Furniture', accountType: 'asset', parentId: acc['1000'] } });
  t.equal(r.status, 201);
  t.equal(r.body.data.parentId, acc['1000']);
  const tree = await api.request('GET', '/v1/accounts');
  const fixed = tree.body.data.accounts.find((n: { code: string }) => n.code === '1000');
  t.same(
    fixed.children.map((c: { code: string }) => c.code),
    ['1010', '1020', '1030', '1040', '1090'],
  );
});

t.test('create refusals: duplicate code 409 conflict; child of another type, bad lengths, rates and types 400; nothing created', async (t) => {
  const { api, acc } = await ledger(t);
  const create = (body: Record<string, unknown>) => api.request('POST', '/v1/accounts', { body });
  expectError(t, await create({ code: '1200', name: 'Second bank', accountType: 'asset' }), 409, 'conflict', { field: null });
  expectError(t, await create({ code: '5100', name: 'Another office', accountType: 'expense' }), 409, 'conflict');
  expectError(t, await create({ code: '1040', name: 'Furniture', accountType: 'expense', parentId: acc['1000'] }), 400, 'validation_error', {
    field: 'accountType',
  });
  expectError(t, await create({ code: '1040', name: 'Furniture', accountType: 'asset', parentId: 'acc_nothere000000000000' }), 400, 'validation_error', {
    field: 'parentId',
  });
  expectError(t, await create({ code: '1040', name: 'Furniture', accountType: 'asset', parentId: '1000' }), 400, 'invalid_id', { field: 'parentId' });
  expectError(t, await create({ code: '1'.repeat(21), name: 'Long code', accountType: 'asset' }), 400, 'validation_error', { field: 'code' });
  expectError(t, await create({ code: '6000', name: 'n'.repeat(201), accountType: 'expense' }), 400, 'validation_error', { field: 'name' });
  expectError(t, await create({ code: '6000', name: 'Other', accountType: 'expense', description: 'd'.repeat(501) }), 400, 'validation_error', {
    field: 'description',
  });
  expectError(t, await create({ code: '6000', name: 'Other', accountType: 'expense', defaultVatRate: 101 }), 400, 'validation_error', {
    field: 'defaultVatRate',
  });
  expectError(t, await create({ code: '6000', name: 'Other', accountType: 'expense', defaultVatRate: -1 }), 400, 'validation_error', {
    field: 'defaultVatRate',
  });
  expectError(t, await create({ code: '6000', name: 'Other', accountType: 'income' }), 400, 'validation_error', { field: 'accountType' });
  expectError(t, await create({ code: '6000', name: 'Other' }), 400, 'validation_error', { field: 'accountType' });
  expectError(t, await create({ name: 'Other', accountType: 'expense' }), 400, 'validation_error', { field: 'code' });
  expectError(t, await create({ code: '6000', accountType: 'expense' }), 400, 'validation_error', { field: 'name' });
  expectError(t, await create({ code: '6000', name: '', accountType: 'expense' }), 400, 'validation_error', { field: 'name' });
  expectError(t, await create({ code: 6000, name: 'Other', accountType: 'expense' }), 400, 'invalid_type', { field: 'code' });
  t.equal(await accountTotal(api), 48, 'nothing created');
  const bank = await api.request('GET', `/v1/accounts/${acc['1200']}`);
  t.equal(bank.body.data.name, 'Bank Account', 'the existing 1200 is untouched');
});

t.test('create at the limits: code 20, name 200, description 500 characters, defaultVatRate 0 and 100', async (t) => {
  const { api } = await ledger(t);
  const long = await api.request('POST', '/v1/accounts', {
    body: { code: '6'.repeat(20), name: 'n'.repeat(200), accountType: 'expense', description: 'd'.repeat(500), defaultVatRate: 100 },
  });
  t.equal(long.status, 201);
  t.equal(long.body.data.code.length, 20);
  t.equal(long.body.data.name.length, 200);
  t.equal(long.body.data.description.length, 500);
  t.equal(long.body.data.defaultVatRate, 100);
  const zero = await api.request('POST', '/v1/accounts', { body: { code: '6001', name: 'Zero rated', accountType: 'expense', defaultVatRate: 0 } });
  t.equal(zero.status, 201);
  t.equal(zero.body.data.defaultVatRate, 0);
  t.equal(await accountTotal(api), 50);
});

t.test('PUT of a user account changes name, description and defaultVatRate: {updated: true}', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await api.request('PUT', `/v1/accounts/${acc['5100']}`, {
    body: { name: 'Office Costs', description: 'Stationery and postage', defaultVatRate: 5 },
  });
  t.equal(r.status, 200);
  t.equal(r.body.data.updated, true);
  const got = await api.request('GET', `/v1/accounts/${acc['5100']}`);
  t.match(got.body.data, {
    code: '5100',
    name: 'Office Costs',
    description: 'Stationery and postage',
    defaultVatRate: 5,
    accountType: 'expense',
    isActive: true,
  });
  const line = await postOk(t, api, {
    lines: [
      { accountId: acc['5100']!, amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  const txn = await api.request('GET', `/v1/transactions/${line}`);
  t.equal(txn.body.data.lines[0].accountName, 'Office Costs', 'lines show the new name');
  const cleared = await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { description: null, defaultVatRate: null } });
  t.equal(cleared.status, 200);
  t.match((await api.request('GET', `/v1/accounts/${acc['5100']}`)).body.data, { name: 'Office Costs', description: null, defaultVatRate: null });
});

t.test('PUT of a user account: bad values are 400 and change nothing', async (t) => {
  const { api, acc } = await ledger(t);
  const before = (await api.request('GET', `/v1/accounts/${acc['5100']}`)).body.data;
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { name: 'n'.repeat(201) } }), 400, 'validation_error', { field: 'name' });
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { description: 'd'.repeat(501) } }), 400, 'validation_error', {
    field: 'description',
  });
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { defaultVatRate: 101 } }), 400, 'validation_error', {
    field: 'defaultVatRate',
  });
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { isActive: 'no' } }), 400, 'invalid_type', { field: 'isActive' });
  t.same((await api.request('GET', `/v1/accounts/${acc['5100']}`)).body.data, before);
  expectError(t, await api.request('PUT', '/v1/accounts/5100', { body: { name: 'x' } }), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('PUT', '/v1/accounts/acc_nothere000000000000', { body: { name: 'x' } }), 404, 'not_found');
});

t.test('a system account: isActive toggles both ways', async (t) => {
  const { api, acc } = await ledger(t);
  const off = await api.request('PUT', `/v1/accounts/${acc['1200']}`, { body: { isActive: false } });
  t.equal(off.status, 200);
  t.equal(off.body.data.updated, true);
  t.match((await api.request('GET', `/v1/accounts/${acc['1200']}`)).body.data, { isActive: false, isSystem: true, name: 'Bank Account' });
  const on = await api.request('PUT', `/v1/accounts/${acc['1200']}`, { body: { isActive: true } });
  t.equal(on.status, 200);
  t.match((await api.request('GET', `/v1/accounts/${acc['1200']}`)).body.data, { isActive: true, isSystem: true });
});

t.test('a system account: name, description, defaultVatRate and code are 422, and nothing changes', async (t) => {
  const { api, acc } = await ledger(t);
  const before = (await api.request('GET', `/v1/accounts/${acc['4000']}`)).body.data;
  for (const body of [
    { name: 'Turnover' },
    { description: 'All sales' },
    { defaultVatRate: 5 },
    { code: '4001' },
    { accountType: 'equity' },
    { name: 'Turnover', isActive: false },
  ]) {
    const r = await api.request('PUT', `/v1/accounts/${acc['4000']}`, { body });
    expectError(t, r, 422, 'unprocessable_entity', { field: null });
  }
  t.same((await api.request('GET', `/v1/accounts/${acc['4000']}`)).body.data, before, 'unchanged, isActive included');
});

t.test('the code of a user account cannot change either (422)', async (t) => {
  const { api, acc } = await ledger(t);
  const before = (await api.request('GET', `/v1/accounts/${acc['5990']}`)).body.data;
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { code: '5991' } }), 422, 'unprocessable_entity');
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { code: '5991', name: 'Misc' } }), 422, 'unprocessable_entity');
  t.same((await api.request('GET', `/v1/accounts/${acc['5990']}`)).body.data, before);
});

t.test('PUT sending fields at their current values: accepted and not a change; a real change of them stays 422', async (t) => {
  const clock = movingClock(ledgerClock);
  const { api, acc } = await ledger(t, { clock });
  const get = async (code: string) => (await api.request('GET', `/v1/accounts/${acc[code]}`)).body.data;
  const office = await get('5100');
  clock.advance(60_000);
  // What a client that reads the account and writes back every field PUT takes would send, unchanged.
  const { name, description, defaultVatRate, isCostOfSales, isActive, code, accountType, parentId, isControlAccount, controlType } = office;
  const whole = { name, description, defaultVatRate, isCostOfSales, isActive, code, accountType, parentId, isControlAccount, controlType };
  for (const body of [{}, { isControlAccount: false }, { accountType: 'expense' }, whole]) {
    const r = await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body });
    t.equal(r.status, 200, `${JSON.stringify(body)}: ${JSON.stringify(r.body?.error ?? '')}`);
  }
  t.same(await get('5100'), office, 'nothing changed, updatedAt included');
  // A system account: its name (and the rest) at their current values, isActive as it is.
  const bank = await get('1200');
  for (const body of [
    { isActive: true, name: 'Bank Account' },
    { name: bank.name, description: bank.description, defaultVatRate: bank.defaultVatRate, isCostOfSales: false, code: '1200', controlType: 'bank' },
  ]) {
    const r = await api.request('PUT', `/v1/accounts/${acc['1200']}`, { body });
    t.equal(r.status, 200, `${JSON.stringify(body)}: ${JSON.stringify(r.body?.error ?? '')}`);
  }
  t.same(await get('1200'), bank, 'the system account is unchanged, updatedAt included');
  // Real changes are refused as ever, and change nothing.
  for (const [id, body, message] of [
    [acc['5100'], { ...whole, accountType: 'equity' }, 'accountType cannot change once an account exists'],
    [acc['5100'], { isControlAccount: true }, 'isControlAccount cannot change once an account exists'],
    [acc['1200'], { isActive: true, name: 'Current Account' }, '1200 Bank Account is a system account: only isActive can change'],
  ] as const) {
    expectError(t, await api.request('PUT', `/v1/accounts/${id}`, { body }), 422, 'unprocessable_entity', { message });
  }
  t.same([await get('5100'), await get('1200')], [office, bank]);
  // A real change moves updatedAt to now (10:01).
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { ...whole, name: 'Office Costs' } })).status, 200);
  t.match(await get('5100'), { name: 'Office Costs', updatedAt: '2026-11-21T10:01:00.000Z' });
});

t.test('DELETE of an account with no transactions, no children, not system: {deleted: true}, then 404', async (t) => {
  const { api } = await ledger(t);
  const created = await api.request('POST', '/v1/accounts', { body: { code: '5960', name: 'Staff Training', accountType: 'expense' } });
  const id = created.body.data.id as string;
  const r = await api.request('DELETE', `/v1/accounts/${id}`);
  t.equal(r.status, 200);
  t.equal(r.body.data.deleted, true);
  t.notOk('deactivated' in r.body.data);
  expectError(t, await api.request('GET', `/v1/accounts/${id}`), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/accounts/${id}`), 404, 'not_found');
  t.equal(await accountTotal(api), 48);
});

t.test('DELETE of a provisioned user account without transactions removes it', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await api.request('DELETE', `/v1/accounts/${acc['5920']}`);
  t.equal(r.status, 200);
  t.equal(r.body.data.deleted, true);
  expectError(t, await api.request('GET', `/v1/accounts/${acc['5920']}`), 404, 'not_found');
  t.equal(await accountTotal(api), 47);
});

t.test('DELETE of an account with transactions deactivates it: {deactivated: true, message}; its history stays', async (t) => {
  const { api, acc } = await ledger(t);
  await postOk(t, api, {
    date: '2026-02-05',
    lines: [
      { accountId: acc['5990']!, amount: 4500 },
      { accountId: acc['1200']!, amount: -4500 },
    ],
  });
  const r = await api.request('DELETE', `/v1/accounts/${acc['5990']}`);
  t.equal(r.status, 200);
  t.equal(r.body.data.deactivated, true);
  t.notOk(r.body.data.deleted, 'not deleted');
  t.type(r.body.data.message, 'string');
  t.not(r.body.data.message, '');
  const got = await api.request('GET', `/v1/accounts/${acc['5990']}`);
  t.equal(got.status, 200, 'still there');
  t.equal(got.body.data.isActive, false);
  t.equal(await accountTotal(api), 48);
  t.same(await balanceOf(api, acc['5990']!), { debit: 4500, credit: 0, net: 4500 }, 'its balance is kept');
});

t.test('posting to a deactivated account is 400 validation_error on that line, and nothing is stored', async (t) => {
  const { books, api, acc } = await ledger(t);
  await postOk(t, api, {
    lines: [
      { accountId: acc['5990']!, amount: 4500 },
      { accountId: acc['1200']!, amount: -4500 },
    ],
  });
  t.equal((await api.request('DELETE', `/v1/accounts/${acc['5990']}`)).body.data.deactivated, true);
  const events = (await outbox(books)).length;
  const r = await post(api, {
    lines: [
      { accountId: acc['1200']!, amount: -100 },
      { accountId: acc['5990']!, amount: 100 },
    ],
  });
  expectError(t, r, 400, 'validation_error', { field: 'lines[1].accountId' });
  t.equal(await transactionTotal(api), 1);
  t.equal((await outbox(books)).length, events);
  t.same(await balanceOf(api, acc['5990']!), { debit: 4500, credit: 0, net: 4500 });
  // Reactivated, it takes postings again.
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { isActive: true } })).status, 200);
  t.equal(
    (
      await post(api, {
        lines: [
          { accountId: acc['1200']!, amount: -100 },
          { accountId: acc['5990']!, amount: 100 },
        ],
      })
    ).status,
    201,
  );
});

t.test('DELETE of an account with children is 422 and it stays', async (t) => {
  const { api, acc } = await ledger(t);
  expectError(t, await api.request('DELETE', `/v1/accounts/${acc['1000']}`), 422, 'unprocessable_entity', { field: null });
  t.match((await api.request('GET', `/v1/accounts/${acc['1000']}`)).body.data, { code: '1000', isActive: true });
  const parent = await api.request('POST', '/v1/accounts', { body: { code: '5970', name: 'Staff costs', accountType: 'expense' } });
  const child = await api.request('POST', '/v1/accounts', {
    body: { code: '5971', name: 'Staff party', accountType: 'expense', parentId: parent.body.data.id },
  });
  expectError(t, await api.request('DELETE', `/v1/accounts/${parent.body.data.id}`), 422, 'unprocessable_entity');
  t.equal((await api.request('GET', `/v1/accounts/${parent.body.data.id}`)).status, 200);
  t.equal((await api.request('DELETE', `/v1/accounts/${child.body.data.id}`)).body.data.deleted, true);
  t.equal((await api.request('DELETE', `/v1/accounts/${parent.body.data.id}`)).body.data.deleted, true, 'without children it can go');
});

t.test('DELETE of a system account is 422, with or without transactions', async (t) => {
  const { api, acc } = await ledger(t);
  expectError(t, await api.request('DELETE', `/v1/accounts/${acc['1198']}`), 422, 'unprocessable_entity', { field: null });
  await postOk(t, api, {
    lines: [
      { accountId: acc['1200']!, amount: 100 },
      { accountId: acc['4000']!, amount: -100 },
    ],
  });
  expectError(t, await api.request('DELETE', `/v1/accounts/${acc['1200']}`), 422, 'unprocessable_entity', { field: null });
  for (const code of ['1198', '1200']) {
    t.match((await api.request('GET', `/v1/accounts/${acc[code]}`)).body.data, { code, isActive: true, isSystem: true }, `${code} stays active`);
  }
  expectError(t, await api.request('DELETE', '/v1/accounts/1200'), 400, 'invalid_id');
});

t.test('DELETE of an account whose only lines are on a draft deactivates it too', async (t) => {
  const { api, acc } = await ledger(t);
  await postOk(t, api, {
    status: 'draft',
    lines: [
      { accountId: acc['5990']!, amount: 100 },
      { accountId: acc['1200']!, amount: -100 },
    ],
  });
  const r = await api.request('DELETE', `/v1/accounts/${acc['5990']}`);
  t.equal(r.status, 200);
  t.equal(r.body.data.deactivated, true);
  t.equal((await api.request('GET', `/v1/accounts/${acc['5990']}`)).body.data.isActive, false);
});

t.test('control accounts: controlType makes a control account; controlType with isControlAccount false is 400', async (t) => {
  const { api } = await ledger(t);
  const bank = await api.request('POST', '/v1/accounts', { body: { code: '1220', name: 'Deposit Account', accountType: 'asset', controlType: 'bank' } });
  t.equal(bank.status, 201);
  t.match(bank.body.data, { isControlAccount: true, controlType: 'bank', isSystem: false });
  const flagged = await api.request('POST', '/v1/accounts', { body: { code: '1230', name: 'Card float', accountType: 'asset', isControlAccount: true } });
  t.match(flagged.body.data, { isControlAccount: true, controlType: null });
  const contradiction = await api.request('POST', '/v1/accounts', {
    body: { code: '1240', name: 'Odd', accountType: 'asset', isControlAccount: false, controlType: 'bank' },
  });
  expectError(t, contradiction, 400, 'validation_error', { field: 'controlType' });
  expectError(
    t,
    await api.request('POST', '/v1/accounts', { body: { code: '1240', name: 'Odd', accountType: 'asset', controlType: 'cash' } }),
    400,
    'validation_error',
    {
      field: 'controlType',
    },
  );
  t.equal(await accountTotal(api), 50);
});

t.test('a control type belongs to its side of the balance sheet: bank and receivables on an asset, payables on a liability, VAT on either', async (t) => {
  const { api } = await ledger(t);
  const before = await accountTotal(api);
  // An expense taking customers' money as a "bank" would understate profit by every receipt paid into it.
  for (const [code, accountType, controlType] of [
    ['6190', 'expense', 'bank'],
    ['4190', 'revenue', 'receivables'],
    ['2390', 'liability', 'receivables'],
    ['1290', 'asset', 'payables'],
    ['3190', 'equity', 'vat'],
  ] as const) {
    const r = await api.request('POST', '/v1/accounts', { body: { code, name: `Odd ${code}`, accountType, controlType } });
    expectError(t, r, 400, 'validation_error', { field: 'controlType', message: new RegExp(`controlType ${controlType}.*${accountType}`) });
  }
  t.equal(await accountTotal(api), before, 'nothing created');
  for (const [code, accountType, controlType] of [
    ['1221', 'asset', 'bank'],
    ['1111', 'asset', 'receivables'],
    ['2111', 'liability', 'payables'],
    ['2211', 'liability', 'vat'],
    ['1161', 'asset', 'vat'],
  ] as const) {
    const r = await api.request('POST', '/v1/accounts', { body: { code, name: `Control ${code}`, accountType, controlType } });
    t.equal(r.status, 201, `${controlType} on ${accountType}: ${JSON.stringify(r.body.error ?? '')}`);
  }
});

t.test('DELETE of an account a bank account or a categorisation rule names: 422 saying which, or deactivated once the bank account is archived', async (t) => {
  const { api } = await ledger(t);
  const bank = await api.request('POST', '/v1/bank-accounts', { body: { accountName: 'Deposit' } });
  t.equal(bank.status, 201, JSON.stringify(bank.body.error ?? ''));
  const ledgerAccount = bank.body.data.accountId as string;
  expectError(t, await api.request('DELETE', `/v1/accounts/${ledgerAccount}`), 422, 'unprocessable_entity', {
    message: /is the ledger account of the bank account Deposit: archive the bank account first/,
  });
  t.equal((await api.request('GET', `/v1/accounts/${ledgerAccount}`)).body.data.isActive, true, 'still there and active');
  t.equal((await api.request('DELETE', `/v1/bank-accounts/${bank.body.data.id}`)).status, 200, 'bank account archived');
  const gone = await api.request('DELETE', `/v1/accounts/${ledgerAccount}`);
  t.equal(gone.status, 200, JSON.stringify(gone.body.error ?? ''));
  t.match(gone.body.data, { id: ledgerAccount, deactivated: true, message: /archived bank account Deposit/ });

  const training = await api.request('POST', '/v1/accounts', { body: { code: '5155', name: 'Training', accountType: 'expense' } });
  const rule = await api.request('POST', '/v1/categorisation-rules', {
    body: { name: 'Courses', field: 'description', operator: 'contains', value: 'UDEMY', targetAccountId: training.body.data.id },
  });
  t.equal(rule.status, 201, JSON.stringify(rule.body.error ?? ''));
  expectError(t, await api.request('DELETE', `/v1/accounts/${training.body.data.id}`), 422, 'unprocessable_entity', {
    message: new RegExp(`categorisation rule ${rule.body.data.id} "Courses" files bank lines to 5155 Training: delete the rule or change its target first`),
  });
  t.equal((await api.request('DELETE', `/v1/categorisation-rules/${rule.body.data.id}`)).status, 200);
  t.same((await api.request('DELETE', `/v1/accounts/${training.body.data.id}`)).body.data, { id: training.body.data.id, deleted: true });
});
