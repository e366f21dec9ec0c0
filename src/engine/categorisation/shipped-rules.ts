/**
 * The rules acct ships as data: the read-only global set shared by every
 * organisation (fixtures/categorisation/global-rules.json) and the seed
 * rules provisioned at organisation set-up as "verified"
 * (fixtures/categorisation/seed-rules.json). Both name their target by
 * account code, since account ids belong to each organisation's books, and
 * both pass the same validateRule as rules people make.
 */
import fs from 'node:fs';
import { projectFile } from '../../paths.js';
import type { Rule } from './rule.js';
import { validateRule, type ValidRule } from './validate.js';

export interface ShippedRule extends ValidRule {
  readonly targetAccountCode: string;
}

export interface GlobalRule extends ShippedRule {
  readonly id: number;
  readonly createdAt: string;
}

type Entry = Readonly<Record<string, unknown>>;

const isEntry = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function text(entry: Entry, key: string): string {
  const v = entry[key];
  if (typeof v !== 'string') throw new Error(`${key} must be a string`);
  return v;
}

function shippedRule(entry: Entry): ShippedRule {
  const priority = entry.priority;
  const active = entry.active;
  if (priority !== undefined && typeof priority !== 'number') throw new Error('priority must be a number');
  if (active !== undefined && typeof active !== 'boolean') throw new Error('active must be true or false');
  const targetAccountCode = text(entry, 'targetAccountCode');
  if (!/^\d{4}$/.test(targetAccountCode)) throw new Error(`targetAccountCode must be a four-digit account code, not ${targetAccountCode}`);
  const rule = validateRule({
    name: text(entry, 'name'),
    field: text(entry, 'field'),
    operator: text(entry, 'operator'),
    value: text(entry, 'value'),
    priority,
    active,
  });
  return { ...rule, targetAccountCode };
}

/** Each entry read by `read`, failing on the first bad one with the file and rule number; and no two with one (field, operator, value). */
function rulesOf<T extends ShippedRule>(data: unknown, source: string, read: (entry: Entry, file: Entry) => T): T[] {
  if (!isEntry(data) || !Array.isArray(data.rules)) throw new Error(`${source}: expected an object with a rules array`);
  const file = data;
  const seen = new Set<string>();
  return (data.rules as unknown[]).map((entry, i) => {
    try {
      if (!isEntry(entry)) throw new Error('a rule must be an object');
      const rule = read(entry, file);
      const key = `${rule.field}\u0000${rule.operator}\u0000${rule.value}`;
      if (seen.has(key)) throw new Error(`another rule has the same field, operator and value (${rule.field} ${rule.operator} ${rule.value})`);
      seen.add(key);
      return rule;
    } catch (err) {
      throw new Error(`${source}: rule ${i + 1}: ${(err as Error).message}`, { cause: err });
    }
  });
}

/** The global rules file: rules with unique positive integer ids, created at the file's createdAt unless a rule gives its own. */
export function parseGlobalRules(data: unknown, source: string): GlobalRule[] {
  const ids = new Set<number>();
  return rulesOf(data, source, (entry, file) => {
    const id = entry.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new Error('id must be a positive whole number');
    if (ids.has(id)) throw new Error(`id ${id} is used twice`);
    ids.add(id);
    const createdAt = entry.createdAt ?? file.createdAt;
    if (typeof createdAt !== 'string' || !timestampPattern.test(createdAt)) throw new Error('createdAt must be an ISO 8601 UTC timestamp');
    return { ...shippedRule(entry), id, createdAt };
  });
}

export function parseSeedRules(data: unknown, source: string): ShippedRule[] {
  return rulesOf(data, source, (entry) => shippedRule(entry));
}

const readJson = (relative: string): unknown => JSON.parse(fs.readFileSync(projectFile(relative), 'utf8'));

let globals: readonly GlobalRule[] | undefined;
let seeds: readonly ShippedRule[] | undefined;

export const globalRulesFile = 'fixtures/categorisation/global-rules.json';
export const seedRulesFile = 'fixtures/categorisation/seed-rules.json';

export function globalRules(): readonly GlobalRule[] {
  globals ??= parseGlobalRules(readJson(globalRulesFile), globalRulesFile);
  return globals;
}

export function seedRules(): readonly ShippedRule[] {
  seeds ??= parseSeedRules(readJson(seedRulesFile), seedRulesFile);
  return seeds;
}

/**
 * The global rules as one organisation's scorer sees them: each code
 * turned into that organisation's account id. A rule whose code the
 * organisation's chart lacks (Corporation Tax for a sole trader) does not
 * apply to it and is left out.
 */
export function bindGlobalRules(rules: readonly GlobalRule[], accountIdOf: (code: string) => string | undefined): Rule[] {
  return rules.flatMap((r) => {
    const targetAccountId = accountIdOf(r.targetAccountCode);
    if (targetAccountId === undefined) return [];
    const { targetAccountCode: _code, ...rest } = r;
    return [{ ...rest, targetAccountId, provenance: 'global' as const }];
  });
}
