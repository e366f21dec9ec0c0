/**
 * The seven dimensions a matching rule is scored on, compared left to
 * right, higher wins: provenance, operator specificity, field strength,
 * pattern specificity, value fit, user priority, tie-break.
 */
import { analyseRegex } from './regex-safety.js';
import type { Provenance, Rule, RuleField, RuleOperator } from './rule.js';

export const scoreDimensions = ['provenance', 'operator', 'field', 'pattern', 'fit', 'priority', 'tieBreak'] as const;
/** One number per scoreDimensions entry, in that order. */
export type ScoreVector = readonly number[];
/** The dimensions that say how good a match is; the tie-break after them only orders rules that agree. */
export const scoringDimensions = scoreDimensions.length - 1;

export const provenanceScore: Readonly<Record<Provenance, number>> = { local: 3, verified: 2, global: 1 };

/**
 * An exact match pins a line down most, an anchored one (either end) next,
 * a substring next; a range of amounts matches many lines, so it is weakest
 * of the fixed scores. A regex scores regexScale × its literal density.
 */
export const operatorScore: Readonly<Record<Exclude<RuleOperator, 'regex'>, number>> = {
  equals: 5,
  starts_with: 4,
  ends_with: 4,
  contains: 3,
  greater_than: 1,
  less_than: 1,
};
/** A regex that is all literals is a `contains` in disguise, so it tops out at contains' score. */
export const regexScale = 3;

/** Metadata is set on purpose by the user or an integration: stronger than free description text, weaker than who was paid. */
export const fieldScore: Readonly<Record<RuleField, number>> = {
  reference: 4,
  contact_name: 4,
  'metadata.category': 3,
  'metadata.project': 3,
  'metadata.department': 3,
  'metadata.tag': 3,
  description: 2,
  amount: 1,
};

const twoPlaces = (n: number): number => Math.round(n * 100) / 100;

export function operatorSpecificity(rule: Pick<Rule, 'operator' | 'value'>): number {
  if (rule.operator !== 'regex') return operatorScore[rule.operator];
  return rule.value === '' ? 0 : twoPlaces((regexScale * analyseRegex(rule.value).literals) / rule.value.length);
}

/** The length of the value ("BRITISH GAS" 11 beats "GAS" 3); for a regex, its literal characters, as `.*` pins nothing down however long. */
export function patternSpecificity(rule: Pick<Rule, 'operator' | 'value'>): number {
  return rule.operator === 'regex' ? analyseRegex(rule.value).literals : rule.value.length;
}

/** Per cent of the input the match covers, rounded down so that only a whole match scores 100; a range covers none of it. */
export function valueFit(operator: RuleOperator, matchedLength: number, inputLength: number): number {
  if (operator === 'equals') return 100;
  if (operator === 'greater_than' || operator === 'less_than') return 0;
  return inputLength === 0 ? 0 : Math.floor((100 * matchedLength) / inputLength);
}

/** Negative when a ranks below b; compares the first `length` dimensions. */
export function compareVectors(a: ScoreVector, b: ScoreVector, length: number = scoreDimensions.length): number {
  for (let i = 0; i < length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
