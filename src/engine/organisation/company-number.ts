/**
 * A Companies House registration number: eight characters, either eight
 * digits (England and Wales) or a two-letter prefix and six digits (SC
 * Scotland, NI Northern Ireland, OC and SO limited liability partnerships,
 * NC, LP, FC …), or R and seven digits (old Northern Ireland numbers, R0…).
 * Prefixes are taken by shape: Companies House adds them over time.
 */
import { checkedField, type Checked } from './checked-field.js';

const problem = 'must be 8 characters: 8 digits (a shorter number is padded with zeros), or 2 letters such as SC and 6 digits';

/**
 * The number as stored: upper case, without spaces, dots or hyphens;
 * digits padded with leading zeros to eight as Companies House writes them
 * (1234567 is 01234567, SC12345 is SC012345).
 */
export function checkCompanyNumber(text: string): Checked {
  const v = text.toUpperCase().replace(/[\s.-]/g, '');
  if (/^\d{1,8}$/.test(v)) return /^0+$/.test(v) ? { problem } : { value: v.padStart(8, '0') };
  const prefixed = /^([A-Z]{2})(\d{1,6})$/.exec(v);
  if (prefixed) return { value: `${prefixed[1] as string}${(prefixed[2] as string).padStart(6, '0')}` };
  if (/^R\d{7}$/.test(v)) return { value: v };
  return { problem };
}

/** The companyNumber field of an organisation's profile: checked and stored as 8 characters; an empty string or null clears it. */
export const companyNumberField = () =>
  checkedField(
    checkCompanyNumber,
    'a Companies House number (8 digits, or 2 letters and 6 digits such as SC012345); a shorter all-digit number is padded with zeros',
  );
