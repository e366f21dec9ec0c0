/**
 * The account names Xero, FreeAgent and QuickBooks Online UK give their
 * default accounts (and the names bookkeepers commonly type), each with the
 * code of the account of our UK chart (fixtures/chart-of-accounts/uk.json)
 * that holds the same balance. Names are compared as normaliseName keys, so
 * "Director's Loan Account", "Directors Loan Account" and "DIRECTORS' LOAN
 * ACCOUNT" are one entry; a few shapes of name ("… Sales", "Less
 * Accumulated Depreciation on …") are recognised as well. A code the
 * organisation's chart lacks (2300 for a sole trader) simply does not map.
 *
 * Left out on purpose: plugs that need a person's judgement rather than a
 * default home (QuickBooks' "Opening Balance Equity", Xero's "Historical
 * Adjustment" and "Rounding", "VAT Suspense"), which stay unmapped.
 */
import { normaliseName } from '../../tabular/similarity.js';

export const dictionaryEntries: readonly (readonly [code: string, names: readonly string[]])[] = [
  // Fixed assets
  ['1000', ['Fixed Assets', 'Tangible Fixed Assets', 'Plant and Machinery', 'Buildings', 'Land and Buildings', 'Leasehold Improvements']],
  ['1010', ['Office Equipment', 'Office Equipment & IT', 'Furniture and Fixtures', 'Fixtures and Fittings', 'Furniture and Equipment']],
  ['1020', ['Computer Equipment', 'Computer Hardware', 'IT Equipment', 'Computers']],
  ['1030', ['Motor Vehicles', 'Motor Vehicle', 'Vehicles', 'Company Car', 'Cars']],
  ['1090', ['Accumulated Depreciation', 'Less Accumulated Depreciation', 'Provision for Depreciation']],
  // Current assets
  [
    '1100',
    [
      'Accounts Receivable',
      'Accounts Receivable (A/R)',
      'Trade Debtors',
      'Debtors',
      'Debtors Control Account',
      'Sales Ledger Control Account',
      'Trade Receivables',
    ],
  ],
  ['1150', ['Prepayments', 'Prepaid Expenses', 'Prepayments and Accrued Income']],
  [
    '1200',
    [
      'Business Bank Account',
      'Business Current Account',
      'Current Account',
      'Bank Account',
      'Bank',
      'Business Account',
      'Main Bank Account',
      'Bank Current Account',
    ],
  ],
  ['1210', ['Business Savings Account', 'Savings Account', 'Deposit Account', 'Business Deposit Account', 'Savings']],
  ['1250', ['Petty Cash', 'Cash in Hand', 'Cash on Hand']],
  // Closing Stock and Opening Stock are not here: in a UK trial balance (Sage's 5200 and 5201) they are the cost of sales' stock movement.
  ['1300', ['Stock', 'Inventory', 'Inventory Asset', 'Stock Asset']],
  // Liabilities
  [
    '2100',
    [
      'Accounts Payable',
      'Accounts Payable (A/P)',
      'Trade Creditors',
      'Creditors',
      'Creditors Control Account',
      'Purchase Ledger Control Account',
      'Trade Payables',
    ],
  ],
  ['2150', ['Accruals', 'Accrued Liabilities', 'Accrued Expenses', 'Accruals and Deferred Income']],
  ['2202', ['VAT', 'VAT Control', 'VAT Control Account', 'VAT Liability', 'VAT Payable', 'VAT Due', 'HMRC VAT']],
  [
    '2210',
    ['PAYE Payable', 'PAYE & NI', 'PAYE/NI', 'PAYE and NI Payable', 'PAYE/NI Payable', 'NIC Payable', 'PAYE and NIC', 'HMRC PAYE', 'Payroll Liabilities'],
  ],
  ['2300', ['Corporation Tax', 'Corporation Tax Payable', 'Provision for Corporation Tax', 'Corporation Tax Liability']],
  [
    '2400',
    ["Director's Loan Account", 'Directors Current Account', "Director's Loan", "Director's Current Account", 'Director Loan Account', 'Loan from Director'],
  ],
  ['2500', ['Dividends Payable', 'Dividend Payable', 'Dividends Due']],
  ['2600', ['Loan', 'Loans', 'Bank Loan', 'Hire Purchase Loan', 'Hire Purchase', 'Long Term Loans', 'Other Loans', 'Bounce Back Loan']],
  ['2700', ['Credit Card', 'Credit Card Control Account', 'Business Credit Card', 'Credit Cards']],
  // Equity
  [
    '3000',
    [
      'Share Capital',
      'Owner A Share Capital',
      'Ordinary Shares',
      'Ordinary Share Capital',
      'Called Up Share Capital',
      'Capital - x,000 Ordinary Shares',
      "Owner's Capital",
      'Capital Introduced',
      'Owner A Funds Introduced',
      "Owner's Equity",
      'Capital Account',
    ],
  ],
  ['3100', ['Retained Earnings', 'Retained Profit', 'Retained Profits', 'Profit and Loss Account', 'Profit and Loss Reserve', 'Accumulated Profits']],
  ['3200', ['Dividends', 'Dividend', 'Dividends Paid', 'Dividend Disbursed', 'Drawings', 'Owner A Drawings', "Owner's Drawings", "Owner's Draw"]],
  // Income
  ['4000', ['Sales', 'Turnover', 'Revenue', 'Income', 'Sales Income', 'Sales of Product Income', 'Services', 'Fees and Commissions']],
  ['4100', ['Other Income', 'Other Revenue', 'Miscellaneous Income', 'Sundry Income']],
  ['4200', ['Interest Income', 'Bank Interest Received', 'Interest Received', 'Interest Earned']],
  // Expenses
  [
    '5000',
    [
      'Cost of Goods Sold',
      'Cost of Sales',
      'Purchases',
      'Direct Expenses',
      'Materials',
      'Subcontractors',
      'Cost of sales - goods',
      'Opening Stock',
      'Closing Stock',
    ],
  ],
  ['5100', ['Office Expenses', 'Printing & Stationery', 'Office Costs', 'Stationery', 'Printing', 'Postage', 'Postage, Freight & Courier', 'Office Supplies']],
  ['5200', ['Rent', 'Rates', 'Rent and Rates', 'Rent or Lease Payments', 'Rent or Lease', 'Business Rates']],
  ['5300', ['Utilities', 'Light, Power, Heating', 'Heat and Light', 'Light and Heat']],
  ['5400', ['Travel', 'Travel - National', 'Travel - International', 'Travel and Subsistence', 'Accommodation and Meals', 'Travel Expenses']],
  ['5500', ['Motor Vehicle Expenses', 'Motor Expenses', 'Vehicle Expenses', 'Fuel', 'Mileage']],
  [
    '5600',
    [
      'Audit & Accountancy fees',
      'Accountancy Fees',
      'Accountancy',
      'Legal Expenses',
      'Legal and Professional Fees',
      'Professional Fees',
      'Consulting',
      'Legal Fees',
    ],
  ],
  ['5700', ['Telephone & Internet', 'Telephone', 'Internet', 'Mobile Phone', 'Telephone and Internet']],
  ['5800', ['Bank Fees', 'Bank Charges', 'Bank/Finance Charges', 'Bank Service Charges']],
  ['5850', ['Interest Paid', 'Interest Expense', 'Loan Interest', 'Bank Interest Paid']],
  ['5900', ['Subscriptions', 'IT Software and Consumables', 'Computer Software', 'Software', 'Software Subscriptions']],
  ['5910', ['Advertising', 'Advertising & Marketing', 'Advertising and Promotion', 'Advertising/Promotional', 'Marketing']],
  ['5920', ['Insurance', 'Business Insurance']],
  [
    '5930',
    [
      'Wages and Salaries',
      'Salaries',
      'Wages',
      'Salaries and Wages',
      "Directors' Remuneration",
      'Directors Salaries',
      'Employers National Insurance',
      'Employer NICs',
      'Pensions Costs',
    ],
  ],
  ['5950', ['Depreciation', 'Depreciation Expense']],
  [
    '5990',
    [
      'General Expenses',
      'Sundry Expenses',
      'Sundries',
      'Miscellaneous Expenses',
      'Other Expenses',
      'Cleaning',
      'Repairs and Maintenance',
      'Staff Training',
      'Training',
    ],
  ],
  ['9999', ['Suspense', 'Suspense Account']],
];

/** An account name as compared: normaliseName (case, punctuation, "&" and apostrophes do not count). */
export const accountKey = (name: string): string => normaliseName(name);

/** Normalised name → our chart code. */
export const accountDictionary: ReadonlyMap<string, string> = new Map(
  dictionaryEntries.flatMap(([code, names]) => names.map((name) => [accountKey(name), code] as const)),
);

const fixedAssets = new Set(
  dictionaryEntries.filter(([code]) => ['1000', '1010', '1020', '1030'].includes(code)).flatMap(([, names]) => names.map(accountKey)),
);

/** Names the dictionary knows by their shape rather than one by one. */
const patterns: readonly (readonly [code: string, matches: (key: string) => boolean])[] = [
  // Xero names each depreciation contra account after its asset ("Less Accumulated Depreciation on Computer Equipment"); our chart has one.
  ['1090', (key) => /^(?:less accumulated|accumulated|provision for) depreciation /.test(key)],
  // FreeAgent's way of naming the same: "Computer Equipment Depreciation", beside "Computer Equipment".
  ['1090', (key) => key.endsWith(' depreciation') && fixedAssets.has(key.slice(0, -' depreciation'.length))],
  // A business's own sales and purchases accounts: QuickBooks' "4010 Café Sales", Xero's "Timber Purchases".
  ['4000', (key) => key.endsWith(' sales')],
  ['5000', (key) => key.endsWith(' purchases')],
];

/** Our chart code for a name the dictionary knows, or null. */
export function dictionaryCode(name: string): string | null {
  const key = accountKey(name);
  return accountDictionary.get(key) ?? patterns.find(([, matches]) => matches(key))?.[0] ?? null;
}
