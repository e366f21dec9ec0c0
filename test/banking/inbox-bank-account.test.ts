/**
 * The inbox says which bank account each suspense line came in on: with two
 * bank accounts (1200 Bank Account and a Savings account, 1201) the lines
 * of `acct bank inbox` could not be told apart. GET /bank/inbox (and a
 * line's suggestion) now carry bankAccount, the bank line's ledger account
 * (id, code, name), null for a line on suspense that no bank account holds;
 * `acct bank inbox` shows it in a bank column.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { books, cliOn } from '../cli/support.js';

const current = 'Date,Description,Amount\n02/11/2026,CORNER SHOP,-12.50\n';
const savings = 'Date,Description,Amount\n03/11/2026,INTEREST PAID,3.21\n';

t.test('acct bank inbox has a bank column naming each line’s bank account', async (t) => {
  const { dir } = await books(t);
  const { ok, json } = cliOn(t, dir);
  const t1 = `${dir}/current.csv`;
  const t2 = `${dir}/savings.csv`;
  const fs = await import('node:fs');
  fs.writeFileSync(t1, current);
  fs.writeFileSync(t2, savings);
  await ok('bank-accounts', 'create', '--account-name', 'Savings');
  await ok('bank', 'import', t1);
  await ok('bank', 'import', t2, '--account', 'Savings');

  const table = await ok('bank', 'inbox', '--wide');
  t.match(table, /transaction\s+date\s+bank\s+description\s+amount\s+suggestion/);
  t.match(table, /2026-11-02\s+1200 Bank Account\s+CORNER SHOP\s+-12\.50/);
  t.match(table, /2026-11-03\s+1201 Savings\s+INTEREST PAID\s+3\.21/);
  const lines = (await json('bank', 'inbox')) as { description: string; bankAccount: { code: string; name: string } | null }[];
  t.same(
    lines.map((l) => [l.description, l.bankAccount?.code, l.bankAccount?.name]),
    [
      ['CORNER SHOP', '1200', 'Bank Account'],
      ['INTEREST PAID', '1201', 'Savings'],
    ],
  );
});

t.test('GET /bank/inbox and a line’s suggestion carry bankAccount; null for a line on suspense off any bank account', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const saver = await api.request('POST', '/v1/bank-accounts', { body: { accountName: 'Savings' } });
  t.equal(saver.status, 201, JSON.stringify(saver.body.error ?? ''));
  for (const [file, bankAccountId] of [
    [current, 1],
    [savings, saver.body.data.id],
  ] as const) {
    const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file, bankAccountId } });
    t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
    t.equal((await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/confirm`, { body: {} })).status, 200);
  }
  // A journal of £5.00 from office expenses to suspense: on no bank account.
  const journal = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2026-11-04',
      description: 'Unsorted',
      lines: [
        { accountId: id('5100'), amount: 500 },
        { accountId: id('9999'), amount: -500 },
      ],
    },
  });
  t.equal(journal.status, 201, JSON.stringify(journal.body.error ?? ''));

  const inbox = await api.request('GET', '/v1/bank/inbox');
  t.equal(inbox.status, 200);
  t.same(
    (inbox.body.data as { description: string; bankAccount: unknown }[]).map((l) => [l.description, l.bankAccount]),
    [
      ['CORNER SHOP', { id: id('1200'), code: '1200', name: 'Bank Account', accountType: 'asset' }],
      ['INTEREST PAID', { id: saver.body.data.accountId, code: '1201', name: 'Savings', accountType: 'asset' }],
      ['Unsorted', null],
    ],
  );
  const one = await api.request('POST', `/v1/transactions/${inbox.body.data[1].transactionId}/suggest-category`);
  t.equal(one.status, 200, JSON.stringify(one.body.error ?? ''));
  t.match(one.body.data.bankAccount, { code: '1201', name: 'Savings' });
});
