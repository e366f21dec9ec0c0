/**
 * A year of quarterly returns for a standard-rated company (accrual basis,
 * quarters ending March, June, September and December, registered
 * 2026-01-01), with HMRC paid and repaying between them. Every box is worked
 * out by hand below; today is 2027-01-20, so all four quarters have ended.
 *
 * Q1 (Jan–Mar): invoice A 10 × £100 standard: net 100000, VAT 20000.
 *               bill B 1 × £300 standard: net 30000, VAT 6000.
 *   box 1 20000; box 4 6000; box 5 14000 payable; box 6 100000; box 7 30000.
 * Q2 (Apr–Jun): invoice C 3 × £450 standard (135000 + VAT 27000) and 1 × £200 zero (20000 + 0);
 *               bill D 1 × £80 reduced: net 8000, VAT 400 (5%);
 *               a manual purchase of £144 including 20% VAT on 5100: VAT 144 × 20/120 = 24.00, net 120.00;
 *               Q1's £140 paid to HMRC on 7 May (Dr 2202, Cr 1200): no VAT facts, no box.
 *   box 1 27000; box 4 400 + 2400 = 2800; box 5 27000 − 2800 = 24200 payable;
 *   box 6 135000 + 20000 = 155000; box 7 8000 + 12000 = 20000.
 * Q3 (Jul–Sep): bill E a computer, 1 × £5,000 standard on 1020: net 500000, VAT 100000;
 *               invoice F 1 × £1,234.56 standard: VAT 123456 × 20% = 24691.2 → 24691;
 *               bill G 1 × £50 standard dated 20 June (Q2, filed) entered late: net 5000, VAT 1000, lands here;
 *               Q2's £242 paid to HMRC on 7 August.
 *   box 1 24691; box 4 100000 + 1000 = 101000; box 5 |24691 − 101000| = 76309 repayable;
 *   box 6 exact 123456 → £1,235 (123500); box 7 500000 + 5000 = 505000.
 * Q4 (Oct–Dec): invoice H 1 × £1,000 standard: net 100000, VAT 20000; HMRC repays Q3's £763.09 on 5 November.
 *   box 1 20000; box 4 0; box 5 20000 payable; box 6 100000; box 7 0.
 */
import t from 'tap';
import { vatBooks } from './support.js';

const zeroEu = { box2: 0, box8: 0, box9: 0 };

t.test('a year of quarterly returns: settlements and HMRC payments never reach a box; each filing clears the VAT accounts into 2202', async (t) => {
  const v = await vatBooks(t, { vatScheme: 'standard', vatRegistrationDate: '2026-01-01', vatStagger: 'quarterly', vatPeriodMonth: 3 }, '2027-01-20T10:00:00Z');

  await v.invoice('2026-02-10', [{ quantity: 10, unitPrice: 10_000 }]);
  await v.bill('2026-03-05', [{ unitPrice: 30_000 }]);
  const q1 = await v.file('2026-03');
  t.same(q1.boxes, { box1: 20_000, box3: 20_000, box4: 6_000, box5: 14_000, box6: 100_000, box7: 30_000, ...zeroEu });
  t.equal(q1.netVatDirection, 'payable');
  t.same(q1.period, { from: '2026-01-01', to: '2026-03-31' });
  t.equal(q1.dueDate, '2026-05-07', 'one month and seven days after 31 March');
  // Settlement: Dr 2200 20000, Cr 2201 6000, Cr 2202 14000.
  t.equal(await v.balance('2200'), 0, 'VAT output cleared');
  t.equal(await v.balance('2201'), 0, 'VAT input cleared');
  t.equal(await v.balance('2202'), -14_000, 'owed to HMRC: £140.00');
  await v.journal('2026-05-07', [
    ['2202', 14_000],
    ['1200', -14_000],
  ]);

  await v.invoice('2026-04-15', [
    { quantity: 3, unitPrice: 45_000 },
    { unitPrice: 20_000, vatRate: 'zero' },
  ]);
  await v.bill('2026-06-01', [{ unitPrice: 8_000, vatRate: 'reduced' }]);
  await v.journal('2026-06-10', [
    ['5100', 14_400, { vatRate: 20, vatTreatment: 'inclusive' }],
    ['1200', -14_400],
  ]);
  const may = await v.api.request('GET', '/v1/reports/vat?from=2026-05-01&to=2026-05-31');
  t.same(may.body.data.boxes, { box1: 0, box3: 0, box4: 0, box5: 0, box6: 0, box7: 0, ...zeroEu }, 'a month holding only the payment to HMRC has empty boxes');
  const q2 = await v.file('2026-06');
  t.same(q2.boxes, { box1: 27_000, box3: 27_000, box4: 2_800, box5: 24_200, box6: 155_000, box7: 20_000, ...zeroEu });
  // Settlement: Dr 2200 27000, Cr 2201 400, Cr 5100 2400 (the VAT inside the manual line), Cr 2202 24200.
  t.equal(await v.balance('5100'), 12_000, 'the manual purchase ends at its net £120.00');
  t.equal(await v.balance('2202'), -24_200, 'Q1 paid; Q2 owed');
  await v.journal('2026-08-07', [
    ['2202', 24_200],
    ['1200', -24_200],
  ]);

  await v.bill('2026-07-10', [{ unitPrice: 500_000, account: '1020' }]);
  await v.invoice('2026-09-01', [{ unitPrice: 123_456 }]);
  await v.bill('2026-06-20', [{ unitPrice: 5_000 }]);
  const q3 = await v.file('2026-09');
  t.same(q3.boxes, { box1: 24_691, box3: 24_691, box4: 101_000, box5: 76_309, box6: 123_500, box7: 505_000, ...zeroEu });
  t.same(q3.exact, { box6: 123_456, box7: 505_000, box8: 0, box9: 0 }, 'the pence beside the whole pounds');
  t.equal(q3.netVatDirection, 'repayable');
  t.equal(await v.balance('2202'), 76_309, 'HMRC owes £763.09');
  await v.journal('2026-11-05', [
    ['1200', 76_309],
    ['2202', -76_309],
  ]);

  await v.invoice('2026-10-05', [{ unitPrice: 100_000 }]);
  const q4 = await v.file('2026-12');
  t.same(q4.boxes, { box1: 20_000, box3: 20_000, box4: 0, box5: 20_000, box6: 100_000, box7: 0, ...zeroEu });

  // 2202: credits 14000 + 24200 + 20000 (filed payable) + 76309 (repaid) = 134509;
  // debits 76309 (filed repayable) + 14000 + 24200 (paid) = 114509; balance −20000: Q4's £200.00 still owed.
  t.equal(await v.balance('2202'), -20_000);
  t.equal(await v.balance('2200'), 0);
  t.equal(await v.balance('2201'), 0);

  const periods = (await v.api.request('GET', '/v1/vat/periods')).body.data.periods as { periodKey: string; status: string; netVat: number }[];
  t.same(
    periods.map((p) => [p.periodKey, p.status, p.netVat]),
    [
      ['2027-03', 'open', null],
      ['2026-12', 'filed', 20_000],
      ['2026-09', 'filed', 76_309],
      ['2026-06', 'filed', 24_200],
      ['2026-03', 'filed', 14_000],
    ],
  );
  const listed = await v.api.request('GET', '/v1/vat/returns?limit=2');
  t.same(
    listed.body.data.returns.map((r: { periodKey: string }) => r.periodKey),
    ['2026-12', '2026-09'],
  );
  t.equal(listed.body.meta.total, 4);
});
