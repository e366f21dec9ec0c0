import t from 'tap';
import { accountDictionary, accountKey, dictionaryCode, dictionaryEntries } from '../../src/engine/imports/balances/account-dictionary.js';
import { mapAccounts } from '../../src/engine/imports/balances/map-accounts.js';
import type { ChartAccount, Mapping } from '../../src/engine/imports/balances/map-accounts.js';
import { readTrialBalance } from '../../src/engine/imports/balances/read-trial-balance.js';
import type { TrialBalanceRow } from '../../src/engine/imports/balances/read-trial-balance.js';
import { ukChart } from '../../src/engine/organisation/chart.js';

/** The chart a new organisation is given, as the mapper sees it. */
function chartOf(businessType: 'limited_company' | 'sole_trader', inactive: readonly string[] = []): ChartAccount[] {
  return ukChart(businessType).map((a) => ({ id: `acc_${a.code}`, code: a.code, name: a.name, accountType: a.type, isActive: !inactive.includes(a.code) }));
}

const company = chartOf('limited_company');

let line = 2;
const row = (sourceLabel: string, sourceCode: string | null = null): TrialBalanceRow => ({
  rowIndex: line - 2,
  line: line++,
  sourceLabel,
  sourceCode,
  debit: 100,
  credit: 0,
});

/** label → [code of the target or null, method, confidence] */
const summary = (mappings: readonly Mapping[]) => mappings.map((m) => [m.sourceLabel, m.target?.code ?? null, m.method, m.confidence]);

t.test('exact: the name of an active account, compared without case, punctuation or "&"', async (t) => {
  const mappings = mapAccounts([row('Bank Charges'), row('rent & RATES'), row('Advertising and marketing'), row('1200 Bank Account', '1200')], company, {
    mode: 'direct',
  });
  t.same(summary(mappings), [
    ['Bank Charges', '5800', 'exact', 100],
    ['rent & RATES', '5200', 'exact', 100],
    ['Advertising and marketing', '5910', 'exact', 100],
    ['1200 Bank Account', '1200', 'exact', 100],
  ]);
  t.equal(mappings[0]?.target?.id, 'acc_5800');
  t.equal(mappings[0]?.reason, 'the name is the name of 5800 Bank Charges');
});

t.test('code: the same code only when the names agree, so a source code that is ours by accident does not map', async (t) => {
  const mappings = mapAccounts(
    [
      row('1200 Business Current Account', '1200'), // the dictionary sends the name to 1200 too
      row('Loan interest charges', '5850'), // no dictionary entry: shares "interest" with Interest Paid
      row('2200 VAT Control', '2200'), // our 2200 is VAT Output; the dictionary says VAT Control is 2202
      row('1100 Equipment Hire', '1100'), // our 1100 is Accounts Receivable: nothing alike
      row('Sales', '200'), // Xero's 200: no such code here, and the name is exact anyway
      row('Rates rebate', '5200'), // shares "rates" with Rent and Rates
      row('4010 Café Sales', '4010'), // no 4010 here: the dictionary's "… Sales"
    ],
    company,
    { mode: 'direct' },
  );
  t.same(summary(mappings), [
    ['1200 Business Current Account', '1200', 'code', 95],
    ['Loan interest charges', '5850', 'code', 95],
    ['2200 VAT Control', '2202', 'dictionary', 90],
    ['1100 Equipment Hire', null, 'unmapped', 0],
    ['Sales', '4000', 'exact', 100],
    ['Rates rebate', '5200', 'code', 95],
    ['4010 Café Sales', '4000', 'dictionary', 90],
  ]);
  t.equal(mappings[0]?.reason, 'the code 1200 is the code of 1200 Bank Account and the names agree');
  t.equal(mappings[3]?.reason, 'no account of the chart matches "1100 Equipment Hire": choose one');
});

t.test('dictionary: the names Xero, FreeAgent and QuickBooks use', async (t) => {
  const labels: [string, string][] = [
    ['Accounts Receivable (A/R)', '1100'],
    ['Trade Debtors', '1100'],
    ['Debtors Control Account', '1100'],
    ['Accounts Payable (A/P)', '2100'],
    ['Trade Creditors', '2100'],
    ['VAT', '2202'],
    ['VAT Control', '2202'],
    ['Retained Profit', '3100'],
    ['Profit and Loss Account', '3100'],
    ['Owner A Share Capital', '3000'],
    ['Ordinary Shares', '3000'],
    ['Directors Current Account', '2400'],
    ['Provision for Corporation Tax', '2300'],
    ['PAYE Payable', '2210'],
    ['PAYE & NI', '2210'],
    ['Business Bank Account', '1200'],
    ['Business Current Account', '1200'],
    ['Current Account', '1200'],
    ['Turnover', '4000'],
    ['Sales of Product Income', '4000'],
    ['Services', '4000'],
    ['Cost of Goods Sold', '5000'],
    ['Purchases', '5000'],
    ['General Expenses', '5990'],
    ['Bank Fees', '5800'],
    ['Light, Power, Heating', '5300'],
    ['Telephone', '5700'],
    ['Travel - National', '5400'],
    ['Motor Vehicle Expenses', '5500'],
    ['Audit & Accountancy fees', '5600'],
    ['Accountancy Fees', '5600'],
    ['Subscriptions', '5900'],
    ['Advertising', '5910'],
    ['Wages and Salaries', '5930'],
    ['Salaries', '5930'],
    ['Printing & Stationery', '5100'],
    ['Rent', '5200'],
    ['Less Accumulated Depreciation on Computer Equipment', '1090'],
    ['Less Accumulated Depreciation on Motor Vehicles', '1090'],
    ['Dividends Paid', '3200'],
    ['Computer Equipment Depreciation', '1090'],
    ['Café Sales', '4000'],
    ['Timber Purchases', '5000'],
  ];
  const mappings = mapAccounts(
    labels.map(([label]) => row(label)),
    company,
    { mode: 'direct' },
  );
  t.same(
    summary(mappings),
    labels.map(([label, code]) => [label, code, 'dictionary', 90]),
  );
  t.equal(mappings[0]?.reason, '"Accounts Receivable (A/R)" is the usual name for 1100 Accounts Receivable');
});

t.test("the sole trader's chart: Drawings and Owner's Capital, and no Corporation Tax account to map to", async (t) => {
  const trader = chartOf('sole_trader');
  t.same(summary(mapAccounts([row('Drawings'), row('Capital Introduced'), row('Corporation Tax')], trader, { mode: 'direct' })), [
    ['Drawings', '3200', 'dictionary', 90],
    ['Capital Introduced', '3000', 'dictionary', 90],
    ['Corporation Tax', null, 'unmapped', 0],
  ]);
  t.equal(mapAccounts([row('Drawings')], trader, { mode: 'direct' })[0]?.target?.name, "Owner's Drawings");
});

t.test('fuzzy: a near name of 80% or more, the similarity as the confidence', async (t) => {
  const mappings = mapAccounts([row('Accounts Recievable'), row('Subscriptons'), row('Loanz'), row('Insurnace'), row('Misc')], company, { mode: 'direct' });
  t.same(summary(mappings), [
    // 'accounts recievable' against 'accounts receivable': two letters differ over 19: 100 × 17/19 = 89.47 → 89
    ['Accounts Recievable', '1100', 'fuzzy', 89],
    // 'subscriptons' against the dictionary's 'subscriptions': one letter short of 13: 100 × 12/13 = 92.3 → 92
    ['Subscriptons', '5900', 'fuzzy', 92],
    // 'loanz' against 'loans': one letter of 5: 100 × 4/5 = 80, exactly the threshold
    ['Loanz', '2600', 'fuzzy', 80],
    // 'insurnace' against 'insurance': two letters of 9: 100 × 7/9 = 77.7 → 77, below 80
    ['Insurnace', null, 'unmapped', 0],
    ['Misc', null, 'unmapped', 0],
  ]);
  t.equal(mappings[0]?.reason, '"Accounts Recievable" is 89% like "Accounts Receivable"');
  t.equal(mappings[2]?.reason, '"Loanz" is 80% like "Loans"', 'a tie goes to the chart name over the dictionary key');
});

t.test('manual: the user’s choice wins over every tier; a choice of an account that is not active is passed over', async (t) => {
  const chart = chartOf('limited_company', ['5800']);
  const manual = new Map([
    ['Opening Balance Equity', 'acc_3100'],
    ['Sales', 'acc_4100'],
    ['Bank Fees', 'acc_5800'],
    ['Rounding', 'acc_nope'],
  ]);
  const mappings = mapAccounts([row('Opening Balance Equity'), row('Sales'), row('Bank Fees'), row('Rounding'), row('Bank Charges')], chart, {
    mode: 'direct',
    manual,
  });
  t.same(summary(mappings), [
    ['Opening Balance Equity', '3100', 'manual', 100],
    ['Sales', '4100', 'manual', 100],
    ['Bank Fees', null, 'unmapped', 0], // 5800 is inactive: neither the manual choice nor the dictionary may send it there
    ['Rounding', null, 'unmapped', 0],
    ['Bank Charges', null, 'unmapped', 0], // the exact name of an inactive account
  ]);
  t.equal(mappings[0]?.reason, 'mapped by hand to 3100 Retained Earnings');
});

t.test('clearing mode sends what lands on 1100 to 1198 and on 2100 to 2198, keeping the confidence of the tier that found it', async (t) => {
  const rows = [
    row('Accounts Receivable'),
    row('Trade Debtors'),
    row('Accounts Payable (A/P)'),
    row('Acounts Payable'),
    row('Bank Account'),
    row('AR by hand'),
  ];
  const manual = new Map([['AR by hand', 'acc_1100']]);
  const clearing = mapAccounts(rows, company, { mode: 'clearing', manual });
  t.same(summary(clearing), [
    ['Accounts Receivable', '1198', 'clearing', 100],
    ['Trade Debtors', '1198', 'clearing', 90],
    ['Accounts Payable (A/P)', '2198', 'clearing', 90],
    // 'acounts payable' against 'accounts payable': one letter short of 16: 100 × 15/16 = 93.75 → 93
    ['Acounts Payable', '2198', 'clearing', 93],
    ['Bank Account', '1200', 'exact', 100],
    ['AR by hand', '1198', 'clearing', 100],
  ]);
  t.equal(
    clearing[1]?.reason,
    'found as 1100 Accounts Receivable (dictionary: "Trade Debtors" is the usual name for 1100 Accounts Receivable); clearing mode sends it to 1198 Receivables Migration Clearing',
  );
  const direct = mapAccounts(rows, company, { mode: 'direct', manual });
  t.same(summary(direct), [
    ['Accounts Receivable', '1100', 'exact', 100],
    ['Trade Debtors', '1100', 'dictionary', 90],
    ['Accounts Payable (A/P)', '2100', 'dictionary', 90],
    ['Acounts Payable', '2100', 'fuzzy', 93],
    ['Bank Account', '1200', 'exact', 100],
    ['AR by hand', '1100', 'manual', 100],
  ]);
});

t.test('clearing mode with its clearing account inactive: unmapped, saying why', async (t) => {
  const [mapping] = mapAccounts([row('Trade Creditors')], chartOf('limited_company', ['2198']), { mode: 'clearing' });
  t.same([mapping?.target, mapping?.method, mapping?.confidence], [null, 'unmapped', 0]);
  t.equal(mapping?.reason, 'clearing mode needs account 2198 for 2100 Accounts Payable, and the chart has no active 2198');
});

t.test('one mapping per row, in order, duplicates included, each keeping its source code', async (t) => {
  const rows = [row('Sales', '200'), row('Misc'), row('Sales', '200')];
  const mappings = mapAccounts(rows, company, { mode: 'direct' });
  t.equal(mappings.length, 3);
  t.same(
    mappings.map((m) => [m.sourceLabel, m.sourceCode]),
    [
      ['Sales', '200'],
      ['Misc', null],
      ['Sales', '200'],
    ],
  );
  t.same(mapAccounts([], company, { mode: 'clearing' }), []);
});

t.test('the three providers read and mapped: every row lands automatically', async (t) => {
  const xero = readTrialBalance(
    'Account Code,Account,Debit,Credit,YTD Debit,YTD Credit\n090,Business Bank Account,,,10.00,\n610,Accounts Receivable,,,5.00,\n820,VAT,,,,3.00\n960,Retained Earnings,,,,12.00\n',
  );
  t.same(summary(mapAccounts(xero.rows, company, { mode: 'clearing' })), [
    ['Business Bank Account', '1200', 'dictionary', 90],
    ['Accounts Receivable', '1198', 'clearing', 100],
    ['VAT', '2202', 'dictionary', 90],
    ['Retained Earnings', '3100', 'exact', 100],
  ]);
  const quickbooks = readTrialBalance(
    ',Debit,Credit\n1200 Business Current Account,£10.00,\nAccounts Payable (A/P),,£4.00\nLess Accumulated Depreciation on Office Equipment,-£6.00,\n',
  );
  t.same(summary(mapAccounts(quickbooks.rows, company, { mode: 'direct' })), [
    ['1200 Business Current Account', '1200', 'code', 95],
    ['Accounts Payable (A/P)', '2100', 'dictionary', 90],
    ['Less Accumulated Depreciation on Office Equipment', '1090', 'dictionary', 90],
  ]);
  t.equal(quickbooks.stats.totalRows, quickbooks.stats.validRows + quickbooks.stats.errorRows + quickbooks.stats.ignoredRows);
  t.equal(xero.stats.totalRows, xero.stats.validRows + xero.stats.errorRows + xero.stats.ignoredRows);
});

t.test('the dictionary: one code a name, every code an account of the UK chart, and enough names', async (t) => {
  const codes = new Set([...chartOf('limited_company'), ...chartOf('sole_trader')].map((a) => a.code));
  const seen = new Map<string, string>();
  for (const [code, names] of dictionaryEntries) {
    t.ok(codes.has(code), `${code} is in the chart`);
    for (const name of names) {
      const key = accountKey(name);
      const before = seen.get(key);
      if (before !== undefined) t.equal(before, code, `"${name}" is listed under ${before} and ${code}`);
      seen.set(key, code);
    }
  }
  t.ok(accountDictionary.size >= 120, `${accountDictionary.size} names`);
  t.equal(dictionaryCode('LESS ACCUMULATED DEPRECIATION ON PLANT'), '1090', 'any asset named after "Less Accumulated Depreciation on"');
  t.equal(dictionaryCode('Computer Equipment Depreciation'), '1090', "FreeAgent's contra account, named after its asset");
  t.equal(dictionaryCode('Depreciation'), '5950', 'the expense is not the contra account');
  t.equal(dictionaryCode('Staff Depreciation'), null, 'only an asset of the dictionary names a contra account');
  t.equal(dictionaryCode('Café Sales'), '4000', "a business's own sales account");
  t.equal(dictionaryCode('Timber Purchases'), '5000');
  t.equal(dictionaryCode('Cost of Sales'), '5000', 'ends in "sales" but is listed as cost of sales');
  t.equal(dictionaryCode('Opening Balance Equity'), null, 'a plug needs a person');
});

t.test('Opening and Closing Stock are cost of sales (5000), and unmapped when the chart has no active 5000', async (t) => {
  t.same(summary(mapAccounts([row('Opening Stock'), row('Closing Stock'), row('Stock')], company, { mode: 'direct' })), [
    ['Opening Stock', '5000', 'dictionary', 90],
    ['Closing Stock', '5000', 'dictionary', 90],
    ['Stock', '1300', 'exact', 100],
  ]);
  const noCostOfSales = chartOf('limited_company', ['5000']);
  t.same(summary(mapAccounts([row('Opening Stock'), row('Closing Stock')], noCostOfSales, { mode: 'direct' })), [
    ['Opening Stock', null, 'unmapped', 0],
    ['Closing Stock', null, 'unmapped', 0],
  ]);
});

t.test('direct mode matches no row to 1198 or 2198 by itself, in any tier; clearing mode does', async (t) => {
  const rows = [row('Receivables Migration Clearing'), row('1198 Debtors Migration Clearing', '1198'), row('Payable Migration Clearing'), row('Bank Charges')];
  // Was: 1198 exact, 1198 code, 2198 fuzzy: balances left where only clearing-mode imports clear them.
  t.same(summary(mapAccounts(rows, company, { mode: 'direct' })), [
    ['Receivables Migration Clearing', null, 'unmapped', 0],
    ['1198 Debtors Migration Clearing', null, 'unmapped', 0],
    ['Payable Migration Clearing', null, 'unmapped', 0],
    ['Bank Charges', '5800', 'exact', 100],
  ]);
  const [first] = mapAccounts(rows, company, { mode: 'direct' });
  t.match(
    first?.reason,
    /^found as 1198 Receivables Migration Clearing \(exact: .*\), but in direct mode nothing would ever clear 1198: .*\(1100 Accounts Receivable, say\)/,
  );
  t.same(
    summary(mapAccounts(rows, company, { mode: 'clearing' })).map((m) => m.slice(1, 3)),
    [
      ['1198', 'exact'],
      ['1198', 'code'],
      ['2198', 'fuzzy'],
      ['5800', 'exact'],
    ],
  );
});
