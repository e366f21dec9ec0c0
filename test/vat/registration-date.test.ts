/**
 * The VAT registration date: a business charges no VAT before it (sales
 * charging output VAT dated earlier are refused, and the date cannot move
 * past such sales), while VAT on purchases made before it is reclaimed on
 * the first return (HMRC's pre-registration input tax), so nothing is left
 * on 2200 or 2201 once the returns are filed. Registered 2026-02-15,
 * quarters ending March; today is 2026-11-28. Over HTTP, and `acct post`
 * through the CLI.
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { expectError } from '../ledger-http/support.js';
import { vatBooks, type VatBooks } from './support.js';

const clock = '2026-11-28T10:00:00Z';
const registered = { vatScheme: 'standard', vatRegistrationDate: '2026-02-15', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;

async function trialBalance(v: VatBooks) {
  const r = await v.api.request('GET', '/v1/reports/trial-balance?asOf=2026-12-31');
  if (r.status !== 200) throw new Error(`trial balance: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

t.test('a sale charging VAT dated before the registration date is refused, and nothing is written', async (t) => {
  const v = await vatBooks(t, registered, clock);
  const customer = (await v.api.request('GET', '/v1/contacts')).body.data.find((c: { contactType: string }) => c.contactType === 'customer').id;
  const before = await trialBalance(v);

  // An invoice of 1 February at 20%: a draft may be made (and re-dated), not sent.
  const draft = await v.api.request('POST', '/v1/invoices', {
    body: {
      contactId: customer,
      issueDate: '2026-02-01',
      items: [
        { description: 'Work', quantity: 1, unitPrice: 10_000, vatRate: 'zero' },
        { description: 'Goods', quantity: 1, unitPrice: 10_000, vatRate: 'standard' },
      ],
    },
  });
  t.equal(draft.status, 201);
  expectError(t, await v.api.request('POST', `/v1/invoices/${draft.body.data.id}/send`), 422, 'unprocessable_entity', {
    message:
      /^invoice INV-0001 is dated 2026-02-01, before the organisation registered for VAT on 2026-02-15, but items\[1\]\.vatRate charges 20% VAT: a business cannot charge VAT before it is registered/,
  });
  t.equal((await v.api.request('GET', `/v1/invoices/${draft.body.data.id}`)).body.data.status, 'draft', 'still a draft');

  // A journal crediting sales £100 + 20% VAT on 10 February, posted: refused naming the line.
  const journal = (status: string) =>
    v.api.request('POST', '/v1/transactions', {
      body: {
        date: '2026-02-10',
        description: 'Cash sale',
        status,
        lines: [
          { accountId: v.acc['1200'], amount: 12_000 },
          { accountId: v.acc['4000'], amount: -10_000, vatRate: 20, vatTreatment: 'exclusive' },
          { accountId: v.acc['2200'], amount: -2_000 },
        ],
      },
    });
  expectError(t, await journal('posted'), 422, 'unprocessable_entity', {
    message: /^lines\[1\]\.vatRate: a sale dated 2026-02-10 charges VAT \(£20\.00\), but the organisation registered for VAT on 2026-02-15/,
  });
  // As a draft it may be kept; posting it is refused alike.
  const kept = await journal('draft');
  t.equal(kept.status, 201);
  expectError(t, await v.api.request('PATCH', `/v1/transactions/${kept.body.data.id}/status`, { body: { status: 'posted' } }), 422, 'unprocessable_entity', {
    message: 'registered for VAT on 2026-02-15',
  });
  t.equal((await v.api.request('DELETE', `/v1/transactions/${kept.body.data.id}`)).status, 200);

  // acct post's shorthand: 4000=-120@20inc is a sale of £100 + £20 VAT.
  const cli = await runCliInProcess(['--data', v.books.dataDir, 'post', '2026-02-10', 'Cash sale', '1200=120', '4000=-120@20inc']);
  t.equal(cli.status, 5, cli.stderr);
  t.match(cli.stderr, 'registered for VAT on 2026-02-15');
  t.same(await trialBalance(v), before, 'nothing written');

  // A zero-rated sale before the date, and a sale at 20% on the date itself, go.
  await v.invoice('2026-02-14', [{ unitPrice: 10_000, vatRate: 'zero' }]);
  await v.invoice('2026-02-15', [{ unitPrice: 10_000 }]);
  t.equal(await v.balance('2200'), -2_000, 'VAT £20 of the sale of the 15th');
});

t.test('the registration date cannot move past a sale that charged VAT (422 naming vatRegistrationDate)', async (t) => {
  const v = await vatBooks(t, registered, clock);
  await v.invoice('2026-03-01', [{ unitPrice: 10_000 }]);
  expectError(t, await v.api.request('PUT', '/v1/organisation/settings', { body: { vatRegistrationDate: '2026-03-02' } }), 422, 'unprocessable_entity', {
    message: /^vatRegistrationDate cannot be 2026-03-02: a sale dated 2026-03-01 charged VAT/,
  });
  t.equal((await v.api.request('GET', '/v1/organisation/settings')).body.data.vatRegistrationDate, '2026-02-15', 'unchanged');
  t.equal((await v.api.request('PUT', '/v1/organisation/settings', { body: { vatRegistrationDate: '2026-03-01' } })).status, 200, 'the day of the sale');
});
t.test('VAT on purchases before the registration date is reclaimed on the first return, and filing clears 2201', async (t) => {
  const v = await vatBooks(t, registered, clock);
  // Before registering: a bill of 10 January, 1 × £500 at 20% (VAT 10000), and a zero-rated sale of 1 February (£50).
  await v.bill('2026-01-10', [{ unitPrice: 50_000 }]);
  await v.invoice('2026-02-01', [{ unitPrice: 5_000, vatRate: 'zero' }]);
  // Registered: an invoice of 1 March, 1 × £1,000 at 20% (VAT 20000).
  await v.invoice('2026-03-01', [{ unitPrice: 100_000 }]);

  // The first return, 15 February to 31 March: box 1 20000; box 4 10000 (the bill before registering); box 5 10000;
  // box 6 100000 (the zero-rated sale before registering is not in it); box 7 50000.
  const q1 = await v.show('2026-03');
  t.same(q1.period, { from: '2026-02-15', to: '2026-03-31' });
  t.same([q1.boxes.box1, q1.boxes.box4, q1.boxes.box5, q1.boxes.box6, q1.boxes.box7], [20_000, 10_000, 10_000, 100_000, 50_000]);
  const filed = await v.file('2026-03');
  t.same(filed.boxes, q1.boxes, 'filed as shown');
  // Filing clears both: 2200 debited 20000, 2201 credited 10000; 2202 owes the 10000 difference.
  t.same([await v.balance('2200'), await v.balance('2201'), await v.balance('2202')], [0, 0, -10_000]);

  // A bill from before registering entered late (20 January, 1 × £50 at 20%, VAT 1000) goes into the next open return.
  await v.bill('2026-01-20', [{ unitPrice: 5_000 }]);
  const q2 = await v.show('2026-06');
  t.same([q2.boxes.box4, q2.boxes.box7, q2.fileFirst], [1_000, 5_000, null]);
  await v.file('2026-06');
  t.equal(await v.balance('2201'), 0, 'nothing left on 2201');
  // Every entry is on a filed return: the business may leave VAT.
  t.equal((await v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered' } })).status, 200);
});
