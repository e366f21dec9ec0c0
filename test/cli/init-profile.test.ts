/**
 * `acct init` with the profile's flags: the VAT number (HMRC's check
 * digits), the company number (Companies House's form), the address; the
 * flat rate within HMRC's published range; next steps for a person, not
 * with --json. A refused init creates nothing.
 */
import fs from 'node:fs';
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, init } from './support.js';

const company = ['--name', 'Dales Pottery Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard'];
const sole = ['--name', 'Jo Bloggs', '--business-type', 'sole_trader'];

t.test('init records the VAT number, company number and address, in their stored forms', async (t) => {
  const dir = t.testdir();
  await init(t, dir, [
    ...company,
    '--vat-number',
    'gb 980 7806 84',
    '--company-number',
    '1234567',
    '--address-line1',
    '1 Pottery Lane',
    '--address-line2',
    'Unit 4',
    '--city',
    'Skipton',
    '--region',
    'North Yorkshire',
    '--postal-code',
    'BD23 1AA',
  ]);
  const org = await acctJson(t, dir, ['organisation', 'get']);
  t.equal(org.vatNumber, 'GB980780684');
  t.equal(org.companyNumber, '01234567', 'padded to eight digits as Companies House writes it');
  t.same(org.address, { line1: '1 Pottery Lane', line2: 'Unit 4', city: 'Skipton', region: 'North Yorkshire', postalCode: 'BD23 1AA', country: 'GB' });
  const test = await acctJson(t, dir, ['--test', 'organisation', 'get']);
  t.same([test.vatNumber, test.companyNumber, test.address.city], ['GB980780684', '01234567', 'Skipton'], 'the test books alike');
});

t.test('a bad VAT number, company number or flat rate is refused naming the field, and nothing is created', async (t) => {
  const dir = t.testdir();
  const cases: [string[], string][] = [
    [[...company, '--vat-number', 'GB 123 4567 89'], "vatNumber fails HMRC's check digits (GB123456789): is a digit mistyped? (field vatNumber)"],
    [
      [...company, '--vat-number', '12345'],
      'vatNumber must be a UK VAT number: 9 digits (12 with a branch number), optionally after GB, such as GB 980 7806 84 (field vatNumber)',
    ],
    [
      [...company, '--company-number', 'SC1234567'],
      'companyNumber must be 8 characters: 8 digits (a shorter number is padded with zeros), or 2 letters such as SC and 6 digits (field companyNumber)',
    ],
    [[...sole, '--vat-scheme', 'not_registered', '--vat-number', 'GB980780684'], 'a business not registered for VAT has no VAT number (field vatNumber)'],
    [
      [...sole, '--vat-scheme', 'standard', '--company-number', '01234567'],
      'a sole trader has no company number: only a limited company is registered at Companies House (field companyNumber)',
    ],
    [
      [...sole, '--vat-scheme', 'flat_rate', '--flat-rate-percent', '30'],
      "vatFlatRatePercent must be from 4 to 16.5: HMRC's flat rates run from 4% (retailing food) to 16.5% (a limited cost trader) (field vatFlatRatePercent)",
    ],
    [
      [...sole, '--vat-scheme', 'flat_rate', '--flat-rate-percent', '3.99'],
      "vatFlatRatePercent must be from 4 to 16.5: HMRC's flat rates run from 4% (retailing food) to 16.5% (a limited cost trader) (field vatFlatRatePercent)",
    ],
  ];
  for (const [flags, message] of cases) {
    const r = await runCliInProcess(['--data', dir, 'init', ...flags, '--yes']);
    t.equal(r.status, 2, flags.join(' '));
    t.equal(r.stdout, '');
    t.equal(r.stderr, `error validation_error: ${message}\n`);
  }
  t.same(fs.readdirSync(dir), [], 'nothing created: no organisation, no platform.sqlite');
});

t.test('the flat rates at the ends of the range are accepted: 4% and 16.5%', async (t) => {
  for (const percent of ['4', '16.5']) {
    const dir = t.testdir();
    await init(t, dir, [...sole, '--vat-scheme', 'flat_rate', '--flat-rate-percent', percent]);
    t.equal((await acctJson(t, dir, ['settings', 'get'])).vatFlatRatePercent, Number(percent));
  }
});

t.test('init prints next steps for a person; --json does not', async (t) => {
  const dir = t.testdir();
  const r = await runCliInProcess(['--data', dir, 'init', ...company, '--yes']);
  t.equal(r.status, 0, r.stderr);
  t.match(
    r.stdout,
    [
      'Keep the keys safe: they are shown only this once.',
      '',
      'Next steps:',
      `  add a customer:              acct --data ${dir} contacts create --contact-type customer --name "Bob Ltd" --email bob@example.com`,
      `  invoice them:                acct --data ${dir} invoices create --contact-id "Bob Ltd" --item "Consulting;1;500.00;standard"`,
      `  import a bank statement:     acct --data ${dir} bank import statement.csv`,
      `  serve the API to your tools: acct --data ${dir} serve`,
      '',
    ].join('\n'),
  );
  const unregistered = await runCliInProcess(['--data', t.testdir(), 'init', ...sole, '--vat-scheme', 'not_registered', '--yes']);
  t.match(unregistered.stdout, '--item "Consulting;1;500.00"\n', 'no VAT rate on the sale of a business not registered for VAT');
  const json = await runCliInProcess(['--data', t.testdir(), '--json', 'init', ...company, '--yes']);
  t.notMatch(json.stdout, 'Next steps');
});
