/** The operations of director's loan accounts (dla.ts): record a movement with its journal, list them. Scopes directors:read and directors:write. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, isoDate, pence } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { addDlaTransaction, dlaMovements, dlaTransactionSchema, loanTypes } from './dla.js';
import { findDirector, requireCompany } from './directors.js';

export const addDlaOp = defineOperation({
  name: 'director-loans.create',
  cli: { group: 'dla', action: 'add' },
  summary: "Record a movement on a director's loan account, with its journal (2400 against the bank, 2500, 5930 or 5990)",
  description:
    'amountPence is positive from the company to the director (loan_to_director, repayment_to_director), negative the other way (loan_from_director, repayment_to_company, dividend_offset, salary_offset, write_off); a sign that does not match is 400.',
  access: 'directors:write',
  method: 'POST',
  path: '/director-loans',
  status: 201,
  body: {
    directorId: idOf('dir'),
    date: isoDate(),
    description: z.string().trim().min(1).max(500),
    amountPence: pence(),
    loanType: z.enum(loanTypes),
    notes: z.string().max(2000).nullable().optional(),
    createJournal: z.boolean().optional().describe('default true'),
    accountId: idOf('acc').optional().describe("the journal's other side instead of the bank (or 2500, 5930, 5990)"),
  },
  output: dlaTransactionSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => addDlaTransaction(trx, postingOf(ctx), input)) };
  },
});

export const listDlaOp = defineOperation({
  name: 'director-loans.list',
  cli: { group: 'dla', action: 'list' },
  summary: "A director's loan account movements, oldest first",
  access: 'directors:read',
  method: 'GET',
  path: '/director-loans',
  query: { directorId: idOf('dir') },
  output: z.array(dlaTransactionSchema),
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    await findDirector(db, input.directorId);
    return { data: await dlaMovements(db, input.directorId) };
  },
});
