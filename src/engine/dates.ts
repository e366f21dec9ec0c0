/** Calendar arithmetic on YYYY-MM-DD strings, done in UTC so no time zone shifts a date. */

/** The years the books accept (schema.ts refuses dates outside them), so every date has four digits. */
export const firstYear = 1900;
export const lastYear = 2999;

/** A year as the four digits of a date. */
const yyyy = (year: number): string => String(year).padStart(4, '0');

export function parseDate(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = parseDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return formatDate(d);
}

/** Days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((parseDate(to).getTime() - parseDate(from).getTime()) / 86_400_000);
}

const monthDay = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A fiscal year start as MM-DD; 29 February is refused because it does not recur. */
export function isMonthDay(value: string): boolean {
  const m = monthDay.exec(value);
  if (!m) return false;
  return Number(m[2]) <= (daysInMonth[Number(m[1]) - 1] ?? 0);
}

export interface DateRange {
  readonly startDate: string;
  readonly endDate: string;
}

/** The fiscal year that contains `date`, for a year starting on `start` (MM-DD). */
export function fiscalYearContaining(date: string, start: string): DateRange {
  const year = Number(date.slice(0, 4));
  const startThisYear = `${yyyy(year)}-${start}`;
  const startDate = date >= startThisYear ? startThisYear : `${yyyy(year - 1)}-${start}`;
  return fiscalYearFrom(startDate);
}

/** The fiscal year that begins on `startDate`. */
export function fiscalYearFrom(startDate: string): DateRange {
  const next = `${yyyy(Number(startDate.slice(0, 4)) + 1)}${startDate.slice(4)}`;
  return { startDate, endDate: addDays(next, -1) };
}

/** The same day `years` years away; 29 February becomes 28 February in a common year. */
export function addYears(date: string, years: number): string {
  const year = yyyy(Number(date.slice(0, 4)) + years);
  const shifted = `${year}${date.slice(4)}`;
  return date.slice(5) === '02-29' && formatDate(parseDate(shifted)) !== shifted ? `${year}-02-28` : shifted;
}

/** The tax year a YYYY-MM-DD date falls in: 6 April starts it, so 2026-04-05 is in 2025/26 and 2026-04-06 in 2026/27. */
export function taxYearOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const start = date.slice(5) >= '04-06' ? year : year - 1;
  return `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
}
