/**
 * The date formats bank statements and accounting exports use, read into YYYY-MM-DD. Listed in the
 * order a UK file is most likely to mean them, so that a column whose every
 * day is 12 or less reads as DD/MM/YYYY rather than MM/DD/YYYY.
 */
import { firstYear, formatDate, lastYear } from '../dates.js';

const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

interface DateFormat {
  readonly name: string;
  readonly pattern: RegExp;
  /** Picks year, month and day out of the match (a month may be a name). */
  readonly parts: (m: RegExpExecArray) => readonly [string, string, string];
}

// A time of day may follow the date (Revolut's "2024-01-15 10:23:45", an ISO "T10:23:45Z"); it is dropped.
const time = String.raw`(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?`;
const monthName = String.raw`([A-Za-z]{3,9})`;
const format = (name: string, body: string, parts: DateFormat['parts']): DateFormat => ({ name, pattern: new RegExp(`^${body}${time}$`), parts });

export const dateFormats: readonly DateFormat[] = [
  format('DD/MM/YYYY', String.raw`(\d{1,2})/(\d{1,2})/(\d{4})`, (m) => [m[3]!, m[2]!, m[1]!]),
  format('YYYY-MM-DD', String.raw`(\d{4})-(\d{1,2})-(\d{1,2})`, (m) => [m[1]!, m[2]!, m[3]!]),
  format('DD-MM-YYYY', String.raw`(\d{1,2})-(\d{1,2})-(\d{4})`, (m) => [m[3]!, m[2]!, m[1]!]),
  format('DD.MM.YYYY', String.raw`(\d{1,2})\.(\d{1,2})\.(\d{4})`, (m) => [m[3]!, m[2]!, m[1]!]),
  format('DD MMM YYYY', String.raw`(\d{1,2})[ -]${monthName}[ -](\d{4})`, (m) => [m[3]!, m[2]!, m[1]!]),
  format('DD/MM/YY', String.raw`(\d{1,2})/(\d{1,2})/(\d{2})`, (m) => [`20${m[3]!}`, m[2]!, m[1]!]),
  format('YYYY/MM/DD', String.raw`(\d{4})/(\d{1,2})/(\d{1,2})`, (m) => [m[1]!, m[2]!, m[3]!]),
  format('YYYYMMDD', String.raw`(\d{4})(\d{2})(\d{2})`, (m) => [m[1]!, m[2]!, m[3]!]),
  format('MM/DD/YYYY', String.raw`(\d{1,2})/(\d{1,2})/(\d{4})`, (m) => [m[3]!, m[1]!, m[2]!]),
  format('MM-DD-YYYY', String.raw`(\d{1,2})-(\d{1,2})-(\d{4})`, (m) => [m[3]!, m[1]!, m[2]!]),
];

export const dateFormatNames: readonly string[] = dateFormats.map((f) => f.name);

function monthNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const lower = text.toLowerCase();
  // "Jan", "Sept" and "January" all name January or September: the start of the name, three letters at least.
  const index = lower.length >= 3 ? months.findIndex((name) => name.startsWith(lower)) : -1;
  return index + 1;
}

/** YYYY-MM-DD, or null when the text is not a real date in that format (31/02/2024, 2024-13-01 …). */
export function parseDateAs(text: string, formatName: string): string | null {
  const f = dateFormats.find((d) => d.name === formatName);
  const m = f?.pattern.exec(text.trim());
  if (!f || !m) return null;
  const [yearText, monthText, dayText] = f.parts(m);
  const year = Number(yearText);
  const month = monthNumber(monthText);
  const day = Number(dayText);
  if (year < firstYear || year > lastYear || month < 1 || month > 12 || day < 1) return null;
  // A day past the month's end (31/02) rolls into the next month and is refused.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? formatDate(date) : null;
}

/** parseDateAs down a column, each distinct value read once: an export's dates repeat (15,000 rows, a few hundred days). */
export function parseColumnAs(values: readonly string[], formatName: string): (string | null)[] {
  const read = new Map<string, string | null>();
  return values.map((v) => {
    let date = read.get(v);
    if (date === undefined) {
      date = parseDateAs(v, formatName);
      read.set(v, date);
    }
    return date;
  });
}

/** Whether the values read as dates in some format, for telling a date column from the others. */
export function looksLikeDate(text: string): boolean {
  return dateFormats.some((f) => parseDateAs(text, f.name) !== null);
}

/**
 * The format that reads the most of a column's values, looking at every row:
 * one day above 12 settles DD/MM against MM/DD. Among formats that read
 * equally many, one under which the dates run in order (either way) wins
 * when `byOrder` (a bank statement's rows run in date order, so order is
 * evidence there; a list of invoices sorted by contact or number is not),
 * then the earlier in the list (`preferred` first, then the UK order above,
 * day before month).
 */
export function detectDateFormat(values: readonly string[], preferred?: string, byOrder = true): string | null {
  const candidates = preferred ? [preferred, ...dateFormatNames.filter((n) => n !== preferred)] : dateFormatNames;
  let best: { name: string; read: number; ordered: boolean } | null = null;
  for (const name of candidates) {
    const dates = parseColumnAs(values, name).filter((d): d is string => d !== null);
    if (dates.length === 0) continue;
    const ordered = byOrder && isMonotonic(dates);
    if (!best || dates.length > best.read || (dates.length === best.read && ordered && !best.ordered)) best = { name, read: dates.length, ordered };
  }
  return best?.name ?? null;
}

/** The month-first reading of a day-first format (DD/MM/YYYY → MM/DD/YYYY), where the list has one. */
export const monthFirstOf: Readonly<Record<string, string>> = { 'DD/MM/YYYY': 'MM/DD/YYYY', 'DD-MM-YYYY': 'MM-DD-YYYY' };

function isMonotonic(dates: readonly string[]): boolean {
  let up = true;
  let down = true;
  for (let i = 1; i < dates.length; i++) {
    if (dates[i]! < dates[i - 1]!) up = false;
    if (dates[i]! > dates[i - 1]!) down = false;
  }
  return up || down;
}
