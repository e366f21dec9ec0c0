/**
 * `acct vat show` of a flat-rate return (CLI in-process) lists the rates
 * box 1 applied. Registered 2025-06-01 at 14.5%: 13.5% to 2026-05-31.
 * Apr–Jun 2026: £1,000 + £200 VAT on 15 May: £1,200.00 × 13.5% = £162.00;
 * £1,000 + £200 VAT on 10 June: £1,200.00 × 14.5% = £174.00;
 * box 1 = £162.00 + £174.00 = £336.00 (14.5% of £2,400 would be £348.00).
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { books } from '../cli/support.js';
import { acctOk } from '../sales-cli/support.js';

const flat = { vatScheme: 'flat_rate', vatFlatRatePercent: 14.5, vatRegistrationDate: '2025-06-01', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;

t.test('acct vat show: each flat rate with its days, turnover and part of box 1', async (t) => {
  const { dir } = await books(t, flat);
  const bob = (await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob'])).id as string;
  for (const date of ['2026-05-15', '2026-06-10']) {
    const invoice = await acctOk(t, dir, ['invoices', 'create', '--contact-id', bob, '--issue-date', date, '--item', 'C;1;1000.00;standard']);
    await acctOk(t, dir, ['invoices', 'send', invoice.id]);
  }
  const shown = await runCliInProcess(['--data', dir, 'vat', 'show', '2026-06'], { env: { COLUMNS: '250' } });
  t.equal(shown.status, 0, shown.stderr);
  const lines = shown.stdout.split('\n');
  t.ok(lines.includes('Box 1, the flat rates applied: 13.5% to 2026-05-31 on £1,200.00: £162.00; 14.5% from 2026-06-01 on £1,200.00: £174.00'), shown.stdout);
  t.match(
    shown.stdout,
    /^1 +VAT due: 13\.5% × VAT-inclusive turnover dated to 2026-05-31 \+ 14\.5% × that dated from 2026-06-01 \(together box 6\) +336\.00$/m,
    'box 1 names both rates',
  );
  t.notMatch(shown.stdout, /flat rate percentage/);

  const json = await acctOk(t, dir, ['vat', 'show', '2026-06']);
  t.same(json.flatRates, [
    { from: '2026-04-01', to: '2026-05-31', percent: 13.5, turnover: 120_000, vat: 16_200 },
    { from: '2026-06-01', to: '2026-06-30', percent: 14.5, turnover: 120_000, vat: 17_400 },
  ]);
});

t.test('acct vat show of a quarter wholly inside the first year: the one rate applied, 11% of a 12% scheme', async (t) => {
  // Registered 2025-06-01 at 12%: 11% to 2026-05-31. Jan–Mar 2026: £500 + £100 VAT on 10 February: £600.00 × 11% = £66.00.
  const { dir } = await books(t, { ...flat, vatFlatRatePercent: 12 });
  const bob = (await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob'])).id as string;
  const invoice = await acctOk(t, dir, ['invoices', 'create', '--contact-id', bob, '--issue-date', '2026-02-10', '--item', 'C;1;500.00;standard']);
  await acctOk(t, dir, ['invoices', 'send', invoice.id]);
  const shown = await runCliInProcess(['--data', dir, 'vat', 'show', '2026-03'], { env: { COLUMNS: '250' } });
  t.equal(shown.status, 0, shown.stderr);
  t.ok(shown.stdout.split('\n').includes('Box 1, the flat rate applied: 11% from 2026-01-01 to 2026-03-31 on £600.00: £66.00'), shown.stdout);
  t.match(
    shown.stdout,
    /^1 +VAT due: 11% \(the 12% flat rate less 1 point in the first year of VAT registration\) × VAT-inclusive turnover \(box 6\) +66\.00$/m,
  );
});

t.test('acct report vat over a range begun before registration: the flat rate is applied from the registration date', async (t) => {
  // Registered 2025-06-01 at 9.5%: 8.5% to 2026-05-31. The tax year 2025/26 (6 April 2025 to 5 April 2026) begins
  // before registration. £1,000 + £200 VAT on 10 July 2025: £1,200.00 × 8.5% = £102.00.
  const { dir } = await books(t, { ...flat, vatFlatRatePercent: 9.5 });
  const bob = (await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob'])).id as string;
  const invoice = await acctOk(t, dir, ['invoices', 'create', '--contact-id', bob, '--issue-date', '2025-07-10', '--item', 'C;1;1000.00;standard']);
  await acctOk(t, dir, ['invoices', 'send', invoice.id]);
  const shown = await runCliInProcess(['--data', dir, 'report', 'vat', '--from', '2025-04-06', '--to', '2026-04-05'], { env: { COLUMNS: '250' } });
  t.equal(shown.status, 0, shown.stderr);
  t.ok(shown.stdout.split('\n').includes('Box 1, the flat rate applied: 8.5% from 2025-06-01 to 2026-04-05 on £1,200.00: £102.00'), shown.stdout);
  t.notMatch(shown.stdout, /2025-04-06 to 2026-04-05 on/, 'no rate before registration');
  const json = await acctOk(t, dir, ['report', 'vat', '--from', '2025-04-06', '--to', '2026-04-05']);
  t.same(json.period, { from: '2025-04-06', to: '2026-04-05' }, 'the report still covers the range asked for');
  t.same(json.flatRates, [{ from: '2025-06-01', to: '2026-04-05', percent: 8.5, turnover: 120_000, vat: 10_200 }]);

  // A range begun after registration keeps its own first day: 1 September 2025 to 5 April 2026, the same sale outside it.
  const later = await acctOk(t, dir, ['report', 'vat', '--from', '2025-09-01', '--to', '2026-04-05']);
  t.same(later.flatRates, [{ from: '2025-09-01', to: '2026-04-05', percent: 8.5, turnover: 0, vat: 0 }]);
});
