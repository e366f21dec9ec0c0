/**
 * The CSV layouts of the UK banks acct knows by name (gap-facts 2.11). A
 * file matches a preset when its header holds every column the preset names
 * (banks add columns over time; extra ones are skipped); a header-less file
 * matches when its columns read as the preset's roles. The export columns
 * are as the banks publish them in their apps and as fixtures/bank-statements
 * shows them; Tide's export is the least documented, so its preset names
 * only the columns its CSV is known to carry.
 */
import type { AmountModel, ColumnRole } from './types.js';

interface PresetBase {
  readonly name: string;
  readonly dateFormat: string;
  readonly amountModel: AmountModel;
}

export interface HeaderPreset extends PresetBase {
  /** Column name → role; every named column must be in the file's header. */
  readonly columns: Readonly<Record<string, ColumnRole>>;
  /**
   * Skipped columns that still bear on a row's money (parse-rows.ts): a fee
   * the amount leaves out, and a state of which only `completed` moved money.
   */
  readonly money?: { readonly fee: string; readonly state: string; readonly completed: string };
}

export interface HeaderlessPreset extends PresetBase {
  /** Roles by position, for a file with no header row. */
  readonly positions: readonly ColumnRole[];
}

export type BankPreset = HeaderPreset | HeaderlessPreset;

// Lloyds, Halifax (and Bank of Scotland) share one export; a file is told apart by its name when it says which.
const lloydsBankingGroup: HeaderPreset['columns'] = {
  'Transaction Date': 'date',
  'Transaction Type': 'type',
  'Sort Code': 'skip',
  'Account Number': 'skip',
  'Transaction Description': 'description',
  'Debit Amount': 'debit',
  'Credit Amount': 'credit',
  Balance: 'balance',
};

export const bankPresets: readonly BankPreset[] = [
  {
    name: 'Starling',
    dateFormat: 'DD/MM/YYYY',
    amountModel: 'SIGNED_SINGLE',
    columns: {
      Date: 'date',
      'Counter Party': 'description',
      Reference: 'reference',
      Type: 'type',
      'Amount (GBP)': 'amount',
      'Balance (GBP)': 'balance',
      'Spending Category': 'skip',
    },
  },
  {
    name: 'NatWest',
    dateFormat: 'DD/MM/YYYY',
    amountModel: 'SIGNED_SINGLE',
    columns: { Date: 'date', Type: 'type', Description: 'description', Value: 'amount', Balance: 'balance', 'Account Name': 'skip', 'Account Number': 'skip' },
  },
  {
    name: 'Monzo',
    dateFormat: 'DD/MM/YYYY',
    amountModel: 'SIGNED_SINGLE',
    // Name is the payee as Monzo shows it; Description is the bank's own text (a transfer's reference).
    columns: {
      'Transaction ID': 'skip',
      Date: 'date',
      Time: 'skip',
      Type: 'type',
      Name: 'description',
      Emoji: 'skip',
      Category: 'skip',
      Amount: 'amount',
      Currency: 'skip',
      Description: 'reference',
    },
  },
  {
    name: 'Barclays',
    dateFormat: 'DD/MM/YYYY',
    amountModel: 'SIGNED_SINGLE',
    columns: { Number: 'reference', Date: 'date', Account: 'skip', Amount: 'amount', Subcategory: 'type', Memo: 'description' },
  },
  { name: 'Lloyds', dateFormat: 'DD/MM/YYYY', amountModel: 'DUAL_COL_DR_CR', columns: lloydsBankingGroup },
  { name: 'Halifax', dateFormat: 'DD/MM/YYYY', amountModel: 'DUAL_COL_DR_CR', columns: lloydsBankingGroup },
  {
    name: 'Revolut',
    dateFormat: 'YYYY-MM-DD',
    amountModel: 'SIGNED_SINGLE',
    // Completed Date is when the money moved (empty while pending); Amount excludes Fee.
    columns: {
      Type: 'type',
      Product: 'skip',
      'Started Date': 'skip',
      'Completed Date': 'date',
      Description: 'description',
      Amount: 'amount',
      Fee: 'skip',
      Currency: 'skip',
      State: 'skip',
      Balance: 'balance',
    },
    money: { fee: 'Fee', state: 'State', completed: 'COMPLETED' },
  },
  {
    name: 'Tide',
    dateFormat: 'DD/MM/YYYY',
    amountModel: 'DUAL_COL_DR_CR',
    columns: { Date: 'date', 'Transaction Type': 'type', Description: 'description', Reference: 'reference', 'Paid In': 'credit', 'Paid Out': 'debit' },
  },
  { name: 'HSBC', dateFormat: 'DD/MM/YYYY', amountModel: 'SIGNED_SINGLE', positions: ['date', 'description', 'amount'] },
];
