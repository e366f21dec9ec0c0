/**
 * The shapes a bank statement is read into. A statement reading is pure: it
 * knows nothing of bank accounts, earlier imports or the ledger, so the
 * import operations can preview, remap and confirm on top of it.
 */

/**
 * What each column of a CSV statement holds; `skip` columns are not read,
 * nor is `type` (the bank's kind of transaction: card, direct debit …).
 * `indicator` says Debit or Credit (DR/CR, D/C) of each row, and so signs
 * an amount column that carries no sign of its own.
 */
export const columnRoles = ['date', 'description', 'amount', 'debit', 'credit', 'balance', 'reference', 'type', 'indicator', 'skip'] as const;
export type ColumnRole = (typeof columnRoles)[number];

/**
 * How a row's money is written: one signed column (money in positive), a
 * debit and a credit column, or one column signed the other way round
 * (money out positive, as credit-card exports write it).
 */
export const amountModels = ['SIGNED_SINGLE', 'DUAL_COL_DR_CR', 'SIGN_FLIPPER'] as const;
export type AmountModel = (typeof amountModels)[number];

/** LOCAL: detected from the file; VERIFIED: it matched a known bank's layout; USER_CORRECTED: remapped by the user. */
export type SchemaProvenance = 'LOCAL' | 'VERIFIED' | 'USER_CORRECTED';

/** Column index (as a string, "0" first) → role. */
export type ColumnMapping = Readonly<Record<string, ColumnRole>>;

export interface StatementSchema {
  readonly format: 'CSV' | 'OFX';
  /** A named bank layout (Starling, Monzo …) or null. */
  readonly detectedPreset: string | null;
  /** A stable hash of the normalised header (or of the column count of a header-less file), to remember a layout by. */
  readonly fingerprint: string;
  readonly provenance: SchemaProvenance;
  readonly amountModel: AmountModel;
  readonly dateFormat: string;
  readonly columnMapping: ColumnMapping;
  readonly hasHeader: boolean;
  readonly delimiter: string;
}

/** What a user may correct when remapping; anything left out keeps the detected value. */
export type SchemaCorrection = Partial<Pick<StatementSchema, 'columnMapping' | 'amountModel' | 'dateFormat' | 'hasHeader'>>;

export interface StatementRow {
  /** 1-based number of the data row (blank lines and the header are not data rows). */
  readonly rowIndex: number;
  /** 1-based line of the file where the row starts, for messages people act on. */
  readonly line: number;
  readonly date: string;
  readonly description: string;
  readonly reference: string | null;
  /** The bank's own id of the transaction (an OFX file's FITID): unique in the account and never changed; null when the file gives none. */
  readonly bankId: string | null;
  /** Integer pence, money in positive. */
  readonly amount: number;
  /** Integer pence as the bank printed it after the row, or null. */
  readonly balance: number | null;
}

/** What a rejected row still says where it reads, so that people can tell which line of the file it was; null where it does not. */
export interface RejectedRead {
  readonly date: string | null;
  readonly description: string | null;
  readonly reference: string | null;
  readonly amount: number | null;
  readonly balance: number | null;
}

export interface RejectedRow {
  readonly rowIndex: number;
  readonly line: number;
  readonly reason: string;
  /** Left out when the row's cells cannot be told apart: not CSV that reads, or its columns shifted. */
  readonly read?: RejectedRead;
}

export interface BalanceBreak {
  readonly rowIndex: number;
  /** The previous balance plus this row's amount, in pence. */
  readonly expected: number;
  /** The balance the row states, in pence. */
  readonly found: number;
}

export interface BalanceProof {
  /** RUNNING_BALANCE: a balance column checked row by row; LEDGER_BALANCE: an OFX closing balance, nothing to check it against inside the file. */
  readonly basis: 'RUNNING_BALANCE' | 'LEDGER_BALANCE' | 'NONE';
  readonly openingBalance: number | null;
  readonly closingBalance: number | null;
  /** Stated closing balance − (opening balance + the parsed rows' amounts): 0 when the file reconciles. */
  readonly delta: number;
  readonly status: 'PASS' | 'FAIL' | 'NONE';
  /** Whether every stated balance is the one before it plus the row's amount; null without a balance column. */
  readonly stepwisePass: boolean | null;
  readonly firstBreak: BalanceBreak | null;
}

/** The order of the rows in the file, told from their dates (or balances when the dates cannot tell). */
export type RowOrder = 'OLDEST_FIRST' | 'NEWEST_FIRST';

export interface StatementReading {
  readonly schema: StatementSchema;
  /** Data rows in the file (not blank lines, not the header): always rows.length + rejected.length. */
  readonly totalRows: number;
  readonly rows: readonly StatementRow[];
  readonly rejected: readonly RejectedRow[];
  /** Blank lines, and lines above the header row, which are neither rows nor rejected. */
  readonly ignored: number;
  readonly rowOrder: RowOrder;
  readonly balanceProof: BalanceProof;
  readonly dateRange: { readonly from: string; readonly to: string } | null;
}
