/** Rules for scorer tests: every field spelt out once here, each test overriding only what it is about. */
import type { Decision, Known } from '../../src/engine/categorisation/decision.js';
import type { Rule } from '../../src/engine/categorisation/rule.js';

const base: Rule = {
  id: 1,
  name: 'rule',
  field: 'description',
  operator: 'contains',
  value: 'TESCO',
  targetAccountId: 'acc_a',
  priority: 0,
  active: true,
  provenance: 'local',
  createdAt: '2026-01-01T09:00:00.000Z',
};

export const rule = (over: Partial<Rule>): Rule => ({ ...base, ...over });

export const anyAccount = (): boolean => true;

/** The decision as Known, or the test fails showing what came instead. */
export function knownOf(decision: Decision): Known {
  if (decision.kind !== 'Known') throw new Error(`expected a Known decision, got ${JSON.stringify(decision)}`);
  return decision;
}
