/** The operations of bank accounts (bank-accounts.ts): list, add, change, archive. Scopes: those of accounts. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { bankAccountIdOf, idOf, isoDate, pence } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { reconcileBankAccount, reconciledSchema, unreconciledLines, unreconciledSchema } from './reconcile.js';
import { addBankAccount, archiveBankAccount, bankAccountSchema, bankAccountWithCode, changeBankAccount, listBankAccounts } from './bank-accounts.js';

const params = { id: bankAccountIdOf() };

const details = {
  bankName: z.string().trim().max(100).nullable().optional().describe('e.g. Starling, NatWest'),
  holderName: z.string().trim().max(140).nullable().optional().describe('the name on the account, printed on invoices'),
  sortCode: z.string().max(20).nullable().optional().describe('six digits, as 60-83-71'),
  accountNumber: z.string().max(20).nullable().optional().describe('eight digits'),
  iban: z.string().max(50).nullable().optional(),
};

export const listBankAccountsOp = defineOperation({
  name: 'bank-accounts.list',
  summary: 'List bank accounts: active ones, primary first, then by bank name',
  access: 'accounts:read',
  method: 'GET',
  path: '/bank-accounts',
  query: { includeArchived: z.boolean().default(false) },
  output: z.array(bankAccountSchema),
  async run(ctx, input) {
    return { data: await listBankAccounts(orgOf(ctx).db, input.includeArchived) };
  },
});

export const getBankAccountOp = defineOperation({
  name: 'bank-accounts.get',
  summary: 'Show a bank account',
  access: 'accounts:read',
  method: 'GET',
  path: '/bank-accounts/{id}',
  params,
  output: bankAccountSchema,
  async run(ctx, input) {
    return { data: await bankAccountWithCode(orgOf(ctx).db, input.id) };
  },
});

export const createBankAccountOp = defineOperation({
  name: 'bank-accounts.create',
  summary: 'Add a bank account, over an asset account or a new one (the next free code from 1201)',
  description:
    'accountId names an active asset account (it becomes bank-controlled); left out, a new ledger account is made with accountName. The first bank account, or one sent with isPrimary true, becomes the primary one.',
  access: 'accounts:write',
  method: 'POST',
  path: '/bank-accounts',
  status: 201,
  body: {
    accountName: z.string().trim().min(1).max(100),
    accountId: idOf('acc').optional(),
    isPrimary: z.boolean().optional(),
    ...details,
  },
  output: bankAccountSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => addBankAccount(trx, ctx.clock, input)) };
  },
});

export const updateBankAccountOp = defineOperation({
  name: 'bank-accounts.update',
  summary: 'Change a bank account’s details, or make it the primary one',
  description: 'A field sent as null or an empty string is cleared; a sort code needs an account number and the other way round.',
  access: 'accounts:write',
  method: 'PATCH',
  path: '/bank-accounts/{id}',
  params,
  body: { accountName: z.string().trim().min(1).max(100).optional(), isPrimary: z.literal(true).optional(), ...details },
  output: bankAccountSchema,
  async run(ctx, input) {
    const { id, ...change } = input;
    return { data: await orgOf(ctx).write((trx) => changeBankAccount(trx, ctx.clock, id, change)) };
  },
});

export const archiveBankAccountOp = defineOperation({
  name: 'bank-accounts.archive',
  summary: 'Archive a bank account (its ledger account and history stay)',
  description: 'The primary account is archived only when it is the last one; an account with a pending import is refused.',
  access: 'accounts:write',
  method: 'DELETE',
  path: '/bank-accounts/{id}',
  params,
  output: bankAccountSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => archiveBankAccount(trx, ctx.clock, input.id)) };
  },
});

export const unreconciledOp = defineOperation({
  name: 'bank-accounts.unreconciled',
  summary: 'The posted lines of a bank account not yet reconciled up to a date, with the reconciled balance',
  access: 'transactions:read',
  method: 'GET',
  path: '/bank-accounts/{id}/unreconciled',
  params,
  query: { asOf: isoDate() },
  output: unreconciledSchema,
  async run(ctx, input) {
    return { data: await unreconciledLines(orgOf(ctx).db, input.id, input.asOf) };
  },
});

export const reconcileBankAccountOp = defineOperation({
  name: 'bank-accounts.reconcile',
  summary: 'Reconcile a bank account to a statement: mark its lines reconciled when the balance then agrees',
  description:
    'Marks transactionIds (default: every unreconciled posted line up to asOf) reconciled, all or none: 422 balance_mismatch, naming the difference, when the reconciled balance would not equal statementBalance.',
  access: 'transactions:write',
  method: 'POST',
  path: '/bank-accounts/{id}/reconcile',
  params,
  body: { statementBalance: pence(), asOf: isoDate(), transactionIds: z.array(idOf('txn')).max(10_000).optional() },
  output: reconciledSchema,
  async run(ctx, input) {
    const { id, ...reconciliation } = input;
    return { data: await orgOf(ctx).write((trx) => reconcileBankAccount(trx, postingOf(ctx), id, reconciliation)) };
  },
});
