/** UK tax years, 6 April to 5 April, written '2025/26' as the dividend tax calculator writes them. */
import { AppError } from '../../errors.js';
import { taxYearOf, type DateRange } from '../../dates.js';

export { taxYearOf };

const spelling = /^(\d{4})\/(\d{2})$/;

/** First and last day of a tax year written '2025/26'; any other spelling is a validation_error on taxYear. */
export function taxYearDates(taxYear: string): DateRange {
  const m = spelling.exec(taxYear);
  const start = Number(m?.[1]);
  if (!m || Number(m[2]) !== (start + 1) % 100) {
    throw new AppError('validation_error', `taxYear must be written like 2025/26, not ${taxYear}`, 'taxYear');
  }
  return { startDate: `${start}-04-06`, endDate: `${start + 1}-04-05` };
}
