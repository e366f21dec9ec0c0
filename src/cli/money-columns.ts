/**
 * Which fields of an operation's output hold money (pence() in its output
 * schema), so that tables print them in pounds. A field is named as the
 * tables name it: a path such as balance.net inside a record, or a column
 * name inside a list of records.
 */
import { isPence, outputJsonSchemaOf, type JsonSchema } from '../engine/input.js';
import type { Operation } from '../engine/operation.js';

export type MoneyTest = (path: string) => boolean;

/** For data that is not an operation's (a list of organisations): nothing is money. */
export const noMoney: MoneyTest = () => false;

const moneyTests = new WeakMap<Operation, MoneyTest>();

function collect(schema: JsonSchema | undefined, prefix: string, into: Set<string>): void {
  if (!schema) return;
  for (const alt of schema.anyOf ?? []) collect(alt, prefix, into);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (isPence(prop)) into.add(`${prefix}${name}`);
    collect(prop, `${prefix}${name}.`, into);
  }
  // The records of a list are tables of their own: their fields are named from the record.
  if (schema.items) collect(schema.items, '', into);
}

/** The money test of an operation's output. */
export function moneyTestOf(op: Operation): MoneyTest {
  let test = moneyTests.get(op);
  if (!test) {
    const paths = new Set<string>();
    collect(outputJsonSchemaOf(op.schemas.output), '', paths);
    test = (path) => paths.has(path);
    moneyTests.set(op, test);
  }
  return test;
}
