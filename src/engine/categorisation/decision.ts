/** What the scorer answers for one bank line: a known account with its evidence, or unknown with a typed reason. */
import type { Provenance, RuleField, RuleOperator } from './rule.js';
import type { ScoreVector } from './score.js';

export interface RuleRef {
  readonly id: number;
  readonly name: string;
}

export interface SocialProof {
  /** Global rules, other than the winning rule, that match the line. */
  readonly globalRulesMatching: number;
  /** Of those, the ones that name the decided account. */
  readonly globalRulesAgreeing: number;
}

export interface Evidence {
  /** See scoreDimensions for the meaning of each place. */
  readonly scoreVector: ScoreVector;
  readonly matchedField: RuleField;
  /** The part of the line's field that matched (the amount in pence for an amount rule). */
  readonly matchedValue: string;
  /** The line's field as the rule saw it, normalised. */
  readonly fieldValue: string;
  readonly operator: RuleOperator;
  readonly provenance: Provenance;
  readonly rule: RuleRef;
  readonly socialProof: SocialProof;
  /** 0..1, from the score vector: see confidence(). */
  readonly confidence: number;
}

export interface Known {
  readonly kind: 'Known';
  readonly accountId: string;
  readonly evidence: Evidence;
}

export interface Contender {
  readonly rule: RuleRef;
  readonly accountId: string;
  readonly provenance: Provenance;
  readonly scoreVector: ScoreVector;
}

export type Unknown =
  /** Rules read the line's fields and none matched (or there are no active rules). */
  | { readonly kind: 'Unknown'; readonly reason: 'NoMatch'; readonly rulesConsidered: number }
  /** The best rules score the same on every scoring dimension and name different accounts. */
  | { readonly kind: 'Unknown'; readonly reason: 'AmbiguousTopScore'; readonly contenders: readonly Contender[] }
  /** The winning rule names an account that cannot be posted to (archived, deleted, not in this chart). */
  | { readonly kind: 'Unknown'; readonly reason: 'InvalidRule'; readonly rule: RuleRef; readonly targetAccountId: string; readonly scoreVector: ScoreVector }
  /** Every active rule reads a field this line does not have. */
  | { readonly kind: 'Unknown'; readonly reason: 'MissingField'; readonly fields: readonly RuleField[] };

export type Decision = Known | Unknown;
export type UnknownReason = Unknown['reason'];
