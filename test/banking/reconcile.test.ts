/**
 * Reconciling a bank account to a statement over HTTP: the unreconciled
 * posted lines up to a date, then all of them marked at once only when the
 * reconciled balance equals the statement balance (422 balance_mismatch
 * otherwise, nothing marked). Balances worked by hand.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';

t.test('reconcile to a statement: refused on a mismatch, all marked when it agrees', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const post = async (date: string, amount: number, other: string, status = 'posted') => {
    const r = await api.request('POST', '/v1/transactions', {
      body: {
        date,
        description: `Bank ${date}`,
        status,
        lines: [
          { accountId: id('1200'), amount },
          { accountId: id(other), amount: -amount },
        ],
      },
    });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
    return r.body.data.id as string;
  };
  const capital = await post('2026-05-01', 100_000, '3000'); // £1,000.00 in
  const supplies = await post('2026-05-03', -12_000, '5100'); // £120.00 out
  const sale = await post('2026-05-20', 45_000, '4000'); // £450.00 in
  await post('2026-05-10', -999, '5100', 'draft'); // a draft: not on the statement
  const june = await post('2026-06-02', -5_000, '5100'); // £50.00 out, after the statement

  const open = await api.request('GET', '/v1/bank-accounts/1/unreconciled?asOf=2026-05-31');
  t.equal(open.status, 200, JSON.stringify(open.body.error ?? ''));
  t.same(
    open.body.data.lines.map((l: { transactionId: string; amount: number }) => [l.transactionId, l.amount]),
    [
      [capital, 100_000],
      [supplies, -12_000],
      [sale, 45_000],
    ],
    'posted lines up to the date, oldest first; not the draft, not June',
  );
  // £1,000.00 − £120.00 + £450.00 = £1,330.00.
  t.equal(open.body.data.unreconciledTotal, 133_000);
  t.equal(open.body.data.reconciledBalance, 0);

  const wrong = await api.request('POST', '/v1/bank-accounts/1/reconcile', { body: { statementBalance: 133_100, asOf: '2026-05-31' } });
  t.equal(wrong.status, 422);
  t.equal(wrong.body.error.code, 'balance_mismatch');
  t.match(wrong.body.error.message, '£1,330.00');
  t.match(wrong.body.error.message, '£1.00 more on the statement');
  t.equal((await api.request('GET', '/v1/bank-accounts/1/unreconciled?asOf=2026-05-31')).body.data.lines.length, 3, 'nothing was marked');

  const ok = await api.request('POST', '/v1/bank-accounts/1/reconcile', { body: { statementBalance: 133_000, asOf: '2026-05-31' } });
  t.equal(ok.status, 200, JSON.stringify(ok.body.error ?? ''));
  t.same(ok.body.data, { bankAccountId: 1, asOf: '2026-05-31', statementBalance: 133_000, reconciledBalance: 133_000, marked: [capital, supplies, sale] });
  t.equal((await api.request('GET', `/v1/transactions/${sale}`)).body.data.isReconciled, true);

  const unknown = await api.request('POST', '/v1/bank-accounts/1/reconcile', {
    body: { statementBalance: 128_000, asOf: '2026-06-30', transactionIds: [sale] },
  });
  t.equal(unknown.status, 400, 'a transaction already reconciled is not among the lines to mark');
  t.equal(unknown.body.error.field, 'transactionIds');

  // £1,330.00 − £50.00 = £1,280.00.
  const next = await api.request('POST', '/v1/bank-accounts/1/reconcile', { body: { statementBalance: 128_000, asOf: '2026-06-30', transactionIds: [june] } });
  t.equal(next.status, 200, JSON.stringify(next.body.error ?? ''));
  t.equal(next.body.data.reconciledBalance, 128_000);

  const reader = await api.request('POST', '/v1/api-keys', { body: { name: 'reader', scopes: ['transactions:read'] } });
  const key = reader.body.data.key as string;
  t.equal((await api.request('GET', '/v1/bank-accounts/1/unreconciled?asOf=2026-06-30', { key })).status, 200);
  t.equal((await api.request('POST', '/v1/bank-accounts/1/reconcile', { key, body: { statementBalance: 0, asOf: '2026-06-30' } })).status, 403);
});
