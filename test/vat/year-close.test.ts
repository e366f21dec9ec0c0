/**
 * Closing a financial year that holds VAT not yet on a filed return, over
 * HTTP. Filing posts a return's settlement journal on its period's last day
 * and returns are filed in order, so a closed year holding an unfiled
 * period's VAT would stop every later return for good: the close is refused
 * until that return is filed. A VAT period that ends after the year end is
 * no bar: its settlement falls in the next year. Today is 2026-11-21; the
 * company's FY 2025/26 ran from 2025-04-01 to 2026-03-31.
 */
import t from 'tap';
import { expectError } from '../ledger-http/support.js';
import { vatBooks } from './support.js';

const clock = '2026-11-21T10:00:00Z';
const quarters = { vatScheme: 'standard', vatRegistrationDate: '2025-04-01', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;
const close = '/v1/reports/periods/period_20250401/close';

t.test('a quarter ending in the year must be filed before the year is closed; the returns after it are then filed as ever', async (t) => {
  const v = await vatBooks(t, quarters, clock);
  // 1 × £100.00 standard on 10 February 2026 (VAT £20.00, January to March 2026) and on 10 May 2026 (April to June).
  await v.invoice('2026-02-10', [{ unitPrice: 10_000 }]);
  await v.invoice('2026-05-10', [{ unitPrice: 10_000 }]);
  const transactions = (await v.api.request('GET', '/v1/transactions')).body.meta.total as number;

  expectError(t, await v.api.request('POST', close), 422, 'unprocessable_entity', {
    message:
      "FY 2025/26 cannot be closed yet: the VAT return for 2026-01-01 to 2026-03-31 (2026-03) is not filed: file it and the returns after it up to 2026-03-31 first, as filing posts each one's settlement on its last day",
  });
  t.equal((await v.api.request('GET', '/v1/reports/periods/period_20250401')).body.data.isClosed, false, 'still open');
  t.equal((await v.api.request('GET', '/v1/transactions')).body.meta.total, transactions, 'nothing written');

  // Filed, the January to March return settles £20.00 on 31 March 2026; the year then closes.
  const q1 = await v.file('2026-03');
  t.same([q1.boxes.box1, q1.boxes.box6], [2_000, 10_000], 'Q1: £100.00 of sales, £20.00 VAT');
  t.equal((await v.api.request('POST', close)).status, 200, 'closed');
  // The next quarter's return is filed as it would have been: its settlement falls on 30 June 2026, in the open year.
  const q2 = await v.file('2026-06');
  t.same([q2.boxes.box1, q2.boxes.box6], [2_000, 10_000], 'Q2: £100.00 of sales, £20.00 VAT');
});

t.test('a quarter that ends after the year end is no bar to closing it, nor a period with no VAT in it', async (t) => {
  // Quarters ending in February, May, August and November: March to May 2026 straddles the 31 March year end.
  const v = await vatBooks(t, { ...quarters, vatPeriodMonth: 2 }, clock);
  // 1 × £50.00 standard on 15 March 2026, in the year being closed: VAT £10.00, on the return to 31 May 2026.
  await v.invoice('2026-03-15', [{ unitPrice: 5_000 }]);
  t.equal((await v.api.request('POST', close)).status, 200, 'closed with the straddling quarter still to file');
  // Its settlement is posted on 31 May 2026, after the closed year: the entry of 15 March is counted as before.
  const q = await v.file('2026-05');
  t.same([q.boxes.box1, q.boxes.box6], [1_000, 5_000], 'March to May: £50.00 of sales, £10.00 VAT');
});

t.test('a period before the year end with no VAT in it need not be filed; a business not registered closes as ever', async (t) => {
  // VAT only after the year end (1 × £100.00 on 1 May 2026): nothing for FY 2025/26's returns to take.
  const v = await vatBooks(t, quarters, clock);
  await v.invoice('2026-05-01', [{ unitPrice: 10_000 }]);
  t.equal((await v.api.request('POST', close)).status, 200, 'closed: the quarters to 31 March 2026 hold no VAT');

  const unregistered = await vatBooks(t, { vatScheme: 'not_registered' }, clock);
  await unregistered.invoice('2026-02-10', [{ unitPrice: 10_000, vatRate: 'zero' }]);
  t.equal((await unregistered.api.request('POST', close)).status, 200, 'no VAT returns to wait for');
});
