/**
 * Cost of sales is an attribute of an account (isCostOfSales), not a range
 * of codes compared as text: over HTTP, a user expense account '501' is not
 * cost of sales, a flagged '5960' is, and gross profit follows the flags.
 * Figures are worked out by hand in the comments.
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { expectError, ledger, postOk } from '../ledger-http/support.js';
import type { Api } from '../helpers/index.js';

const grossProfit = async (api: Api) => {
  const r = await api.request('GET', '/v1/reports/profit-loss?from=2025-04-01&to=2026-03-31');
  if (r.status !== 200) throw new Error(`profit-loss: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data as { revenue: { total: number }; expenses: { total: number }; grossProfit: number; netProfit: number };
};

t.test('the provisioned chart: 5000 Cost of Sales carries the attribute, 5100 and 4000 do not', async (t) => {
  const { api, acc } = await ledger(t);
  const flat = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { code: string; isCostOfSales: boolean }[];
  t.same(
    flat.filter((a) => a.isCostOfSales).map((a) => a.code),
    ['5000'],
  );
  t.match((await api.request('GET', `/v1/accounts/${acc['5000']}`)).body.data, { code: '5000', isCostOfSales: true });
  t.match((await api.request('GET', `/v1/accounts/${acc['5100']}`)).body.data, { code: '5100', isCostOfSales: false });
  t.match((await api.request('GET', `/v1/accounts/${acc['4000']}`)).body.data, { code: '4000', isCostOfSales: false });
});

t.test('gross profit deducts the accounts marked cost of sales, whatever their codes', async (t) => {
  const { api, acc } = await ledger(t);
  const entertaining = await api.request('POST', '/v1/accounts', { body: { code: '501', name: 'Staff Entertaining', accountType: 'expense' } });
  t.equal(entertaining.status, 201);
  t.match(entertaining.body.data, { code: '501', isCostOfSales: false });
  const subcontract = await api.request('POST', '/v1/accounts', {
    body: { code: '5960', name: 'Subcontractors', accountType: 'expense', isCostOfSales: true },
  });
  t.equal(subcontract.status, 201);
  t.match(subcontract.body.data, { code: '5960', isCostOfSales: true });
  const e501 = entertaining.body.data.id as string;
  const e5960 = subcontract.body.data.id as string;

  const post = (date: string, description: string, lines: [string, number][]) =>
    postOk(t, api, { date, description, lines: lines.map(([accountId, amount]) => ({ accountId, amount })) });
  await post('2025-05-01', 'Sale', [
    [acc['1200'] as string, 300_000],
    [acc['4000'] as string, -250_000],
    [acc['2200'] as string, -50_000],
  ]);
  await post('2025-06-01', 'Materials', [
    [acc['5000'] as string, 40_000],
    [acc['1200'] as string, -40_000],
  ]);
  await post('2025-07-01', 'Subcontractor', [
    [e5960, 75_050],
    [acc['1200'] as string, -75_050],
  ]);
  await post('2025-08-01', 'Team lunch', [
    [e501, 12_345],
    [acc['1200'] as string, -12_345],
  ]);
  await post('2025-09-01', 'Stationery', [
    [acc['5100'] as string, 9_999],
    [acc['1200'] as string, -9_999],
  ]);

  // Revenue £2,500.00. Expenses 400.00 + 750.50 + 123.45 + 99.99 = £1,373.94; net 2,500.00 − 1,373.94 = £1,126.06.
  // Cost of sales 5000 £400.00 + 5960 £750.50 = £1,150.50; gross profit 2,500.00 − 1,150.50 = £1,349.50
  // (501's £123.45 is not cost of sales; by text comparison it was, and 5960 was not: £1,976.55).
  t.match(await grossProfit(api), { revenue: { total: 250_000 }, expenses: { total: 137_394 }, grossProfit: 134_950, netProfit: 112_606 });

  // 5100 marked: gross profit 1,349.50 − 99.99 = £1,249.51.
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5100']}`, { body: { isCostOfSales: true } })).status, 200);
  t.match((await api.request('GET', `/v1/accounts/${acc['5100']}`)).body.data, { isCostOfSales: true });
  t.match(await grossProfit(api), { grossProfit: 124_951, netProfit: 112_606 });
  // 5000 unmarked: 1,249.51 + 400.00 = £1,649.51. Net profit never moves.
  t.equal((await api.request('PUT', `/v1/accounts/${acc['5000']}`, { body: { isCostOfSales: false } })).status, 200);
  t.match(await grossProfit(api), { grossProfit: 164_951, netProfit: 112_606 });
});

t.test('only an expense account can be cost of sales: 400 validation_error on isCostOfSales, nothing written', async (t) => {
  const { api, acc } = await ledger(t);
  const before = (await api.request('GET', '/v1/accounts?flat=true')).body.data;
  const grants = await api.request('POST', '/v1/accounts', { body: { code: '4300', name: 'Grants', accountType: 'revenue', isCostOfSales: true } });
  expectError(t, grants, 400, 'validation_error', { field: 'isCostOfSales' });
  expectError(
    t,
    await api.request('POST', '/v1/accounts', { body: { code: '1310', name: 'Goods in transit', accountType: 'asset', isCostOfSales: true } }),
    400,
    'validation_error',
    {
      field: 'isCostOfSales',
    },
  );
  expectError(
    t,
    await api.request('POST', '/v1/accounts', { body: { code: '5970', name: 'Freight', accountType: 'expense', isCostOfSales: 'yes' } }),
    400,
    'invalid_type',
    {
      field: 'isCostOfSales',
    },
  );
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['4100']}`, { body: { isCostOfSales: true, name: 'Renamed' } }), 400, 'validation_error', {
    field: 'isCostOfSales',
  });
  expectError(t, await api.request('PUT', `/v1/accounts/${acc['4000']}`, { body: { isCostOfSales: true } }), 400, 'validation_error', {
    field: 'isCostOfSales',
  });
  // A system account allows only isActive to change; its current value sent back is no change (3dad626), and writes nothing.
  t.equal((await api.request('PUT', `/v1/accounts/${acc['1200']}`, { body: { isCostOfSales: false } })).status, 200, 'the current value is no change');
  t.same((await api.request('GET', '/v1/accounts?flat=true')).body.data, before, 'the chart is exactly as it was');
  const plain = await api.request('POST', '/v1/accounts', { body: { code: '4400', name: 'Grants', accountType: 'revenue', isCostOfSales: false } });
  t.equal(plain.status, 201, 'false is allowed on any account');
});

t.test('the CLI: --is-cost-of-sales on create, and the field in accounts get', async (t) => {
  const { books } = await ledger(t);
  const created = await runCliInProcess([
    '--data',
    books.dataDir,
    '--json',
    'accounts',
    'create',
    '--code',
    '5970',
    '--name',
    'Freight In',
    '--account-type',
    'expense',
    '--is-cost-of-sales',
  ]);
  t.equal(created.status, 0, created.stderr);
  const id = (JSON.parse(created.stdout) as { id: string; isCostOfSales: boolean }).id;
  const shown = await runCliInProcess(['--data', books.dataDir, 'accounts', 'get', id]);
  t.match(shown.stdout, /^isCostOfSales +yes$/m);
  const refused = await runCliInProcess([
    '--data',
    books.dataDir,
    'accounts',
    'create',
    '--code',
    '4300',
    '--name',
    'Grants',
    '--account-type',
    'revenue',
    '--is-cost-of-sales',
    'true',
  ]);
  t.equal(refused.status, 2);
  t.match(refused.stderr, 'validation_error');
});
