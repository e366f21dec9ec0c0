/**
 * A trial balance exported as CSV (Xero, FreeAgent, QuickBooks Online UK or
 * any file with account, debit and credit columns) read into rows of pence.
 * The header is found by aliases below any title lines, so the reader does
 * not depend on the provider; the provider is only guessed for display.
 *
 * Every data row comes out exactly once: as a row, an ignored row (totals,
 * headings, zero balances, the report's footer) or an error, each with its
 * reason.
 *
 * Signs: a negative amount in a column (QuickBooks prints contra balances
 * that way, "-1,200.00" in Debit) is that amount on the other side, because
 * the source's own totals add it with its sign: debit −£5 and credit £5 are
 * the same balance. A "DR" or "CR" suffix names the side outright.
 */
import { AppError } from '../../errors.js';
import { parseAmountText } from '../../tabular/amount-text.js';
import { isBlank, readCsvRecords, sniffDelimiter } from '../../tabular/csv-records.js';
import type { CsvRecord } from '../../tabular/csv-records.js';
import { parseDateAs } from '../../tabular/date-formats.js';
import { cellOf, findHeaderRow, headerKey } from '../../tabular/header-row.js';
import type { Aliases } from '../../tabular/header-row.js';

export interface TrialBalanceRow {
  /** 0-based among the data rows (the non-blank records after the header). */
  readonly rowIndex: number;
  /** 1-based line of the file. */
  readonly line: number;
  /** The account as the file shows it, e.g. "Sales" or "1200 Business Current Account". */
  readonly sourceLabel: string;
  /** The source's own code: a code column, QuickBooks' leading "1200 " or Xero's trailing " (200)". */
  readonly sourceCode: string | null;
  /** Pence, >= 0; a row with both sides is netted to one. */
  readonly debit: number;
  readonly credit: number;
}

export interface TrialBalanceIssue {
  readonly rowIndex: number;
  readonly line: number;
  readonly reason: string;
  readonly field: 'account' | 'debit' | 'credit' | 'row';
}

export interface TrialBalanceFile {
  /** A guess from the file's shape, for display. */
  readonly provider: 'xero' | 'freeagent' | 'quickbooks' | 'generic';
  /** YYYY-MM-DD from a title line ("As at 31 March 2025", "As of …", "… ending …"), or null. */
  readonly asAt: string | null;
  /** A title's "as at" or "as of" phrase whose date cannot be read ("As at the end of March 2026"), when no title gives asAt; else null. */
  readonly unreadAsAt: string | null;
  readonly rows: readonly TrialBalanceRow[];
  readonly errors: readonly TrialBalanceIssue[];
  readonly ignored: readonly TrialBalanceIssue[];
  readonly stats: { readonly totalRows: number; readonly validRows: number; readonly errorRows: number; readonly ignoredRows: number };
}

type Field = 'account' | 'code' | 'debit' | 'credit';

// Xero prints the month's movement in Debit/Credit and the balances in YTD Debit/YTD Credit: the YTD aliases come first so they win.
const aliases: Aliases<Field> = {
  account: ['account', 'account name', 'category', 'name', 'description', ''],
  code: ['account code', 'nominal code', 'code', 'account number'],
  debit: ['ytd debit', 'debit - year to date', 'debit', 'dr'],
  credit: ['ytd credit', 'credit - year to date', 'credit', 'cr'],
};

const leadingCode = /^(\d{3,7})\s+(?:-\s+)?(\S.*)$/;
const trailingCode = /^(\S.*?)\s+\((\d{1,10})\)$/;
const totalLabel = /^(?:grand\s+)?totals?\b/i;
const footer = /^(?:accrual|cash)s?\s+basis\b/i;

/** The account's name without the source's code: "1200 Business Current Account" → "Business Current Account", "Sales (200)" → "Sales". */
export function accountNameOf(row: Pick<TrialBalanceRow, 'sourceLabel' | 'sourceCode'>): string {
  const { sourceLabel: label, sourceCode: code } = row;
  if (code === null) return label;
  if (label.startsWith(`${code} `)) return label.slice(code.length).replace(/^\s+(?:-\s+)?/, '');
  if (label.endsWith(` (${code})`)) return label.slice(0, -(code.length + 3)).trimEnd();
  return label;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly field: TrialBalanceIssue['field'],
  ) {
    super(message);
  }
}

class Ignored extends Error {
  constructor(
    message: string,
    readonly isFooter = false,
  ) {
    super(message);
  }
}

interface Sides {
  readonly debit: number;
  readonly credit: number;
}

const quote = (v: string): string => JSON.stringify(v);

/** One amount cell as pence on its side; blank is nothing. */
function sidesOf(cell: string, column: 'debit' | 'credit'): Sides {
  if (cell === '') return { debit: 0, credit: 0 };
  const suffixed = /^(.*\d)\s*(dr|cr)$/i.exec(cell);
  const pence = parseAmountText(suffixed ? (suffixed[1] ?? '') : cell);
  if (pence === null || (suffixed && pence < 0)) throw new Refusal(`${quote(cell)} in ${column} is not an amount of money`, column);
  const side = suffixed ? ((suffixed[2] ?? '').toLowerCase() === 'dr' ? 'debit' : 'credit') : column;
  const onSide = pence >= 0 ? side : side === 'debit' ? 'credit' : 'debit';
  return onSide === 'debit' ? { debit: Math.abs(pence), credit: 0 } : { debit: 0, credit: Math.abs(pence) };
}

function codeOf(label: string, codeCell: string): string | null {
  if (codeCell !== '') return codeCell;
  return leadingCode.exec(label)?.[1] ?? trailingCode.exec(label)?.[2] ?? null;
}

/** The header's cells as keys joined (to spot it repeated) and how many there are. */
interface HeaderShape {
  readonly keys: string;
  readonly width: number;
}

function readRow(record: CsvRecord, rowIndex: number, columns: Partial<Record<Field, number>>, header: HeaderShape): TrialBalanceRow {
  if (record.error !== null) throw new Refusal(`the row is not CSV that can be read: ${record.error}`, 'row');
  // A cell more at the end is how some programs end lines; a filled one shifts the amounts under the wrong columns.
  const filledWidth = record.cells.findLastIndex((c) => c !== '') + 1;
  if (filledWidth > header.width) {
    throw new Refusal(
      `the row has ${filledWidth} cells where the header has ${header.width}: an amount such as 1,200.00 not in quotes splits into two cells`,
      'row',
    );
  }
  const filled = record.cells.filter((c) => c !== '');
  if (filled.length === 1 && footer.test(filled[0] ?? '')) throw new Ignored(`the report's footer (${filled[0] ?? ''})`, true);
  if (record.cells.map(headerKey).join(',') === header.keys) throw new Ignored('the header repeated');
  const label = cellOf(record, columns, 'account');
  const codeCell = cellOf(record, columns, 'code');
  if ((totalLabel.test(label) && codeCell === '') || (totalLabel.test(codeCell) && label === '')) throw new Ignored('a total row');
  const debitCell = cellOf(record, columns, 'debit');
  const creditCell = cellOf(record, columns, 'credit');
  const debitSide = sidesOf(debitCell, 'debit');
  const creditSide = sidesOf(creditCell, 'credit');
  const debit = debitSide.debit + creditSide.debit;
  const credit = debitSide.credit + creditSide.credit;
  const net = debit - credit;
  const code = codeOf(label, codeCell);
  if (label === '') {
    if (net !== 0)
      throw new Refusal(
        code === null ? 'the row has amounts but no account name' : `the row has amounts but no account name (only the code ${quote(code)})`,
        'account',
      );
    throw new Ignored('a row with no account and no balance');
  }
  if (debitCell === '' && creditCell === '') throw new Ignored(`${quote(label)} has no amounts (${code === null ? 'a heading' : 'no balance'})`);
  if (net === 0)
    throw new Ignored(debit === 0 ? `${quote(label)} has a zero balance` : `${quote(label)} has a debit and a credit that cancel out (a zero balance)`);
  return { rowIndex, line: record.line, sourceLabel: label, sourceCode: code, debit: Math.max(net, 0), credit: Math.max(-net, 0) };
}

const titleDate = /\b(as\s+(?:at|of)|ending|ended)\s+(.+?)\s*$/i;

/** A year of two digits at the end of a day-first date ("31 Mar 26", "31-03-26") made four: 20YY. */
const shortYear = /^(\d{1,2})([ /.-])([A-Za-z]{3,9}|\d{1,2})\2(\d{2})$/;

/**
 * A title's date: "31 March 2025", "31 Mar 2025", "31/03/2025", "31-03-2025", "31.03.2025", "2025-03-31",
 * or QuickBooks' US "March 31, 2025"; a two-digit year is 20YY ("31 Mar 26", "31/03/26").
 */
function dateOf(text: string): string | null {
  const plain = text
    .replace(/(\d)(?:st|nd|rd|th)\b/gi, '$1')
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(shortYear, (_, day: string, sep: string, month: string, year: string) => `${day}${sep}${month}${sep}20${year}`);
  for (const format of ['DD MMM YYYY', 'DD/MM/YYYY', 'DD-MM-YYYY', 'DD.MM.YYYY', 'YYYY-MM-DD']) {
    const date = parseDateAs(plain, format);
    if (date !== null) return date;
  }
  const us = /^([A-Za-z]{3,9})\.? (\d{1,2}) (\d{2}|\d{4})$/.exec(plain);
  return us ? parseDateAs(`${us[2] ?? ''} ${us[1] ?? ''} ${(us[3] ?? '').padStart(4, '20')}`, 'DD MMM YYYY') : null;
}

/** The date the titles state, or the first "as at"/"as of" phrase that states one this cannot read. */
function asAtOf(titles: readonly CsvRecord[]): { readonly asAt: string | null; readonly unreadAsAt: string | null } {
  let unreadAsAt: string | null = null;
  for (const record of titles) {
    const m = titleDate.exec(record.cells.filter((c) => c !== '').join(' '));
    if (!m) continue;
    const date = dateOf(m[2] ?? '');
    if (date !== null) return { asAt: date, unreadAsAt: null };
    // "… ending" or "… ended" may be a name ("Happy Ending Films Ltd"); "as at" and "as of" say a date follows.
    if (unreadAsAt === null && /^as/i.test(m[1] ?? '')) unreadAsAt = m[0].trim();
  }
  return { asAt: null, unreadAsAt };
}

function guessProvider(headerCells: readonly string[], columns: Partial<Record<Field, number>>, sawFooter: boolean): TrialBalanceFile['provider'] {
  const keys = headerCells.map(headerKey);
  const accountKey = columns.account === undefined ? undefined : keys[columns.account];
  if (accountKey === '' || sawFooter) return 'quickbooks';
  if (keys.includes('accounttype') || keys.includes('ytddebit')) return 'xero';
  if (keys.includes('nominalcode') || accountKey === 'category') return 'freeagent';
  return 'generic';
}

export function readTrialBalance(text: string): TrialBalanceFile {
  const records = readCsvRecords(text, sniffDelimiter(text));
  const header = findHeaderRow(records, aliases, ['account', 'debit', 'credit']);
  if (header === null) {
    throw new AppError('validation_error', 'the file has no header row naming the account, debit and credit columns (looked in its first 30 lines)', 'file');
  }
  const headerCells = (records[header.index] as CsvRecord).cells;
  const shape = { keys: headerCells.map(headerKey).join(','), width: headerCells.length };
  const rows: TrialBalanceRow[] = [];
  const errors: TrialBalanceIssue[] = [];
  const ignored: TrialBalanceIssue[] = [];
  let sawFooter = false;
  let rowIndex = 0;
  for (const record of records.slice(header.index + 1)) {
    if (isBlank(record)) continue;
    try {
      rows.push(readRow(record, rowIndex, header.columns, shape));
    } catch (err) {
      if (err instanceof Refusal) errors.push({ rowIndex, line: record.line, reason: err.message, field: err.field });
      else if (err instanceof Ignored) {
        ignored.push({ rowIndex, line: record.line, reason: err.message, field: 'row' });
        sawFooter ||= err.isFooter;
      } else throw err;
    }
    rowIndex++;
  }
  return {
    provider: guessProvider(headerCells, header.columns, sawFooter),
    ...asAtOf(records.slice(0, header.index)),
    rows,
    errors,
    ignored,
    stats: { totalRows: rowIndex, validRows: rows.length, errorRows: errors.length, ignoredRows: ignored.length },
  };
}
