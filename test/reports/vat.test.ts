/** The VAT return for each scheme on a hand-built ledger; every box worked out by hand. */
import t from 'tap';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { newBooks, serveBooks } from '../helpers/index.js';

async function books(t: Parameters<typeof newBooks>[0], organisation: Partial<NewOrganisation>) {
  const b = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation });
  const api = await serveBooks(t, b);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)?.id as string;
  const post = async (date: string, lines: [string, number, number?][]) => {
    const r = await api.request('POST', '/v1/transactions', {
      body: {
        date,
        description: `Entry ${date}`,
        lines: lines.map(([code, amount, rate]) => ({
          accountId: id(code),
          amount,
          ...(rate === undefined ? {} : { vatRate: rate, vatTreatment: 'exclusive' }),
        })),
      },
    });
    t.equal(r.status, 201);
  };
  await post('2026-04-05', [
    ['1200', 12_000],
    ['4000', -10_000, 20],
    ['2200', -2_000],
  ]);
  await post('2026-04-20', [
    ['1200', 6_000],
    ['4000', -5_000, 20],
    ['2200', -1_000],
  ]);
  await post('2026-04-25', [
    ['1200', 4],
    ['4100', -4],
  ]); // scrap sold for 4p, outside VAT metadata
  await post('2026-05-01', [
    ['5100', 1_000, 20],
    ['2201', 200],
    ['1200', -1_200],
  ]);
  await post('2026-05-02', [
    ['5930', 50_000],
    ['1200', -50_000],
  ]); // wages: outside the scope of VAT
  await post('2026-07-01', [
    ['1200', 99_999],
    ['4000', -99_999],
  ]); // after the period
  return { api, post };
}

const quarter = '/v1/reports/vat?from=2026-04-01&to=2026-06-30';

t.test('standard scheme: output VAT less input VAT; sales and purchases net of VAT', async (t) => {
  const { api } = await books(t, { vatScheme: 'standard' });
  const r = await api.request('GET', quarter);
  t.equal(r.status, 200);
  t.same(r.body.data.period, { from: '2026-04-01', to: '2026-06-30' });
  t.equal(r.body.data.scheme, 'standard');
  t.equal(r.body.data.flatRatePercent, null);
  t.same(r.body.data.boxes, {
    box1: 3_000, // 2,000 + 1,000 on 2200
    box2: 0,
    box3: 3_000,
    box4: 200, // on 2201
    box5: 2_800,
    box6: 15_000, // 10,000 + 5,000 of tax-coded sales; the 4p scrap sale carries no VAT facts, so it reaches no box
    box7: 1_000, // the 5100 purchase; the wages carry no VAT metadata
    box8: 0,
    box9: 0,
  });
  t.equal(r.body.data.description.box5, 'Net VAT to pay to HMRC or reclaim (the difference between box 3 and box 4)');
  t.equal(r.body.data.netVatDirection, 'payable');
  t.same(Object.keys(r.body.data.description), ['box1', 'box2', 'box3', 'box4', 'box5', 'box6', 'box7', 'box8', 'box9']);
});

t.test('flat rate scheme: the percentage of VAT-inclusive turnover; purchases other than capital reach no box', async (t) => {
  const { api } = await books(t, { vatScheme: 'flat_rate', vatFlatRatePercent: 12.5 });
  const r = await api.request('GET', quarter);
  t.equal(r.body.data.scheme, 'flat_rate');
  t.equal(r.body.data.flatRatePercent, 12.5);
  t.same(r.body.data.boxes, {
    box1: 2_250, // 12.5% of 18,000 = 2,250
    box2: 0,
    box3: 2_250,
    box4: 0,
    box5: 2_250,
    box6: 18_000, // 15,000 of tax-coded sales + 3,000 VAT charged
    box7: 0, // the £10 5100 purchase is not capital: its VAT is a cost, not reclaimed
    box8: 0,
    box9: 0,
  });
  t.match(r.body.data.description.box6, 'including VAT');
});

t.test('not registered for VAT: no return (422)', async (t) => {
  const b = await newBooks(t, { organisation: { vatScheme: 'not_registered' } });
  const api = await serveBooks(t, b);
  const r = await api.request('GET', quarter);
  t.equal(r.status, 422);
  t.equal(r.body.error.code, 'unprocessable_entity');
  t.match(r.body.error.message, 'not registered for VAT');
});

t.test('lines still on the suspense account make the period incomplete', async (t) => {
  const { api, post } = await books(t, { vatScheme: 'standard' });
  await post('2026-05-10', [
    ['1200', 500],
    ['9999', -500],
  ]);
  const r = await api.request('GET', quarter);
  t.equal(r.status, 422);
  t.equal(r.body.error.code, 'incomplete_ledger');
  t.match(r.body.error.message, '1 transaction(s) in 2026-04-01 to 2026-06-30 are still on the suspense account 9999');
  const april = await api.request('GET', '/v1/reports/vat?from=2026-04-01&to=2026-04-30');
  t.equal(april.status, 200, 'a period without them is complete');
  t.equal(april.body.data.boxes.box1, 3_000);
});

t.test('the VAT report takes the reports date rules', async (t) => {
  const { api } = await books(t, { vatScheme: 'standard' });
  for (const [query, field] of [
    ['from=2026-04-01', 'to'],
    ['from=2026-04-31&to=2026-06-30', 'from'],
    ['from=2026-07-01&to=2026-06-30', 'from'],
  ] as const) {
    const r = await api.request('GET', `/v1/reports/vat?${query}`);
    t.equal(r.status, 400, query);
    t.same([r.body.error.code, r.body.error.field], ['validation_error', field], query);
  }
});

t.test('on the cash basis the report counts payments by their date, not invoices', async (t) => {
  const b = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { vatScheme: 'standard', vatAccountingBasis: 'cash' } });
  const api = await serveBooks(t, b);
  const customer = (await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Harbour Cafe Ltd' } })).body.data.id as string;
  // £100.00 at 20%: total 12000, VAT 2000, dated in April; £60.00 received in July.
  const inv = await api.request('POST', '/v1/invoices', {
    body: {
      contactId: customer,
      issueDate: '2026-04-10',
      dueDate: '2026-04-10',
      items: [{ description: 'Tables', quantity: 1, unitPrice: 10000, vatRate: 'standard' }],
    },
  });
  t.equal((await api.request('POST', `/v1/invoices/${inv.body.data.id}/send`, { body: {} })).status, 200);
  t.equal((await api.request('POST', `/v1/invoices/${inv.body.data.id}/payments`, { body: { amount: 6000, date: '2026-07-02' } })).status, 201);
  const q2 = await api.request('GET', quarter);
  t.same([q2.body.data.basis, q2.body.data.boxes.box1, q2.body.data.boxes.box6], ['cash', 0, 0], 'nothing received by June');
  // July: 6000 of 12000 received: VAT 2000 × 6000/12000 = 1000, net 5000.
  const q3 = await api.request('GET', '/v1/reports/vat?from=2026-07-01&to=2026-09-30');
  t.same([q3.body.data.boxes.box1, q3.body.data.boxes.box6], [1000, 5000]);
});
