/**
 * Input-schema building blocks and the one translation from a zod failure
 * to the spec's error codes (validation_error, invalid_type, invalid_date,
 * invalid_id), always naming the offending field.
 */
import { z } from 'zod';
import { AppError, type ErrorCode } from './errors.js';
import { idPattern, userIdIn } from './ids.js';
import { firstYear, isMonthDay, lastYear } from './dates.js';
import { sterling } from './money.js';
import { readPostcode, readVatNumber } from './values.js';

const inRange = (v: string): boolean => {
  const year = Number(v.slice(0, 4));
  return year >= firstYear && year <= lastYear;
};
const rangeMessage = `must be a date from ${firstYear}-01-01 to ${lastYear}-12-31`;

/** A YYYY-MM-DD calendar date (not in that format: `invalid_date`) within the years the books keep. */
export const isoDate = () => z.iso.date().refine(inRange, { message: rangeMessage });

/** A report's date parameter: YYYY-MM-DD within the years the books keep, else validation_error (the spec's rule for reports). */
export const reportDate = () =>
  z
    .string()
    .refine((v) => z.iso.date().safeParse(v).success, { message: 'must be a date in YYYY-MM-DD format' })
    .refine(inRange, { message: rangeMessage })
    .meta({ format: 'date' });

/** The `search` query parameter: literal text, without control characters. */
export const searchText = () =>
  z
    .string()
    .max(200)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/**
 * An id with the given prefix (`acc`, `key`…); anything else is `invalid_id`.
 * Marked `x-id-prefix` in its JSON Schema, so that the command line can take
 * the record's natural key instead (an account code, a contact's name).
 */
export function idOf(prefix: string) {
  const pattern = idPattern(prefix);
  return z
    .string()
    .refine((v) => pattern.test(v), {
      message: `must be an id starting ${prefix}_`,
      params: { code: 'invalid_id' },
    })
    .meta({ 'x-id-prefix': prefix });
}

/**
 * A user's id as sent (`usr_2`; the bare `2` of earlier clients is taken
 * too), read as the platform database's integer key; anything else is
 * `invalid_id`.
 */
export const userIdParam = (description = 'the user id: usr_2 (the bare 2 is taken too)') =>
  z
    .string()
    .refine((v) => userIdIn(v) !== undefined, { message: 'must be a user id: usr_ and digits, such as usr_2', params: { code: 'invalid_id' } })
    // Described before the transform: the JSON Schema of an input is that of the string sent.
    .meta({ description, examples: ['usr_2'] })
    .transform((v) => userIdIn(v) as number);

/** An integer id (bank accounts, bank import rows, categorisation rules). */
export const intId = () =>
  z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1);

/**
 * A bank account's id, marked `x-bank-account` in its JSON Schema so that
 * the command line can take the code of its ledger account (1200) instead.
 */
export const bankAccountIdOf = () => intId().meta({ 'x-bank-account': true });

/** A bound of a money field in pounds ("must be at most £100,000,000.00"): the message is read by people on both adapters. */
function penceBound(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'too_big') return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${sterling(Number(issue.maximum))}`;
  if (issue.code === 'too_small') return `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${sterling(Number(issue.minimum))}`;
  return undefined;
}

/**
 * An amount of money in integer pence, as the API sends and receives it.
 * Marked `x-unit: pence` in its JSON Schema, so that the command line
 * knows to read the flag in pounds and the OpenAPI document says so; its
 * bounds (.positive(), .max(…)) are stated in pounds.
 */
export const pence = () => z.number({ error: penceBound }).int().meta({ 'x-unit': 'pence' });

/**
 * The text of a file handed in (a statement, a CSV of contacts), marked
 * `x-file` in its JSON Schema: it may hold control characters that other
 * text may not (an old export's closing Ctrl-Z), though never a NUL.
 */
export const uploadedText = () => z.string().min(1).meta({ 'x-file': true });

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** A currency: an ISO 4217 code in use (GBP, EUR), not merely three capitals (QQQ). */
export const currencyCode = () =>
  z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as GBP')
    .refine((v) => currencies.has(v), { message: 'is not an ISO 4217 currency code' });

/** A month and day (MM-DD) on which a year can start. */
export const monthDay = () => z.string().refine(isMonthDay, { message: 'must be a month and day as MM-DD, for example 04-06' });

/** Optional text where an empty string or null clears the value (stored as null). */
export function clearableText(max: number) {
  return z
    .string()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
}

/** A postcode, stored as contact imports store it (readPostcode): a UK one upper case with one space before the inward code (ls11aa is LS1 1AA); '' or null clears it. */
export const clearablePostcode = () => clearableText(20).transform((v) => (v === null || v === undefined ? v : readPostcode(v)));

/**
 * A contact's VAT number, stored as contact imports and the organisation's
 * own store it: upper case without spaces, dots or hyphens (GB 980 7806 84
 * is GB980780684) when it has the form of one (readVatNumber: a UK or
 * another country's; HMRC judges the digits); other text as given.
 */
export const clearableVatNumber = () =>
  clearableText(20).transform((v) => {
    if (v === null || v === undefined) return v;
    try {
      return readVatNumber(v) ?? v;
    } catch {
      return v;
    }
  });

type Path = readonly PropertyKey[];

export function formatPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function valueAt(input: unknown, path: Path): unknown {
  let v: unknown = input;
  for (const part of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[part];
  }
  return v;
}

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function describeExpected(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'string':
      return 'a string';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return expected;
  }
}

function tooSmallOrBig(issue: z.core.$ZodIssue & { code: 'too_small' | 'too_big' }, field: string): string {
  const limit = issue.code === 'too_small' ? Number(issue.minimum) : Number(issue.maximum);
  const bound = issue.code === 'too_small' ? 'at least' : 'at most';
  switch (issue.origin) {
    case 'string':
      if (issue.code === 'too_small' && limit === 1) return `${field} must not be empty`;
      return `${field} must be ${bound} ${limit} characters`;
    case 'array':
      return `${field} must have ${bound} ${limit} item${limit === 1 ? '' : 's'}`;
    default: {
      const inclusive = issue.inclusive !== false;
      const word = issue.code === 'too_small' ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
      return `${field} must be ${word} ${limit}`;
    }
  }
}

/** The first problem of a failed parse, as the AppError the adapters send. */
export function toInputError(error: z.ZodError, input: unknown): AppError {
  const issue = error.issues[0];
  if (!issue) return new AppError('validation_error', 'invalid input');
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const field = formatPath(path);
  const name = field === '' ? 'body' : field;
  const fail = (code: ErrorCode, message: string) => new AppError(code, message, field === '' ? undefined : field);

  switch (issue.code) {
    case 'unrecognized_keys':
      return fail('validation_error', `${name} is not a field of this request`);
    case 'invalid_type': {
      const actual = valueAt(input, issue.path);
      if (actual === undefined || actual === null) return fail('validation_error', `${name} is required`);
      // JSON's 1e400 (or a query's) parses as Infinity: a number, but none zod takes ("must be a number, not number").
      if (typeof actual === 'number' && !Number.isFinite(actual)) return fail('validation_error', `${name} is out of range: not a finite number`);
      if (issue.expected === 'int' && typeof actual === 'number') return fail('validation_error', `${name} must be an integer`);
      return fail('invalid_type', `${name} must be ${describeExpected(issue.expected)}, not ${jsonType(actual)}`);
    }
    case 'invalid_format':
      if (issue.format === 'date') return fail('invalid_date', `${name} must be a date in YYYY-MM-DD format`);
      if (issue.format === 'email') return fail('validation_error', `${name} must be a valid email address`);
      // A message given with the check (.regex(re, 'must be …')) says more than zod's generic one.
      if (!issue.message.startsWith('Invalid')) return fail('validation_error', `${name} ${issue.message}`);
      return fail('validation_error', `${name} has an invalid format`);
    case 'invalid_value':
      return fail('validation_error', `${name} must be one of ${issue.values.map(String).join(', ')}`);
    case 'invalid_union': {
      // A field that takes one of several types, missing: as any other missing field, not zod's "Invalid input".
      const actual = valueAt(input, issue.path);
      if (actual === undefined || actual === null) return fail('validation_error', `${name} is required`);
      return fail('validation_error', `${name}: ${issue.message}`);
    }
    case 'too_small':
    case 'too_big':
      // A bound that states its own message (a money field's, in pounds) says it better than the limit as a bare number.
      if (!issue.message.startsWith('Too ')) return fail('validation_error', `${name} ${issue.message}`);
      return fail('validation_error', tooSmallOrBig(issue, name));
    case 'custom': {
      const code = (issue.params as { code?: ErrorCode } | undefined)?.code ?? 'validation_error';
      return fail(code, `${name} ${issue.message}`);
    }
    default:
      return fail('validation_error', `${name}: ${issue.message}`);
  }
}

/** Refuse a date range whose start is after its end, naming the two as the request does (`from` and `to` unless said). */
export function checkRange(from: string | undefined, to: string | undefined, [fromName, toName]: readonly [string, string] = ['from', 'to']): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw new AppError('validation_error', `${fromName} (${from}) is after ${toName} (${to})`, fromName);
  }
}

/** Parse `input` with `schema`, throwing the spec's error on failure. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw toInputError(result.error, input);
  return result.data;
}
