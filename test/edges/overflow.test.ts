/**
 * The cap that keeps every balance and report total exact: the debits of
 * all the books' transactions, drafts included, may add up to £10 trillion
 * (10^15 pence, a ninth of Number.MAX_SAFE_INTEGER) and no more. A posting
 * past it is 422 amount_too_large and writes nothing; up to it, the trial
 * balance is exact to the penny.
 */
import t, { type Test } from 'tap';
import { expectError, ledger, lineCount, post, postOk, transactionTotal, type Ledger } from '../ledger-http/support.js';

/** £99,999,999,999.99: one penny under the largest line. */
const big = 9_999_999_999_999;

/** The books' running total of debits, as the triggers keep it, and the sum it must equal. */
async function booksDebit(l: Ledger): Promise<{ kept: number; summed: number }> {
  const db = l.books.store.org(l.books.organisationId, 'live').db;
  const kept = await db.selectFrom('ledger_totals').select('total_debit').executeTakeFirstOrThrow();
  const summed = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.sum<number>('total_debit').as('n'))
    .executeTakeFirstOrThrow();
  return { kept: Number(kept.total_debit), summed: Number(summed.n) };
}

/** Books holding 999,999,999,999,999p of debits, one penny under the cap, all posted to 5100 (debit) and 1200 (credit). */
async function nearlyFull(t: Test): Promise<Ledger> {
  const l = await ledger(t);
  // 100 × 9,999,999,999,999p = 999,999,999,999,900p debited to 5100 and credited to 1200 in one transaction of 200 lines.
  const lines = [
    ...Array.from({ length: 100 }, () => ({ accountId: l.acc['5100']!, amount: big })),
    ...Array.from({ length: 100 }, () => ({ accountId: l.acc['1200']!, amount: -big })),
  ];
  await postOk(t, l.api, { description: 'A very large year', lines });
  // + 99p = 999,999,999,999,999p.
  await postOk(t, l.api, {
    lines: [
      { accountId: l.acc['5100']!, amount: 99 },
      { accountId: l.acc['1200']!, amount: -99 },
    ],
  });
  return l;
}

const penny = (l: Ledger, status: 'posted' | 'draft' = 'posted', pence = 1) => ({
  status,
  lines: [
    { accountId: l.acc['5100']!, amount: pence },
    { accountId: l.acc['1200']!, amount: -pence },
  ],
});

t.test('up to the cap is accepted and exact; one penny past it is 422 amount_too_large and writes nothing', async (t) => {
  const l = await nearlyFull(t);
  // 999,999,999,999,999p + 1p = 1,000,000,000,000,000p: exactly the cap, accepted.
  await postOk(t, l.api, penny(l));
  t.same(await booksDebit(l), { kept: 1_000_000_000_000_000, summed: 1_000_000_000_000_000 });

  const transactions = await transactionTotal(l.api);
  const lines = await lineCount(l.books);
  const refused = await post(l.api, penny(l));
  expectError(t, refused, 422, 'amount_too_large', { field: null, message: /£10,000,000,000,000\.01.*past the £10,000,000,000,000\.00/ });
  t.equal(await transactionTotal(l.api), transactions, 'no transaction written');
  t.equal(await lineCount(l.books), lines, 'no line written');
  t.same(await booksDebit(l), { kept: 1_000_000_000_000_000, summed: 1_000_000_000_000_000 }, 'the total is unchanged');

  // 5100 holds every debit and 1200 every credit: 1,000,000,000,000,000p each, to the penny (at the end of FY 2025/26,
  // the year of the postings, dated 2026-02-05).
  const tb = await l.api.request('GET', '/v1/reports/trial-balance?asOf=2026-03-31');
  t.equal(tb.status, 200);
  t.same(tb.body.data.totals, { debit: 1_000_000_000_000_000, credit: 1_000_000_000_000_000 });
  t.equal(tb.body.data.balanced, true);
  t.match(tb.body.data.accounts, [
    { code: '1200', debit: 0, credit: 1_000_000_000_000_000 },
    { code: '5100', debit: 1_000_000_000_000_000, credit: 0 },
  ]);
});

t.test('one transaction that alone would pass the cap is refused, whatever is already in the books', async (t) => {
  const l = await ledger(t);
  // 101 × 9,999,999,999,999p = 1,009,999,999,999,899p > 10^15p.
  const lines = [
    ...Array.from({ length: 101 }, () => ({ accountId: l.acc['5100']!, amount: big })),
    ...Array.from({ length: 101 }, () => ({ accountId: l.acc['1200']!, amount: -big })),
  ];
  expectError(t, await post(l.api, { lines }), 422, 'amount_too_large');
  t.equal(await transactionTotal(l.api), 0);
  t.equal(await lineCount(l.books), 0);
  t.same(await booksDebit(l), { kept: 0, summed: 0 });
});

t.test('drafts count: a draft past the cap, or a draft changed past it, is refused; deleting one makes room', async (t) => {
  const l = await nearlyFull(t);
  // 999,999,999,999,999p + a 1p draft = the cap.
  const draft = await postOk(t, l.api, penny(l, 'draft'));
  expectError(t, await post(l.api, penny(l, 'draft')), 422, 'amount_too_large');
  // The draft changed from 1p to 2p: 999,999,999,999,999p + 2p = 10^15 + 1p.
  const put = await l.api.request('PUT', `/v1/transactions/${draft}`, { body: { lines: penny(l, 'draft', 2).lines } });
  expectError(t, put, 422, 'amount_too_large');
  const kept = await l.api.request('GET', `/v1/transactions/${draft}`);
  t.same(
    kept.body.data.lines.map((x: { amount: number }) => x.amount),
    [1, -1],
    'the draft keeps its lines',
  );
  // Posting the draft adds nothing: it was counted already.
  t.equal((await l.api.request('PATCH', `/v1/transactions/${draft}/status`, { body: { status: 'posted' } })).status, 200);
  t.equal((await l.api.request('PATCH', `/v1/transactions/${draft}/status`, { body: { status: 'draft' } })).status, 200);
  t.equal((await l.api.request('DELETE', `/v1/transactions/${draft}`)).status, 200);
  t.same(await booksDebit(l), { kept: 999_999_999_999_999, summed: 999_999_999_999_999 }, 'the deleted draft left the total');
  await postOk(t, l.api, penny(l));
});
