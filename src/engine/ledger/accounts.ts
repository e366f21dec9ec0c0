/**
 * The chart of accounts: list (tree or flat), types, one account, its
 * balance, create, update and delete with the spec's rules for system
 * accounts and accounts that carry transactions.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { checkRange, idOf, isoDate } from '../schema.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

export const accountTypes = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof accountTypes)[number];
export const controlTypes = ['bank', 'receivables', 'payables', 'vat'] as const;

export type AccountRow = AccountsTable;

export function accountView(row: AccountRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    accountType: row.account_type,
    parentId: row.parent_id,
    description: row.description,
    defaultVatRate: row.default_vat_rate,
    isActive: row.is_active === 1,
    isSystem: row.is_system === 1,
    isControlAccount: row.is_control_account === 1,
    controlType: row.control_type,
    isCostOfSales: row.is_cost_of_sales === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

type AccountView = ReturnType<typeof accountView>;
type AccountNode = AccountView & { children: AccountNode[] };

export async function findAccount(db: Kysely<OrgDb>, id: string): Promise<AccountRow> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('account', id);
  return row;
}

export async function findAccountByCode(db: Kysely<OrgDb>, code: string): Promise<AccountRow> {
  const row = await db.selectFrom('accounts').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('not_found', `no account with code ${code}`);
  return row;
}

/** Nest accounts under their parents; an account whose parent is not in the list is a root. */
function tree(rows: readonly AccountRow[]): AccountNode[] {
  const nodes = new Map(rows.map((r) => [r.id, { ...accountView(r), children: [] as AccountNode[] }]));
  const roots: AccountNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

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
  async run(ctx, input) {
    let q = orgOf(ctx).db.selectFrom('accounts').selectAll().orderBy('code').orderBy('id');
    if (input.type) q = q.where('account_type', '=', input.type);
    if (input.active !== undefined) q = q.where('is_active', '=', input.active ? 1 : 0);
    const rows = await q.execute();
    return { data: { accounts: input.flat ? rows.map(accountView) : tree(rows), meta: { total: rows.length } } };
  },
});

export const accountTypesOp = defineOperation({
  name: 'accounts.types',
  summary: 'Count the accounts of each type, and how many are active',
  access: 'accounts:read',
  method: 'GET',
  path: '/accounts/types',
  async run(ctx) {
    const rows = await orgOf(ctx)
      .db.selectFrom('accounts')
      .select((eb) => ['account_type', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('is_active').as('active')])
      .groupBy('account_type')
      .execute();
    const byType = new Map(rows.map((r) => [r.account_type, r]));
    return {
      data: {
        types: accountTypes.map((type) => ({
          type,
          count: Number(byType.get(type)?.count ?? 0),
          activeCount: Number(byType.get(type)?.active ?? 0),
        })),
      },
    };
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
  async run(ctx, input) {
    checkRange(input.from, input.to);
    const db = orgOf(ctx).db;
    const account = await findAccount(db, input.id);
    let q = db
      .selectFrom('lines')
      .where('account_id', '=', account.id)
      .where('posted', '=', 1)
      .select((eb) => [
        eb.fn.sum<number>(eb.case().when('amount', '>', 0).then(eb.ref('amount')).else(0).end()).as('debit'),
        eb.fn.sum<number>(eb.case().when('amount', '<', 0).then(eb.neg(eb.ref('amount'))).else(0).end()).as('credit'),
        eb.fn.count<number>('transaction_id').distinct().as('transactions'),
      ]);
    if (input.from) q = q.where('date', '>=', input.from);
    if (input.to) q = q.where('date', '<=', input.to);
    const sums = await q.executeTakeFirstOrThrow();
    const debit = Number(sums.debit ?? 0);
    const credit = Number(sums.credit ?? 0);
    return {
      data: {
        account: { id: account.id, code: account.code, name: account.name, accountType: account.account_type },
        balance: { debit, credit, net: debit - credit },
        period: { from: input.from ?? null, to: input.to ?? null },
        transactionCount: Number(sums.transactions ?? 0),
      },
    };
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

/** Only an expense account can be cost of sales; false is always allowed. */
function checkCostOfSales(isCostOfSales: boolean | undefined, accountType: AccountType): void {
  if (isCostOfSales === true && accountType !== 'expense') {
    throw new AppError('validation_error', `isCostOfSales: only an expense account can be cost of sales, not a ${accountType} account`, 'isCostOfSales');
  }
}

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
  async run(ctx, input) {
    const org = orgOf(ctx);
    checkCostOfSales(input.isCostOfSales, input.accountType);
    const row = await org.write(async (trx) => {
      if (await trx.selectFrom('accounts').select('id').where('code', '=', input.code).executeTakeFirst()) {
        throw new AppError('conflict', `an account with code ${input.code} already exists`);
      }
      if (input.parentId) {
        const parent = await trx.selectFrom('accounts').selectAll().where('id', '=', input.parentId).executeTakeFirst();
        if (!parent) throw new AppError('validation_error', `parentId: no account ${input.parentId}`, 'parentId');
        if (parent.account_type !== input.accountType) {
          throw new AppError('validation_error', `accountType must be ${parent.account_type}, the type of the parent account ${parent.code}`, 'accountType');
        }
      }
      const controlType = input.controlType ?? null;
      if (input.isControlAccount === false && controlType !== null) {
        throw new AppError('validation_error', 'controlType needs isControlAccount true', 'controlType');
      }
      const now = timestamp(ctx.clock);
      const account: AccountRow = {
        id: newId('acc', ctx.clock.now()),
        code: input.code,
        name: input.name,
        account_type: input.accountType,
        parent_id: input.parentId ?? null,
        description: input.description ?? null,
        default_vat_rate: input.defaultVatRate ?? null,
        is_active: 1,
        is_system: 0,
        is_control_account: input.isControlAccount === true || controlType !== null ? 1 : 0,
        control_type: controlType,
        is_cost_of_sales: input.isCostOfSales ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('accounts').values(account).execute();
      return account;
    });
    return { data: accountView(row) };
  },
});

const fixedAfterCreation = <T extends z.ZodType>(schema: T) => schema.optional().describe('cannot change once the account exists (422)');

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
    // Accepted so that a change to them gets the 422 the spec gives, rather than an unknown-field 400.
    code: fixedAfterCreation(z.string()),
    accountType: fixedAfterCreation(z.string()),
    parentId: fixedAfterCreation(z.string().nullable()),
    isControlAccount: fixedAfterCreation(z.boolean()),
    controlType: fixedAfterCreation(z.string().nullable()),
  },
  async run(ctx, input) {
    const org = orgOf(ctx);
    await org.write(async (trx) => {
      const account = await findAccount(trx, input.id);
      const fixed = (['code', 'accountType', 'parentId', 'isControlAccount', 'controlType'] as const).find((f) => input[f] !== undefined);
      if (fixed) throw new AppError('unprocessable_entity', `${fixed} cannot change once an account exists`);
      checkCostOfSales(input.isCostOfSales, account.account_type);
      if (account.is_system === 1) {
        const edited = (['name', 'description', 'defaultVatRate', 'isCostOfSales'] as const).find((f) => input[f] !== undefined);
        if (edited) throw new AppError('unprocessable_entity', `${account.code} ${account.name} is a system account: only isActive can change`);
      }
      await trx
        .updateTable('accounts')
        .set({
          name: input.name,
          description: input.description,
          default_vat_rate: input.defaultVatRate,
          is_cost_of_sales: input.isCostOfSales === undefined ? undefined : input.isCostOfSales ? 1 : 0,
          is_active: input.isActive === undefined ? undefined : input.isActive ? 1 : 0,
          updated_at: timestamp(ctx.clock),
        })
        .where('id', '=', account.id)
        .execute();
    });
    return { data: { id: input.id, updated: true } };
  },
});

export const deleteAccount = defineOperation({
  name: 'accounts.delete',
  summary: 'Delete an account; one with transactions is deactivated instead',
  access: 'accounts:write',
  method: 'DELETE',
  path: '/accounts/{id}',
  params: accountParams,
  async run(ctx, input) {
    const org = orgOf(ctx);
    const data = await org.write(async (trx) => {
      const account = await findAccount(trx, input.id);
      if (account.is_system === 1) throw new AppError('unprocessable_entity', `${account.code} ${account.name} is a system account and cannot be deleted`);
      const child = await trx.selectFrom('accounts').select('code').where('parent_id', '=', account.id).executeTakeFirst();
      if (child) throw new AppError('unprocessable_entity', `${account.code} has child accounts (${child.code}); delete or move them first`);
      const used = await trx.selectFrom('lines').select('id').where('account_id', '=', account.id).limit(1).executeTakeFirst();
      if (used) {
        await trx.updateTable('accounts').set({ is_active: 0, updated_at: timestamp(ctx.clock) }).where('id', '=', account.id).execute();
        return {
          id: account.id,
          deactivated: true,
          message: `${account.code} ${account.name} has transactions, so it was deactivated instead of deleted`,
        };
      }
      await trx.deleteFrom('accounts').where('id', '=', account.id).execute();
      return { id: account.id, deleted: true };
    });
    return { data };
  },
});
