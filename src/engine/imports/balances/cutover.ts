/** The cutover date of a migration: the month end at which the opening balances stand. */
import { addDays, formatDate, parseDate } from '../../dates.js';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

const isDate = (date: string): boolean => isoDate.test(date) && !Number.isNaN(parseDate(date).getTime()) && formatDate(parseDate(date)) === date;

const firstOfMonth = (date: string): string => `${date.slice(0, 7)}-01`;

/** The last day of the month `date` is in. */
const endOfMonth = (date: string): string => addDays(firstOfMonth(addDays(firstOfMonth(date), 31)), -1);

/** The last day of the month before `today` (YYYY-MM-DD). */
export function defaultCutover(today: string): string {
  return addDays(firstOfMonth(today), -1);
}

export function isMonthEnd(date: string): boolean {
  return isDate(date) && endOfMonth(date) === date;
}

/** Why `date` cannot be a cutover date, or null when it can. */
export function cutoverError(date: string): string | null {
  if (!isDate(date)) return `the cutover date must be a date such as 2025-03-31, not ${JSON.stringify(date)}`;
  if (isMonthEnd(date)) return null;
  return `the cutover date must be the last day of a month: ${date} is not (that month ends on ${endOfMonth(date)})`;
}
