/** The operations of the chart of accounts: list (tree or flat), types, one account, its balance, create, update, delete. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { checkRange, idOf, isoDate } from '../schema.js';
import { idOut } from '../output.js';
import {
  accountBalance as balanceOf,
  accountNodeSchema,
  accountRows,
  accountSchema,
  accountTree,
  accountTypes,
  accountView,
  addAccount,
  balanceSchema,
  changeAccount,
  controlTypes,
  countByType,
  findAccount,
  removeAccount,
  removedAccountSchema,
  typeCountSchema,
} from './accounts.js';

const boolean = () => z.boolean();

export const listAccounts = defineOperation({
  name: 'accounts.list',
  summary: 'List the chart of accounts: a tree of children by default, flat with flat=true',
  access: 'accounts:read',
  method: 'GET',
  path: '/accounts',
  query: {
    type: z.enum(accountTypes).optional(),
    active: boolean().optional(),
    flat: boolean().default(false),
  },
  output: z.strictObject({
    accounts: z.union([z.array(accountNodeSchema), z.array(accountSchema)]).describe('roots with their children, or every account with flat=true'),
    meta: z.strictObject({ total: z.number().int().describe('how many accounts, children included') }),
  }),
  async run(ctx, input) {
    const rows = await accountRows(orgOf(ctx).db, input);
    return { data: { accounts: input.flat ? rows.map(accountView) : accountTree(rows), meta: { total: rows.length } } };
  },
});

export const accountTypesOp = defineOperation({
  name: 'accounts.types',
  summary: 'Count the accounts of each type, and how many are active',
  access: 'accounts:read',
  method: 'GET',
  path: '/accounts/types',
  output: z.strictObject({ types: z.array(typeCountSchema) }),
  async run(ctx) {
    return { data: { types: await countByType(orgOf(ctx).db) } };
  },
});

const accountParams = { id: idOf('acc') };

export const getAccount = defineOperation({
  name: 'accounts.get',
  summary: 'Show one account',
  access: 'accounts:read',
  method: 'GET',
  path: '/accounts/{id}',
  params: accountParams,
  output: accountSchema,
  async run(ctx, input) {
    return { data: accountView(await findAccount(orgOf(ctx).db, input.id)) };
  },
});

export const accountBalance = defineOperation({
  name: 'accounts.balance',
  summary: 'The balance of an account from posted transactions: debit, credit and net (debit − credit)',
  access: 'accounts:read',
  method: 'GET',
  path: '/accounts/{id}/balance',
  params: accountParams,
  query: { from: isoDate().optional(), to: isoDate().optional() },
  output: balanceSchema,
  async run(ctx, input) {
    checkRange(input.from, input.to);
    return { data: await balanceOf(orgOf(ctx).db, input.id, input) };
  },
});

const code = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(20)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'may contain only letters, digits and . _ - (starting with a letter or digit)');
const vatRate = () => z.number().int().min(0).max(100).nullable();
const costOfSales = () => z.boolean().describe('counted in cost of sales, which gross profit deducts from revenue; expense accounts only');

export const createAccount = defineOperation({
  name: 'accounts.create',
  summary: 'Add an account to the chart',
  access: 'accounts:write',
  method: 'POST',
  path: '/accounts',
  status: 201,
  body: {
    code: code(),
    name: z.string().trim().min(1).max(200),
    accountType: z.enum(accountTypes),
    parentId: idOf('acc').nullable().optional(),
    description: z.string().max(500).nullable().optional(),
    defaultVatRate: vatRate().optional(),
    isControlAccount: z.boolean().optional(),
    controlType: z.enum(controlTypes).nullable().optional(),
    isCostOfSales: costOfSales().optional(),
  },
  output: accountSchema,
  async run(ctx, input) {
    const row = await orgOf(ctx).write((trx) => addAccount(trx, ctx.clock, input));
    return { data: accountView(row) };
  },
});

const fixedAfterCreation = <T extends z.ZodType>(schema: T) =>
  schema.optional().describe('cannot change once the account exists (422); its current value is taken as no change');

export const updateAccount = defineOperation({
  name: 'accounts.update',
  summary: 'Change an account: name, description, defaultVatRate, isCostOfSales and isActive; on system accounts only isActive',
  access: 'accounts:write',
  method: 'PUT',
  path: '/accounts/{id}',
  params: accountParams,
  body: {
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(500).nullable().optional(),
    defaultVatRate: vatRate().optional(),
    isCostOfSales: costOfSales().optional(),
    isActive: z.boolean().optional(),
    // Accepted so that a change to them gets the 422 the spec gives, rather than an unknown-field 400, and their current values pass.
    code: fixedAfterCreation(z.string()),
    accountType: fixedAfterCreation(z.string()),
    parentId: fixedAfterCreation(z.string().nullable()),
    isControlAccount: fixedAfterCreation(z.boolean()),
    controlType: fixedAfterCreation(z.string().nullable()),
  },
  output: z.strictObject({ id: idOut('acc'), updated: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => changeAccount(trx, ctx.clock, input.id, input));
    return { data: { id: input.id, updated: true as const } };
  },
});

export const deleteAccount = defineOperation({
  name: 'accounts.delete',
  summary: 'Delete an account; one with transactions is deactivated instead',
  access: 'accounts:write',
  method: 'DELETE',
  path: '/accounts/{id}',
  params: accountParams,
  output: removedAccountSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => removeAccount(trx, ctx.clock, input.id)) };
  },
});
