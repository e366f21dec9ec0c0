/**
 * The VAT settings against the books: once a return is filed, the settings
 * that make the periods (vatStagger, vatPeriodMonth, vatRegistrationDate)
 * stay, so that return periods never overlap; leaving VAT (not_registered)
 * leaves the returns up to it to be filed. Over HTTP, and once
 * through the CLI. Today is 2026-11-28.
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { expectError } from '../ledger-http/support.js';
import { vatBooks, type VatBooks } from './support.js';

const clock = '2026-11-28T10:00:00Z';
const standard = { vatScheme: 'standard', vatRegistrationDate: '2026-01-01', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;

const put = (v: VatBooks, body: Record<string, unknown>) => v.api.request('PUT', '/v1/organisation/settings', { body });
const settingsOf = async (v: VatBooks) => (await v.api.request('GET', '/v1/organisation/settings')).body.data as Record<string, unknown>;
const periodsOf = async (v: VatBooks) =>
  ((await v.api.request('GET', '/v1/vat/periods')).body.data.periods as { periodKey: string; from: string; to: string; status: string }[]).map((p) => [
    p.periodKey,
    p.from,
    p.to,
    p.status,
  ]);

t.test('after a return is filed, the settings that make the periods cannot change (409 conflict naming the field)', async (t) => {
  const v = await vatBooks(t, standard, clock);
  // Before anything is filed the periods may still change, and back.
  t.equal((await put(v, { vatPeriodMonth: 2 })).status, 200, 'nothing filed yet');
  t.equal((await put(v, { vatPeriodMonth: 3 })).status, 200);
  await v.invoice('2026-02-01', [{ unitPrice: 10_000 }]); // VAT 2000
  await v.file('2026-03');
  const settings = await settingsOf(v);
  const periods = await periodsOf(v);

  const refused = [
    [{ vatPeriodMonth: 2 }, 'vatPeriodMonth'],
    [{ vatStagger: 'monthly' }, 'vatStagger'],
    [{ vatStagger: 'annual' }, 'vatStagger'],
    [{ vatRegistrationDate: '2026-02-15' }, 'vatRegistrationDate'],
    [{ vatRegistrationDate: null }, 'vatRegistrationDate'],
    [{ currency: 'GBP', vatPeriodMonth: 1 }, 'vatPeriodMonth'],
  ] as const;
  for (const [body, field] of refused) {
    expectError(t, await put(v, body), 409, 'conflict', {
      message: new RegExp(`^${field} cannot change: the VAT return for 2026-01-01 to 2026-03-31 is filed`),
    });
  }
  t.same(await settingsOf(v), settings, 'the settings are as they were');
  t.same(await periodsOf(v), periods, 'and the periods');
  t.same(periods.at(-1), ['2026-03', '2026-01-01', '2026-03-31', 'filed'], 'the filed return is still a period');

  // The same periods are not a change: the same values, a quarter ending in June (periods end in March, June, September, December).
  t.equal((await put(v, { vatPeriodMonth: 3, vatStagger: 'quarterly', vatRegistrationDate: '2026-01-01' })).status, 200, 'the same values');
  t.equal((await put(v, { vatPeriodMonth: 6 })).status, 200, 'the same quarters');
  t.same(await periodsOf(v), periods, 'the periods are unchanged');
  t.equal((await put(v, { vatAccountingBasis: 'cash', invoicePrefix: 'S-' })).status, 200, 'other settings still change');

  // Through the CLI: exit 4 (conflict), the field named as its flag.
  const cli = await runCliInProcess(['--data', v.books.dataDir, 'settings', 'update', '--vat-period-month', '2']);
  t.equal(cli.status, 4, cli.stderr);
  t.match(cli.stderr, '--vat-period-month cannot change: the VAT return for 2026-01-01 to 2026-03-31 is filed');
});
t.test('leaving VAT with returns still to file: they stay to be filed, the final one ending the day before it left', async (t) => {
  const v = await vatBooks(t, standard, clock);
  // Q1 invoice 1 × £100 at 20%: VAT 2000 on 2200; Q2 bill 1 × £50 at 20%: VAT 1000 on 2201.
  await v.invoice('2026-02-01', [{ unitPrice: 10_000 }]);
  await v.bill('2026-05-10', [{ unitPrice: 5_000 }]);
  // Leaving from today, 2026-11-28: registered to 2026-11-27, so the final period is 2026-10-01 to 2026-11-27 (before, 409 until all was filed).
  const left = await put(v, { vatScheme: 'not_registered' });
  t.equal(left.status, 200, JSON.stringify(left.body.error));
  t.match(left.body.data, { vatScheme: 'not_registered', vatSchemeFrom: '2026-11-28' });
  t.same((await periodsOf(v)).slice(0, 2), [
    ['2026-11', '2026-10-01', '2026-11-27', 'ended'],
    ['2026-09', '2026-07-01', '2026-09-30', 'ended'],
  ]);
  await v.file('2026-03');
  await v.file('2026-06');
  // Q3 and the final period hold nothing: nil returns.
  await v.file('2026-09');
  t.equal((await v.file('2026-11')).boxes.box5, 0);
  // Filing cleared both VAT accounts into 2202: 2000 owed less 1000 reclaimed.
  t.same([await v.balance('2200'), await v.balance('2201'), await v.balance('2202')], [0, 0, -1_000], 'nothing stranded on 2200 or 2201');
});
