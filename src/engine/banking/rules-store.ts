/**
 * Categorisation rules in the books: this organisation's rules (local, or
 * verified seeds provisioned at set-up) beside the shipped global set, as
 * the scorer (rules/) sees them, and the decision for one bank line with
 * the accounts it names. At most 100 rules per organisation; a rule with
 * the same field, operator and normalised value as one that exists
 * updates that rule instead (upsert).
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, type Clock } from '../clock.js';
import { found } from '../lookup.js';
import { instant } from '../output.js';
import { decide, prepareRules, type PreparedRules } from '../categorisation/decide.js';
import type { Decision } from '../categorisation/decision.js';
import { bindGlobalRules, globalRules } from '../categorisation/shipped-rules.js';
import { ruleFields, ruleOperators, provenances, type BankLineInput, type Rule, type RuleField, type RuleOperator } from '../categorisation/rule.js';
import { scoreDimensions } from '../categorisation/score.js';
import { validateRule, type RuleDraft } from '../categorisation/validate.js';
import { bankLineRefusal } from '../ledger/bank-line-account.js';
import type { AccountsTable, CategorisationRulesTable, OrgDb } from '../../store/tables.js';

export const maxRules = 100;

type RuleRow = Selectable<CategorisationRulesTable>;

export const ruleSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  field: z.enum(ruleFields),
  operator: z.enum(ruleOperators),
  value: z.string().describe('normalised: a description rule upper case without bank prefixes or trailing reference digits; an amount rule whole pence'),
  targetAccountId: z.string(),
  targetAccountCode: z.string(),
  targetAccountName: z.string(),
  priority: z.number().int(),
  active: z.boolean(),
  isSeed: z.boolean(),
  provenance: z.enum(provenances),
  createdAt: instant(),
  updatedAt: instant(),
});
export type RuleView = z.output<typeof ruleSchema>;

type Named = Pick<AccountsTable, 'id' | 'code' | 'name'>;

const ruleView = (row: RuleRow, account: Named | undefined): RuleView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  field: row.field as RuleField,
  operator: row.operator as RuleOperator,
  value: row.value,
  targetAccountId: row.target_account_id,
  targetAccountCode: account?.code ?? '',
  targetAccountName: account?.name ?? '',
  priority: row.priority,
  active: row.is_active === 1,
  isSeed: row.is_seed === 1,
  provenance: row.is_seed === 1 ? 'verified' : 'local',
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The scorer's view of a stored rule. */
const scorerRule = (row: RuleRow): Rule => ({
  id: row.id,
  name: row.name,
  field: row.field as RuleField,
  operator: row.operator as RuleOperator,
  value: row.value,
  targetAccountId: row.target_account_id,
  priority: row.priority,
  active: row.is_active === 1,
  provenance: row.is_seed === 1 ? 'verified' : 'local',
  createdAt: row.created_at,
});

async function accountsById(db: Kysely<OrgDb>): Promise<Map<string, AccountsTable>> {
  return new Map((await db.selectFrom('accounts').selectAll().execute()).map((a) => [a.id, a]));
}

/** This organisation's rules, priority first then oldest first; only active or inactive ones when asked. */
export async function listRules(db: Kysely<OrgDb>, active?: boolean): Promise<RuleView[]> {
  let q = db.selectFrom('categorisation_rules').selectAll();
  if (active !== undefined) q = q.where('is_active', '=', active ? 1 : 0);
  const rows = await q.orderBy('priority', 'desc').orderBy('created_at').orderBy('id').execute();
  const accounts = await accountsById(db);
  return rows.map((r) => ruleView(r, accounts.get(r.target_account_id)));
}

async function findRule(db: Kysely<OrgDb>, id: number): Promise<RuleRow> {
  return found(db.selectFrom('categorisation_rules').selectAll().where('id', '=', id).executeTakeFirst(), 'categorisation rule', String(id));
}

/**
 * An account a rule may send lines to: any active account but the suspense
 * account and those no bank line may go to (bank-line-account.ts; paying
 * HMRC goes to 2202 VAT Liability). A bank account may take another bank
 * account's lines (a transfer); its own are passed over when decided.
 */
async function targetAccount(db: Kysely<OrgDb>, id: string, field = 'targetAccountId'): Promise<AccountsTable> {
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!account) throw new AppError('validation_error', `${field}: no account ${id}`, field);
  const refusal = bankLineRefusal(account, []);
  if (refusal) throw new AppError('validation_error', `${field}: ${refusal}`, field);
  if (!usable(account)) throw new AppError('validation_error', `${field}: ${account.code} ${account.name} cannot take categorised bank lines`, field);
  return account;
}

const usable = (a: AccountsTable, bankAccountIds: readonly string[] = []): boolean =>
  a.is_active === 1 && a.code !== '9999' && bankLineRefusal(a, bankAccountIds) === null;

export interface RuleInput extends RuleDraft {
  readonly description?: string | null;
  readonly targetAccountId: string;
}

export interface Upserted {
  readonly rule: RuleView;
  readonly action: 'created' | 'updated';
}

/** Add a rule, or update the target (and name, description, priority) of the rule with the same field, operator and value. */
export async function upsertRule(trx: Kysely<OrgDb>, clock: Clock, input: RuleInput): Promise<Upserted> {
  const valid = validateRule(input);
  const account = await targetAccount(trx, input.targetAccountId);
  const now = timestamp(clock);
  const same = await trx
    .selectFrom('categorisation_rules')
    .selectAll()
    .where('field', '=', valid.field)
    .where('operator', '=', valid.operator)
    .where('value', '=', valid.value)
    .executeTakeFirst();
  if (same) {
    await trx
      .updateTable('categorisation_rules')
      .set({
        name: valid.name,
        description: input.description === undefined ? same.description : input.description,
        target_account_id: account.id,
        priority: input.priority === undefined ? same.priority : valid.priority,
        is_active: input.active === undefined ? same.is_active : valid.active ? 1 : 0,
        is_seed: 0,
        updated_at: now,
      })
      .where('id', '=', same.id)
      .execute();
    return { rule: ruleView(await findRule(trx, same.id), account), action: 'updated' };
  }
  const { n } = await trx
    .selectFrom('categorisation_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) >= maxRules) throw new AppError('validation_error', `an organisation may have at most ${maxRules} categorisation rules: delete one first`);
  const { id } = await trx
    .insertInto('categorisation_rules')
    .values({
      name: valid.name,
      description: input.description ?? null,
      field: valid.field,
      operator: valid.operator,
      value: valid.value,
      target_account_id: account.id,
      priority: valid.priority,
      is_active: valid.active ? 1 : 0,
      is_seed: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { rule: ruleView(await findRule(trx, id), account), action: 'created' };
}

export type RuleChange = Partial<RuleInput>;

/** Change a rule: the merged rule is validated as a new one would be; a seed rule changed becomes the organisation's own (local). */
export async function changeRule(trx: Kysely<OrgDb>, clock: Clock, id: number, change: RuleChange): Promise<void> {
  const row = await findRule(trx, id);
  const valid = validateRule({
    name: change.name ?? row.name,
    field: change.field ?? row.field,
    operator: change.operator ?? row.operator,
    value: change.value ?? row.value,
    priority: change.priority ?? row.priority,
    active: change.active ?? row.is_active === 1,
  });
  if (change.targetAccountId !== undefined) await targetAccount(trx, change.targetAccountId);
  const clash = await trx
    .selectFrom('categorisation_rules')
    .select('id')
    .where('field', '=', valid.field)
    .where('operator', '=', valid.operator)
    .where('value', '=', valid.value)
    .where('id', '!=', id)
    .executeTakeFirst();
  if (clash) throw new AppError('conflict', `rule ${clash.id} already matches ${valid.field} ${valid.operator} ${valid.value}`, 'value');
  await trx
    .updateTable('categorisation_rules')
    .set({
      name: valid.name,
      description: change.description === undefined ? row.description : change.description,
      field: valid.field,
      operator: valid.operator,
      value: valid.value,
      target_account_id: change.targetAccountId ?? row.target_account_id,
      priority: valid.priority,
      is_active: valid.active ? 1 : 0,
      is_seed: 0,
      updated_at: timestamp(clock),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteRule(trx: Kysely<OrgDb>, id: number): Promise<void> {
  await findRule(trx, id);
  await trx.deleteFrom('categorisation_rules').where('id', '=', id).execute();
}

/** Set several rules' priorities at once; all or none (404 for an unknown id). */
export async function reorderRules(trx: Kysely<OrgDb>, clock: Clock, order: readonly { id: number; priority: number }[]): Promise<number> {
  const now = timestamp(clock);
  for (const { id, priority } of order) {
    await findRule(trx, id);
    await trx.updateTable('categorisation_rules').set({ priority, updated_at: now }).where('id', '=', id).execute();
  }
  return order.length;
}

/** The global rules as this organisation's books name their accounts. */
export async function globalRuleViews(db: Kysely<OrgDb>): Promise<RuleView[]> {
  const byCode = new Map((await db.selectFrom('accounts').select(['id', 'code', 'name']).execute()).map((a) => [a.code, a]));
  return globalRules().flatMap((g) => {
    const account = byCode.get(g.targetAccountCode);
    if (!account) return [];
    return [
      {
        id: g.id,
        name: g.name,
        description: null,
        field: g.field,
        operator: g.operator,
        value: g.value,
        targetAccountId: account.id,
        targetAccountCode: account.code,
        targetAccountName: account.name,
        priority: g.priority,
        active: g.active,
        isSeed: false,
        provenance: 'global' as const,
        createdAt: g.createdAt,
        updatedAt: g.createdAt,
      },
    ];
  });
}

/** What decides bank lines for these books: their rules and the global ones, prepared once, and the accounts they may name. */
export interface Categoriser {
  /** `bankAccountIds`: the line's own bank ledger account(s), which a rule naming them cannot send it to (InvalidRule). */
  decide(line: BankLineInput, bankAccountIds?: readonly string[]): Decision;
  readonly accounts: ReadonlyMap<string, AccountsTable>;
}

export async function categoriser(db: Kysely<OrgDb>): Promise<Categoriser> {
  const accounts = await accountsById(db);
  const codes = new Map([...accounts.values()].map((a) => [a.code, a.id]));
  const local = (await db.selectFrom('categorisation_rules').selectAll().execute()).map(scorerRule);
  const rules: PreparedRules = prepareRules([...local, ...bindGlobalRules(globalRules(), (code) => codes.get(code))]);
  const accountUsable = (id: string, bankAccountIds: readonly string[]) => {
    const a = accounts.get(id);
    return a !== undefined && usable(a, bankAccountIds);
  };
  return { accounts, decide: (line, bankAccountIds = []) => decide(rules, line, (id) => accountUsable(id, bankAccountIds)) };
}

const refSchema = z.strictObject({ id: z.number().int(), name: z.string() });
const vectorSchema = z.array(z.number()).describe(`one number per dimension: ${scoreDimensions.join(', ')}`);
const accountRefSchema = z.strictObject({ id: z.string(), code: z.string(), name: z.string() });

export const decisionSchema = z.union([
  z.strictObject({
    kind: z.literal('Known'),
    account: accountRefSchema,
    evidence: z.strictObject({
      scoreVector: vectorSchema,
      matchedField: z.enum(ruleFields),
      matchedValue: z.string(),
      fieldValue: z.string(),
      operator: z.enum(ruleOperators),
      provenance: z.enum(provenances),
      rule: refSchema,
      socialProof: z.strictObject({ globalRulesMatching: z.number().int(), globalRulesAgreeing: z.number().int() }),
      confidence: z.number().min(0).max(1),
    }),
  }),
  z.strictObject({
    kind: z.literal('Unknown'),
    reason: z.enum(['NoMatch', 'AmbiguousTopScore', 'InvalidRule', 'MissingField']),
    rulesConsidered: z.number().int().optional(),
    contenders: z.array(z.strictObject({ rule: refSchema, account: accountRefSchema, provenance: z.enum(provenances), scoreVector: vectorSchema })).optional(),
    rule: refSchema.optional(),
    targetAccountId: z.string().optional(),
    scoreVector: vectorSchema.optional(),
    fields: z.array(z.enum(ruleFields)).optional(),
  }),
]);
export type DecisionView = z.output<typeof decisionSchema>;

/** A decision as the API shows it: accounts by id, code and name. */
export function decisionView(decision: Decision, accounts: ReadonlyMap<string, AccountsTable>): DecisionView {
  const ref = (id: string) => {
    const a = accounts.get(id);
    return { id, code: a?.code ?? '', name: a?.name ?? '' };
  };
  if (decision.kind === 'Known')
    return { kind: 'Known', account: ref(decision.accountId), evidence: { ...decision.evidence, scoreVector: [...decision.evidence.scoreVector] } };
  switch (decision.reason) {
    case 'NoMatch':
      return { kind: 'Unknown', reason: 'NoMatch', rulesConsidered: decision.rulesConsidered };
    case 'AmbiguousTopScore':
      return {
        kind: 'Unknown',
        reason: 'AmbiguousTopScore',
        contenders: decision.contenders.map((c) => ({ rule: c.rule, account: ref(c.accountId), provenance: c.provenance, scoreVector: [...c.scoreVector] })),
      };
    case 'InvalidRule':
      return { kind: 'Unknown', reason: 'InvalidRule', rule: decision.rule, targetAccountId: decision.targetAccountId, scoreVector: [...decision.scoreVector] };
    case 'MissingField':
      return { kind: 'Unknown', reason: 'MissingField', fields: [...decision.fields] };
  }
}
