/**
 * Turning what an adapter received into an operation's input. Query
 * strings and CLI flags arrive as text; each field is coerced to the type
 * its schema declares (integer, number, boolean, array), and anything that
 * does not fit is left as text so validation names it (invalid_type).
 */
import { z } from 'zod';
import { AppError } from './errors.js';
import { formatPath, parseWith } from './schema.js';
import type { Operation } from './operation.js';

export type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  [key: string]: unknown;
};

const jsonSchemas = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

/** The JSON Schema (draft 2020-12) of a schema as clients send it (input) or receive it (output), made once. */
function jsonSchemaFor(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  let out = jsonSchemas[io].get(schema);
  if (!out) {
    out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    delete out['$schema'];
    jsonSchemas[io].set(schema, out);
  }
  return out;
}

/** The JSON Schema of an input schema, as clients send it. */
export const jsonSchemaOf = (schema: z.ZodType): JsonSchema => jsonSchemaFor(schema, 'input');

/** The JSON Schema of an output schema, as clients receive it. */
export const outputJsonSchemaOf = (schema: z.ZodType): JsonSchema => jsonSchemaFor(schema, 'output');

/** The JSON types a property accepts (`integer`, `boolean`…). */
export function typesOf(prop: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  const visit = (s: JsonSchema | undefined) => {
    if (!s) return;
    if (typeof s.type === 'string') types.add(s.type);
    else if (Array.isArray(s.type)) for (const t of s.type) types.add(t);
    for (const alt of s.anyOf ?? []) visit(alt);
  };
  visit(prop);
  return types;
}

/** Whether a property is money in pence (`pence()` in its schema), itself or as an alternative of a nullable one. */
export function isPence(prop: JsonSchema | undefined): boolean {
  if (!prop) return false;
  return prop['x-unit'] === 'pence' || (prop.anyOf ?? []).some(isPence);
}

const numeric = /^-?(\d+(\.\d+)?|\.\d+)(e[+-]?\d+)?$/i;

/** The schema of a list property's items (its own, or the list alternative's of a nullable one). */
function itemsOf(prop: JsonSchema | undefined): JsonSchema | undefined {
  if (!prop) return undefined;
  return prop.items ?? (prop.anyOf ?? []).map(itemsOf).find((items) => items !== undefined);
}

/** A list's items as text coerced to the type of its items (1,3 → [1, 3] for a list of integers); an item that does not fit stays text. */
const coerceItems = (values: readonly unknown[], prop: JsonSchema | undefined): unknown[] => {
  const types = typesOf(itemsOf(prop));
  types.delete('array');
  return values.map((v) => (typeof v === 'string' ? coerce(v, types) : v));
};

function coerce(value: string, types: Set<string>, prop?: JsonSchema): unknown {
  if ((types.has('integer') || types.has('number')) && numeric.test(value.trim())) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('boolean') && value === '') return true;
  if (types.has('null') && value === 'null') return null;
  if (types.has('array'))
    return value === ''
      ? []
      : coerceItems(
          value.split(',').map((v) => v.trim()),
          prop,
        );
  return value;
}

/** Coerce text values of an object to the types the schema's properties declare, a list's items to the type of its items. */
export function coerceText(schema: z.ZodObject, values: Record<string, unknown>): Record<string, unknown> {
  const props = jsonSchemaOf(schema).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const types = typesOf(props[key]);
    if (typeof value === 'string') out[key] = coerce(value, types, props[key]);
    else if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && !types.has('array')) {
      out[key] = coerce(value[0], types);
    } else if (Array.isArray(value) && types.has('array')) out[key] = coerceItems(value, props[key]);
    else out[key] = value;
  }
  return out;
}

export interface RawInput {
  readonly params: Record<string, string>;
  /** Query fields as text (HTTP) or flags as text (CLI). */
  readonly query: Record<string, unknown>;
  /** The decoded JSON body, or undefined when none was sent. */
  readonly body: unknown;
}

/** Validate each part of a request against the operation's schemas and merge them. */
export function parseOperationInput(op: Operation, raw: RawInput): Record<string, unknown> {
  refuseControls(raw.params);
  refuseControls(raw.query);
  refuseControls(raw.body, filesOf(op));
  const params: Record<string, unknown> = parseWith(op.schemas.params, coerceText(op.schemas.params, raw.params));
  refuseUnknownQuery(op.schemas.query, raw.query);
  const query: Record<string, unknown> = parseWith(op.schemas.query, coerceText(op.schemas.query, raw.query));
  let body: Record<string, unknown> = {};
  if (op.schemas.body) {
    const sent = raw.body === undefined ? {} : raw.body;
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) {
      throw new AppError('validation_error', 'the request body must be a JSON object');
    }
    body = parseWith(op.schemas.body, sent);
  } else refuseBody(raw.body);
  return { ...body, ...query, ...params };
}

/**
 * A query parameter the operation does not take is refused, as an unknown
 * body field is, rather than ignored: a misspelt filter (from for fromDate)
 * would otherwise answer the whole list as if it had been applied. The
 * message names the parameters it does take.
 */
function refuseUnknownQuery(schema: z.ZodObject, sent: Record<string, unknown>): void {
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(sent).find((name) => !known.includes(name));
  if (unknown === undefined) return;
  const takes = known.length === 0 ? 'it takes none' : `it takes ${known.join(', ')}`;
  throw new AppError('validation_error', `${unknown} is not a query parameter of this request: ${takes}`, unknown);
}

/**
 * A request to an operation that takes no body may send none, or an empty
 * object (as many clients do with every POST); anything else is refused
 * rather than ignored, so that a field the client thinks it set (a void's
 * reason) is not silently dropped.
 */
function refuseBody(sent: unknown): void {
  if (sent === undefined) return;
  const isObject = sent !== null && typeof sent === 'object' && !Array.isArray(sent);
  const field = isObject ? Object.keys(sent)[0] : undefined;
  if (isObject && field === undefined) return;
  if (field !== undefined) throw new AppError('validation_error', `${field} is not a field of this request, which takes no body`, field);
  throw new AppError('validation_error', 'this request takes no body');
}

/** NUL: never, anywhere. */
const nul = /\u0000/;
/** C0 controls but tab, line feed and carriage return; DEL; C1 controls. */
const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const fileFields = new WeakMap<Operation, ReadonlySet<string>>();

/** The body fields that hold a file's text (`x-file`, and the operation's upload), where only NUL is refused; found once per operation. */
function filesOf(op: Operation): ReadonlySet<string> {
  let files = fileFields.get(op);
  if (!files) {
    const found = new Set<string>();
    if (op.upload) found.add(op.upload.field);
    if (op.schemas.body) {
      for (const [name, prop] of Object.entries(jsonSchemaOf(op.schemas.body).properties ?? {})) if (prop['x-file'] === true) found.add(name);
    }
    fileFields.set(op, (files = found));
  }
  return files;
}

/**
 * Text with a control character is refused wherever it is sent, naming the
 * field and the character: an escape sequence in a contact's name (ESC [2J)
 * would clear the terminal of whoever lists it, and PostgreSQL cannot store
 * a NUL at all (SQLite keeps it, and C-string readers cut the value short).
 * Tab, line feed and carriage return stay. A file handed in as text (an
 * import's `file`) may hold other controls (an old export's closing Ctrl-Z)
 * but not NUL, which means a binary file rather than a statement.
 * One quick pass with no paths kept; the walk that names the field runs
 * only on a refusal, with a stack and parent links rather than recursion,
 * so a body nested thousands deep cannot overflow it.
 */
function refuseControls(input: unknown, files: ReadonlySet<string> = new Set()): void {
  if (!holdsControl(input, files)) return;
  interface Place {
    readonly value: unknown;
    readonly key?: PropertyKey;
    readonly parent?: Place;
  }
  const pathOf = (place: Place): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let at: Place | undefined = place; at?.parent !== undefined; at = at.parent) path.unshift(at.key!);
    return path;
  };
  const stack: Place[] = [{ value: input }];
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const { value } = place;
    if (typeof value === 'string') {
      const rule = place.parent?.parent === undefined && files.has(String(place.key)) ? nul : control;
      const found = rule.exec(value);
      if (found) {
        const field = formatPath(pathOf(place));
        const name = found[0] === '\u0000' ? 'the NUL character' : 'a control character';
        const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        throw new AppError('validation_error', `${field || 'body'} must not contain ${name} (${code})`, field || undefined);
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: place });
    } else if (value !== null && typeof value === 'object') {
      const entries: [string, unknown][] = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        if (control.test(key)) throw new AppError('validation_error', 'a field name must not contain control characters');
        stack.push({ value: item, key, parent: place });
      }
    }
  }
}

/** Whether any text or field name in `input` holds a character refuseControls refuses: the quick pass every request pays. */
function holdsControl(input: unknown, files: ReadonlySet<string>): boolean {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    for (const key in input) {
      const value = (input as Record<string, unknown>)[key];
      if (control.test(key)) return true;
      if (typeof value === 'string' && files.has(key) ? nul.test(value) : holdsControlAnywhere(value)) return true;
    }
    return false;
  }
  return holdsControlAnywhere(input);
}

function holdsControlAnywhere(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (control.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (control.test(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}
