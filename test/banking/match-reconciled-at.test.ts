/**
 * Matching a reconciled bank line on suspense to the entry already holding
 * its money moves the reconciliation to that entry with the time it was
 * first reconciled (man/acct-api.7: reconciling again keeps the first
 * reconciledAt), not the time of the match. Over HTTP, on a clock the test moves.
 */
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { movingClock } from '../helpers/clock.js';

async function ok(t: Test, api: Api, method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) {
  const r = await api.request(method, path, body === undefined ? {} : { body });
  t.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

t.test('a reconciled line matched to an entry: the entry is reconciled as of the line’s reconciliation', async (t) => {
  const clock = movingClock('2026-12-03T10:00:00.000Z');
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const accounts = (await ok(t, api, 'GET', '/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  // £30.00 of office supplies paid from the bank, entered by hand; the statement's line for it waits on suspense.
  const entry = await ok(t, api, 'POST', '/v1/transactions', {
    date: '2026-12-01',
    description: 'Office supplies',
    lines: [
      { accountId: id('1200'), amount: -3_000 },
      { accountId: id('5100'), amount: 3_000 },
    ],
  });
  const line = await ok(t, api, 'POST', '/v1/transactions', {
    date: '2026-12-01',
    description: 'CARD PAYMENT OFFICE SUPPLIES',
    lines: [
      { accountId: id('1200'), amount: -3_000 },
      { accountId: id('9999'), amount: 3_000 },
    ],
  });
  const first = await ok(t, api, 'PATCH', `/v1/transactions/${line.id}/reconcile`, { reconciled: true });
  t.equal(first.reconciledAt, '2026-12-03T10:00:00.000Z');

  clock.advance(60 * 60 * 1000);
  const matched = await ok(t, api, 'POST', `/v1/transactions/${line.id}/match`, { transactionId: entry.id }, 200);
  t.equal(matched.transactionId, entry.id);
  const now = await ok(t, api, 'GET', `/v1/transactions/${entry.id}`);
  t.match(now, { isReconciled: true, reconciledAt: '2026-12-03T10:00:00.000Z' }, 'the first reconciledAt, not the match’s 11:00');
});
