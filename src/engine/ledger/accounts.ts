/**
 * The chart of accounts: an account as the API shows it (flat or in a tree),
 * finding one, its balance from posted lines, and adding, changing and
 * removing accounts with the spec's rules for system accounts and accounts
 * that carry transactions. The operations are in account-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import { fiscalYearContaining } from '../dates.js';
import { pence } from '../schema.js';
import { day, idOut, instant } from '../output.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

export const accountTypes = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof accountTypes)[number];
export const controlTypes = ['bank', 'receivables', 'payables', 'vat'] as const;
export type ControlType = (typeof controlTypes)[number];

/** The account types a control account may have: a bank and what customers owe are assets, what suppliers are owed a liability, VAT either. */
const controlSides: Readonly<Record<ControlType, readonly AccountType[]>> = {
  bank: ['asset'],
  receivables: ['asset'],
  payables: ['liability'],
  vat: ['asset', 'liability'],
};

export type AccountRow = AccountsTable;

export const accountSchema = z.strictObject({
  id: idOut('acc'),
  code: z.string(),
  name: z.string(),
  accountType: z.enum(accountTypes),
  parentId: idOut('acc').nullable(),
  description: z.string().nullable(),
  defaultVatRate: z.number().int().nullable().describe('percent'),
  isActive: z.boolean(),
  isSystem: z.boolean().describe('provisioned with the chart: never deleted, and only isActive can change'),
  isControlAccount: z.boolean().describe('kept by the features that own it (bank, receivables, payables, VAT)'),
  controlType: z.enum(controlTypes).nullable(),
  isCostOfSales: z.boolean().describe('counted in cost of sales, which gross profit deducts from revenue'),
  createdAt: instant(),
  updatedAt: instant(),
});
export type Account = z.output<typeof accountSchema>;

export function accountView(row: AccountRow): Account {
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

export type AccountNode = Account & { children: AccountNode[] };

/** An account with its children, for the tree of accounts.list; named, as it refers to itself. */
export const accountNodeSchema: z.ZodType<AccountNode> = z
  .strictObject({
    ...accountSchema.shape,
    get children() {
      return z.array(accountNodeSchema).describe('the accounts whose parentId is this account');
    },
  })
  .meta({ id: 'AccountNode' });

/** Nest accounts under their parents; an account whose parent is not in the list is a root. */
export function accountTree(rows: readonly AccountRow[]): AccountNode[] {
  const nodes = new Map(rows.map((r) => [r.id, { ...accountView(r), children: [] as AccountNode[] }]));
  const roots: AccountNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export async function findAccount(db: Kysely<OrgDb>, id: string): Promise<AccountRow> {
  return found(db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst(), 'account', id);
}

export async function findAccountByCode(db: Kysely<OrgDb>, code: string): Promise<AccountRow> {
  const row = await db.selectFrom('accounts').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('not_found', `no account with code ${code}`);
  return row;
}

export interface AccountFilter {
  readonly type?: AccountType;
  readonly active?: boolean;
}

/** The accounts in code order. */
export async function accountRows(db: Kysely<OrgDb>, filter: AccountFilter): Promise<AccountRow[]> {
  let q = db.selectFrom('accounts').selectAll().orderBy('code').orderBy('id');
  if (filter.type) q = q.where('account_type', '=', filter.type);
  if (filter.active !== undefined) q = q.where('is_active', '=', filter.active ? 1 : 0);
  return q.execute();
}

export const typeCountSchema = z.strictObject({
  type: z.enum(accountTypes),
  count: z.number().int(),
  activeCount: z.number().int(),
});
export type TypeCount = z.output<typeof typeCountSchema>;

/** How many accounts each type has, and how many of them are active; every type, even with none. */
export async function countByType(db: Kysely<OrgDb>): Promise<TypeCount[]> {
  const rows = await db
    .selectFrom('accounts')
    .select((eb) => ['account_type', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('is_active').as('active')])
    .groupBy('account_type')
    .execute();
  const byType = new Map(rows.map((r) => [r.account_type, r]));
  return accountTypes.map((type) => ({
    type,
    count: Number(byType.get(type)?.count ?? 0),
    activeCount: Number(byType.get(type)?.active ?? 0),
  }));
}

/** An account named in a report or ledger: who it is, without its settings. */
export const accountRefSchema = z.strictObject({
  id: idOut('acc'),
  code: z.string(),
  name: z.string(),
  accountType: z.enum(accountTypes),
});
export type AccountRef = z.output<typeof accountRefSchema>;

export const accountRef = (row: AccountRow): AccountRef => ({ id: row.id, code: row.code, name: row.name, accountType: row.account_type });

/**
 * How an account's opening balance at `from` is summed as the trial balance
 * sees it: an income or expense account starts each financial year at
 * nothing (its lines from `since`, the year's first day, on), and 3100
 * Retained Earnings carries the profit (or loss) of the years before the one
 * holding `from` (earlierYearsProfit before `yearStart`), so a ledger opens
 * at the figure the trial balance of the day before shows.
 */
export function openingRule(
  account: Pick<AccountRow, 'code' | 'account_type'>,
  from: string,
  fiscalYearStart: string,
): { readonly since: string | undefined; readonly yearStart: string; readonly retained: boolean } {
  const yearStart = fiscalYearContaining(from, fiscalYearStart).startDate;
  const profitOrLoss = account.account_type === 'revenue' || account.account_type === 'expense';
  return { since: profitOrLoss ? yearStart : undefined, yearStart, retained: account.code === '3100' && account.account_type === 'equity' };
}

/** Debit − credit of every income and expense line before `yearStart`: the earlier years' profit as a debit (negative when a profit). */
export async function earlierYearsProfit(db: Kysely<OrgDb>, yearStart: string): Promise<number> {
  const row = await db
    .selectFrom('account_days')
    .innerJoin('accounts', 'accounts.id', 'account_days.account_id')
    .where('accounts.account_type', 'in', ['revenue', 'expense'])
    .where('account_days.date', '<', yearStart)
    .select((eb) => eb.fn.sum<number>(eb('account_days.debit', '-', eb.ref('account_days.credit'))).as('net'))
    .executeTakeFirstOrThrow();
  return Number(row.net ?? 0);
}

/** An account's opening balance at `from` by openingRule, debit − credit. */
export async function openingBalance(
  db: Kysely<OrgDb>,
  account: Pick<AccountRow, 'id' | 'code' | 'account_type'>,
  from: string,
  fiscalYearStart: string,
): Promise<number> {
  const rule = openingRule(account, from, fiscalYearStart);
  const own = await db
    .selectFrom('account_days')
    .where('account_id', '=', account.id)
    .where('date', '<', from)
    .$if(rule.since !== undefined, (q) => q.where('date', '>=', rule.since ?? ''))
    .select((eb) => eb.fn.sum<number>(eb('debit', '-', eb.ref('credit'))).as('net'))
    .executeTakeFirstOrThrow();
  return Number(own.net ?? 0) + (rule.retained ? await earlierYearsProfit(db, rule.yearStart) : 0);
}

/** The dates a figure covers; null where it is open-ended. */
export const rangeSchema = z.strictObject({ from: day().nullable(), to: day().nullable() });

export const balanceSchema = z.strictObject({
  account: accountRefSchema,
  balance: z.strictObject({ debit: pence(), credit: pence(), net: pence().describe('debit − credit') }),
  period: rangeSchema,
  transactionCount: z.number().int(),
});
export type Balance = z.output<typeof balanceSchema>;

/** An account's balance from its posted lines, over a range of dates or all time. */
export async function accountBalance(db: Kysely<OrgDb>, id: string, range: { readonly from?: string; readonly to?: string }): Promise<Balance> {
  const account = await findAccount(db, id);
  let q = db
    .selectFrom('lines')
    .where('account_id', '=', account.id)
    .where('posted', '=', 1)
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('amount', '>', 0).then(eb.ref('amount')).else(0).end()).as('debit'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('amount', '<', 0)
            .then(eb.neg(eb.ref('amount')))
            .else(0)
            .end(),
        )
        .as('credit'),
      eb.fn.count<number>('transaction_id').distinct().as('transactions'),
    ]);
  if (range.from) q = q.where('date', '>=', range.from);
  if (range.to) q = q.where('date', '<=', range.to);
  const sums = await q.executeTakeFirstOrThrow();
  const debit = Number(sums.debit ?? 0);
  const credit = Number(sums.credit ?? 0);
  return {
    account: accountRef(account),
    balance: { debit, credit, net: debit - credit },
    period: { from: range.from ?? null, to: range.to ?? null },
    transactionCount: Number(sums.transactions ?? 0),
  };
}

/** Only an expense account can be cost of sales; false is always allowed. */
function checkCostOfSales(isCostOfSales: boolean | undefined, accountType: AccountType): void {
  if (isCostOfSales === true && accountType !== 'expense') {
    throw new AppError('validation_error', `isCostOfSales: only an expense account can be cost of sales, not a ${accountType} account`, 'isCostOfSales');
  }
}

export interface NewAccount {
  readonly code: string;
  readonly name: string;
  readonly accountType: AccountType;
  readonly parentId?: string | null;
  readonly description?: string | null;
  readonly defaultVatRate?: number | null;
  readonly isControlAccount?: boolean;
  readonly controlType?: ControlType | null;
  readonly isCostOfSales?: boolean;
}

/** Add an account: a unique code, under a parent of the same type. */
export async function addAccount(trx: Kysely<OrgDb>, clock: Clock, input: NewAccount): Promise<AccountRow> {
  checkCostOfSales(input.isCostOfSales, input.accountType);
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
  if (controlType !== null && !controlSides[controlType].includes(input.accountType)) {
    throw new AppError(
      'validation_error',
      `controlType ${controlType} is for ${controlSides[controlType].join(' or ')} accounts, not ${input.accountType}: money it holds is on the balance sheet`,
      'controlType',
    );
  }
  const now = timestamp(clock);
  const account: AccountRow = {
    id: newId('acc', clock.now()),
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
}

export interface AccountChange {
  readonly name?: string;
  readonly description?: string | null;
  readonly defaultVatRate?: number | null;
  readonly isCostOfSales?: boolean;
  readonly isActive?: boolean;
  /** Fixed once the account exists: accepted at the value it has (a client writing back what it read), refused (422) as a change. */
  readonly code?: string;
  readonly accountType?: string;
  readonly parentId?: string | null;
  readonly isControlAccount?: boolean;
  readonly controlType?: string | null;
}

/**
 * Change what may change of an account; of a system account, only isActive
 * (422). A field sent at the value it has is no change: when nothing
 * differs nothing is written, and updatedAt stays.
 */
export async function changeAccount(trx: Kysely<OrgDb>, clock: Clock, id: string, change: AccountChange): Promise<void> {
  const account = await findAccount(trx, id);
  const fixed = {
    code: account.code,
    accountType: account.account_type,
    parentId: account.parent_id,
    isControlAccount: account.is_control_account === 1,
    controlType: account.control_type,
  };
  const moved = (Object.keys(fixed) as (keyof typeof fixed)[]).find((f) => change[f] !== undefined && change[f] !== fixed[f]);
  if (moved) throw new AppError('unprocessable_entity', `${moved} cannot change once an account exists`);
  checkCostOfSales(change.isCostOfSales, account.account_type);
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const columns = {
    name: change.name,
    description: change.description,
    default_vat_rate: change.defaultVatRate,
    is_cost_of_sales: flag(change.isCostOfSales),
    is_active: flag(change.isActive),
  };
  const changed = Object.fromEntries(
    Object.entries(columns).filter(([column, value]) => value !== undefined && value !== account[column as keyof typeof columns]),
  );
  if (account.is_system === 1 && Object.keys(changed).some((column) => column !== 'is_active')) {
    throw new AppError('unprocessable_entity', `${account.code} ${account.name} is a system account: only isActive can change`);
  }
  if (Object.keys(changed).length === 0) return;
  await trx
    .updateTable('accounts')
    .set({ ...changed, updated_at: timestamp(clock) })
    .where('id', '=', account.id)
    .execute();
}

export const removedAccountSchema = z.union([
  z.strictObject({ id: idOut('acc'), deleted: z.literal(true) }),
  z.strictObject({
    id: idOut('acc'),
    deactivated: z.literal(true).describe('the account has transactions, so it was deactivated instead of deleted'),
    message: z.string(),
  }),
]);
export type RemovedAccount = z.output<typeof removedAccountSchema>;

async function deactivate(trx: Kysely<OrgDb>, clock: Clock, account: AccountRow, why: string): Promise<RemovedAccount> {
  await trx
    .updateTable('accounts')
    .set({ is_active: 0, updated_at: timestamp(clock) })
    .where('id', '=', account.id)
    .execute();
  return { id: account.id, deactivated: true, message: `${account.code} ${account.name} ${why}, so it was deactivated instead of deleted` };
}

/**
 * Delete an account, or deactivate one that has transactions (or that an archived bank account or a document's line
 * names); system accounts, parents, and the accounts of active bank accounts and of categorisation rules stay (422).
 */
export async function removeAccount(trx: Kysely<OrgDb>, clock: Clock, id: string): Promise<RemovedAccount> {
  const account = await findAccount(trx, id);
  if (account.is_system === 1) throw new AppError('unprocessable_entity', `${account.code} ${account.name} is a system account and cannot be deleted`);
  const child = await trx.selectFrom('accounts').select('code').where('parent_id', '=', account.id).executeTakeFirst();
  if (child) throw new AppError('unprocessable_entity', `${account.code} has child accounts (${child.code}); delete or move them first`);
  const used = await trx.selectFrom('lines').select('id').where('account_id', '=', account.id).limit(1).executeTakeFirst();
  if (used) return deactivate(trx, clock, account, 'has transactions');
  const bank = await trx
    .selectFrom('bank_accounts')
    .select(['account_name', 'is_active'])
    .where('account_id', '=', account.id)
    .orderBy('is_active', 'desc')
    .executeTakeFirst();
  if (bank?.is_active === 1) {
    throw new AppError(
      'unprocessable_entity',
      `${account.code} ${account.name} is the ledger account of the bank account ${bank.account_name}: archive the bank account first`,
    );
  }
  const rule = await trx.selectFrom('categorisation_rules').select(['id', 'name']).where('target_account_id', '=', account.id).executeTakeFirst();
  if (rule) {
    throw new AppError(
      'unprocessable_entity',
      `categorisation rule ${rule.id} "${rule.name}" files bank lines to ${account.code} ${account.name}: delete the rule or change its target first`,
    );
  }
  // What stays named by a record that keeps its history (an archived bank account, a quote's line) is deactivated, as used accounts are.
  if (bank) return deactivate(trx, clock, account, `is the ledger account of the archived bank account ${bank.account_name}`);
  const line = await trx.selectFrom('document_items').select('id').where('account_id', '=', account.id).limit(1).executeTakeFirst();
  if (line) return deactivate(trx, clock, account, 'is named by a line of a quote or document');
  await trx.deleteFrom('accounts').where('id', '=', account.id).execute();
  return { id: account.id, deleted: true };
}
