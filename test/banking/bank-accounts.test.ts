/**
 * Bank accounts over HTTP: the primary account every organisation starts
 * with (over 1200), adding one over a new or an existing asset account,
 * validated UK details (sort code, account number, IBAN by its mod-97
 * check), one primary, archive rules, and the scope of accounts.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';

t.test('every organisation starts with its 1200 Bank Account as the primary bank account', async (t) => {
  const api = await serveBooks(t, await newBooks(t));
  const r = await api.request('GET', '/v1/bank-accounts');
  t.equal(r.status, 200);
  t.equal(r.body.data.length, 1);
  t.match(r.body.data[0], { id: 1, accountCode: '1200', accountName: 'Bank Account', isPrimary: true, isActive: true, sortCode: null });
});

t.test('details are validated and normalised; a sort code needs an account number', async (t) => {
  const api = await serveBooks(t, await newBooks(t));
  const refused = async (body: Record<string, unknown>, field: string) => {
    const r = await api.request('PATCH', '/v1/bank-accounts/1', { body });
    t.equal(r.status, 400, `${JSON.stringify(body)} refused`);
    t.equal(r.body.error.code, 'validation_error');
    t.equal(r.body.error.field, field, r.body.error.message);
  };
  await refused({ sortCode: '60-83-7', accountNumber: '12345678' }, 'sortCode');
  await refused({ sortCode: '60-83-71', accountNumber: '1234567' }, 'accountNumber');
  await refused({ sortCode: '60-83-71' }, 'accountNumber');
  // GB82 WEST 1234 5698 7654 32 is the standard example IBAN; changing one digit breaks its mod-97 check.
  await refused({ iban: 'GB82 WEST 1234 5698 7654 33' }, 'iban');
  await refused({ iban: 'GB82 WEST 1234 5698 7654 3' }, 'iban');
  const unchanged = await api.request('GET', '/v1/bank-accounts/1');
  t.equal(unchanged.body.data.sortCode, null, 'nothing was written by the refusals');

  const ok = await api.request('PATCH', '/v1/bank-accounts/1', {
    body: { bankName: 'Starling', holderName: 'Test Trading Ltd', sortCode: '608371', accountNumber: '1234 5678', iban: 'gb82 west 1234 5698 7654 32' },
  });
  t.equal(ok.status, 200, JSON.stringify(ok.body.error ?? ''));
  t.match(ok.body.data, {
    bankName: 'Starling',
    holderName: 'Test Trading Ltd',
    sortCode: '60-83-71',
    accountNumber: '12345678',
    iban: 'GB82WEST12345698765432',
  });

  const cleared = await api.request('PATCH', '/v1/bank-accounts/1', { body: { sortCode: null, accountNumber: '' } });
  t.equal(cleared.status, 200);
  t.match(cleared.body.data, { sortCode: null, accountNumber: null, iban: 'GB82WEST12345698765432' });
});

t.test('a new bank account over a new ledger account; one primary; archiving', async (t) => {
  const api = await serveBooks(t, await newBooks(t));
  const made = await api.request('POST', '/v1/bank-accounts', {
    body: { accountName: 'Business Savings', bankName: 'NatWest', sortCode: '60-00-01', accountNumber: '87654321' },
  });
  t.equal(made.status, 201, JSON.stringify(made.body.error ?? ''));
  t.match(made.body.data, { id: 2, accountCode: '1201', accountName: 'Business Savings', isPrimary: false });
  const ledger = await api.request('GET', `/v1/accounts/${made.body.data.accountId}`);
  t.match(ledger.body.data, { code: '1201', name: 'Business Savings', accountType: 'asset', controlType: 'bank' });

  const primary = await api.request('PATCH', '/v1/bank-accounts/2', { body: { isPrimary: true } });
  t.equal(primary.body.data.isPrimary, true);
  const list = await api.request('GET', '/v1/bank-accounts');
  t.same(
    list.body.data.map((b: { id: number; isPrimary: boolean }) => [b.id, b.isPrimary]),
    [
      [2, true],
      [1, false],
    ],
    'primary first, and only one',
  );

  const refused = await api.request('DELETE', '/v1/bank-accounts/2');
  t.equal(refused.status, 422, 'the primary account is not archived while another is active');
  const archived = await api.request('DELETE', '/v1/bank-accounts/1');
  t.equal(archived.status, 200);
  t.equal(archived.body.data.isActive, false);
  t.same(
    (await api.request('GET', '/v1/bank-accounts')).body.data.map((b: { id: number }) => b.id),
    [2],
    'archived accounts leave the list',
  );
  t.equal((await api.request('GET', '/v1/bank-accounts?includeArchived=true')).body.data.length, 2);
});

t.test('over an existing asset account: it becomes bank-controlled; a control account of another kind is refused', async (t) => {
  const api = await serveBooks(t, await newBooks(t));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const added = await api.request('POST', '/v1/accounts', { body: { code: '1260', name: 'Card Account', accountType: 'asset' } });
  t.equal(added.status, 201, JSON.stringify(added.body.error ?? ''));
  const over = await api.request('POST', '/v1/bank-accounts', { body: { accountName: 'Card Account', accountId: added.body.data.id } });
  t.equal(over.status, 201, JSON.stringify(over.body.error ?? ''));
  t.equal(over.body.data.accountCode, '1260');
  t.equal((await api.request('GET', `/v1/accounts/${added.body.data.id}`)).body.data.controlType, 'bank');

  for (const [code, status, why] of [
    ['1100', 400, 'the receivables control account'],
    ['4000', 400, 'a revenue account'],
    ['9999', 400, 'suspense'],
    ['1200', 409, 'already bank account 1'],
  ] as const) {
    const r = await api.request('POST', '/v1/bank-accounts', { body: { accountName: 'X', accountId: id(code) } });
    t.equal(r.status, status, `${code}: ${why} (${r.body.error?.message})`);
  }
  t.equal((await api.request('GET', '/v1/bank-accounts')).body.data.length, 2, 'the refusals added nothing');
});

t.test('bank accounts need the accounts scopes', async (t) => {
  const books = await newBooks(t);
  const api = await serveBooks(t, books);
  const key = await api.request('POST', '/v1/api-keys', { body: { name: 'reader', scopes: ['accounts:read'] } });
  t.equal(key.status, 201, JSON.stringify(key.body.error ?? ''));
  const reader = key.body.data.key as string;
  t.equal((await api.request('GET', '/v1/bank-accounts', { key: reader })).status, 200);
  const write = await api.request('POST', '/v1/bank-accounts', { key: reader, body: { accountName: 'Savings' } });
  t.equal(write.status, 403);
  t.match(write.body.error.message, /accounts:write/);
});
