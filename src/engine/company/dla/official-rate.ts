/**
 * HMRC's official rate of interest for beneficial loans (ITEPA 2003 s181),
 * as the table of EIM26104 gives it, each rate in force from a 6 April
 * until the next; gap-facts §10.2 agrees on every year it lists. The last
 * row has no end in EIM26104, so it stands for 2026/27 and later until a
 * new row is added. Since 6 April 2025 HMRC may change the rate within a
 * year; one rate a year is kept here, the rate in force on 6 April.
 */
import { AppError } from '../../errors.js';
import { taxYearDates } from './tax-year.js';

/** Basis points (375 is 3.75%), newest first. */
const rates: readonly { readonly from: string; readonly basisPoints: number }[] = [
  { from: '2025-04-06', basisPoints: 375 },
  { from: '2023-04-06', basisPoints: 225 },
  { from: '2021-04-06', basisPoints: 200 },
  { from: '2020-04-06', basisPoints: 225 },
  { from: '2017-04-06', basisPoints: 250 },
  { from: '2015-04-06', basisPoints: 300 },
  { from: '2014-04-06', basisPoints: 325 },
  { from: '2010-04-06', basisPoints: 400 },
];

const oldest = rates[rates.length - 1]?.from ?? '';

/** Basis points of the official rate for a tax year written '2025/26'; years before 2010/11 (when the rate changed within years) are refused. */
export function officialRateFor(taxYear: string): number {
  const { startDate } = taxYearDates(taxYear);
  const found = rates.find((r) => startDate >= r.from);
  if (!found) {
    throw new AppError('validation_error', `acct knows the official rate of interest from 2010/11 (${oldest}), not for ${taxYear}`, 'taxYear');
  }
  return found.basisPoints;
}
