/**
 * The scorer: every active rule that matches a bank line is scored on the
 * seven-dimension vector, and the highest decides. Best rules equal on the
 * six scoring dimensions are ordered by the tie-break (earliest created,
 * then lowest id) when they name the same account; when they name
 * different accounts the line stays unknown (AmbiguousTopScore) for a
 * person to settle, as creation order says nothing about which is right.
 */
import { confidence } from './confidence.js';
import type { Contender, Decision, RuleRef } from './decision.js';
import { LineFields, matcherFor, type Match, type Matcher } from './match.js';
import type { BankLineInput, Rule, RuleField } from './rule.js';
import { compareVectors, fieldScore, operatorSpecificity, patternSpecificity, provenanceScore, scoringDimensions, type ScoreVector } from './score.js';

interface PreparedRule {
  readonly rule: Rule;
  readonly matcher: Matcher;
  /** Every dimension but value fit, which depends on the line. */
  readonly fixed: readonly [provenance: number, operator: number, field: number, pattern: number, priority: number, tieBreak: number];
}

/** Rules made ready to score many lines (a statement import): matchers compiled and creation order ranked once. */
export interface PreparedRules {
  readonly kind: 'PreparedRules';
  readonly rules: readonly PreparedRule[];
}

const byCreation = (a: Rule, b: Rule): number => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id);

/**
 * Inactive rules are dropped here, so they never match. The tie-break is
 * minus the rule's place in creation order among the active rules (1 for
 * the earliest), so that higher is better like every other dimension.
 */
export function prepareRules(rules: readonly Rule[]): PreparedRules {
  const active = rules.filter((r) => r.active).sort(byCreation);
  const prepared: PreparedRule[] = [];
  let place = 0;
  active.forEach((rule, i) => {
    const previous = active[i - 1];
    if (previous === undefined || byCreation(previous, rule) !== 0) place += 1;
    const matcher = matcherFor(rule);
    if (matcher === undefined) return;
    const fixed = [
      provenanceScore[rule.provenance],
      operatorSpecificity(rule),
      fieldScore[rule.field],
      patternSpecificity(rule),
      rule.priority,
      -place,
    ] as const;
    prepared.push({ rule, matcher, fixed });
  });
  return { kind: 'PreparedRules', rules: prepared };
}

interface Candidate {
  readonly rule: Rule;
  readonly match: Match;
  readonly vector: ScoreVector;
}

const ref = (rule: Rule): RuleRef => ({ id: rule.id, name: rule.name });

function scored(p: PreparedRule, match: Match): Candidate {
  const [provenance, operator, field, pattern, priority, tieBreak] = p.fixed;
  return { rule: p.rule, match, vector: [provenance, operator, field, pattern, match.fit, priority, tieBreak] };
}

/**
 * The decision for one bank line. `accountUsable` says whether an account
 * id can still be posted to; a winning rule naming one that cannot is
 * reported (InvalidRule), not passed over, so that the broken rule is seen.
 */
export function decide(rules: readonly Rule[] | PreparedRules, line: BankLineInput, accountUsable: (accountId: string) => boolean): Decision {
  const prepared = 'kind' in rules ? rules : prepareRules(rules);
  const fields = new LineFields(line);
  const candidates: Candidate[] = [];
  const missing = new Set<RuleField>();
  let considered = 0;
  for (const p of prepared.rules) {
    const result = p.matcher(fields);
    if (result === 'missing') {
      missing.add(p.rule.field);
      continue;
    }
    considered += 1;
    if (result !== undefined) candidates.push(scored(p, result));
  }

  if (candidates.length === 0) {
    return considered === 0 && missing.size > 0
      ? { kind: 'Unknown', reason: 'MissingField', fields: [...missing] }
      : { kind: 'Unknown', reason: 'NoMatch', rulesConsidered: considered };
  }

  candidates.sort((a, b) => compareVectors(b.vector, a.vector));
  const winner = candidates[0] as Candidate;
  const top = candidates.filter((c) => compareVectors(c.vector, winner.vector, scoringDimensions) === 0);
  if (top.some((c) => c.rule.targetAccountId !== winner.rule.targetAccountId)) {
    const contenders: Contender[] = top.map((c) => ({
      rule: ref(c.rule),
      accountId: c.rule.targetAccountId,
      provenance: c.rule.provenance,
      scoreVector: c.vector,
    }));
    return { kind: 'Unknown', reason: 'AmbiguousTopScore', contenders };
  }
  if (!accountUsable(winner.rule.targetAccountId)) {
    return { kind: 'Unknown', reason: 'InvalidRule', rule: ref(winner.rule), targetAccountId: winner.rule.targetAccountId, scoreVector: winner.vector };
  }

  const globals = candidates.filter((c) => c.rule.provenance === 'global' && c !== winner);
  return {
    kind: 'Known',
    accountId: winner.rule.targetAccountId,
    evidence: {
      scoreVector: winner.vector,
      matchedField: winner.rule.field,
      matchedValue: winner.match.matchedValue,
      fieldValue: winner.match.fieldValue,
      operator: winner.rule.operator,
      provenance: winner.rule.provenance,
      rule: ref(winner.rule),
      socialProof: {
        globalRulesMatching: globals.length,
        globalRulesAgreeing: globals.filter((c) => c.rule.targetAccountId === winner.rule.targetAccountId).length,
      },
      confidence: confidence(winner.vector),
    },
  };
}
