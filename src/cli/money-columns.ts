/**
 * Which fields of an operation's output hold money (pence() in its output
 * schema), so that tables print them in pounds. A field is named as the
 * tables name it: a path such as balance.net inside a record, or a column
 * name inside a list of records. Tables print such a field's name without
 * the API's unit (availableProfitPence as availableProfit).
 */
import { isPence, outputJsonSchemaOf, type JsonSchema } from '../engine/input.js';
import type { Operation } from '../engine/operation.js';

export type MoneyTest = (path: string) => boolean;

/** A money field named for the API's pence (amountPence) is typed and printed in pounds on the command line: its name without the unit (amount). */
export const withoutPence = (field: string, pounds: boolean): string => (pounds && field.endsWith('Pence') ? field.slice(0, -'Pence'.length) : field);

/** For data that is not an operation's (a list of organisations): nothing is money. */
export const noMoney: MoneyTest = () => false;

const moneyTests = new WeakMap<Operation, MoneyTest>();

function collect(schema: JsonSchema | undefined, prefix: string, into: Set<string>, defs: Record<string, JsonSchema>, seen = new Set<string>()): void {
  if (!schema) return;
  // A named schema (the account tree's AccountNode) is a reference into $defs; each is followed once.
  const ref = typeof schema['$ref'] === 'string' ? schema['$ref'].replace('#/$defs/', '') : undefined;
  if (ref !== undefined && !seen.has(ref)) collect(defs[ref], prefix, into, defs, new Set([...seen, ref]));
  for (const alt of schema.anyOf ?? []) collect(alt, prefix, into, defs, seen);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (isPence(prop)) into.add(`${prefix}${name}`);
    collect(prop, `${prefix}${name}.`, into, defs, seen);
  }
  // The records of a list are tables of their own: their fields are named from the record.
  if (schema.items) collect(schema.items, '', into, defs, seen);
}

/** The money test of an operation's output. */
export function moneyTestOf(op: Operation): MoneyTest {
  let test = moneyTests.get(op);
  if (!test) {
    const paths = new Set<string>();
    const schema = outputJsonSchemaOf(op.schemas.output);
    collect(schema, '', paths, (schema['$defs'] ?? {}) as Record<string, JsonSchema>);
    test = (path) => paths.has(path);
    moneyTests.set(op, test);
  }
  return test;
}
