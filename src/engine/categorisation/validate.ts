/**
 * What a rule must be before it is stored or shipped: the checks the rules
 * operations run on create and update (on the merged rule), and the loader
 * runs on the shipped rule files. Each refusal names the body field.
 */
import { AppError } from '../errors.js';
import { normaliseDescription, normaliseText } from './normalise.js';
import { compileRuleRegex } from './regex-safety.js';
import { ruleFields, ruleOperators, type RuleField, type RuleOperator } from './rule.js';

export const maxNameLength = 100;
export const maxValueLength = 500;
export const maxPriority = 999;

const textOperators: readonly RuleOperator[] = ['contains', 'equals', 'starts_with', 'ends_with', 'regex'];
const amountOperators: readonly RuleOperator[] = ['equals', 'greater_than', 'less_than'];

/** The operators a field can be matched with: amounts compare, text fields match text. */
export function operatorsFor(field: RuleField): readonly RuleOperator[] {
  return field === 'amount' ? amountOperators : textOperators;
}

/** A rule as a caller sends it; `field` and `operator` are checked here, not assumed. */
export interface RuleDraft {
  readonly name: string;
  readonly field: string;
  readonly operator: string;
  readonly value: string;
  readonly priority?: number | undefined;
  readonly active?: boolean | undefined;
}

export interface ValidRule {
  readonly name: string;
  readonly field: RuleField;
  readonly operator: RuleOperator;
  /** Normalised: see normaliseRuleValue. */
  readonly value: string;
  readonly priority: number;
  readonly active: boolean;
}

const refuse = (field: string, message: string): AppError => new AppError('validation_error', message, field);

const isField = (v: string): v is RuleField => (ruleFields as readonly string[]).includes(v);
const isOperator = (v: string): v is RuleOperator => (ruleOperators as readonly string[]).includes(v);

/**
 * The value as it is stored and matched: a description rule's value
 * normalised like a bank description (so "CARD PAYMENT TO TESCO STORES 4532"
 * is the rule "TESCO STORES"); other text upper-cased with single spaces; a
 * regex kept as written once it compiles safely; an amount as whole signed
 * pence ("4500" is £45.00 in, "-4500" £45.00 out).
 */
export function normaliseRuleValue(field: RuleField, operator: RuleOperator, value: string): string {
  if (value.length < 1 || value.length > maxValueLength) throw refuse('value', `value must be 1 to ${maxValueLength} characters`);
  if (field === 'amount') {
    if (!/^-?\d+$/.test(value)) throw refuse('value', `an amount rule's value is whole pence, such as 4500 for £45.00 (negative for money out), not ${value}`);
    const pence = Number(value);
    if (!Number.isSafeInteger(pence)) throw refuse('value', 'value is too large');
    return String(pence === 0 ? 0 : pence);
  }
  if (operator === 'regex') {
    const compiled = compileRuleRegex(value);
    if (typeof compiled === 'string') throw refuse('value', `value: ${compiled}`);
    return value;
  }
  const normalised = field === 'description' ? normaliseDescription(value) : normaliseText(value);
  if (normalised === '') throw refuse('value', 'value must contain more than white space');
  return normalised;
}

export function validateRule(draft: RuleDraft): ValidRule {
  const name = draft.name.trim();
  if (name.length < 1 || name.length > maxNameLength) throw refuse('name', `name must be 1 to ${maxNameLength} characters`);
  if (!isField(draft.field)) throw refuse('field', `field must be one of ${ruleFields.join(', ')}`);
  if (!isOperator(draft.operator)) throw refuse('operator', `operator must be one of ${ruleOperators.join(', ')}`);
  const allowed = operatorsFor(draft.field);
  if (!allowed.includes(draft.operator))
    throw refuse('operator', `operator ${draft.operator} does not apply to field ${draft.field}; use one of ${allowed.join(', ')}`);
  const value = normaliseRuleValue(draft.field, draft.operator, draft.value);
  const priority = draft.priority ?? 0;
  if (!Number.isInteger(priority) || priority < 0 || priority > maxPriority)
    throw refuse('priority', `priority must be a whole number from 0 to ${maxPriority}`);
  return {
    name,
    field: draft.field,
    operator: draft.operator,
    value,
    priority,
    active: draft.active ?? true,
  };
}
