/**
 * PATCH /transactions/{id}/categorise over HTTP: the suspense line (9999)
 * moves to the chosen account with its VAT facts, which then reach the
 * VAT return; the return refuses the period while a line is on suspense
 * (incomplete_ledger) and accepts it after. Refusals write nothing.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';

async function world(t: Parameters<typeof newBooks>[0]) {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { vatScheme: 'standard' } });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  /** A bank line as an import leaves it: the bank's side, and the other side on suspense. */
  const onSuspense = async (date: string, amount: number) => {
    const r = await api.request('POST', '/v1/transactions', {
      body: {
        date,
        description: `CARD PAYMENT TO OFFICE SUPPLIES ${date}`,
        lines: [
          { accountId: id('1200'), amount },
          { accountId: id('9999'), amount: -amount },
        ],
      },
    });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
    return r.body.data.id as string;
  };
  return { books, api, id, onSuspense };
}

const quarter = '/v1/reports/vat?from=2026-04-01&to=2026-06-30';

t.test('a categorised bank payment carries its VAT into the return; suspense makes the period incomplete', async (t) => {
  const { api, id, onSuspense } = await world(t);
  // £120.00 paid out of the bank for office supplies, VAT inclusive at 20%.
  const txn = await onSuspense('2026-05-10', -12_000);

  const before = await api.request('GET', quarter);
  t.equal(before.status, 422);
  t.equal(before.body.error.code, 'incomplete_ledger');

  const r = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('5100'), vatRate: 20, vatTreatment: 'inclusive' } });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  const lines = r.body.data.lines as { accountCode: string; amount: number; vatAmount: number | null; vatTreatment: string | null }[];
  t.same(
    lines.map((l) => [l.accountCode, l.amount, l.vatAmount, l.vatTreatment]),
    [
      ['1200', -12_000, null, null],
      // £120.00 gross at 20% inclusive: VAT = 120 × 20/120 = £20.00, net £100.00.
      ['5100', 12_000, 2_000, 'inclusive'],
    ],
  );

  const after = await api.request('GET', quarter);
  t.equal(after.status, 200, JSON.stringify(after.body.error ?? ''));
  t.equal(after.body.data.boxes.box4, 2_000, 'box 4: the £20.00 of VAT inside the payment');
  t.equal(after.body.data.boxes.box7, 10_000, 'box 7: the £100.00 net');
  t.equal(after.body.data.boxes.box1, 0);
});

t.test('refusals: nothing on suspense, the suspense account itself, an unknown account; nothing written', async (t) => {
  const { api, id, onSuspense } = await world(t);
  const txn = await onSuspense('2026-05-10', 5_000);
  const untouched = JSON.stringify((await api.request('GET', `/v1/transactions/${txn}`)).body.data);

  const toSuspense = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('9999') } });
  t.equal(toSuspense.status, 400);
  t.equal(toSuspense.body.error.field, 'accountId');
  const unknown = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: 'acc_01aaaaaaaaaaaaaaaaaaaaaaaa' } });
  t.equal(unknown.status, 400, JSON.stringify(unknown.body.error));
  t.equal(unknown.body.error.field, 'accountId', 'the field is named as sent');
  const badVat = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('4000'), vatRate: 20 } });
  t.equal(badVat.status, 400, 'vatRate without vatTreatment');
  t.equal(JSON.stringify((await api.request('GET', `/v1/transactions/${txn}`)).body.data), untouched, 'the refusals wrote nothing');

  // £50.00 received and categorised as a sale, zero-rated.
  const ok = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('4000'), vatRate: 0, vatTreatment: 'inclusive' } });
  t.equal(ok.status, 200, JSON.stringify(ok.body.error ?? ''));
  const again = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('4000') } });
  t.equal(again.status, 422, 'categorised already');
  t.match(again.body.error.message, 'no line on the suspense account');
});

t.test('VAT exclusive is refused: a bank line’s amount is what was paid, VAT included', async (t) => {
  const { api, id, onSuspense } = await world(t);
  // £60.00 left the bank for stationery.
  const txn = await onSuspense('2026-05-10', -6_000);
  const untouched = JSON.stringify((await api.request('GET', `/v1/transactions/${txn}`)).body.data);
  // Exclusive would read £60.00 as the net and claim £12.00 of VAT on top, though only £60.00 was paid.
  const r = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('5100'), vatRate: 20, vatTreatment: 'exclusive' } });
  t.equal(r.status, 400, JSON.stringify(r.body.error));
  t.match(r.body.error, { code: 'validation_error', field: 'vatTreatment', message: /VAT included.*inclusive/ });
  t.equal(JSON.stringify((await api.request('GET', `/v1/transactions/${txn}`)).body.data), untouched, 'nothing written');
  t.equal((await api.request('GET', quarter)).body.error?.code, 'incomplete_ledger', 'the line is still on suspense');

  const ok = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('5100'), vatRate: 20, vatTreatment: 'inclusive' } });
  t.equal(ok.status, 200, JSON.stringify(ok.body.error ?? ''));
  const vat = await api.request('GET', quarter);
  // £60.00 gross at 20% inclusive: VAT = 60 × 20/120 = £10.00, net £50.00.
  t.match(vat.body.data.boxes, { box4: 1_000, box7: 5_000 });
});

t.test('refusals: the bank line’s own account, and the receivables and payables control accounts; nothing written', async (t) => {
  const { api, id, onSuspense } = await world(t);
  const txn = await onSuspense('2026-05-10', -6_000);
  const untouched = JSON.stringify((await api.request('GET', `/v1/transactions/${txn}`)).body.data);
  const trialBalance = JSON.stringify((await api.request('GET', '/v1/reports/trial-balance?asOf=2026-05-31')).body.data);

  // Dr 1200 / Cr 1200 would post the £60.00 in and out of the bank at once: the payment would vanish.
  const own = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id('1200') } });
  t.equal(own.status, 400, JSON.stringify(own.body.error));
  t.match(own.body.error, { code: 'validation_error', field: 'accountId', message: /1200 Bank Account is the bank line’s own account/ });
  for (const [code, document] of [
    ['1100', 'invoice'],
    ['2100', 'bill'],
  ] as const) {
    const r = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { body: { accountId: id(code) } });
    t.equal(r.status, 400, `${code}: ${JSON.stringify(r.body.error)}`);
    t.match(r.body.error, { code: 'validation_error', field: 'accountId', message: new RegExp(`control account.*record the payment on the ${document}`) });
  }
  t.equal(JSON.stringify((await api.request('GET', `/v1/transactions/${txn}`)).body.data), untouched, 'the transaction is unchanged');
  t.equal(JSON.stringify((await api.request('GET', '/v1/reports/trial-balance?asOf=2026-05-31')).body.data), trialBalance, 'the trial balance is unchanged');
});

t.test('a reconciled bank line may be categorised; a year with a line on suspense cannot be closed until it is', async (t) => {
  const { api, id, onSuspense } = await world(t);
  const reconciled = await onSuspense('2026-06-01', -3_000);
  t.equal((await api.request('PATCH', `/v1/transactions/${reconciled}/reconcile`, { body: { reconciled: true } })).status, 200);
  const r = await api.request('PATCH', `/v1/transactions/${reconciled}/categorise`, { body: { accountId: id('5100') } });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  t.equal(r.body.data.isReconciled, true, 'still reconciled: the bank line did not change');

  // Closed, FY 2025/26 would hold the line on suspense for ever: categorising rewrites its entry.
  const old = await onSuspense('2026-03-10', -1_000);
  const refused = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  t.equal(refused.status, 422, JSON.stringify(refused.body.error));
  t.match(refused.body.error.message, 'FY 2025/26 cannot be closed yet: 1 transaction is still on the suspense account 9999: categorise them first');
  t.equal((await api.request('GET', '/v1/reports/periods/period_20250401')).body.data.isClosed, false, 'still open');
  t.equal((await api.request('PATCH', `/v1/transactions/${old}/categorise`, { body: { accountId: id('5100') } })).status, 200);
  const closed = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  t.equal(closed.status, 200, JSON.stringify(closed.body.error ?? ''));
});

t.test('categorising needs transactions:write', async (t) => {
  const { api, id, onSuspense } = await world(t);
  const txn = await onSuspense('2026-05-10', -1_000);
  const key = await api.request('POST', '/v1/api-keys', { body: { name: 'reader', scopes: ['transactions:read'] } });
  const r = await api.request('PATCH', `/v1/transactions/${txn}/categorise`, { key: key.body.data.key as string, body: { accountId: id('5100') } });
  t.equal(r.status, 403);
});
