/**
 * The operations of categorisation rules (rules-store.ts) and the
 * scorer's suggestion for a transaction. Scopes: rules classify imported
 * bank lines, so reading them is bank-imports:read and changing them
 * bank-imports:write; a suggestion reads a transaction (transactions:read).
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, intId, pence } from '../schema.js';
import { pageMetaSchema } from '../pagination.js';
import { listOf } from '../output.js';
import { maxNameLength, maxPriority, maxValueLength } from '../categorisation/validate.js';
import { ruleFields, ruleOperators } from '../categorisation/rule.js';
import { extractKeyword } from '../categorisation/keyword.js';
import { normaliseDescription } from '../categorisation/normalise.js';
import {
  categoriser,
  changeRule,
  decisionSchema,
  decisionView,
  deleteRule,
  globalRuleViews,
  listRules,
  reorderRules,
  ruleSchema,
  upsertRule,
} from './rules-store.js';
import { inbox, suggestionFor, suggestionSchema } from './suggest.js';

const params = { id: intId() };
const text = (max: number) => z.string().max(max);

const ruleFieldsIn = {
  name: z.string().max(maxNameLength),
  description: z.string().max(500).nullable().optional(),
  field: z.enum(ruleFields),
  operator: z.enum(ruleOperators),
  value: z.string().max(maxValueLength).describe('text to match; for an amount rule whole pence as text, negative for money out ("-4500")'),
  targetAccountId: idOf('acc'),
  priority: z.number().int().min(0).max(maxPriority).optional(),
  active: z.boolean().optional(),
};

const listShape = z.strictObject({ rules: z.array(ruleSchema), total: z.number().int() });

export const listRulesOp = defineOperation({
  name: 'categorisation-rules.list',
  summary: 'List this organisation’s categorisation rules: highest priority first, then oldest',
  access: 'bank-imports:read',
  method: 'GET',
  path: '/categorisation-rules',
  query: { active: z.boolean().optional() },
  output: listShape,
  async run(ctx, input) {
    const rules = await listRules(orgOf(ctx).db, input.active);
    return { data: { rules, total: rules.length } };
  },
});

export const globalRulesOp = defineOperation({
  name: 'categorisation-rules.global',
  summary: 'The shared global rules (read-only), as this organisation’s accounts name them',
  access: 'bank-imports:read',
  method: 'GET',
  path: '/categorisation-rules/global',
  output: listShape,
  async run(ctx) {
    const rules = await globalRuleViews(orgOf(ctx).db);
    return { data: { rules, total: rules.length } };
  },
});

export const createRuleOp = defineOperation({
  name: 'categorisation-rules.create',
  summary: 'Add a categorisation rule, or update the one with the same field, operator and value',
  description:
    'Description rule values are normalised (upper case, bank prefixes and trailing reference digits removed) before the upsert compares them. At most 100 rules per organisation (400).',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/categorisation-rules',
  status: 201,
  body: ruleFieldsIn,
  output: ruleSchema,
  async run(ctx, input) {
    const { rule } = await orgOf(ctx).write((trx) => upsertRule(trx, ctx.clock, input));
    return { data: rule };
  },
});

export const updateRuleOp = defineOperation({
  name: 'categorisation-rules.update',
  summary: 'Change a categorisation rule (a seed rule changed becomes the organisation’s own)',
  access: 'bank-imports:write',
  method: 'PATCH',
  path: '/categorisation-rules/{id}',
  params,
  body: {
    name: ruleFieldsIn.name.optional(),
    description: ruleFieldsIn.description,
    field: ruleFieldsIn.field.optional(),
    operator: ruleFieldsIn.operator.optional(),
    value: ruleFieldsIn.value.optional(),
    targetAccountId: ruleFieldsIn.targetAccountId.optional(),
    priority: ruleFieldsIn.priority,
    active: ruleFieldsIn.active,
  },
  output: z.strictObject({ id: z.number().int(), updated: z.literal(true) }),
  async run(ctx, input) {
    const { id, ...change } = input;
    await orgOf(ctx).write((trx) => changeRule(trx, ctx.clock, id, change));
    return { data: { id, updated: true as const } };
  },
});

export const deleteRuleOp = defineOperation({
  name: 'categorisation-rules.delete',
  summary: 'Delete a categorisation rule',
  access: 'bank-imports:write',
  method: 'DELETE',
  path: '/categorisation-rules/{id}',
  params,
  output: z.strictObject({ id: z.number().int(), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteRule(trx, input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const reorderRulesOp = defineOperation({
  name: 'categorisation-rules.reorder',
  summary: 'Set the priorities of several rules at once, all or none',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/categorisation-rules/reorder',
  body: {
    rules: z
      .array(z.strictObject({ id: intId(), priority: z.number().int().min(0).max(maxPriority) }))
      .min(1)
      .max(100),
  },
  output: z.strictObject({ updated: z.number().int() }),
  async run(ctx, input) {
    return { data: { updated: await orgOf(ctx).write((trx) => reorderRules(trx, ctx.clock, input.rules)) } };
  },
});

/** A bank line as the rules read it. */
const lineFields = {
  description: text(500).optional(),
  reference: text(500).optional(),
  contactName: text(200).optional(),
  amount: pence().optional().describe('as the bank shows it: money in positive, out negative'),
  metadata: z.record(z.string().max(50), text(500)).optional(),
};

export const testRulesOp = defineOperation({
  name: 'categorisation-rules.test',
  summary: 'What the rules decide for a bank line, with the evidence: the account, or unknown with its reason',
  access: 'bank-imports:read',
  method: 'POST',
  path: '/categorisation-rules/test',
  body: lineFields,
  output: decisionSchema,
  async run(ctx, input) {
    const rules = await categoriser(orgOf(ctx).db);
    return { data: decisionView(rules.decide(input), rules.accounts) };
  },
});

export const categoriseRowOp = defineOperation({
  name: 'categorisation-rules.categorise-row',
  summary: 'Make (or update) a contains rule from a bank line’s description, and name the similar lines it also matches',
  description: 'The rule matches the description’s distinctive leading words (the keyword), normalised; batchDescriptions are checked for the same keyword.',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/categorisation-rules/categorise-row',
  body: {
    description: text(500).min(1),
    targetAccountId: idOf('acc'),
    batchDescriptions: z
      .array(z.strictObject({ description: text(500), rowId: z.union([z.number().int(), z.string().max(100)]) }))
      .max(10_000)
      .optional(),
  },
  output: z.strictObject({
    rule: z.strictObject({ id: z.number().int(), name: z.string(), action: z.enum(['created', 'updated']) }),
    keyword: z.string(),
    normalisedValue: z.string(),
    account: z.strictObject({ id: z.string(), code: z.string(), name: z.string() }),
    similarRowIds: z.array(z.union([z.number().int(), z.string()])),
  }),
  async run(ctx, input) {
    const keyword = extractKeyword(input.description);
    const { rule, action } = await orgOf(ctx).write((trx) =>
      upsertRule(trx, ctx.clock, {
        name: `Contains ${keyword}`.slice(0, maxNameLength),
        field: 'description',
        operator: 'contains',
        value: keyword,
        targetAccountId: input.targetAccountId,
      }),
    );
    const similar = (input.batchDescriptions ?? []).filter((b) => normaliseDescription(b.description).includes(rule.value)).map((b) => b.rowId);
    return {
      data: {
        rule: { id: rule.id, name: rule.name, action },
        keyword,
        normalisedValue: rule.value,
        account: { id: rule.targetAccountId, code: rule.targetAccountCode, name: rule.targetAccountName },
        similarRowIds: similar,
      },
    };
  },
});

export const suggestCategoryOp = defineOperation({
  name: 'transactions.suggest-category',
  summary: 'The rules’ suggestion for a transaction’s suspense line: the account with its confidence and evidence',
  access: 'transactions:read',
  method: 'POST',
  path: '/transactions/{id}/suggest-category',
  params: { id: idOf('txn') },
  output: suggestionSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await suggestionFor(db, await categoriser(db), input.id) };
  },
});

export const inboxOp = defineOperation({
  name: 'bank.inbox',
  summary: 'Uncategorised bank lines (on suspense, 9999), oldest first, each with the rules’ suggestion',
  access: 'transactions:read',
  method: 'GET',
  path: '/bank/inbox',
  // Convention A, with pages of up to 500 lines: a statement's worth at a time.
  query: { page: z.number().int().min(1).default(1), limit: z.number().int().min(1).max(500).default(100) },
  output: listOf(suggestionSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const { rows, meta } = await inbox(db, await categoriser(db), input);
    return { data: rows, meta };
  },
});
