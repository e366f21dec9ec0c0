/** Commands generated from the registry: kebab-case flags after the API's fields, --test, paging, readable output. */
import t from 'tap';
import { acctJson, books } from './support.js';
import { runCliInProcess } from '../helpers/index.js';

t.test('settings update takes each field as a kebab-case flag, typed as the API types it', async (t) => {
  const { dir } = await books(t);
  const updated = await acctJson(t, dir, [
    'settings',
    'update',
    '--invoice-prefix',
    'ACME-',
    '--invoice-next-number',
    '42',
    '--vat-scheme',
    'flat_rate',
    '--vat-flat-rate-percent',
    '16.5',
    '--vat-registration-date',
    '2026-01-01',
    '--vat-stagger',
    'monthly',
    '--vat-period-month',
    '2',
    '--vat-accounting-basis',
    'cash',
  ]);
  const expected = {
    currency: 'GBP',
    vatScheme: 'flat_rate',
    vatRegistered: true,
    vatFlatRatePercent: 16.5,
    vatSchemeFrom: null, // no VAT entries yet: the scheme holds throughout
    vatRegistrationDate: '2026-01-01',
    vatStagger: 'monthly',
    vatPeriodMonth: 2,
    vatAccountingBasis: 'cash',
    fiscalYearStart: '04-01',
    invoicePrefix: 'ACME-',
    invoiceNextNumber: 42,
    quotePrefix: 'QT-',
    quoteNextNumber: 1,
    creditNotePrefix: 'CN-',
    creditNoteNextNumber: 1,
    defaultPaymentTerms: 30,
    quoteValidityDays: 30,
  };
  t.strictSame(updated, expected, 'the update prints the new settings');
  t.strictSame(await acctJson(t, dir, ['settings', 'get']), expected, 'settings get shows them');
});

t.test('the other settings flags, and leaving flat_rate clears the percentage', async (t) => {
  const { dir } = await books(t, { name: 'Flat Co', businessType: 'sole_trader', vatScheme: 'flat_rate', vatFlatRatePercent: 12.5 });
  await acctJson(t, dir, [
    'settings',
    'update',
    '--currency',
    'EUR',
    '--fiscal-year-start',
    '01-01',
    '--quote-prefix',
    'Q/',
    '--quote-next-number',
    '100',
    '--default-payment-terms',
    '14',
    '--quote-validity-days',
    '60',
    '--credit-note-prefix',
    'CR/',
    '--credit-note-next-number',
    '7',
    '--vat-scheme',
    'standard',
  ]);
  t.strictSame(await acctJson(t, dir, ['settings', 'get']), {
    currency: 'EUR',
    vatScheme: 'standard',
    vatRegistered: true,
    vatFlatRatePercent: null,
    vatSchemeFrom: null,
    vatRegistrationDate: null,
    vatStagger: 'quarterly',
    vatPeriodMonth: 3,
    vatAccountingBasis: 'accrual',
    fiscalYearStart: '01-01',
    invoicePrefix: 'INV-',
    invoiceNextNumber: 1,
    quotePrefix: 'Q/',
    quoteNextNumber: 100,
    creditNotePrefix: 'CR/',
    creditNoteNextNumber: 7,
    defaultPaymentTerms: 14,
    quoteValidityDays: 60,
  });
});

t.test('organisation update takes the flat address fields as flags', async (t) => {
  const { dir } = await books(t);
  const updated = await acctJson(t, dir, [
    'organisation',
    'update',
    '--address-line1',
    '1 High St',
    '--postal-code',
    'LS1 1AA',
    '--company-number',
    '01234567',
  ]);
  t.strictSame(updated.address, { line1: '1 High St', line2: null, city: null, region: null, postalCode: 'LS1 1AA', country: 'GB' });
  const org = await acctJson(t, dir, ['organisation', 'get']);
  t.strictSame(org.address, { line1: '1 High St', line2: null, city: null, region: null, postalCode: 'LS1 1AA', country: 'GB' });
  t.equal(org.companyNumber, '01234567', 'a number-like text field stays text');
  t.equal(org.name, 'Acme Widgets Ltd', 'fields left out stay as they are');

  // an empty value clears an optional field
  const cleared = await acctJson(t, dir, ['organisation', 'update', '--postal-code', '', '--city', 'Leeds']);
  t.strictSame(cleared.address, { line1: '1 High St', line2: null, city: 'Leeds', region: null, postalCode: null, country: 'GB' });
});

t.test('keys list --limit and --page page through the keys, newest first', async (t) => {
  const { dir } = await books(t);
  const created = await acctJson(t, dir, ['keys', 'create', '--name', 'CI']);
  // One page asked for: --json prints it with the API's meta.
  const first = await acctJson(t, dir, ['keys', 'list', '--limit', '1', '--page', '1']);
  t.strictSame(
    first.data.map((k: { name: string }) => k.name),
    ['CI'],
  );
  t.equal(first.data[0].id, created.id);
  t.strictSame(first.meta, { total: 2, page: 1, limit: 1, hasMore: true });
  const second = await acctJson(t, dir, ['keys', 'list', '--limit', '1', '--page', '2']);
  t.strictSame(
    second.data.map((k: { name: string }) => k.name),
    ['Default live key'],
  );
  t.strictSame((await acctJson(t, dir, ['keys', 'list', '--limit', '1', '--page', '3'])).data, []);
  t.equal((await acctJson(t, dir, ['keys', 'list'])).length, 2, 'without --page or --limit: every key, as an array');

  const human = await runCliInProcess(['--data', dir, 'keys', 'list', '--limit', '1', '--page', '2']);
  t.equal(human.status, 0);
  t.match(human.stdout, /Default live key/);
  t.notMatch(human.stdout, /\bCI\b/);
  t.match(human.stdout, /2 in all, page 2 of 2\n$/, 'the readable output says where the page is');
});

t.test('--help of a generated command lists its kebab-case flags', async (t) => {
  const settings = await runCliInProcess(['settings', 'update', '--help']);
  t.equal(settings.status, 0);
  for (const flag of [
    '--currency',
    '--vat-scheme',
    '--vat-flat-rate-percent',
    '--fiscal-year-start',
    '--invoice-prefix',
    '--invoice-next-number',
    '--quote-prefix',
    '--quote-next-number',
    '--default-payment-terms',
    '--quote-validity-days',
    '--body',
  ]) {
    t.match(settings.stdout, new RegExp(`\\s${flag} <`), flag);
  }
  const org = await runCliInProcess(['organisation', 'update', '--help']);
  for (const flag of ['--address-line1', '--address-line2', '--postal-code', '--vat-number', '--company-number', '--business-type']) {
    t.match(org.stdout, new RegExp(`\\s${flag} <`), flag);
  }
});

t.test('--test works on the test books; the live books do not see it', async (t) => {
  const { dir } = await books(t);
  const changed = await acctJson(t, dir, ['--test', 'organisation', 'update', '--name', 'Test Books Ltd']);
  t.equal(changed.name, 'Test Books Ltd');
  t.equal(changed.mode, 'test');
  const live = await acctJson(t, dir, ['organisation', 'get']);
  t.equal(live.name, 'Acme Widgets Ltd', 'the live organisation is unchanged');
  t.equal(live.mode, 'live');
  const test = await acctJson(t, dir, ['--test', 'organisation', 'get']);
  t.equal(test.name, 'Test Books Ltd');
  t.equal(test.id, live.id, 'the same organisation');

  await acctJson(t, dir, ['--test', 'settings', 'update', '--invoice-prefix', 'TEST-']);
  t.equal((await acctJson(t, dir, ['settings', 'get'])).invoicePrefix, 'INV-', 'live settings unchanged');
  t.equal((await acctJson(t, dir, ['--test', 'settings', 'get'])).invoicePrefix, 'TEST-');
});

t.test('without --json the output is a readable table, not JSON', async (t) => {
  const { dir } = await books(t);
  const settings = await runCliInProcess(['--data', dir, 'settings', 'get']);
  t.equal(settings.status, 0);
  t.match(settings.stdout, /^invoicePrefix\s+INV-\s*$/m);
  t.match(settings.stdout, /^vatRegistered\s+yes\s*$/m);
  t.throws(() => JSON.parse(settings.stdout));
  const org = await runCliInProcess(['--data', dir, 'organisation', 'get']);
  t.match(org.stdout, /^address\.country\s+GB\s*$/m, 'nested fields flattened');
  const periods = await runCliInProcess(['--data', dir, 'periods', 'list']);
  t.match(periods.stdout, /^id\s+name\s+startDate\s+endDate\s+isCurrent\s+isClosed\s+closedAt\s*$/m, 'one column per field');
  t.match(periods.stdout, /^period_\d{4}0401\s+FY \d{4}\/\d{2}\s/m);
});

t.test('periods close closes an ended period, which then reads as closed and fixes the year start', async (t) => {
  const { dir } = await books(t);
  const periods = await acctJson(t, dir, ['periods', 'list']);
  const ended = periods.find((p: { isCurrent: boolean }) => !p.isCurrent);
  const closed = await acctJson(t, dir, ['periods', 'close', ended.id]);
  t.equal(closed.id, ended.id);
  t.equal(closed.isClosed, true);
  t.match(closed.closedAt, /^\d{4}-\d{2}-\d{2}T/);
  const got = await acctJson(t, dir, ['periods', 'get', ended.id]);
  t.strictSame(got, closed, 'periods get shows it closed');

  const again = await runCliInProcess(['--data', dir, 'periods', 'close', ended.id]);
  t.equal(again.status, 4);
  t.equal(again.stderr, `error conflict: ${ended.name} is already closed\n`);

  const move = await runCliInProcess(['--data', dir, 'settings', 'update', '--fiscal-year-start', '01-01']);
  t.equal(move.status, 5);
  t.equal(move.stderr, 'error unprocessable_entity: fiscalYearStart cannot change after a period has been closed\n');
});
