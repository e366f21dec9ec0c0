/** Reading the chart over HTTP: the tree, the flat list and its filters, the types, one account, an account's balance. */
import t from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { accountIds, expectError, ledger, postOk } from './support.js';

/** The provisioned UK chart of a limited company, in code order. */
const chartCodes = [
  '1000',
  '1010',
  '1020',
  '1030',
  '1090',
  '1100',
  '1150',
  '1198',
  '1200',
  '1210',
  '1250',
  '1300',
  '2100',
  '2150',
  '2198',
  '2200',
  '2201',
  '2202',
  '2210',
  '2300',
  '2400',
  '2500',
  '2600',
  '2700',
  '3000',
  '3100',
  '3200',
  '4000',
  '4100',
  '4200',
  '4300',
  '5000',
  '5100',
  '5200',
  '5300',
  '5400',
  '5500',
  '5600',
  '5700',
  '5800',
  '5850',
  '5900',
  '5910',
  '5920',
  '5930',
  '5950',
  '5990',
  '9999',
];

interface Node {
  id: string;
  code: string;
  parentId: string | null;
  children: Node[];
}

t.test('GET /accounts is a tree: children nested under their parents, meta.total counts every account', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await api.request('GET', '/v1/accounts');
  t.equal(r.status, 200);
  t.equal(r.body.data.meta.total, 48);
  const roots = r.body.data.accounts as Node[];
  t.equal(roots.length, 44, '48 accounts, 4 of them children of 1000');
  t.notOk(
    roots.some((n) => ['1010', '1020', '1030', '1090'].includes(n.code)),
    'children are not roots',
  );
  const fixed = roots.find((n) => n.code === '1000');
  t.ok(fixed, '1000 is a root');
  t.equal(fixed?.parentId, null);
  t.same(
    fixed?.children.map((c) => c.code),
    ['1010', '1020', '1030', '1090'],
  );
  t.match(fixed?.children[0], { code: '1010', name: 'Office Equipment', accountType: 'asset', parentId: acc['1000'], children: [] });
  for (const child of fixed?.children ?? []) t.same(child.children, [], `${child.code} has no children`);
  const bank = roots.find((n) => n.code === '1200');
  t.same(bank?.children, [], 'a leaf has an empty children array');
  t.same(
    roots.map((n) => n.code),
    chartCodes.filter((c) => !['1010', '1020', '1030', '1090'].includes(c)),
    'roots in code order',
  );
});

t.test('GET /accounts?flat=true is the flat list in code order', async (t) => {
  const { api } = await ledger(t);
  const r = await api.request('GET', '/v1/accounts?flat=true');
  t.equal(r.status, 200);
  const accounts = r.body.data.accounts as { code: string }[];
  t.same(
    accounts.map((a) => a.code),
    chartCodes,
  );
  t.equal(r.body.data.meta.total, 48);
  for (const a of accounts) t.notOk('children' in a, `no children member on ${a.code}`);
  const explicitTree = await api.request('GET', '/v1/accounts?flat=false');
  t.equal(explicitTree.body.data.accounts.length, 44, 'flat=false is the tree');
});

t.test('filters type and active', async (t) => {
  const { api, acc } = await ledger(t);
  const equity = await api.request('GET', '/v1/accounts?flat=true&type=equity');
  t.same(
    equity.body.data.accounts.map((a: { code: string; name: string; accountType: string }) => [a.code, a.name, a.accountType]),
    [
      ['3000', 'Share Capital', 'equity'],
      ['3100', 'Retained Earnings', 'equity'],
      ['3200', 'Dividends', 'equity'],
    ],
  );
  t.equal(equity.body.data.meta.total, 3);
  const assetTree = await api.request('GET', '/v1/accounts?type=asset');
  t.equal(assetTree.body.data.meta.total, 13);
  t.equal(assetTree.body.data.accounts.length, 9, 'the asset tree has 9 roots');
  t.equal(assetTree.body.data.accounts.find((n: Node) => n.code === '1000').children.length, 4);

  const noneInactive = await api.request('GET', '/v1/accounts?flat=true&active=false');
  t.same(noneInactive.body.data.accounts, []);
  t.equal(noneInactive.body.data.meta.total, 0);

  t.equal((await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { isActive: false } })).status, 200);
  const inactive = await api.request('GET', '/v1/accounts?flat=true&active=false');
  t.same(
    inactive.body.data.accounts.map((a: { code: string; isActive: boolean }) => [a.code, a.isActive]),
    [['5990', false]],
  );
  t.equal(inactive.body.data.meta.total, 1);
  const active = await api.request('GET', '/v1/accounts?flat=true&active=true');
  t.equal(active.body.data.meta.total, 47);
  t.notOk(active.body.data.accounts.some((a: { code: string }) => a.code === '5990'));
  const activeExpenses = await api.request('GET', '/v1/accounts?flat=true&active=true&type=expense');
  t.equal(activeExpenses.body.data.meta.total, 15);
  const all = await api.request('GET', '/v1/accounts?flat=true');
  t.equal(all.body.data.meta.total, 48, 'without active, inactive accounts are listed too');

  expectError(t, await api.request('GET', '/v1/accounts?type=income'), 400, 'validation_error', { field: 'type' });
  expectError(t, await api.request('GET', '/v1/accounts?active=perhaps'), 400, 'invalid_type', { field: 'active' });
  expectError(t, await api.request('GET', '/v1/accounts?flat=2'), 400, 'invalid_type', { field: 'flat' });
});

t.test('GET /accounts/types: the 5 types with count and activeCount; deactivating changes activeCount', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await api.request('GET', '/v1/accounts/types');
  t.equal(r.status, 200);
  t.same(r.body.data.types, [
    { type: 'asset', count: 13, activeCount: 13 },
    { type: 'liability', count: 12, activeCount: 12 },
    { type: 'equity', count: 3, activeCount: 3 },
    { type: 'revenue', count: 4, activeCount: 4 },
    { type: 'expense', count: 16, activeCount: 16 },
  ]);
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5990']}`, { body: { isActive: false } })).status, 200);
  t.equal((await api.request('PUT', `/v1/accounts/${acc['1198']}`, { body: { isActive: false } })).status, 200, 'a system account may be deactivated');
  const created = await api.request('POST', '/v1/accounts', { body: { code: '4400', name: 'Grants', accountType: 'revenue' } });
  t.equal(created.status, 201);
  const after = await api.request('GET', '/v1/accounts/types');
  t.same(after.body.data.types, [
    { type: 'asset', count: 13, activeCount: 12 },
    { type: 'liability', count: 12, activeCount: 12 },
    { type: 'equity', count: 3, activeCount: 3 },
    { type: 'revenue', count: 5, activeCount: 5 },
    { type: 'expense', count: 16, activeCount: 15 },
  ]);
});

t.test('GET /accounts/{id} shows the account object', async (t) => {
  const { api, acc } = await ledger(t);
  const bank = await api.request('GET', `/v1/accounts/${acc['1200']}`);
  t.equal(bank.status, 200);
  t.match(bank.body.data, {
    id: acc['1200'],
    code: '1200',
    name: 'Bank Account',
    accountType: 'asset',
    parentId: null,
    description: 'The main business current account',
    defaultVatRate: null,
    isActive: true,
    isSystem: true,
    isControlAccount: true,
    controlType: 'bank',
  });
  t.type(bank.body.data.createdAt, 'string');
  t.type(bank.body.data.updatedAt, 'string');
  const office = await api.request('GET', `/v1/accounts/${acc['1010']}`);
  t.match(office.body.data, { code: '1010', parentId: acc['1000'], isSystem: false, isControlAccount: false, controlType: null });
  const sales = await api.request('GET', `/v1/accounts/${acc['4000']}`);
  t.match(sales.body.data, { code: '4000', name: 'Sales', accountType: 'revenue', defaultVatRate: 20, isSystem: true });

  for (const id of ['1200', 'txn_123', 'acc_', 'acc_12-34']) {
    expectError(t, await api.request('GET', `/v1/accounts/${id}`), 400, 'invalid_id', { field: 'id' });
  }
  expectError(t, await api.request('GET', '/v1/accounts/acc_doesnotexist0000000000'), 404, 'not_found', { field: null });
});

t.test('an account of another organisation is 404', async (t) => {
  const { books, api } = await ledger(t);
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  const theirs = await accountIds(t, api, other.apiKey);
  expectError(t, await api.request('GET', `/v1/accounts/${theirs['1200']}`), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/accounts/${theirs['1200']}/balance`), 404, 'not_found');
  expectError(t, await api.request('PUT', `/v1/accounts/${theirs['5990']}`, { body: { isActive: false } }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/accounts/${theirs['5990']}`), 404, 'not_found');
  const still = await api.request('GET', `/v1/accounts/${theirs['5990']}`, { key: other.apiKey });
  t.equal(still.body.data.isActive, true, 'left alone');
});

t.test('GET /accounts/{id}/balance: debit, credit, net = debit − credit, period, transactionCount, posted only', async (t) => {
  const { api, acc } = await ledger(t);
  const two = (date: string, debitCode: string, creditCode: string, amount: number, status: 'draft' | 'posted' = 'posted') =>
    postOk(t, api, {
      date,
      status,
      lines: [
        { accountId: acc[debitCode]!, amount },
        { accountId: acc[creditCode]!, amount: -amount },
      ],
    });
  await two('2026-01-31', '5100', '1200', 1000);
  await two('2026-02-05', '5100', '1200', 12000);
  await two('2026-02-10', '1200', '5100', 2000); // a refund: credit 5100
  await two('2026-02-15', '5100', '1200', 700, 'draft'); // not counted
  await postOk(t, api, {
    date: '2026-04-01',
    lines: [
      { accountId: acc['5100']!, amount: 300 },
      { accountId: acc['5100']!, amount: 200 },
      { accountId: acc['1200']!, amount: -500 },
    ],
  });

  const ranged = await api.request('GET', `/v1/accounts/${acc['5100']}/balance?from=2026-02-01&to=2026-03-31`);
  t.equal(ranged.status, 200);
  t.same(ranged.body.data, {
    account: { id: acc['5100'], code: '5100', name: 'Office Expenses', accountType: 'expense' },
    balance: { debit: 12000, credit: 2000, net: 10000 },
    period: { from: '2026-02-01', to: '2026-03-31' },
    transactionCount: 2,
  });

  const all = await api.request('GET', `/v1/accounts/${acc['5100']}/balance`);
  t.same(all.body.data.balance, { debit: 13500, credit: 2000, net: 11500 });
  t.equal(all.body.data.transactionCount, 4, 'the draft is not counted; two lines of one transaction count once');
  t.same(all.body.data.period, { from: null, to: null });

  const fromOnly = await api.request('GET', `/v1/accounts/${acc['5100']}/balance?from=2026-04-01`);
  t.same(fromOnly.body.data.balance, { debit: 500, credit: 0, net: 500 });
  t.equal(fromOnly.body.data.transactionCount, 1);
  const toOnly = await api.request('GET', `/v1/accounts/${acc['5100']}/balance?to=2026-02-05`);
  t.same(toOnly.body.data.balance, { debit: 13000, credit: 0, net: 13000 }, 'to is inclusive');
  t.equal(toOnly.body.data.transactionCount, 2);

  const bank = await api.request('GET', `/v1/accounts/${acc['1200']}/balance`);
  t.same(bank.body.data.balance, { debit: 2000, credit: 13500, net: -11500 }, 'an asset credited more than debited is negative');
  t.equal(bank.body.data.transactionCount, 4);

  const unused = await api.request('GET', `/v1/accounts/${acc['5920']}/balance`);
  t.same(unused.body.data.balance, { debit: 0, credit: 0, net: 0 });
  t.equal(unused.body.data.transactionCount, 0);
});

t.test('balance: from after to is 400; bad dates invalid_date; bad ids invalid_id or 404', async (t) => {
  const { api, acc } = await ledger(t);
  expectError(t, await api.request('GET', `/v1/accounts/${acc['5100']}/balance?from=2026-03-01&to=2026-02-28`), 400, 'validation_error');
  expectError(t, await api.request('GET', `/v1/accounts/${acc['5100']}/balance?from=2026-02-30`), 400, 'invalid_date', { field: 'from' });
  expectError(t, await api.request('GET', `/v1/accounts/${acc['5100']}/balance?to=31-03-2026`), 400, 'invalid_date', { field: 'to' });
  expectError(t, await api.request('GET', '/v1/accounts/5100/balance'), 400, 'invalid_id', { field: 'id' });
  expectError(t, await api.request('GET', '/v1/accounts/acc_doesnotexist0000000000/balance'), 404, 'not_found');
  const same = await api.request('GET', `/v1/accounts/${acc['5100']}/balance?from=2026-03-01&to=2026-03-01`);
  t.equal(same.status, 200, 'from equal to to is a one-day range');
});
