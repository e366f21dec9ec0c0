/**
 * A bank line reconciled on its own statement (1200) while its other side
 * waits on suspense cannot be categorised to another bank account's ledger
 * account (409 already_reconciled, nothing written): a transaction is
 * reconciled as a whole, so the new line would count as reconciled on the
 * other account too, though no statement of that account ever showed it.
 * The rules do not suggest such a move either, so `acct bank accept`
 * passes the line over. Over HTTP.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';

async function ok(t: Test, api: Api, method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) {
  const r = await api.request(method, path, body === undefined ? {} : { body });
  t.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

async function world(t: Test) {
  const books = await newBooks(t, { clock: '2026-12-03T10:00:00Z' });
  const api = await serveBooks(t, books);
  const accounts = (await ok(t, api, 'GET', '/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  // £100.00 out of the current account to savings, on suspense until categorised.
  const line = await ok(t, api, 'POST', '/v1/transactions', {
    date: '2026-12-01',
    description: 'TO SAVINGS',
    lines: [
      { accountId: id('1200'), amount: -10_000 },
      { accountId: id('9999'), amount: 10_000 },
    ],
  });
  // The current account's statement shows the £100.00 out: reconciled balance 0 − 100.00 = −100.00.
  await ok(t, api, 'POST', '/v1/bank-accounts/1/reconcile', { statementBalance: -10_000, asOf: '2026-12-31' }, 200);
  const saver = await ok(t, api, 'POST', '/v1/bank-accounts', { accountName: 'Savings' });
  return { api, id, line: line.id as string, saver: saver as { id: number; accountId: string } };
}

t.test('a reconciled line categorised to another bank account is refused (409), nothing written', async (t) => {
  const { api, id, line, saver } = await world(t);
  const before = JSON.stringify(await ok(t, api, 'GET', `/v1/transactions/${line}`));
  const savingsBefore = await ok(t, api, 'GET', `/v1/bank-accounts/${saver.id}/unreconciled?asOf=2026-12-31`);
  t.match(savingsBefore, { reconciledBalance: 0, unreconciledTotal: 0, lines: [] });

  const r = await api.request('PATCH', `/v1/transactions/${line}/categorise`, { body: { accountId: saver.accountId } });
  t.equal(r.status, 409, JSON.stringify(r.body.error));
  // The envelope carries field on 400s only (the spec): the message names accountId and the account.
  t.match(r.body.error, { code: 'already_reconciled', message: /^accountId: .*is reconciled.*1201 Savings/ });
  t.equal(JSON.stringify(await ok(t, api, 'GET', `/v1/transactions/${line}`)), before, 'the transaction is unchanged');
  // Had it been written, savings would show a reconciled balance of £100.00 no statement showed.
  t.same(await ok(t, api, 'GET', `/v1/bank-accounts/${saver.id}/unreconciled?asOf=2026-12-31`), savingsBefore, 'savings unchanged');

  // An account no statement reconciles still takes it, reconciled as it is.
  const moved = await ok(t, api, 'PATCH', `/v1/transactions/${line}/categorise`, { accountId: id('5100') });
  t.equal(moved.isReconciled, true);
});

t.test('an unreconciled line may still go to another bank account (a transfer)', async (t) => {
  const { api, saver } = await world(t);
  const accounts = (await ok(t, api, 'GET', '/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const fresh = await ok(t, api, 'POST', '/v1/transactions', {
    date: '2026-12-02',
    description: 'TO SAVINGS',
    lines: [
      { accountId: id('1200'), amount: -5_000 },
      { accountId: id('9999'), amount: 5_000 },
    ],
  });
  await ok(t, api, 'PATCH', `/v1/transactions/${fresh.id}/categorise`, { accountId: saver.accountId });
  const savings = await ok(t, api, 'GET', `/v1/bank-accounts/${saver.id}/unreconciled?asOf=2026-12-31`);
  // £50.00 into savings, waiting for the savings statement.
  t.match(savings, { reconciledBalance: 0, unreconciledTotal: 5_000 });
});

t.test('a rule naming the other bank account does not suggest it for a reconciled line', async (t) => {
  const { api, line, saver } = await world(t);
  await ok(t, api, 'POST', '/v1/categorisation-rules', {
    name: 'Savings',
    field: 'description',
    operator: 'contains',
    value: 'TO SAVINGS',
    targetAccountId: saver.accountId,
  });
  const inbox = (await ok(t, api, 'GET', '/v1/bank/inbox')) as { transactionId: string; decision: { kind: string } }[];
  const mine = inbox.find((s) => s.transactionId === line);
  t.ok(mine, 'on suspense still');
  t.not(mine!.decision.kind, 'Known', 'not suggested: accepting it would be refused');
  const one = await ok(t, api, 'POST', `/v1/transactions/${line}/suggest-category`, {}, 200);
  t.not(one.decision.kind, 'Known');
});
