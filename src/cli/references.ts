/**
 * Where a generated command takes an id (a path argument, a flag, a field of
 * --body or of its lines), it also takes the record's natural key: an
 * account code or name, a contact's name, a document's number
 * (engine/references.ts). They are turned into ids here, before the
 * operation validates its input; the API itself keeps ids.
 */
import type { Kysely } from 'kysely';
import { jsonSchemaOf, type JsonSchema, type RawInput } from '../engine/input.js';
import { orgOf, type Operation } from '../engine/operation.js';
import { hasNaturalKey, naturalKeyOf, resolveBankAccount, resolveReference, type ContactWanted } from '../engine/references.js';
import type { OrgDb } from '../store/tables.js';
import type { Cli } from './context.js';

/** Help for a property that takes an id with a natural key: "an id, or the account code (4000) or name"; else null. */
export function naturalKeyHelp(prop: JsonSchema | undefined): string | null {
  const prefix = prefixOf(prop);
  return prefix === null ? null : `${prefix}_… id, or ${naturalKeyOf(prefix) ?? ''}`;
}

/** The id prefix a property takes, when its records have a natural key. */
function prefixOf(prop: JsonSchema | undefined): string | null {
  if (!prop) return null;
  const own = prop['x-id-prefix'];
  if (typeof own === 'string') return hasNaturalKey(own) ? own : null;
  for (const alt of prop.anyOf ?? []) {
    const found = prefixOf(alt);
    if (found !== null) return found;
  }
  return null;
}

/** Whether a property takes a bank account's id, which its ledger account's code may stand for. */
function isBankAccount(prop: JsonSchema | undefined): boolean {
  if (!prop) return false;
  return prop['x-bank-account'] === true || (prop.anyOf ?? []).some(isBankAccount);
}

/** The item schema of an array of objects, or null. */
function objectItems(prop: JsonSchema | undefined): JsonSchema | null {
  if (!prop) return null;
  if (prop.items?.properties) return prop.items;
  for (const alt of prop.anyOf ?? []) {
    const found = objectItems(alt);
    if (found) return found;
  }
  return null;
}

/** The contact a group's documents are for: of a customer and a supplier of one name, an invoice or quote takes the customer, a bill the supplier. */
const contactWanted: Readonly<Record<string, ContactWanted>> = { invoices: 'customer', quotes: 'customer', bills: 'supplier' };

/**
 * `raw` with every natural key given for an id replaced by the id. `named`
 * turns a field's path (`contactId`, `items[1].accountId`, a path argument)
 * into what the person typed (`--contact-id`, `--item 2`), for errors.
 */
export async function resolveNaturalKeys(cli: Cli, op: Operation, raw: RawInput, named: (path: string) => string): Promise<RawInput> {
  let db: Kysely<OrgDb> | undefined;
  const resolve = async (prefix: string, text: string, path: string): Promise<string> => {
    db ??= orgOf(await cli.ctx()).db;
    return resolveReference(db, prefix, text, named(path), contactWanted[op.cli.group]);
  };
  const flat = async (values: Record<string, unknown> | undefined, schema: JsonSchema): Promise<Record<string, unknown> | undefined> => {
    if (!values) return values;
    const out: Record<string, unknown> = { ...values };
    for (const [field, value] of Object.entries(values)) {
      const prop = schema.properties?.[field];
      const prefix = prefixOf(prop);
      if (prefix !== null && typeof value === 'string') out[field] = await resolve(prefix, value, field);
      if (isBankAccount(prop) && (typeof value === 'string' || typeof value === 'number')) {
        db ??= orgOf(await cli.ctx()).db;
        const id = await resolveBankAccount(db, String(value), named(field));
        out[field] = typeof value === 'number' && /^\d+$/.test(id) ? Number(id) : id;
      }
      const itemPrefix = prefixOf(prop?.items);
      if (itemPrefix !== null && Array.isArray(value)) {
        const ids: unknown[] = [];
        for (const [i, item] of value.entries()) ids.push(typeof item === 'string' ? await resolve(itemPrefix, item, `${field}[${i}]`) : item);
        out[field] = ids;
      }
      const items = objectItems(prop);
      if (items && Array.isArray(value)) {
        out[field] = await Promise.all(
          value.map(async (item: unknown, i) => {
            if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
            const resolved: Record<string, unknown> = { ...(item as Record<string, unknown>) };
            for (const [key, inner] of Object.entries(resolved)) {
              const innerPrefix = prefixOf(items.properties?.[key]);
              if (innerPrefix !== null && typeof inner === 'string') resolved[key] = await resolve(innerPrefix, inner, `${field}[${i}].${key}`);
            }
            return resolved;
          }),
        );
      }
    }
    return out;
  };
  const params = (await flat(raw.params, jsonSchemaOf(op.schemas.params))) as Record<string, string>;
  const query = await flat(raw.query, jsonSchemaOf(op.schemas.query));
  const body =
    op.schemas.body && raw.body !== null && typeof raw.body === 'object' && !Array.isArray(raw.body)
      ? await flat(raw.body as Record<string, unknown>, jsonSchemaOf(op.schemas.body))
      : raw.body;
  return { params, query: query ?? {}, body };
}
