/** What reading a file of outstanding invoices or bills gives (read-documents.ts), apart from the reading, so that its parts can name them. */
import type { Direction } from './document-columns.js';

export interface DocumentRow {
  /** 0-based among the data rows (the rows below the header, blank lines not counted). */
  readonly rowIndex: number;
  /** 1-based line of the file the row starts on. */
  readonly line: number;
  readonly contactName: string;
  readonly docNumber: string;
  readonly reference: string | null;
  /** YYYY-MM-DD */
  readonly docDate: string;
  readonly dueDate: string;
  /** Pence, > 0. */
  readonly gross: number;
  /** Pence, >= 0. */
  readonly paid: number;
  /** Pence, > 0: gross − paid. */
  readonly outstanding: number;
  /** Pence of VAT inside the gross, 0 ≤ vat < gross; null when the file gives none (no VAT column, or an empty cell). */
  readonly vat: number | null;
  /** 'GBP' when the file has no currency column. */
  readonly currency: string;
}

export type DocumentIssueField = 'contact' | 'number' | 'date' | 'dueDate' | 'total' | 'paid' | 'due' | 'currency' | 'vat' | 'row';

export interface DocumentIssue {
  readonly rowIndex: number;
  readonly line: number;
  readonly reason: string;
  readonly field: DocumentIssueField;
}

export interface DocumentFile {
  readonly direction: Direction;
  /** Field → the header text as the file spells it. */
  readonly columnMapping: Record<string, string>;
  readonly rows: DocumentRow[];
  readonly errors: DocumentIssue[];
  readonly ignored: DocumentIssue[];
  /** What the reader assumed for the whole file (no due date column, no total column). */
  readonly warnings: string[];
  readonly stats: {
    readonly totalRows: number;
    readonly validRows: number;
    readonly errorRows: number;
    readonly ignoredRows: number;
    /** Pence, over the valid rows. */
    readonly totalGross: number;
    readonly totalPaid: number;
    readonly totalOutstanding: number;
  };
}
