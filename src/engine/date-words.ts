/**
 * Dates as people write them on the command line: a period named in a word
 * (2026-11, 2026-Q3, 2026, this-month, last-quarter, fy2025, today) read as
 * its first and last days, and the two mistakes people make with a date
 * told apart: a day-first date (31/03/2026) gets the date it means, and an
 * impossible one (2026-02-30) is "not a real date".
 */
import { AppError } from './errors.js';
import { addDays, fiscalYearContaining, fiscalYearFrom, type DateRange } from './dates.js';

const pad = (n: number): string => String(n).padStart(2, '0');
const lastDayOf = (year: number, month: number): string => (month === 12 ? `${year}-12-31` : addDays(`${year}-${pad(month + 1)}-01`, -1));
const monthRange = (year: number, month: number): DateRange => ({ startDate: `${year}-${pad(month)}-01`, endDate: lastDayOf(year, month) });
const quarterRange = (year: number, quarter: number): DateRange => ({
  startDate: `${year}-${pad(quarter * 3 - 2)}-01`,
  endDate: lastDayOf(year, quarter * 3),
});

/** The words, for help and errors. */
export const periodWords =
  'YYYY-MM-DD, or a period: YYYY-MM, YYYY-Qn, YYYY, fyYYYY (the financial year that begins in YYYY), today, yesterday, this-month, last-month, this-quarter, last-quarter, this-year, last-year, this-fy, last-fy';

/** The words in brief, for the error of a date flag that does not parse. */
export const periodWordsBrief =
  'YYYY-MM-DD, or a period: YYYY-MM (2026-11), YYYY-Qn (2026-Q3), YYYY, fyYYYY (fy2025), today, yesterday, this-/last-month, this-/last-quarter, this-/last-year, this-/last-fy';

/**
 * The period a word names, given today's date and the financial year's
 * first day (MM-DD); null when `text` is not such a word. Quarters and
 * years are calendar ones; fy ones follow the financial year.
 */
export function periodOf(text: string, today: string, fiscalYearStart: string): DateRange | null {
  const word = text.trim().toLowerCase();
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const quarter = Math.ceil(month / 3);
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(word))) return monthRange(Number(m[1]), Number(m[2]));
  if ((m = /^(\d{4})-q([1-4])$/.exec(word))) return quarterRange(Number(m[1]), Number(m[2]));
  if ((m = /^(\d{4})$/.exec(word))) return { startDate: `${m[1]}-01-01`, endDate: `${m[1]}-12-31` };
  if ((m = /^fy(\d{4})$/.exec(word))) return fiscalYearFrom(`${m[1]}-${fiscalYearStart}`);
  switch (word) {
    case 'today':
      return { startDate: today, endDate: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { startDate: day, endDate: day };
    }
    case 'this-month':
      return monthRange(year, month);
    case 'last-month':
      return month === 1 ? monthRange(year - 1, 12) : monthRange(year, month - 1);
    case 'this-quarter':
      return quarterRange(year, quarter);
    case 'last-quarter':
      return quarter === 1 ? quarterRange(year - 1, 4) : quarterRange(year, quarter - 1);
    case 'this-year':
      return { startDate: `${year}-01-01`, endDate: `${year}-12-31` };
    case 'last-year':
      return { startDate: `${year - 1}-01-01`, endDate: `${year - 1}-12-31` };
    case 'this-fy':
      return fiscalYearContaining(today, fiscalYearStart);
    case 'last-fy':
      return fiscalYearContaining(addDays(fiscalYearContaining(today, fiscalYearStart).startDate, -1), fiscalYearStart);
    default:
      return null;
  }
}

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Refuse a date written another way with a hint (400 validation_error on
 * `field`, named as typed): day first (31/03/2026, 31-03-2026, 31.03.2026)
 * gets the YYYY-MM-DD it means; a YYYY-MM-DD that does not exist is "not a
 * real date", with the month's length; a near miss of a period says what is
 * wrong with it (2026-Q5, 2026-13, fy26); anything else is refused listing
 * what the flag takes (`accepts`: the period words unless told). A date in
 * the right form passes; a period word is for the caller to read first.
 */
export function checkDateText(text: string, field: string, accepts: string = periodWordsBrief): void {
  const value = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (month < 1 || month > 12) throw new AppError('validation_error', `${value} is not a real date: there is no month ${m[2]}`, field);
    const days = Number(lastDayOf(year, month).slice(8));
    if (day < 1 || day > days) throw new AppError('validation_error', `${value} is not a real date: ${monthNames[month - 1]} ${year} has ${days} days`, field);
    return;
  }
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  if (m) {
    const meant = `${m[3]}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`;
    throw new AppError('validation_error', `write dates as YYYY-MM-DD: ${value} is ${meant} if it is day first, as in the UK`, field);
  }
  const miss = nearMiss(value);
  throw new AppError('validation_error', miss ?? `${field} takes ${accepts}; not ${value}`, field);
}

/** What is wrong with a period written nearly right, or undefined. */
function nearMiss(value: string): string | undefined {
  let m = /^(\d{4})-?q(\d+)$/i.exec(value);
  if (m) {
    const quarter = Number(m[2]);
    if (quarter < 1 || quarter > 4) return `${value} is not a quarter: quarters are Q1–Q4`;
    const written = `${m[1]}-Q${quarter}`;
    return written.toLowerCase() === value.toLowerCase() ? undefined : `write a quarter as ${written}`;
  }
  m = /^(\d{4})-(\d{1,2})$/.exec(value);
  if (m) {
    const month = Number(m[2]);
    if (month < 1 || month > 12) return `${value} is not a month: months are 01–12`;
    return m[2]?.length === 2 ? undefined : `write a month with two digits: ${m[1]}-${pad(month)}`;
  }
  m = /^fy[\s-]?(\d{2})$/i.exec(value);
  if (m) {
    const year = `${Number(m[1]) < 70 ? '20' : '19'}${m[1]}`;
    return `write the year in full: fy${year} (the financial year that begins in ${year})`;
  }
  if (/^fy/i.test(value)) return `${value} is not a financial year: write fyYYYY, the financial year that begins in YYYY (fy2025)`;
  return undefined;
}
