/**
 * Director's loan account movements, each with its journal through
 * posting (unless createJournal is false): the director's side on 2400
 * Director's Loan Account, the other on the bank (money moved), 2500
 * Dividends Payable (a dividend set against the loan), 5930 Salaries and
 * Wages (salary set against it) or 5990 Sundry Expenses (a loan written
 * off), or the account the caller names. A positive amount is company to
 * director: the director then owes more (2400 debited).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { newId } from '../ids.js';
import { day, idOut, instant } from '../output.js';
import { pence } from '../schema.js';
import { createTransaction, type Posting } from '../ledger/posting.js';
import { assertDateOpen } from '../ledger/periods.js';
import { primaryBankAccount } from '../banking/bank-accounts.js';
import { findDirector, requireCompany, type PageAt } from './directors.js';
import { listPage, type PageMeta } from '../pagination.js';
import { loanTypes } from './dla/loan-types.js';
import { signRule } from './dla/sign-rule.js';
import type { DlaTransactionsTable, LoanType, OrgDb } from '../../store/tables.js';

export { loanTypes };

/** The account on the other side of 2400, by code, when the caller names none; null: the bank. */
const otherSide: Readonly<Record<LoanType, string | null>> = {
  loan_to_director: null,
  repayment_to_director: null,
  loan_from_director: null,
  repayment_to_company: null,
  dividend_offset: '2500',
  salary_offset: '5930',
  write_off: '5990',
};

export const dlaTransactionSchema = z.strictObject({
  id: idOut('dla'),
  directorId: z.string(),
  date: day(),
  description: z.string(),
  amountPence: pence().describe('positive: company to director'),
  loanType: z.enum(loanTypes),
  notes: z.string().nullable(),
  transactionId: z.string().nullable(),
  dividendId: z.string().nullable(),
  createdAt: instant(),
});
export type DlaTransaction = z.output<typeof dlaTransactionSchema>;

export const dlaView = (r: DlaTransactionsTable): DlaTransaction => ({
  id: r.id,
  directorId: r.director_id,
  date: r.date,
  description: r.description,
  amountPence: r.amount,
  loanType: r.loan_type,
  notes: r.notes,
  transactionId: r.transaction_id,
  dividendId: r.dividend_id,
  createdAt: r.created_at,
});

export interface DlaInput {
  readonly directorId: string;
  readonly date: string;
  readonly description: string;
  readonly amountPence: number;
  readonly loanType: LoanType;
  readonly notes?: string | null | undefined;
  readonly createJournal?: boolean | undefined;
  /** The other side's account instead of the default (the bank's, 2500, 5930 or 5990). */
  readonly accountId?: string | undefined;
  readonly dividendId?: string | undefined;
}

/** The id of a chart account the company features post to (2400, 2500, 3200…); 422 when the chart lacks it. */
export async function chartAccountId(db: Kysely<OrgDb>, code: string): Promise<string> {
  const row = await db.selectFrom('accounts').select('id').where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('unprocessable_entity', `the chart has no account ${code}, which the company features post to`);
  return row.id;
}

/**
 * 400 on accountId when it names a director's loan account, 2400 or an account under it (one per director, say):
 * DR 2400 / CR 2400 would leave the ledger at nil while the loan account shows the amount owed.
 */
async function refuseLoanAccount(db: Kysely<OrgDb>, accountId: string): Promise<void> {
  const seen = new Set<string>();
  for (let id: string | null = accountId; id !== null && !seen.has(id);) {
    seen.add(id);
    const row = await db.selectFrom('accounts').select(['code', 'parent_id']).where('id', '=', id).executeTakeFirst();
    if (!row) return;
    if (row.code === '2400') {
      const named = id === accountId ? '2400' : 'under 2400';
      throw new AppError(
        'validation_error',
        `accountId: ${accountId} is a director's loan account (${named}); name the account the money moves through, the other side of 2400`,
        'accountId',
      );
    }
    id = row.parent_id;
  }
}

/** Record a movement and post its journal; the sign must match the loan type (400); a dividend_offset only for a dividend (dividendId). */
export async function addDlaTransaction(trx: Kysely<OrgDb>, posting: Posting, input: DlaInput): Promise<DlaTransaction> {
  await requireCompany(trx);
  const director = await findDirector(trx, input.directorId);
  // A dividend set against the loan debits 2500 Dividends Payable: with no dividend behind it that is a distribution with no minutes and
  // no profit check, or a declared dividend's liability eaten away so that paying it later pays twice.
  if (input.loanType === 'dividend_offset' && input.dividendId === undefined) {
    throw new AppError(
      'validation_error',
      'loanType: a dividend_offset comes only from a dividend: declare it against board minutes (POST /dividends) with paymentMethod dla_offset, which sets it against the loan account',
      'loanType',
    );
  }
  signRule(input.loanType, input.amountPence);
  if (input.accountId !== undefined) await refuseLoanAccount(trx, input.accountId);
  // The loan position of a closed year is as closed as its ledger, journal or not.
  await assertDateOpen(trx, input.date);
  const id = newId('dla', posting.clock.now());
  let transactionId: string | null = null;
  if (input.createJournal !== false) {
    const code = otherSide[input.loanType];
    const other = input.accountId ?? (code === null ? (await primaryBankAccount(trx))?.account_id : await chartAccountId(trx, code));
    if (other === undefined) throw new AppError('unprocessable_entity', 'there is no primary bank account for the money to move through; name accountId');
    const view = await createTransaction(trx, posting, {
      date: input.date,
      description: `${input.description} (director's loan, ${director.full_name})`,
      reference: id,
      status: 'posted',
      sourceType: 'director_loan',
      sourceId: id,
      lines: [
        { accountId: await chartAccountId(trx, '2400'), amount: input.amountPence },
        { accountId: other, amount: -input.amountPence },
      ],
    });
    transactionId = view.id;
  }
  const row: DlaTransactionsTable = {
    id,
    director_id: director.id,
    date: input.date,
    description: input.description,
    amount: input.amountPence,
    loan_type: input.loanType,
    notes: input.notes ?? null,
    transaction_id: transactionId,
    dividend_id: input.dividendId ?? null,
    created_at: timestamp(posting.clock),
  };
  await trx.insertInto('dla_transactions').values(row).execute();
  return dlaView(row);
}

/**
 * Reverse the movements a voided dividend set against the loan account by
 * movements of their own dated `date`, each carrying the journal that
 * reversed its journal (`reversedBy`): the originals stay, a closed year's
 * among them, so the loan accounts and 2400 agree on every date.
 */
export async function reverseDividendMovements(
  trx: Kysely<OrgDb>,
  posting: Posting,
  dividendId: string,
  date: string,
  reversedBy: ReadonlyMap<string, string>,
): Promise<void> {
  await assertDateOpen(trx, date);
  const originals = await trx.selectFrom('dla_transactions').selectAll().where('dividend_id', '=', dividendId).orderBy('created_at').orderBy('id').execute();
  for (const m of originals) {
    const row: DlaTransactionsTable = {
      id: newId('dla', posting.clock.now()),
      director_id: m.director_id,
      date,
      description: `${m.description}, reversed: the dividend is void`,
      amount: -m.amount,
      loan_type: m.loan_type,
      notes: null,
      transaction_id: m.transaction_id === null ? null : (reversedBy.get(m.transaction_id) ?? null),
      dividend_id: dividendId,
      created_at: timestamp(posting.clock),
    };
    await trx.insertInto('dla_transactions').values(row).execute();
  }
}

/** A page of a director's movements, oldest first. */
export async function dlaMovements(db: Kysely<OrgDb>, directorId: string, page: PageAt): Promise<{ rows: DlaTransaction[]; meta: PageMeta }> {
  const { rows, meta } = await listPage(
    db.selectFrom('dla_transactions').where('director_id', '=', directorId),
    (all) => all.selectAll().orderBy('date').orderBy('created_at').orderBy('id'),
    page,
  );
  return { rows: rows.map(dlaView), meta };
}
