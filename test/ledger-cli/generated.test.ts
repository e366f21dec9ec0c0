import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { newBooks, runCli, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';

t.test('the generated accounts and transactions commands, through the CLI', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const acct = (...args: string[]) => runCliInProcessJson(['--data', books.dataDir, '--json', ...args]);

  // Under --json a list is an array, though the API wraps this one as {accounts, meta}.
  const expenses = (await acct('accounts', 'list', '--flat', '--type', 'expense')).data as { code: string; id: string }[];
  t.equal(expenses.length, 16);
  const id = async (code: string) => {
    const all = (await acct('accounts', 'list', '--flat')).data as { code: string; id: string }[];
    return all.find((a) => a.code === code)?.id as string;
  };

  const created = await acct('accounts', 'create', '--code', '5150', '--name', 'Workshop Consumables', '--account-type', 'expense', '--default-vat-rate', '20');
  t.equal(created.status, 0, created.stderr);
  t.match(created.data, { code: '5150', accountType: 'expense', defaultVatRate: 20, isSystem: false });
  const duplicate = runCli(['--data', books.dataDir, 'accounts', 'create', '--code', '5150', '--name', 'Again', '--account-type', 'expense']);
  t.equal(duplicate.status, 4);
  t.match(duplicate.stderr, 'conflict: an account with code 5150 already exists');

  const consumables = (created.data as { id: string }).id;
  const body = JSON.stringify({
    lines: [
      { accountId: consumables, amount: 2500 },
      { accountId: await id('1200'), amount: -2500 },
    ],
  });
  const draft = await acct('transactions', 'create', '--date', '2026-10-01', '--description', 'Glue and screws', '--status', 'draft', '--body', body);
  t.equal(draft.status, 0, draft.stderr);
  const txn = (draft.data as { id: string }).id;
  t.match((await acct('transactions', 'list', '--status', 'draft')).data, [{ id: txn, status: 'draft', accountCodes: '5150,1200' }]);

  t.same((await acct('transactions', 'status', txn, '--status', 'posted')).data, { id: txn, status: 'posted' });
  t.match((await acct('transactions', 'reconcile', txn, '--reconciled', 'true')).data, {
    id: txn,
    isReconciled: true,
    reconciledAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
  });
  const refused = await runCliInProcess(['--data', books.dataDir, 'transactions', 'delete', txn]);
  t.equal(refused.status, 4);
  t.match(refused.stderr, 'already_reconciled');
  t.match((await acct('transactions', 'reconcile', txn, '--reconciled', 'false')).data, { isReconciled: false, reconciledAt: null });

  t.match((await acct('accounts', 'balance', consumables)).data, { balance: { debit: 2500, credit: 0, net: 2500 }, transactionCount: 1 });
  t.match((await acct('transactions', 'account', consumables, '--from', '2026-10-01')).data, {
    openingBalance: 0,
    entries: [{ transactionId: txn, debit: 2500, credit: 0, runningBalance: 2500 }],
    closingBalance: 2500,
  });

  const deleteUsed = await acct('accounts', 'delete', consumables);
  t.match(deleteUsed.data, { id: consumables, deactivated: true });
  t.match((await acct('accounts', 'get', consumables)).data, { isActive: false });
  t.same((await acct('accounts', 'update', consumables, '--is-active', 'true')).data, { id: consumables, updated: true });
  const system = await runCliInProcess(['--data', books.dataDir, 'accounts', 'update', await id('1200'), '--name', 'Renamed']);
  t.equal(system.status, 5);
  t.match(system.stderr, 'unprocessable_entity: 1200 Bank Account is a system account: only isActive can change');

  t.match((await acct('accounts', 'types')).data, [{ type: 'asset', count: 13, activeCount: 13 }]);
  const malformed = await runCliInProcess(['--data', books.dataDir, 'transactions', 'get', 'inv_1']);
  t.equal(malformed.status, 2);
  t.match(malformed.stderr, 'invalid_id');
});

t.test('transactions account prints every entry of the range, not the first page, unless --page or --limit asks for one', async (t) => {
  const books = await newBooks(t);
  // 120 receipts of £2.50 on 1200: more than a page of the API's largest (100).
  const journal = path.join(books.dataDir, 'j.jsonl');
  const rows = Array.from({ length: 120 }, (_, i) =>
    JSON.stringify({
      date: '2026-05-10',
      description: `Receipt ${i + 1}`,
      lines: [
        { accountCode: '1200', amount: 250 },
        { accountCode: '4000', amount: -250 },
      ],
    }),
  );
  fs.writeFileSync(journal, `${rows.join('\n')}\n`);
  t.equal((await runCliInProcess(['--data', books.dataDir, 'import', 'journal', journal])).status, 0);
  const whole = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'account', '1200'])).data as {
    entries: { runningBalance: number }[];
    closingBalance: number;
  };
  t.equal(whole.entries.length, 120);
  t.equal(whole.entries[119]?.runningBalance, 30000, '120 × £2.50 = £300.00');
  t.equal(whole.closingBalance, 30000);
  const page = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'account', '1200', '--limit', '50', '--page', '3'])).data as {
    data: { entries: unknown[] };
    meta: { total: number; page: number };
  };
  t.equal(page.data.entries.length, 20, 'page 3 of 50: entries 101–120');
  t.match(page.meta, { total: 120, page: 3 });
});
