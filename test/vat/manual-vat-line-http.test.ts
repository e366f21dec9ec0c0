/**
 * A manual journal line carrying its VAT (vatRate, vatTreatment, and the
 * caller's vatAmount) over real HTTP: the old bug of an inclusive line
 * counting gross in box 7 and nothing in box 4, and what filing then does
 * with the VAT inside the line.
 */
import t from 'tap';
import { expectError, ledger, post, postOk, transactionTotal } from '../ledger-http/support.js';

// 10 April 2026: the quarter January to March 2026 (period 2026-03) has ended and can be filed.
const clock = '2026-04-10T10:00:00Z';

t.test('an inclusive manual line reaches boxes 4 and 7 net, and filing moves its VAT out of the expense to 2202', async (t) => {
  const { api, acc } = await ledger(t, { clock });
  const id = await postOk(t, api, {
    date: '2026-02-05',
    description: 'Office chairs',
    lines: [
      { accountId: acc['5100']!, amount: 14400, vatRate: 20, vatTreatment: 'inclusive' },
      { accountId: acc['1200']!, amount: -14400 },
    ],
  });
  const draft = await api.request('GET', '/v1/vat/periods/2026-03');
  t.equal(draft.status, 200);
  // £144.00 including 20%: VAT = 144 × 20/120 = £24.00, net £120.00
  // box 4 = 2400; box 7 = £120 whole pounds = 12000, exactly 12000; box 5 = |0 − 2400| = 2400 repayable
  t.same(draft.body.data.boxes, { box1: 0, box2: 0, box3: 0, box4: 2400, box5: 2400, box6: 0, box7: 12000, box8: 0, box9: 0 });
  t.same(draft.body.data.exact, { box6: 0, box7: 12000, box8: 0, box9: 0 });
  t.equal(draft.body.data.netVatDirection, 'repayable');

  const filed = await api.request('POST', '/v1/vat/periods/2026-03/file');
  t.equal(filed.status, 201, JSON.stringify(filed.body?.error ?? ''));
  t.match(filed.body.data, { status: 'filed', boxes: { box4: 2400, box7: 12000 }, netVatDirection: 'repayable' });
  const settlement = await api.request('GET', `/v1/transactions/${filed.body.data.transactionId as string}`);
  t.equal(settlement.body.data.date, '2026-03-31', "dated the period's last day");
  // the £24.00 inside the chairs leaves 5100 (a credit) for 2202, where HMRC owes it (a debit)
  t.same(
    (settlement.body.data.lines as { accountCode: string; amount: number }[]).map((l) => [l.accountCode, l.amount]),
    [
      ['5100', -2400],
      ['2202', 2400],
    ],
  );
  const chairs = await api.request('GET', `/v1/accounts/${acc['5100']!}/balance`);
  // 14400 debited − 2400 credited by the settlement = 12000: the chairs cost £120.00 net
  t.match(chairs.body.data.balance, { debit: 14400, credit: 2400, net: 12000 });
  const liability = await api.request('GET', `/v1/accounts/${acc['2202']!}/balance`);
  t.match(liability.body.data.balance, { net: 2400 });
  // the line is now part of a filed return
  const change = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'draft' } });
  expectError(t, change, 422, 'vat_return_filed');
});

t.test('a line may state its VAT rounded its own way, within a penny of the rate', async (t) => {
  const { api, acc } = await ledger(t, { clock });
  // the net of £1.47 including 20% (VAT 24.5p, half up 25p): 122p, whose 20% (24.4p) would round to 24p
  const id = await postOk(t, api, {
    date: '2026-02-05',
    description: 'Stamp',
    lines: [
      { accountId: acc['5100']!, amount: 122, vatRate: 20, vatTreatment: 'exclusive', vatAmount: 25 },
      { accountId: acc['2201']!, amount: 25 },
      { accountId: acc['1200']!, amount: -147 },
    ],
  });
  const txn = await api.request('GET', `/v1/transactions/${id}`);
  t.match(txn.body.data.lines[0], { amount: 122, vatRate: 20, vatTreatment: 'exclusive', vatAmount: 25 });
  const draft = await api.request('GET', '/v1/vat/periods/2026-03');
  // box 4 = the 25p stated and posted to 2201; box 7 exact = 122p, £1 in whole pounds
  t.match(draft.body.data, { boxes: { box4: 25, box7: 100 }, exact: { box7: 122 } });

  const refusals: [Record<string, unknown>, string, RegExp][] = [
    // 20% of 122p is 24p rounded: 26p is two pence off
    [
      { vatRate: 20, vatTreatment: 'exclusive', vatAmount: 26 },
      'lines[0].vatAmount',
      /£0\.26 is not 20% VAT on £1\.22 \(£0\.24, give or take a penny of rounding\)/,
    ],
    [{ vatAmount: 24 }, 'lines[0].vatAmount', /needs vatRate with vatTreatment inclusive or exclusive/],
    [{ vatRate: 20, vatTreatment: 'none', vatAmount: 24 }, 'lines[0].vatAmount', /needs vatRate with vatTreatment inclusive or exclusive/],
    [{ vatRate: 20, vatTreatment: 'exclusive', vatAmount: -24 }, 'lines[0].vatAmount', /must be at least £0\.00/],
  ];
  for (const [vat, field, message] of refusals) {
    const r = await post(api, {
      lines: [
        { accountId: acc['5100']!, amount: 122, ...vat },
        { accountId: acc['1200']!, amount: -122 },
      ],
    });
    expectError(t, r, 400, 'validation_error', { field, message });
  }
  t.equal(await transactionTotal(api), 1, 'the refused lines wrote nothing');
});
