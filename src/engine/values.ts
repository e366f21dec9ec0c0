/**
 * Values stored in one form wherever they come from (a contact typed, an
 * import's cell, the organisation's details): UK postcodes as "SW1A 1AA",
 * VAT numbers without spaces. A reader returns null for an empty value and
 * throws a ValueProblem for text that cannot be the value.
 */

export class ValueProblem extends Error {}

const quote = (v: string): string => JSON.stringify(v);

/** What people type in a column they have nothing for. */
const placeholders = new Set(['-', '--', 'n/a', 'na', 'none', 'nil', 'not registered', 'not applicable', 'tbc']);

export const isPlaceholder = (text: string): boolean => placeholders.has(text.trim().toLowerCase());

/** UK postcodes in upper case with one space before the inward code; others upper-cased with single spaces. */
export function readPostcode(text: string): string | null {
  const compact = text.toUpperCase().replace(/\s+/g, '');
  if (compact === '') return null;
  if (/^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(compact)) return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  return text.toUpperCase().replace(/\s+/g, ' ').trim();
}

/** A UK VAT registration number: 9 or 12 digits, or a government department's GD or health authority's HA and 3 digits. */
export const ukVat = /^(GB|XI)?(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;
/** Another country's: its two-letter prefix and 2 to 13 letters, digits, + or *, at least one a digit. */
const foreignVat = /^[A-Z]{2}(?=[0-9A-Z+*]*\d)[0-9A-Z+*]{2,13}$/;

/**
 * A VAT number in upper case without spaces, dots or hyphens, its country
 * prefix as given (123 4567 89 stays 123456789, gb123456789 is
 * GB123456789). Only the form is checked: numbers in test data rarely pass
 * HMRC's check digits, and HMRC is the judge of them.
 */
export function readVatNumber(text: string): string | null {
  if (isPlaceholder(text)) return null;
  const v = text.toUpperCase().replace(/[\s.-]/g, '');
  if (v === '') return null;
  if (ukVat.test(v) || (foreignVat.test(v) && !/^(?:GB|XI)/.test(v))) return v;
  throw new ValueProblem(`${quote(text)} is not a VAT number`);
}
