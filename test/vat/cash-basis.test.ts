/**
 * Cash accounting (VAT Notice 731) over the real HTTP server: the boxes of
 * a cash-basis return come from the payments received and made in the
 * period, each carrying its document's VAT in proportion to the part paid
 * (cumulative rounding: the shares of a document sum to its VAT once it is
 * paid), and manual lines on their date. Every figure is worked by hand.
 * Credit notes: cash-basis-credits.test.ts; a change of basis:
 * cash-basis-switch.test.ts.
 */
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { expectError } from '../ledger-http/support.js';
import { billApproved, cashBooks, fileOk, invoiceSent, item, netOf, paid, received, returnOf, type CashBooks } from './cash-support.js';

/** Q1 and Q2 of a trader whose invoices are paid in parts across the two quarters, and a manual sale. */
async function tradeOverTwoQuarters(t: Parameters<typeof cashBooks>[0], c: CashBooks) {
  // A: 1 × £1,000.00 at 20%: net 100000, VAT 20000, total 120000.
  const a = await invoiceSent(t, c, [item({ unitPrice: 100000 })], '2026-02-10');
  // B: £300.00 at 20% (net 30000, VAT 6000, gross 36000) and £100.00 zero-rated (net 10000): total 46000, VAT 6000.
  const b = await invoiceSent(t, c, [item({ unitPrice: 30000 }), item({ description: 'Books', unitPrice: 10000, vatRate: 'zero' })], '2026-03-05');
  // C: £500.00 at 5%: net 50000, VAT 2500, total 52500; nothing paid until Q2.
  const cc = await invoiceSent(t, c, [item({ unitPrice: 50000, vatRate: 'reduced' })], '2026-03-20');
  t.same([a.total, b.total, cc.total], [120000, 46000, 52500]);
  // A manual sale of £20.00 + £4.00 VAT, paid on the spot: it counts on its date on either basis.
  const manual = await c.api.request('POST', '/v1/transactions', {
    body: {
      date: '2026-03-15',
      description: 'Cash sale',
      lines: [
        { accountId: c.acc['1200'], amount: 2400 },
        { accountId: c.acc['4000'], amount: -2000, vatRate: 20, vatTreatment: 'exclusive' },
        { accountId: c.acc['2200'], amount: -400 },
      ],
    },
  });
  t.equal(manual.status, 201);
  return { a, b, cc };
}

t.test('a cash-basis trader paid in parts across two quarters: each return counts the money received in it', async (t) => {
  const c = await cashBooks(t);
  const { a, b, cc } = await tradeOverTwoQuarters(t, c);

  // Q1: A £400.00 on 03-10, B £230.00 on 03-25.
  await received(t, c, a.id, 40000, '2026-03-10');
  await received(t, c, b.id, 23000, '2026-03-25');
  // A paid 40000 of 120000: VAT round(20000 × 40000/120000 = 6666.67) = 6667; gross 40000, net 40000 − 6667 = 33333.
  // B paid 23000 of 46000, a half: 20% VAT 6000/2 = 3000, gross 18000, net 15000; zero-rated gross = net 5000.
  // The manual sale: VAT 400, net 2000.
  // Box 1 = 6667 + 3000 + 400 = 10067; box 6 = 33333 + 15000 + 5000 + 2000 = 55333p → £553 (whole pounds).
  const q1 = await fileOk(t, c, '2026-03');
  t.same([q1.status, q1.basis, q1.scheme, q1.period], ['filed', 'cash', 'standard', { from: '2026-01-01', to: '2026-03-31' }]);
  t.same(q1.boxes, { box1: 10067, box2: 0, box3: 10067, box4: 0, box5: 10067, box6: 55300, box7: 0, box8: 0, box9: 0 });
  t.same(q1.exact, { box6: 55333, box7: 0, box8: 0, box9: 0 });
  t.equal(q1.netVatDirection, 'payable');

  // Q2: A £400.00 on 04-15 and £400.00 on 05-20 (paid), B £230.00 on 06-01 (paid), C £525.00 on 06-30 (paid).
  await received(t, c, a.id, 40000, '2026-04-15');
  await received(t, c, a.id, 40000, '2026-05-20');
  await received(t, c, b.id, 23000, '2026-06-01');
  await received(t, c, cc.id, 52500, '2026-06-30');
  // D: £200.00 at 20% (VAT 4000), dated in Q2 and unpaid: on the cash basis it reaches no box.
  await invoiceSent(t, c, [item({ unitPrice: 20000 })], '2026-06-10');
  // A through 80000: VAT round(20000 × 80000/120000 = 13333.33) = 13333, less the 6667 counted: 6666; net 66667 − 33333 = 33334.
  // A through 120000: VAT 20000 − 13333 = 6667; net 100000 − 66667 = 33333. A in all: 6667 + 6666 + 6667 = 20000.
  // B's second half: VAT 3000, net 15000 + 5000. C whole: VAT 2500, net 50000.
  // Box 1 = 6666 + 6667 + 3000 + 2500 = 18833; box 6 = 33334 + 33333 + 15000 + 5000 + 50000 = 136667p → £1,367.
  const q2 = await fileOk(t, c, '2026-06');
  t.same(q2.boxes, { box1: 18833, box2: 0, box3: 18833, box4: 0, box5: 18833, box6: 136700, box7: 0, box8: 0, box9: 0 });
  t.same(q2.exact, { box6: 136667, box7: 0, box8: 0, box9: 0 });

  // The VAT charged: 20000 + 6000 + 2500 + 4000 (D) + 400 = 32900 on 2200; the two returns moved 10067 + 18833 = 28900
  // of it to 2202, so 2200 keeps D's 4000, due once D is paid.
  t.equal(await netOf(c, '2200'), -4000, "2200 keeps only the unpaid invoice's VAT");
  t.equal(await netOf(c, '2202'), -28900, '2202 owes HMRC what the two returns counted');
});

t.test('bills paid in parts: input VAT is reclaimed as the supplier is paid', async (t) => {
  const c = await cashBooks(t);
  // £600.00 at 20% (net 60000, VAT 12000, gross 72000) and £90.00 at 5% (net 9000, VAT 450, gross 9450): total 81450.
  const bill = await billApproved(
    t,
    c,
    [item({ description: 'Paper', unitPrice: 60000 }), item({ description: 'Fuel', unitPrice: 9000, vatRate: 'reduced' })],
    '2026-01-15',
  );
  t.equal(bill.total, 81450);
  await paid(t, c, bill.id, 30000, '2026-02-01');
  // Paid 30000 of 81450. 20%: VAT round(12000 × 30000/81450 = 4419.89) = 4420; gross round(72000 × 30000/81450 = 26519.34) = 26519, net 22099.
  // 5%: VAT round(450 × 30000/81450 = 165.75) = 166; gross round(9450 × 30000/81450 = 3480.66) = 3481, net 3315.
  // Box 4 = 4420 + 166 = 4586, repayable; box 7 = 22099 + 3315 = 25414p → £254.
  const q1 = await fileOk(t, c, '2026-03');
  t.same(q1.boxes, { box1: 0, box2: 0, box3: 0, box4: 4586, box5: 4586, box6: 0, box7: 25400, box8: 0, box9: 0 });
  t.same([q1.exact.box7, q1.netVatDirection], [25414, 'repayable']);

  await paid(t, c, bill.id, 51450, '2026-04-10');
  // The rest: 20% VAT 12000 − 4420 = 7580, net 60000 − 22099 = 37901; 5% VAT 450 − 166 = 284, net 9000 − 3315 = 5685.
  // Box 4 = 7580 + 284 = 7864; box 7 = 37901 + 5685 = 43586p → £436. In all 4586 + 7864 = 12450, the bill's VAT.
  const q2 = await returnOf(t, c, '2026-06');
  t.same([q2.status, q2.basis], ['draft', 'cash']);
  t.same(q2.boxes, { box1: 0, box2: 0, box3: 0, box4: 7864, box5: 7864, box6: 0, box7: 43600, box8: 0, box9: 0 });
  t.equal(q2.exact.box7, 43586);
});

t.test('cash basis and flat rate: the turnover is the money received, at the discounted rate in the first year', async (t) => {
  const c = await cashBooks(t, { vatScheme: 'flat_rate', vatFlatRatePercent: 12.5 });
  // £1,000.00 at 20%: total 120000, of which VAT 20000.
  const inv = await invoiceSent(t, c, [item({ unitPrice: 100000 })], '2026-02-01');
  // A £100.00 + £20.00 VAT bill, paid: under the flat rate its VAT is part of the cost, in no box.
  const bill = await billApproved(t, c, [item({ description: 'Paper', unitPrice: 10000 })], '2026-02-10');
  await paid(t, c, bill.id, 12000, '2026-03-01');
  await received(t, c, inv.id, 60000, '2026-03-15');
  // Q1 turnover: the 60000 received (VAT 10000 inside it), not the invoice's 120000.
  // Registered 2026-01-01: the first year takes 12.5% − 1% = 11.5%: box 1 = 60000 × 11.5% = 6900.
  // Surplus = VAT charged in the turnover − box 1 = 10000 − 6900 = 3100, income on 4300 when filed.
  const q1 = await fileOk(t, c, '2026-03');
  t.same(q1.boxes, { box1: 6900, box2: 0, box3: 6900, box4: 0, box5: 6900, box6: 60000, box7: 0, box8: 0, box9: 0 });
  t.same([q1.flatRateSurplus, q1.flatRatePercent], [3100, 12.5]);

  await received(t, c, inv.id, 60000, '2026-04-20');
  // Q2: the other 60000, still in the first year: box 1 = 6900, surplus 3100.
  const q2 = await fileOk(t, c, '2026-06');
  t.same(q2.boxes, { box1: 6900, box2: 0, box3: 6900, box4: 0, box5: 6900, box6: 60000, box7: 0, box8: 0, box9: 0 });
  t.equal(q2.flatRateSurplus, 3100);
  // 2200: 20000 charged, 10000 + 10000 cleared; 4300: 3100 + 3100 = 6200 of income; 2202: 6900 + 6900 = 13800 owed.
  t.same([await netOf(c, '2200'), await netOf(c, '4300'), await netOf(c, '2202')], [0, -6200, -13800]);
});

t.test('a payment counted in a filed return cannot be removed, and nothing changes', async (t) => {
  const c = await cashBooks(t);
  // £100.00 at 20%: total 12000; £60.00 paid in Q1 carries VAT 2000 × 6000/12000 = 1000.
  const inv = await invoiceSent(t, c, [item({ unitPrice: 10000 })], '2026-02-01');
  const payment = await received(t, c, inv.id, 6000, '2026-03-01');
  const filed = await fileOk(t, c, '2026-03');
  t.equal(filed.boxes.box1, 1000);
  const before = await c.api.request('GET', `/v1/invoices/${inv.id}`);
  const transactions = (await c.api.request('GET', '/v1/transactions')).body.meta.total;

  const r = await c.api.request('DELETE', `/v1/invoices/${inv.id}/payments/${payment.id}`);
  expectError(t, r, 422, 'vat_return_filed', { message: /cannot be removed: .*counted in the VAT return filed for 2026-01-01 to 2026-03-31/ });

  const after = await c.api.request('GET', `/v1/invoices/${inv.id}`);
  t.same([after.body.data.amountPaid, after.body.data.payments.length], [before.body.data.amountPaid, before.body.data.payments.length], 'the payment stays');
  t.equal((await c.api.request('GET', '/v1/transactions')).body.meta.total, transactions, 'no transaction removed');
  t.same((await returnOf(t, c, '2026-03')).boxes, filed.boxes, 'the filed return stands');

  // A payment not yet counted (dated in the open Q2) still goes: 6000 more is the rest, VAT 2000 − 1000 = 1000.
  const later = await received(t, c, inv.id, 6000, '2026-04-02');
  t.equal((await returnOf(t, c, '2026-06')).boxes.box1, 1000);
  const removed = await c.api.request('DELETE', `/v1/invoices/${inv.id}/payments/${later.id}`);
  t.equal(removed.status, 200, JSON.stringify(removed.body));
  t.equal((await returnOf(t, c, '2026-06')).boxes.box1, 0, 'its share left with it');
});

t.test('acct vat show: a cash-basis return from the command line', async (t) => {
  const c = await cashBooks(t);
  // £250.00 at 20%: total 30000; £120.00 received: VAT round(5000 × 12000/30000) = 2000, net 12000 − 2000 = 10000.
  const inv = await invoiceSent(t, c, [item({ unitPrice: 25000 })], '2026-01-20');
  await received(t, c, inv.id, 12000, '2026-02-20');
  const json = await runCliInProcessJson(['--data', c.books.dataDir, '--json', 'vat', 'show', '2026-03']);
  t.equal(json.status, 0, json.stderr);
  const data = json.data as { status: string; basis: string; boxes: Record<string, number> };
  t.same([data.status, data.basis], ['draft', 'cash']);
  t.same(data.boxes, { box1: 2000, box2: 0, box3: 2000, box4: 0, box5: 2000, box6: 10000, box7: 0, box8: 0, box9: 0 });
  const text = await runCliInProcess(['--data', c.books.dataDir, 'vat', 'show', '2026-03']);
  t.equal(text.status, 0, text.stderr);
  t.match(text.stdout, /^basis\s+cash\s*$/m);
  t.match(text.stdout, /^boxes\.box1\s+20\.00\s*$/m, 'box 1 in pounds');
  t.match(text.stdout, /^boxes\.box6\s+100\.00\s*$/m, 'box 6 in pounds');
});
