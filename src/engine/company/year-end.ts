/**
 * The year-end pack of a limited company: for the financial year ending in
 * a calendar year, each director's loan account at the year end (with
 * connected persons), the S455 tax it would cost and by when it must be
 * repaid (CT600A), the beneficial loan for the tax year holding the year
 * end (P11D), the dividends declared and paid for the year, and the
 * profit check. Figures are as the books stand on the day the pack is
 * prepared (today, or an earlier day on or after the year end): S455 counts
 * what was repaid by then, as the CT600A does for loans repaid within nine
 * months of the year end. The year's dividends are those the balance sheet
 * at the year end holds (declared in the year, paid and voided as at its
 * end); those declared after it up to that day are shown apart, as events
 * after the balance sheet date.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { today, type Clock } from '../clock.js';
import { addDays, fiscalYearContaining } from '../dates.js';
import { day } from '../output.js';
import { pence } from '../schema.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { requireCompany } from './directors.js';
import { profitCheck, profitCheckSchema, retainedAtYearEnd, yearDividends, yearDividendsSchema } from './dividends.js';
import { loansWithGap, positionSchema } from './loan-position.js';
import type { OrgDb } from '../../store/tables.js';

export const yearEndSchema = z.strictObject({
  company: z.strictObject({ name: z.string(), companyNumber: z.string().nullable() }),
  financialYear: z.strictObject({ from: day(), to: day() }),
  preparedOn: day(),
  directorLoans: z
    .array(positionSchema)
    .describe(
      'balances at the year end; S455 (CT600A) of the year with repayments up to preparedOn; P11D (beneficial loans) of the tax year holding the year end',
    ),
  unallocatedDirectorLoan: z
    .strictObject({ balancePence: pence(), s455ExposurePence: pence() })
    .describe("2400 Director's Loan Account in the ledger at the year end less the directors' loan accounts, when no one director takes it, and its S455"),
  totalS455ExposurePence: pence().describe('with the S455 on unallocatedDirectorLoan'),
  warnings: z.array(z.string()),
  dividends: yearDividendsSchema,
  yearEnd: z
    .strictObject({ profitPence: pence(), dividendsPence: pence(), retainedEarningsPence: pence() })
    .describe(
      'retained earnings as the balance sheet at the year end holds them: the profit to that day (with 3100), less the dividends declared and not void by then; nothing after the year end counts',
    ),
  profitCheck: profitCheckSchema.describe(
    'the profit check as known on preparedOn: retainedEarningsPence takes off dividends declared for other years whenever declared, and availableProfitPence is what may still be declared for this year',
  ),
});
export type YearEnd = z.output<typeof yearEndSchema>;

/** The financial year that ends in calendar year `year`. */
async function yearEnding(db: Kysely<OrgDb>, year: number): Promise<{ startDate: string; endDate: string }> {
  const org = await loadOrganisation(db);
  let fy = fiscalYearContaining(`${year}-12-31`, org.fiscal_year_start);
  if (Number(fy.endDate.slice(0, 4)) !== year) fy = fiscalYearContaining(addDays(fy.startDate, -1), org.fiscal_year_start);
  return fy;
}

export async function yearEndPack(db: Kysely<OrgDb>, clock: Clock, year: number, preparedOn?: string): Promise<YearEnd> {
  await requireCompany(db);
  const fy = await yearEnding(db, year);
  const now = today(clock);
  if (fy.endDate > now) throw new AppError('unprocessable_entity', `the financial year to ${fy.endDate} has not ended yet`, 'year');
  const on = preparedOn ?? now;
  if (on > now)
    throw new AppError('validation_error', `the pack cannot be prepared on ${on}, after today (${now}): it reads the books as they stand`, 'preparedOn');
  if (on < fy.endDate) throw new AppError('validation_error', `the pack cannot be prepared on ${on}, before the year end (${fy.endDate})`, 'preparedOn');
  const org = await loadOrganisation(db);
  const { positions: loans, unallocated } = await loansWithGap(db, fy.endDate, { period: fy, knownOn: on });
  return {
    company: { name: org.name, companyNumber: org.company_number },
    financialYear: { from: fy.startDate, to: fy.endDate },
    preparedOn: on,
    directorLoans: loans,
    unallocatedDirectorLoan: { balancePence: unallocated.balancePence, s455ExposurePence: unallocated.s455ExposurePence },
    totalS455ExposurePence: loans.reduce((s, l) => s + l.s455.exposurePence, 0) + unallocated.s455ExposurePence,
    warnings: [...new Set(loans.flatMap((l) => l.warnings).concat(unallocated.warnings))],
    dividends: await yearDividends(db, fy, on),
    yearEnd: await retainedAtYearEnd(db, fy.endDate),
    profitCheck: await profitCheck(db, fy.endDate, undefined, on),
  };
}
