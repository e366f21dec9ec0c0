/** The operations of director's loan accounts (dla.ts): record a movement with its journal, list them. Scopes directors:read and directors:write. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, isoDate, pence } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { addDlaTransaction, dlaMovements, dlaTransactionSchema, loanTypes } from './dla.js';
import { findDirector, requireCompany } from './directors.js';
import { today } from '../clock.js';
import { adviceFields, adviceOf } from './loan-advice.js';
import { pageMetaSchema, pageQuery } from '../pagination.js';
import { listSnapshots, loanPosition, loanPositions, positionSchema, s455Summary, s455SummarySchema, snapshotSchema, takeSnapshot } from './loan-position.js';

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
  output: dlaTransactionSchema.extend(adviceFields),
  async run(ctx, input) {
    const org = orgOf(ctx);
    const movement = await org.write((trx) => addDlaTransaction(trx, postingOf(ctx), input));
    const now = today(ctx.clock);
    const position = await loanPosition(org.db, movement.directorId, movement.date > now ? movement.date : now);
    return { data: { ...movement, ...adviceOf(position) } };
  },
});

export const listDlaOp = defineOperation({
  name: 'director-loans.list',
  cli: { group: 'dla', action: 'list' },
  summary: "A director's loan account movements, oldest first",
  access: 'directors:read',
  method: 'GET',
  path: '/director-loans',
  query: { directorId: idOf('dir'), ...pageQuery() },
  output: z.array(dlaTransactionSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    await findDirector(db, input.directorId);
    const { rows, meta } = await dlaMovements(db, input.directorId, input);
    return { data: rows, meta };
  },
});

const asOf = { asOf: isoDate().optional().describe('default today') };

export const balancesOp = defineOperation({
  name: 'director-loans.balances',
  cli: { group: 'dla', action: 'balances' },
  summary: "Every director's loan balance (with connected persons), S455 exposure, beneficial loan and warning level",
  access: 'directors:read',
  method: 'GET',
  path: '/director-loans/balance',
  query: asOf,
  output: z.array(positionSchema),
  async run(ctx, input) {
    return { data: await loanPositions(orgOf(ctx).db, input.asOf ?? today(ctx.clock)) };
  },
});

export const balanceOp = defineOperation({
  name: 'director-loans.balance',
  cli: { group: 'dla', action: 'balance' },
  summary: "One director's loan position: balance, S455 for the accounting period, beneficial loan, warning level",
  access: 'directors:read',
  method: 'GET',
  path: '/director-loans/balance/{directorId}',
  params: { directorId: idOf('dir') },
  query: asOf,
  output: positionSchema,
  async run(ctx, input) {
    return { data: await loanPosition(orgOf(ctx).db, input.directorId, input.asOf ?? today(ctx.clock)) };
  },
});

export const s455SummaryOp = defineOperation({
  name: 'director-loans.s455',
  cli: { group: 'dla', action: 's455' },
  summary: 'The S455 summary: what is overdrawn and the tax it would cost, director by director',
  access: 'directors:read',
  method: 'GET',
  path: '/director-loans/s455-exposure',
  query: asOf,
  output: s455SummarySchema,
  async run(ctx, input) {
    return { data: await s455Summary(orgOf(ctx).db, input.asOf ?? today(ctx.clock)) };
  },
});

export const snapshotOp = defineOperation({
  name: 'director-loans.snapshot',
  cli: { group: 'dla', action: 'snapshot' },
  summary: "Keep a year-end snapshot of a director's loan account for the CT600A and P11D (immutable; one per period end)",
  access: 'directors:write',
  method: 'POST',
  path: '/director-loans/snapshot',
  status: 201,
  body: { directorId: idOf('dir'), periodEndDate: isoDate() },
  output: snapshotSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => takeSnapshot(trx, ctx.clock, input.directorId, input.periodEndDate)) };
  },
});

export const snapshotsOp = defineOperation({
  name: 'director-loans.snapshots',
  cli: { group: 'dla', action: 'snapshots' },
  summary: 'Year-end snapshots, newest period first',
  access: 'directors:read',
  method: 'GET',
  path: '/director-loans/snapshots',
  query: { directorId: idOf('dir').optional(), ...pageQuery() },
  output: z.array(snapshotSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const { rows, meta } = await listSnapshots(orgOf(ctx).db, input.directorId, input);
    return { data: rows, meta };
  },
});
