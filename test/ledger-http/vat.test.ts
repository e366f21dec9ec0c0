/**
 * VAT metadata on lines: vatAmount is stored for tax reporting only; no line
 * is added and the balance does not change. Each line is rounded to the
 * nearest penny, a half penny up. Every expected amount below is worked by hand.
 */
import t from 'tap';
import { balanceOf, expectError, ledger, lineCount, outbox, post, transactionTotal } from './support.js';

type Line = { accountCode: string; amount: number; vatRate: number | null; vatTreatment: string | null; vatAmount: number | null };
const shape = (lines: Line[]) => lines.map((l) => [l.accountCode, l.amount, l.vatRate, l.vatTreatment, l.vatAmount]);

t.test('exclusive: vatAmount = |amount| × rate / 100, rounded half up', async (t) => {
  const { books, api, acc } = await ledger(t);
  const r = await post(api, {
    description: 'Exclusive VAT boundaries',
    lines: [
      { accountId: acc['5100']!, amount: 12000, vatRate: 20, vatTreatment: 'exclusive' }, // 2400
      { accountId: acc['5100']!, amount: 1, vatRate: 20, vatTreatment: 'exclusive' }, // 0.2 → 0
      { accountId: acc['5100']!, amount: 3, vatRate: 20, vatTreatment: 'exclusive' }, // 0.6 → 1
      { accountId: acc['5100']!, amount: 25, vatRate: 2, vatTreatment: 'exclusive' }, // 0.5 → 1
      { accountId: acc['5100']!, amount: 24, vatRate: 2, vatTreatment: 'exclusive' }, // 0.48 → 0
      { accountId: acc['5100']!, amount: 7, vatRate: 100, vatTreatment: 'exclusive' }, // 7
      { accountId: acc['1200']!, amount: -12060 },
    ],
  });
  t.equal(r.status, 201);
  t.same(shape(r.body.data.lines), [
    ['5100', 12000, 20, 'exclusive', 2400],
    ['5100', 1, 20, 'exclusive', 0],
    ['5100', 3, 20, 'exclusive', 1],
    ['5100', 25, 2, 'exclusive', 1],
    ['5100', 24, 2, 'exclusive', 0],
    ['5100', 7, 100, 'exclusive', 7],
    ['1200', -12060, null, null, null],
  ]);
  const got = await api.request('GET', `/v1/transactions/${r.body.data.id}`);
  t.same(shape(got.body.data.lines), shape(r.body.data.lines), 'stored as returned');
  t.equal(got.body.data.lines.length, 7, 'no VAT line added');
  t.equal(await lineCount(books), 7, 'no VAT line stored');
  t.equal(got.body.data.totalDebit, 12060, 'totals are the line amounts only');
  t.equal(got.body.data.totalCredit, 12060);
  t.same(await balanceOf(api, acc['2201']!), { debit: 0, credit: 0, net: 0 }, 'nothing posted to VAT Input');
  t.same(await balanceOf(api, acc['2200']!), { debit: 0, credit: 0, net: 0 }, 'nothing posted to VAT Output');
  t.same(await balanceOf(api, acc['5100']!), { debit: 12060, credit: 0, net: 12060 }, 'the expense is the amount, not amount plus VAT');
});

t.test('inclusive: vatAmount = |amount| × rate / (100 + rate), rounded half up', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    description: 'Inclusive VAT boundaries',
    lines: [
      { accountId: acc['5100']!, amount: 12000, vatRate: 20, vatTreatment: 'inclusive' }, // 2000
      { accountId: acc['5100']!, amount: 1250, vatRate: 20, vatTreatment: 'inclusive' }, // 208.33 → 208
      { accountId: acc['5100']!, amount: 21, vatRate: 5, vatTreatment: 'inclusive' }, // 1.0 → 1
      { accountId: acc['5100']!, amount: 3, vatRate: 20, vatTreatment: 'inclusive' }, // 0.5 → 1
      { accountId: acc['5100']!, amount: 2, vatRate: 20, vatTreatment: 'inclusive' }, // 0.33 → 0
      { accountId: acc['5100']!, amount: 7, vatRate: 100, vatTreatment: 'inclusive' }, // 3.5 → 4
      { accountId: acc['1200']!, amount: -13283 },
    ],
  });
  t.equal(r.status, 201);
  t.same(shape(r.body.data.lines), [
    ['5100', 12000, 20, 'inclusive', 2000],
    ['5100', 1250, 20, 'inclusive', 208],
    ['5100', 21, 5, 'inclusive', 1],
    ['5100', 3, 20, 'inclusive', 1],
    ['5100', 2, 20, 'inclusive', 0],
    ['5100', 7, 100, 'inclusive', 4],
    ['1200', -13283, null, null, null],
  ]);
  t.equal(r.body.data.totalDebit, 13283);
  t.equal(r.body.data.lines.length, 7);
});

t.test('negative amounts give the same positive vatAmount', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    description: 'Sales with VAT metadata',
    lines: [
      { accountId: acc['4000']!, amount: -12000, vatRate: 20, vatTreatment: 'exclusive' }, // 2400
      { accountId: acc['4000']!, amount: -3, vatRate: 20, vatTreatment: 'exclusive' }, // 1
      { accountId: acc['4000']!, amount: -1250, vatRate: 20, vatTreatment: 'inclusive' }, // 208
      { accountId: acc['4000']!, amount: -25, vatRate: 2, vatTreatment: 'exclusive' }, // 1
      { accountId: acc['4000']!, amount: -3, vatRate: 20, vatTreatment: 'inclusive' }, // 1
      { accountId: acc['1200']!, amount: 13281 },
    ],
  });
  t.equal(r.status, 201);
  t.same(shape(r.body.data.lines), [
    ['4000', -12000, 20, 'exclusive', 2400],
    ['4000', -3, 20, 'exclusive', 1],
    ['4000', -1250, 20, 'inclusive', 208],
    ['4000', -25, 2, 'exclusive', 1],
    ['4000', -3, 20, 'inclusive', 1],
    ['1200', 13281, null, null, null],
  ]);
});

t.test('vatTreatment none, or no VAT fields, stores vatAmount null; rate 0 stores 0', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    lines: [
      { accountId: acc['5100']!, amount: 500, vatTreatment: 'none' },
      { accountId: acc['5100']!, amount: 600, vatRate: 20, vatTreatment: 'none' },
      { accountId: acc['5100']!, amount: 700, vatRate: 0, vatTreatment: 'exclusive' },
      { accountId: acc['5100']!, amount: 800, vatRate: 0, vatTreatment: 'inclusive' },
      { accountId: acc['1200']!, amount: -2600, vatRate: null, vatTreatment: null },
    ],
  });
  t.equal(r.status, 201);
  t.same(
    r.body.data.lines.map((l: Line) => l.vatAmount),
    [null, null, 0, 0, null],
  );
});

t.test('PUT of a draft computes vatAmount for the new lines', async (t) => {
  const { api, acc } = await ledger(t);
  const r = await post(api, {
    status: 'draft',
    lines: [
      { accountId: acc['5100']!, amount: 1000, vatRate: 20, vatTreatment: 'exclusive' },
      { accountId: acc['1200']!, amount: -1000 },
    ],
  });
  t.equal(r.body.data.lines[0].vatAmount, 200);
  const id = r.body.data.id as string;
  const put = await api.request('PUT', `/v1/transactions/${id}`, {
    body: {
      lines: [
        { accountId: acc['5100']!, amount: 1250, vatRate: 20, vatTreatment: 'inclusive' },
        { accountId: acc['1200']!, amount: -1250 },
      ],
    },
  });
  t.equal(put.status, 200);
  const got = await api.request('GET', `/v1/transactions/${id}`);
  t.same(shape(got.body.data.lines), [
    ['5100', 1250, 20, 'inclusive', 208],
    ['1200', -1250, null, null, null],
  ]);
});

t.test('refused VAT metadata: rate without treatment, treatment without rate, rate outside 0..100 or fractional, unknown treatment', async (t) => {
  const { books, api, acc } = await ledger(t);
  const with0 = (extra: Record<string, unknown>) =>
    post(api, {
      lines: [
        { accountId: acc['5100']!, amount: 1000, ...extra },
        { accountId: acc['1200']!, amount: -1000 },
      ],
    });
  expectError(t, await with0({ vatRate: 20 }), 400, 'validation_error', { field: 'lines[0].vatTreatment' });
  expectError(t, await with0({ vatRate: 20, vatTreatment: null }), 400, 'validation_error', { field: 'lines[0].vatTreatment' });
  expectError(t, await with0({ vatTreatment: 'exclusive' }), 400, 'validation_error', { field: 'lines[0].vatRate' });
  expectError(t, await with0({ vatTreatment: 'inclusive' }), 400, 'validation_error', { field: 'lines[0].vatRate' });
  expectError(t, await with0({ vatRate: 101, vatTreatment: 'exclusive' }), 400, 'validation_error', { field: 'lines[0].vatRate' });
  expectError(t, await with0({ vatRate: -1, vatTreatment: 'exclusive' }), 400, 'validation_error', { field: 'lines[0].vatRate' });
  expectError(t, await with0({ vatRate: 17.5, vatTreatment: 'exclusive' }), 400, 'validation_error', { field: 'lines[0].vatRate' });
  expectError(t, await with0({ vatRate: '20', vatTreatment: 'exclusive' }), 400, 'invalid_type', { field: 'lines[0].vatRate' });
  expectError(t, await with0({ vatRate: 20, vatTreatment: 'reverse_charge' }), 400, 'validation_error', { field: 'lines[0].vatTreatment' });
  t.equal(await transactionTotal(api), 0, 'nothing stored');
  t.equal(await lineCount(books), 0);
  t.same(await outbox(books), []);
});
