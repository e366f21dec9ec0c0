/**
 * The S455 deadline: the corporation tax due date, nine months and one day
 * after the end of the accounting period (gap-facts §10.1; year end
 * 31 December 2021 → 1 October 2022). It is counted from the day after the
 * period ends, so that a month-end year end lands on the first of a month
 * (30 June → 1 April, 28 February → 1 December) as HMRC's due dates do; a
 * day the ninth month lacks rolls on to the first of the next month.
 */
import { addDays } from '../../dates.js';

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
const two = (n: number): string => String(n).padStart(2, '0');

/** The due date for an accounting period ending on `periodEnd`; loans still outstanding on it are charged. */
export function s455Deadline(periodEnd: string): string {
  const next = addDays(periodEnd, 1);
  const day = Number(next.slice(8, 10));
  const months = Number(next.slice(0, 4)) * 12 + Number(next.slice(5, 7)) - 1 + 9;
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  if (day <= daysIn(year, month)) return `${year}-${two(month)}-${two(day)}`;
  return month === 12 ? `${year + 1}-01-01` : `${year}-${two(month + 1)}-01`;
}
