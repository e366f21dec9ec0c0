/**
 * What the help of a generated flag says, read from its field's JSON
 * Schema: a placeholder naming the format (`<date>`, `<pounds>`, `<n>`,
 * `<email>`, `<code|id>`), then the field's description (or its name in
 * words), the format, the bounds, the default, and an example value
 * (the schema's own `examples`, else one made from the type, the format
 * or the field's name).
 */
import { formatPounds } from '../engine/money.js';
import type { JsonSchema } from '../engine/input.js';
import { dateHelp, isDateProp } from './date-flags.js';
import { naturalKeyHelp } from './references.js';
import { withoutPence } from './money-columns.js';

export interface FlagDoc {
  /** `<date>`, `<pounds>`, …; empty for a boolean flag. */
  readonly placeholder: string;
  readonly description: string;
  /** A value the flag takes, as typed on the command line; null when none can be made. */
  readonly example: string | null;
  /** The values an enum flag takes (for completion); empty otherwise. */
  readonly values: readonly string[];
}

/** The alternatives of a nullable or union property, and itself, as one list. */
const variants = (prop: JsonSchema): JsonSchema[] => [prop, ...(prop.anyOf ?? []).flatMap(variants)];

/** The first value of a keyword across a property and its alternatives. */
function keyword<T>(prop: JsonSchema, key: string, is: (v: unknown) => v is T): T | undefined {
  for (const v of variants(prop)) if (is(v[key])) return v[key];
  return undefined;
}

const isNumber = (v: unknown): v is number => typeof v === 'number';
const isString = (v: unknown): v is string => typeof v === 'string';
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);

/** Bounds as large as an integer type's own say nothing to a reader. */
const meaningful = (n: number | undefined): n is number => n !== undefined && Math.abs(n) < 2_000_000_000;

/** A record's natural key as a placeholder word, by the prefix of its ids. */
const keyWords: Readonly<Record<string, { word: string; example: string }>> = {
  acc: { word: 'code', example: '4000' },
  cont: { word: 'name', example: '"Bob Ltd"' },
  dir: { word: 'name', example: '"Jo Bloggs"' },
  inv: { word: 'number', example: 'INV-0001' },
  bill: { word: 'number', example: 'PT-77' },
  cn: { word: 'number', example: 'CN-0001' },
  scn: { word: 'number', example: 'SCN-12' },
  quo: { word: 'number', example: 'QT-0001' },
};

/**
 * Examples of the plain text and number fields, by field name: what such a
 * field holds in the books of a small UK business. A field with its own
 * `examples` in its schema does not need one here.
 */
const fieldExamples: Readonly<Record<string, string>> = {
  name: '"Acme Ltd"',
  fullName: '"Jo Bloggs"',
  company: '"Bob Ltd"',
  holderName: '"Acme Ltd"',
  accountName: '"Business Current Account"',
  bankName: 'Starling',
  description: '"Office chairs"',
  notes: '"Thank you for your business"',
  terms: '"Valid for 30 days"',
  reason: '"Returned goods"',
  reference: 'PO-1234',
  search: 'chairs',
  currency: 'GBP',
  country: '"United Kingdom"',
  phone: '"020 7946 0000"',
  website: 'https://acme.example',
  vatNumber: '"GB 980 7806 84"',
  companyNumber: '12345678',
  addressLine1: '"1 High Street"',
  addressLine2: '"Unit 4"',
  city: 'London',
  region: '"Greater London"',
  postalCode: '"SW1A 1AA"',
  address: '"1 High Street, London SW1A 1AA"',
  code: '5100',
  fiscalYearStart: '04-01',
  taxYear: '2025/26',
  invoicePrefix: 'INV-',
  quotePrefix: 'QU-',
  creditNotePrefix: 'CN-',
  billNumber: 'PT-77',
  creditNoteNumber: 'SCN-12',
  sortCode: '60-83-71',
  bankSortCode: '60-83-71',
  accountNumber: '12345678',
  bankAccount: '12345678',
  iban: 'GB33BUKB20201555555555',
  bankIban: 'GB33BUKB20201555555555',
  shareClass: 'Ordinary',
  source: 'Xero',
  filename: 'statement.csv',
  contactName: '"Bob Ltd"',
  value: 'Amazon',
  cursor: 'eyJkIjoi…',
  url: 'https://example.com/hooks',
  limit: '50',
  page: '2',
  status: '404',
  defaultPaymentTerms: '30',
  paymentTerms: '30',
  dueDays: '30',
  quoteValidityDays: '30',
  vatPeriodMonth: '3',
  invoiceNextNumber: '100',
  quoteNextNumber: '100',
  creditNoteNextNumber: '100',
  defaultVatRate: '20',
  vatRate: '20',
  vatFlatRatePercent: '12.5',
  priority: '10',
  sharesHeld: '100',
  bankAccountId: '1',
  scopes: 'reports:read,invoices:write',
  accountType: 'expense',
  controlType: 'bank',
  parentId: 'acc_…',
  rows: '1,2,5',
  deliveryIds: '0b6c8f0e-6f4e-4d0a-9a57-5f1e2d3c4b5a',
  contacts: '"$(cat contacts.csv)"',
  invoices: '"$(cat invoices.csv)"',
  bills: '"$(cat bills.csv)"',
};

/** Words for common fields whose schema has no description, where the field's name in words says too little. */
const fieldDescriptions: Readonly<Record<string, string>> = {
  from: 'first day',
  fromDate: 'first day',
  to: 'last day',
  toDate: 'last day',
  asOf: 'the day the figures are at',
  asOfDate: 'the day the figures are at',
  page: 'the page to show (a list shows every page unless --page, or --limit or --per-page, is given)',
  perPage: 'rows a page',
  limit: 'rows a page',
  sort: 'the field to sort by, - before it for descending',
  search: 'text to look for',
  scopes: 'the scopes the key grants (acct keys scopes lists them)',
  currency: 'ISO 4217 currency code',
  contacts: 'the contacts export, as CSV text',
  invoices: 'the outstanding invoices export, as CSV text',
  bills: 'the outstanding bills export, as CSV text',
  rows: 'row ids, as the id column of acct bank-imports get shows them (not rowIndex)',
};

/** The example of a money field, in pounds as the flag takes it. */
const poundsExample = '1,250.00';

/** A field's name in words: `addressLine1` → "address line 1". */
export const fieldWords = (field: string): string =>
  field
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .toLowerCase();

/** Where a range opens, a first day makes the better example. */
const opensRange = (field: string): boolean => /^(from|start|periodStart)/.test(field);

function exampleOf(field: string, prop: JsonSchema, pounds: boolean, enumValues: readonly string[]): string | null {
  const own = keyword(prop, 'examples', isArray)?.[0] ?? keyword(prop, 'example', (v): v is unknown => v !== undefined);
  if (own !== undefined) return pounds && typeof own === 'number' ? formatPounds(own) : typeof own === 'string' ? own : JSON.stringify(own);
  if (pounds) return poundsExample;
  if (isDateProp(prop)) return opensRange(field) ? '2026-04-01' : '2026-03-31';
  if (enumValues.length > 0) return enumValues[0] ?? null;
  const prefix = keyword(prop, 'x-id-prefix', isString);
  if (prefix !== undefined) return keyWords[prefix]?.example ?? `${prefix}_…`;
  const items = keyword(prop, 'items', (v): v is JsonSchema => typeof v === 'object' && v !== null);
  if (items) {
    const itemEnum = variants(items).flatMap((v) => (v.enum ?? []).map(String));
    if (itemEnum.length > 0) return itemEnum.slice(0, 2).join(',');
    const itemPrefix = keyword(items, 'x-id-prefix', isString);
    if (itemPrefix !== undefined) {
      const key = keyWords[itemPrefix];
      if (itemPrefix === 'dir') return '"Jo Bloggs,Sam Smith"';
      return key && itemPrefix !== 'cont'
        ? `${key.example},${key.example.replace(/\d$/, (d) => String((Number(d) + 1) % 10))}`
        : `${itemPrefix}_…,${itemPrefix}_…`;
    }
  }
  const format = keyword(prop, 'format', isString);
  if (format === 'email' || field === 'email') return 'jo@example.com';
  if (format === 'uri') return 'http://127.0.0.1:8765/callback';
  const named = fieldExamples[field];
  if (named !== undefined) return named;
  const fallback = prop.default;
  if (typeof fallback === 'string' || typeof fallback === 'number') return String(fallback);
  return null;
}

/** Placeholders of text fields with a format of their own. */
const fieldPlaceholders: Readonly<Record<string, string>> = { currency: 'code', fiscalYearStart: 'MM-DD', taxYear: 'YYYY/YY' };

function placeholderOf(field: string, prop: JsonSchema, types: Set<string>, pounds: boolean, enumValues: readonly string[]): string {
  if (types.has('boolean')) return '';
  const own = fieldPlaceholders[field];
  if (own !== undefined) return own;
  if (pounds) return 'pounds';
  if (isDateProp(prop)) return 'date';
  const prefix = keyword(prop, 'x-id-prefix', isString);
  if (prefix !== undefined) return keyWords[prefix] ? `${keyWords[prefix].word}|id` : 'id';
  if (enumValues.length > 0) return enumValues.join('|').length <= 30 ? enumValues.join('|') : 'choice';
  if (types.has('array')) return 'list';
  const format = keyword(prop, 'format', isString);
  if (format === 'email' || field === 'email') return 'email';
  if (format === 'uri' || field === 'url' || field === 'website') return 'url';
  if (types.has('integer') || types.has('number')) return 'n';
  return 'text';
}

/** The format and bounds of a field, in words. */
function formatWords(field: string, prop: JsonSchema, types: Set<string>, pounds: boolean, enumValues: readonly string[]): string[] {
  const words: string[] = [];
  if (isDateProp(prop)) words.push(dateHelp(field));
  const key = naturalKeyHelp(prop);
  if (key !== null) words.push(key);
  const itemKey = types.has('array') ? naturalKeyHelp(prop.items) : null;
  if (itemKey !== null) words.push(`each: ${itemKey}`);
  const itemsEnum = types.has('array') ? variants(prop.items ?? {}).flatMap((v) => (v.enum ?? []).map(String)) : [];
  if (types.has('boolean')) words.push('true or false (the flag alone: true)');
  else if (pounds) words.push('in pounds');
  else if (enumValues.length > 0) words.push(`one of ${enumValues.join(', ')}`);
  else if (types.has('array')) words.push(itemsEnum.length > 0 ? `comma-separated list of ${itemsEnum.join(', ')}` : 'comma-separated list');
  else if (types.has('integer')) words.push('whole number');
  else if (types.has('number')) words.push('number');
  else if (keyword(prop, 'format', isString) === 'email' || field === 'email') words.push('e-mail address');
  if (!pounds) {
    const min = keyword(prop, 'minimum', isNumber);
    const max = keyword(prop, 'maximum', isNumber);
    const above = keyword(prop, 'exclusiveMinimum', isNumber);
    if (meaningful(min) && meaningful(max)) words.push(`${min} to ${max}`);
    else if (meaningful(above) && meaningful(max)) words.push(`more than ${above}, at most ${max}`);
    else if (meaningful(min)) words.push(`at least ${min}`);
    else if (meaningful(max)) words.push(`at most ${max}`);
  }
  const maxLength = keyword(prop, 'maxLength', isNumber);
  if (maxLength !== undefined && types.has('string') && enumValues.length === 0 && !isDateProp(prop)) words.push(`up to ${maxLength} characters`);
  const maxItems = keyword(prop, 'maxItems', isNumber);
  if (maxItems !== undefined) words.push(`up to ${maxItems} items`);
  if (types.has('null')) words.push('null clears it');
  return words;
}

/** The help of the flag of `field`, whose property is `prop` (`types` its JSON types; `pounds` a money field). */

export function flagDoc(field: string, prop: JsonSchema, types: Set<string>, pounds: boolean): FlagDoc {
  const enumValues = variants(prop).flatMap((v) => (v.enum ?? []).filter((e) => e !== null).map(String));
  // A boolean flag alone means true; its example is the other value when true is the default.
  const example = types.has('boolean') ? (prop.default === true ? 'false' : 'true') : exampleOf(field, prop, pounds, enumValues);
  // Its words leave a pounds field's unit out ("gross dividend", not "gross dividend pence").
  const words = [
    prop.description ?? fieldDescriptions[field] ?? fieldWords(withoutPence(field, pounds)),
    ...formatWords(field, prop, types, pounds, enumValues),
  ];
  if (prop.default !== undefined)
    words.push(`default ${pounds && typeof prop.default === 'number' ? formatPounds(prop.default) : JSON.stringify(prop.default)}`);
  if (example !== null) words.push(`e.g. ${example}`);
  return { placeholder: placeholderOf(field, prop, types, pounds, enumValues), description: words.join('; '), example, values: enumValues };
}
