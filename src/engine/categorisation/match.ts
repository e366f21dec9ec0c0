/**
 * Matching one rule against one bank line: which text or amount of the line
 * the rule reads, whether the line has it, and what part of it matched.
 */
import { normaliseDescription, normaliseText } from './normalise.js';
import { compileRuleRegex } from './regex-safety.js';
import { metadataKey, type BankLineInput, type Rule, type RuleField } from './rule.js';
import { valueFit } from './score.js';
import { operatorsFor } from './validate.js';

export interface Match {
  /** The line's field as the rule saw it: normalised text, or the amount in pence. */
  readonly fieldValue: string;
  /** The part of fieldValue the rule matched. */
  readonly matchedValue: string;
  readonly fit: number;
}

/** A match, `missing` when the line lacks the rule's field, or undefined when the field is there and does not match. */
export type MatchResult = Match | 'missing' | undefined;

/** The fields of one line, normalised once however many rules read them. */
export class LineFields {
  private readonly cache = new Map<RuleField, string | undefined>();
  constructor(readonly line: BankLineInput) {}

  text(field: RuleField): string | undefined {
    if (this.cache.has(field)) return this.cache.get(field);
    const key = metadataKey(field);
    const raw =
      key !== undefined
        ? this.line.metadata?.[key]
        : field === 'description'
          ? this.line.description
          : field === 'reference'
            ? this.line.reference
            : field === 'contact_name'
              ? this.line.contactName
              : undefined;
    const normalised = raw === undefined ? undefined : field === 'description' ? normaliseDescription(raw) : normaliseText(raw);
    const text = normalised === '' ? undefined : normalised;
    this.cache.set(field, text);
    return text;
  }

  amount(): number | undefined {
    const amount = this.line.amount;
    return Number.isSafeInteger(amount) ? amount : undefined;
  }
}

export type Matcher = (line: LineFields) => MatchResult;

function textMatch(text: string, matched: string | undefined, rule: Rule): Match | undefined {
  return matched === undefined ? undefined : { fieldValue: text, matchedValue: matched, fit: valueFit(rule.operator, matched.length, text.length) };
}

/**
 * The rule as a function of a line, or undefined for a rule that cannot run
 * (an operator its field does not take, a regex that does not compile
 * safely, an amount that is not whole pence): stored rules passed
 * validateRule, so only hand-edited data meets this, and such a rule never
 * matches rather than failing every decision.
 */
export function matcherFor(rule: Rule): Matcher | undefined {
  if (!operatorsFor(rule.field).includes(rule.operator)) return undefined;
  if (rule.field === 'amount') {
    const value = /^-?\d+$/.test(rule.value) ? Number(rule.value) : NaN;
    if (!Number.isSafeInteger(value)) return undefined;
    const test =
      rule.operator === 'equals' ? (a: number) => a === value : rule.operator === 'greater_than' ? (a: number) => a > value : (a: number) => a < value;
    return (line) => {
      const amount = line.amount();
      if (amount === undefined) return 'missing';
      return test(amount) ? { fieldValue: String(amount), matchedValue: String(amount), fit: valueFit(rule.operator, 1, 1) } : undefined;
    };
  }
  if (rule.operator === 'regex') {
    const regex = compileRuleRegex(rule.value);
    if (typeof regex === 'string') return undefined;
    return (line) => {
      const text = line.text(rule.field);
      return text === undefined ? 'missing' : textMatch(text, regex.exec(text), rule);
    };
  }
  const value = rule.field === 'description' ? normaliseDescription(rule.value) : normaliseText(rule.value);
  if (value === '') return undefined;
  const hit: (text: string) => boolean =
    rule.operator === 'equals'
      ? (t) => t === value
      : rule.operator === 'starts_with'
        ? (t) => t.startsWith(value)
        : rule.operator === 'ends_with'
          ? (t) => t.endsWith(value)
          : (t) => t.includes(value);
  return (line) => {
    const text = line.text(rule.field);
    return text === undefined ? 'missing' : textMatch(text, hit(text) ? value : undefined, rule);
  };
}
