/**
 * The sign rule of gap-facts §2.14: positive is company to director,
 * negative is director to company. Money lent to or repaid to the director
 * goes out to them; money the director lends or repays, and a dividend or
 * salary credited to the account, comes in; a write-off also stands on the
 * director's side of the account, since it cancels what they owe.
 */
import { AppError } from '../../errors.js';
import { sterling } from '../../money.js';
import { loanTypes, type LoanType } from './loan-types.js';

export const loanSign: Readonly<Record<LoanType, 1 | -1>> = {
  loan_to_director: 1,
  repayment_to_director: 1,
  loan_from_director: -1,
  repayment_to_company: -1,
  dividend_offset: -1,
  salary_offset: -1,
  write_off: -1,
};

const isLoanType = (value: string): value is LoanType => (loanTypes as readonly string[]).includes(value);

/** The sign `loanType` must have (1 or −1); a zero, a fraction of a penny or the wrong sign is a validation_error on amountPence. */
export function signRule(loanType: string, amountPence: number): 1 | -1 {
  if (!isLoanType(loanType)) {
    throw new AppError('validation_error', `loanType must be one of ${loanTypes.join(', ')}, not ${loanType}`, 'loanType');
  }
  const sign = loanSign[loanType];
  if (!Number.isSafeInteger(amountPence) || amountPence === 0) {
    throw new AppError('validation_error', 'amountPence must be a whole, non-zero number of pence', 'amountPence');
  }
  if (Math.sign(amountPence) !== sign) {
    const way = sign > 0 ? 'positive (company to director)' : 'negative (director to company)';
    throw new AppError('validation_error', `amountPence of a ${loanType} must be ${way}, not ${sterling(amountPence)}`, 'amountPence');
  }
  return sign;
}
