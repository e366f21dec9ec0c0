/**
 * The vocabulary of a director's loan account (gap-facts §2.14): the seven
 * loan types, one movement of the account, and a director with the persons
 * connected to them, whose loans CTA 2010 s455 counts together.
 */

export const loanTypes = [
  'loan_to_director',
  'loan_from_director',
  'repayment_to_company',
  'repayment_to_director',
  'dividend_offset',
  'salary_offset',
  'write_off',
] as const;

export type LoanType = (typeof loanTypes)[number];

/** One movement: positive is company to director (the director owes more), negative director to company. */
export interface Movement {
  readonly date: string;
  readonly amountPence: number;
  readonly loanType: LoanType;
}

/** Whose movements these are: `key` is the caller's (a director id), echoed in the results. */
export interface Person {
  readonly key: string;
  readonly movements: readonly Movement[];
}

/** A director and the persons connected to them (spouse, child, parent, associate). */
export interface LoanGroup {
  readonly director: Person;
  readonly connected: readonly Person[];
}

/** The group as one list, the director first. */
export const membersOf = (group: LoanGroup): readonly Person[] => [group.director, ...group.connected];

/** Movements in date order; movements of one day keep the caller's order, which is the order they were recorded in. */
export function inDateOrder(movements: readonly Movement[]): Movement[] {
  return movements
    .map((m, i) => ({ m, i }))
    .sort((a, b) => (a.m.date < b.m.date ? -1 : a.m.date > b.m.date ? 1 : a.i - b.i))
    .map(({ m }) => m);
}
