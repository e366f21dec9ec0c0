/**
 * Sales made before the VAT registration date are in no return, whatever
 * is recorded of them later: paid after the date on the cash basis, or
 * credited after it by a credit note (which carries no VAT, like its
 * invoice). Over HTTP on a real port; registered 2026-07-01, quarters
 * ending March, June, September and December; today is 2026-10-05.
 */
import t, { type Test } from 'tap';
import { cashBooks, invoiceSent, item, received, returnOf, setBasis, type CashBooks } from './cash-support.js';

const clock = '2026-10-05T09:00:00Z';

async function creditOk(t: Test, c: CashBooks, invoiceId: string, date: string, amount: number): Promise<void> {
  const r = await c.api.request('POST', '/v1/credit-notes', { body: { invoiceId, date, amount } });
  t.equal(r.status, 201, `credit note issued: ${JSON.stringify(r.body?.error ?? '')}`);
}

const boxes = (r: { boxes: Record<string, number>; exact: Record<string, number> }) => [r.boxes.box1, r.boxes.box5, r.exact.box6];

t.test('cash basis: a sale invoiced before registration and paid after it is in no return', async (t) => {
  for (const scheme of ['flat_rate', 'standard'] as const) {
    await t.test(scheme, async (t) => {
      const c = await cashBooks(
        t,
        { vatScheme: scheme, ...(scheme === 'flat_rate' ? { vatFlatRatePercent: 10 } : {}), vatRegistrationDate: '2026-07-01' },
        clock,
      );
      // Before registering: 1 × £500.00 zero-rated on 20 June, paid in full on 10 July.
      const before = await invoiceSent(t, c, [item({ unitPrice: 50_000, vatRate: 'zero' })], '2026-06-20');
      await received(t, c, before.id, 50_000, '2026-07-10');
      // Registered: 1 × £1,000.00 at 20% on 15 July (£1,200.00 with £200.00 VAT), paid in full on 1 August.
      const after = await invoiceSent(t, c, [item({ unitPrice: 100_000 })], '2026-07-15');
      await received(t, c, after.id, 120_000, '2026-08-01');

      // Only the sale of 15 July. Flat rate: box 6 is the VAT-inclusive £1,200.00 (120000), box 1 9% (the 10% rate less the
      // first-year point) × 120000 = 10800. Standard: box 6 the net £1,000.00 (100000), box 1 its VAT 20000. Box 5 = box 1.
      const expected = scheme === 'flat_rate' ? [10_800, 10_800, 120_000] : [20_000, 20_000, 100_000];
      t.same(boxes(await returnOf(t, c, '2026-09')), expected, 'cash basis');
      // The accrual basis on the same books gives the same: the sale of 20 June is dated before the first period.
      await setBasis(t, c, 'accrual');
      t.same(boxes(await returnOf(t, c, '2026-09')), expected, 'accrual basis');
    });
  }
});

t.test('a credit note dated after registration on a sale made before it is in no return', async (t) => {
  for (const scheme of ['flat_rate', 'standard'] as const) {
    await t.test(scheme, async (t) => {
      const c = await cashBooks(t, { vatScheme: 'not_registered', vatAccountingBasis: 'accrual', vatRegistrationDate: undefined }, clock);
      // Not registered: 1 × £500.00 with no VAT rate on 10 May.
      const before = await invoiceSent(t, c, [item({ unitPrice: 50_000, vatRate: undefined })], '2026-05-10');
      const registering = await c.api.request('PUT', '/v1/organisation/settings', {
        body: { vatScheme: scheme, ...(scheme === 'flat_rate' ? { vatFlatRatePercent: 10 } : {}), vatRegistrationDate: '2026-07-01' },
      });
      t.equal(registering.status, 200, JSON.stringify(registering.body.error ?? ''));
      // Registered: 1 × £1,000.00 at 20% on 10 July (£1,200.00 with £200.00 VAT); £100.00 credited on the May sale on 20 July.
      const after = await invoiceSent(t, c, [item({ unitPrice: 100_000 })], '2026-07-10');
      await creditOk(t, c, before.id, '2026-07-20', 10_000);

      // Only the sale of 10 July, as above: flat rate box 6 120000 and box 1 9% × 120000 = 10800 (not 110000 and 9900 with the
      // credit taken off); standard box 6 100000 and box 1 20000 (not 90000).
      const expected = scheme === 'flat_rate' ? [10_800, 10_800, 120_000] : [20_000, 20_000, 100_000];
      t.same(boxes(await returnOf(t, c, '2026-09')), expected, 'accrual basis');

      // Cash basis: the rest of the May sale (£500.00 − £100.00 = £400.00) paid on 25 July, the July sale's £1,200.00 on 1 August.
      await setBasis(t, c, 'cash');
      await received(t, c, before.id, 40_000, '2026-07-25');
      await received(t, c, after.id, 120_000, '2026-08-01');
      t.same(boxes(await returnOf(t, c, '2026-09')), expected, 'cash basis');
    });
  }
});
