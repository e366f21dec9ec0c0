/** UK tax years, 6 April to 5 April, written '2025/26' as the dividend tax calculator writes them. */
import { AppError } from '../../errors.js';
import type { DateRange } from '../../dates.js';

const spelling = /^(\d{4})\/(\d{2})$/;
const two = (n: number): string => String(n).padStart(2, '0');

/** The tax year a YYYY-MM-DD date falls in: 2026-04-05 is in 2025/26, 2026-04-06 in 2026/27. */
export function taxYearOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const start = date.slice(5) >= '04-06' ? year : year - 1;
  return `${start}/${two((start + 1) % 100)}`;
}

/** First and last day of a tax year written '2025/26'; any other spelling is a validation_error on taxYear. */
export function taxYearDates(taxYear: string): DateRange {
  const m = spelling.exec(taxYear);
  const start = Number(m?.[1]);
  if (!m || Number(m[2]) !== (start + 1) % 100) {
    throw new AppError('validation_error', `taxYear must be written like 2025/26, not ${taxYear}`, 'taxYear');
  }
  return { startDate: `${start}-04-06`, endDate: `${start + 1}-04-05` };
}
