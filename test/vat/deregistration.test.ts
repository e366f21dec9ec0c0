/**
 * Leaving VAT registration is a dated change of scheme: vatScheme
 * not_registered with vatSchemeFrom, the first day not registered (default
 * today). Documents dated before it keep VAT exactly as before, even when
 * entered after leaving; those dated on or after it carry none. The last
 * VAT period ends the day before (the final return, due one month and seven
 * days after it), and the returns and VAT reports of the registered time
 * keep working. Over HTTP on a real port, and once through the CLI.
 * Standard scheme, quarters ending March, June, September and December,
 * registered 2026-01-10. Figures in pence, worked by hand beside them.
 */
import t, { type Test } from 'tap';
import { runCliInProcessJson } from '../helpers/index.js';
import { expectError } from '../ledger-http/support.js';
import { entries } from '../sales-http/purchases-support.js';
import { vatBooks, type VatBooks } from './support.js';

const standard = { vatScheme: 'standard', vatRegistrationDate: '2026-01-10', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;

const put = (v: VatBooks, body: Record<string, unknown>) => v.api.request('PUT', '/v1/organisation/settings', { body });
const periodsOf = async (v: VatBooks) =>
  ((await v.api.request('GET', '/v1/vat/periods')).body.data.periods as { periodKey: string; from: string; to: string; dueDate: string; status: string }[]).map(
    (p) => [p.periodKey, p.from, p.to, p.dueDate, p.status],
  );

/** Books that traded in Q3 2026, filed it, and left VAT from 2026-10-15. Today is 2026-10-20. */
async function leftVat(t: Test) {
  const v = await vatBooks(t, standard, '2026-10-20T10:00:00Z');
  // Q3: a sale of 100,000 net (VAT 20% = 20,000) and a bill of 50,000 net (VAT 10,000): box 5 = 20,000 − 10,000 = 10,000.
  await v.invoice('2026-07-10', [{ unitPrice: 100_000 }]);
  await v.bill('2026-07-15', [{ unitPrice: 50_000 }]);
  const q3 = await v.file('2026-09');
  t.same([q3.boxes.box1, q3.boxes.box4, q3.boxes.box5], [20_000, 10_000, 10_000], 'Q3 filed while registered');
  const left = await put(v, { vatScheme: 'not_registered', vatSchemeFrom: '2026-10-15' });
  t.equal(left.status, 200, JSON.stringify(left.body.error));
  t.match(left.body.data, { vatScheme: 'not_registered', vatRegistered: false, vatSchemeFrom: '2026-10-15', vatFlatRatePercent: null });
  return v;
}

t.test('documents dated while registered keep their VAT after leaving; those dated from the day registration ends carry none', async (t) => {
  const v = await leftVat(t);
  // An invoice dated 2026-08-01, inside the filed registered quarter, entered now: 10,000 net at 20% charges 2,000 VAT on 2200.
  const late = await v.invoice('2026-08-01', [{ unitPrice: 10_000 }]);
  t.match((await v.api.request('GET', `/v1/invoices/${late}`)).body.data, { subtotal: 10_000, vatAmount: 2_000, total: 12_000 });
  // A bill dated 2026-08-02 entered now: 5,000 net + 1,000 VAT; the VAT goes to 2201 to be reclaimed, not into the cost on 5000.
  const bill = await v.bill('2026-08-02', [{ unitPrice: 5_000 }]);
  const billTxn = (await v.api.request('GET', `/v1/bills/${bill}`)).body.data.transactionId as string;
  t.same((await entries(t, v.api, billTxn)).lines.sort(), [
    ['2100', -6_000],
    ['2201', 1_000],
    ['5000', 5_000],
  ]);

  // Dated 2026-10-16, after registration ended: a sale states no VAT rate and charges none; one claiming 20% is refused.
  const noVat = await v.api.request('POST', '/v1/invoices', {
    body: { contactId: await contactId(v), issueDate: '2026-10-16', items: [{ description: 'Work', quantity: 1, unitPrice: 10_000 }] },
  });
  t.equal(noVat.status, 201, JSON.stringify(noVat.body.error));
  t.match(noVat.body.data, { subtotal: 10_000, vatAmount: 0, total: 10_000 });
  const refused = await v.api.request('POST', '/v1/invoices', {
    body: { contactId: await contactId(v), issueDate: '2026-10-16', items: [{ description: 'Work', quantity: 1, unitPrice: 10_000, vatRate: 'standard' }] },
  });
  expectError(t, refused, 400, 'validation_error', { field: 'items[0].vatRate', message: /not registered for VAT/ });
  // A bill dated 2026-10-18: the supplier's 20% stays in the cost, 5,000 + 1,000 = 6,000 gross on 5000, nothing on 2201.
  const after = await v.bill('2026-10-18', [{ unitPrice: 5_000 }]);
  const afterTxn = (await v.api.request('GET', `/v1/bills/${after}`)).body.data.transactionId as string;
  t.same((await entries(t, v.api, afterTxn)).lines.sort(), [
    ['2100', -6_000],
    ['5000', 6_000],
  ]);
  // 2201: 10,000 (Q3 bill) cleared by filing Q3, + 1,000 (the late bill) = 1,000.
  t.equal(await v.balance('2201'), 1_000);
});

async function contactId(v: VatBooks): Promise<string> {
  const r = await v.api.request('GET', '/v1/contacts');
  return (r.body.data as { id: string; contactType: string }[]).find((c) => c.contactType === 'customer')!.id;
}

t.test('the final return runs from the last period start to the day before registration ended, and can be filed', async (t) => {
  const v = await leftVat(t);
  await v.invoice('2026-08-01', [{ unitPrice: 10_000 }]); // VAT 2,000, carried into the final return (Q3 is filed)
  await v.bill('2026-08-02', [{ unitPrice: 5_000 }]); // VAT 1,000 reclaimed
  await v.invoice('2026-10-05', [{ unitPrice: 1_000 }]); // VAT 200, inside the final period
  // The periods end at 2026-10-14, the last day registered: the final one is due one month and seven days after, 2026-11-21.
  t.same((await periodsOf(v)).slice(0, 2), [
    ['2026-10', '2026-10-01', '2026-10-14', '2026-11-21', 'ended'],
    ['2026-09', '2026-07-01', '2026-09-30', '2026-11-07', 'filed'],
  ]);
  // Box 1: 2,000 + 200 = 2,200; box 4: 1,000; box 5: 2,200 − 1,000 = 1,200 payable.
  // Box 6: 10,000 + 1,000 = 11,000 (£110); box 7: 5,000 (£50).
  const draft = await v.show('2026-10');
  t.match(draft, { status: 'draft', period: { from: '2026-10-01', to: '2026-10-14' }, dueDate: '2026-11-21', scheme: 'standard' });
  t.same(draft.boxes, { box1: 2_200, box2: 0, box3: 2_200, box4: 1_000, box5: 1_200, box6: 11_000, box7: 5_000, box8: 0, box9: 0 });
  const final = await v.file('2026-10');
  t.same(final.boxes, draft.boxes, 'filed as drafted');
  t.match(final, { status: 'filed', period: { from: '2026-10-01', to: '2026-10-14' }, netVatDirection: 'payable' });
  // Nothing is left on 2200 or 2201: Q3 owed 10,000 and the final return 1,200, together on 2202.
  t.same([await v.balance('2200'), await v.balance('2201'), await v.balance('2202')], [0, 0, -11_200]);
  // No period follows the last one.
  expectError(t, await v.api.request('GET', '/v1/vat/periods/2026-12'), 404, 'not_found');
  expectError(t, await v.api.request('POST', '/v1/vat/periods/2026-12/file'), 404, 'not_found');
});

t.test('the VAT report and the filed returns of the registered time still answer after leaving', async (t) => {
  const v = await leftVat(t);
  await v.invoice('2026-08-01', [{ unitPrice: 10_000 }]);
  const filed = await v.show('2026-09');
  t.match(filed, { status: 'filed', period: { from: '2026-07-01', to: '2026-09-30' }, boxes: { box1: 20_000, box4: 10_000, box5: 10_000 } });
  t.match(await v.show('2026-Q3'), { status: 'filed' });
  // The report over Q3 takes every entry dated in it: 20,000 + 2,000 = 22,000 on sales, 10,000 on purchases; box 5 12,000.
  const report = await v.api.request('GET', '/v1/reports/vat?from=2026-07-01&to=2026-09-30');
  t.equal(report.status, 200, JSON.stringify(report.body.error));
  t.match(report.body.data, { scheme: 'standard', boxes: { box1: 22_000, box4: 10_000, box5: 12_000 } });
  const cli = await runCliInProcessJson(['--data', v.books.dataDir, '--json', 'report', 'vat', '--from', '2026-07-01', '--to', '2026-09-30']);
  t.equal(cli.status, 0, cli.stderr);
  t.match(cli.data, { boxes: { box1: 22_000 } });
  // After registration ended there is nothing to report.
  expectError(t, await v.api.request('GET', '/v1/reports/vat?from=2026-10-15&to=2026-12-31'), 422, 'unprocessable_entity');
});

t.test('the final period can be filed only once its last day has passed', async (t) => {
  const v = await vatBooks(t, standard, '2026-10-20T10:00:00Z');
  await v.invoice('2026-10-05', [{ unitPrice: 1_000 }]);
  // Leaving from 2026-10-25: registered to 2026-10-24, a final period from 2026-10-01 that has not ended on 2026-10-20.
  const left = await put(v, { vatScheme: 'not_registered', vatSchemeFrom: '2026-10-25' });
  t.equal(left.status, 200, JSON.stringify(left.body.error));
  expectError(t, await v.api.request('POST', '/v1/vat/periods/2026-10/file'), 422, 'vat_period_not_ended', {
    message: /2026-10-01 to 2026-10-24 has not ended: file it from 2026-10-25/,
  });
  // Until then documents dated while registered still charge VAT: 1,000 × 20% = 200.
  const inv = await v.invoice('2026-10-22', [{ unitPrice: 1_000 }]);
  t.match((await v.api.request('GET', `/v1/invoices/${inv}`)).body.data, { vatAmount: 200 });
});

t.test('leaving is refused from a day inside a filed period, and with no date it runs from today', async (t) => {
  const v = await vatBooks(t, standard, '2026-10-20T10:00:00Z');
  await v.invoice('2026-07-10', [{ unitPrice: 1_000 }]);
  await v.file('2026-09');
  // Q3 (to 2026-09-30) is filed: registration can end on 2026-09-30 at the earliest, leaving from 2026-10-01.
  const filedMessage =
    /^vatSchemeFrom: registration cannot end on 2026-09-29: the VAT return for 2026-07-01 to 2026-09-30 is filed; leave from 2026-10-01 or later/;
  expectError(t, await put(v, { vatScheme: 'not_registered', vatSchemeFrom: '2026-09-30' }), 409, 'conflict', { message: filedMessage });
  expectError(t, await put(v, { vatScheme: 'not_registered', vatSchemeFrom: '2026-01-10' }), 409, 'conflict', {
    message: /the VAT return for 2026-07-01 to 2026-09-30 is filed/,
  });
  // A sale dated 2026-10-12 charged VAT: leaving from 2026-10-10 would leave it charged while not registered.
  await v.invoice('2026-10-12', [{ unitPrice: 1_000 }]);
  expectError(t, await put(v, { vatScheme: 'not_registered', vatSchemeFrom: '2026-10-10' }), 409, 'conflict', {
    message: /^vatSchemeFrom: 1 VAT entry is dated from 2026-10-10 \(the first on 2026-10-12\)/,
  });
  t.equal((await v.api.request('GET', '/v1/organisation/settings')).body.data.vatScheme, 'standard', 'still registered');
  // No date: from today, 2026-10-20; the final period is 2026-10-01 to 2026-10-19.
  const left = await put(v, { vatScheme: 'not_registered' });
  t.equal(left.status, 200, JSON.stringify(left.body.error));
  t.equal(left.body.data.vatSchemeFrom, '2026-10-20');
  t.same((await periodsOf(v))[0], ['2026-10', '2026-10-01', '2026-10-19', '2026-11-26', 'ended']);
});
