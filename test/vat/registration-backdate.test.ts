/**
 * The VAT registration date cannot move back over sales recorded without
 * VAT (made while not registered, or before the date with a line stating
 * no rate): they would fall inside the registration yet in no return, their
 * turnover silently dropped. 422 naming how many, the first and the last
 * (no field: only 400s name one), and nothing written; a date after them,
 * a later one, or a change of the flat rate still go. Over HTTP on a real
 * port, and once through the CLI. Today is 2026-08-10.
 */
import t, { type Test } from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { expectError } from '../ledger-http/support.js';
import { cashBooks, invoiceSent, item, returnOf, type CashBooks } from './cash-support.js';

const clock = '2026-08-10T09:00:00Z';

const put = (c: CashBooks, body: Record<string, unknown>) => c.api.request('PUT', '/v1/organisation/settings', { body });
const settingsOf = async (c: CashBooks) => (await c.api.request('GET', '/v1/organisation/settings')).body.data as Record<string, unknown>;

/** A posted journal of `date`: £50.00 into the bank (1200) from sales (4000), with no VAT facts. */
async function cashSale(t: Test, c: CashBooks, date: string): Promise<void> {
  const lines = [
    { accountId: c.acc['1200'], amount: 5_000 },
    { accountId: c.acc['4000'], amount: -5_000 },
  ];
  const r = await c.api.request('POST', '/v1/transactions', { body: { date, description: 'Cash sale', status: 'posted', lines } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
}

t.test('backdating the registration over sales made while not registered is refused, naming them; a date after them goes', async (t) => {
  const c = await cashBooks(t, { vatScheme: 'not_registered', vatAccountingBasis: 'accrual', vatRegistrationDate: undefined }, clock);
  // Not registered: £500.00 on 10 May and £800.00 on 10 June with no VAT rate, and a £50.00 cash sale journal on 15 June.
  await invoiceSent(t, c, [item({ unitPrice: 50_000, vatRate: undefined })], '2026-05-10');
  await invoiceSent(t, c, [item({ unitPrice: 80_000, vatRate: undefined })], '2026-06-10');
  await cashSale(t, c, '2026-06-15');

  // Registering from 1 July: nothing was sold since, so it goes.
  t.equal((await put(c, { vatScheme: 'flat_rate', vatFlatRatePercent: 10, vatRegistrationDate: '2026-07-01' })).status, 200, 'registered');
  const settings = await settingsOf(c);

  // From 1 May the three sales (£500 + £800 + £50 = £1,350) would be registered yet in no return: refused.
  expectError(t, await put(c, { vatRegistrationDate: '2026-05-01' }), 422, 'unprocessable_entity', {
    message:
      'vatRegistrationDate cannot be 2026-05-01: 3 sales dated from it to 2026-06-15 were recorded without VAT (the first, invoice INV-0001 of 2026-05-10), ' +
      'and would be in no VAT return; void or credit them and issue them again with VAT, or register from 2026-06-16 or later',
  });
  // From 11 June only the journal of the 15th is caught.
  expectError(t, await put(c, { vatRegistrationDate: '2026-06-11' }), 422, 'unprocessable_entity', {
    message:
      /^vatRegistrationDate cannot be 2026-06-11: 1 sale dated from it to 2026-06-15 was recorded without VAT \(the first, journal Cash sale \(txn_\w+\) of 2026-06-15\)/,
  });
  t.same(await settingsOf(c), settings, 'nothing written');
  // The returns are as they were: the first period starts 1 July and holds nothing.
  t.same((await returnOf(t, c, '2026-09')).period, { from: '2026-07-01', to: '2026-09-30' });

  // Through the CLI: exit 5, the field named as its flag.
  const cli = await runCliInProcess(['--data', c.books.dataDir, 'settings', 'update', '--vat-registration-date', '2026-05-01']);
  t.equal(cli.status, 5, cli.stderr);
  t.match(cli.stderr, '--vat-registration-date cannot be 2026-05-01: 3 sales dated from it to 2026-06-15 were recorded without VAT');

  // After the last of them, or later, and a change of the flat rate: they go.
  t.equal((await put(c, { vatRegistrationDate: '2026-06-16' })).status, 200, 'the day after the last sale recorded without VAT');
  t.equal((await put(c, { vatRegistrationDate: '2026-07-01' })).status, 200, 'later again');
  t.equal((await put(c, { vatFlatRatePercent: 12 })).status, 200, 'a new flat rate');
  t.match(await settingsOf(c), { vatRegistrationDate: '2026-07-01', vatFlatRatePercent: 12 });
});

t.test('registering for the first time from a day before sales made while not registered is refused; nothing is written', async (t) => {
  const c = await cashBooks(t, { vatScheme: 'not_registered', vatAccountingBasis: 'accrual', vatRegistrationDate: undefined }, clock);
  await invoiceSent(t, c, [item({ unitPrice: 50_000, vatRate: undefined })], '2026-05-10');
  const settings = await settingsOf(c);
  expectError(t, await put(c, { vatScheme: 'standard', vatRegistrationDate: '2026-05-01' }), 422, 'unprocessable_entity', {
    message:
      /^vatRegistrationDate cannot be 2026-05-01: 1 sale dated from it to 2026-05-10 was recorded without VAT \(the first, invoice INV-0001 of 2026-05-10\)/,
  });
  t.same(await settingsOf(c), settings, 'still not registered');
  t.equal((await put(c, { vatScheme: 'standard', vatRegistrationDate: '2026-05-11' })).status, 200, 'from the day after it');
});

t.test('registered: backdating over a sale made before the date that stated no VAT rate is refused; over a zero-rated one it goes', async (t) => {
  const c = await cashBooks(t, { vatScheme: 'not_registered', vatAccountingBasis: 'accrual', vatRegistrationDate: undefined }, clock);
  // A draft made while not registered: £300.00 with no rate on 20 June.
  const draft = await c.api.request('POST', '/v1/invoices', {
    body: { contactId: c.customer, issueDate: '2026-06-20', items: [item({ unitPrice: 30_000, vatRate: undefined })] },
  });
  t.equal(draft.status, 201);
  t.equal((await put(c, { vatScheme: 'standard', vatRegistrationDate: '2026-07-01' })).status, 200, 'registered from 1 July');
  // Before the date: £500.00 zero-rated on 10 June, and the draft sent as it is (dated before the date, it charges none).
  await invoiceSent(t, c, [item({ unitPrice: 50_000, vatRate: 'zero' })], '2026-06-10');
  t.equal((await c.api.request('POST', `/v1/invoices/${draft.body.data.id}/send`)).status, 200, 'the no-rate sale of 20 June sent');

  expectError(t, await put(c, { vatRegistrationDate: '2026-06-01' }), 422, 'unprocessable_entity', {
    message:
      /^vatRegistrationDate cannot be 2026-06-01: 1 sale dated from it to 2026-06-20 was recorded without VAT \(the first, invoice INV-0001 of 2026-06-20\)/,
  });
  // Once the no-rate sale is voided the date goes back over the zero-rated one, whose £500.00 is then zero-rated turnover in box 6.
  t.equal((await c.api.request('POST', `/v1/invoices/${draft.body.data.id}/void`)).status, 200, 'the no-rate sale voided');
  t.equal((await put(c, { vatRegistrationDate: '2026-06-01' })).status, 200);
  const first = await returnOf(t, c, '2026-06');
  t.same([first.period.from, first.boxes.box1, first.exact.box6], ['2026-06-01', 0, 50_000]);
});
