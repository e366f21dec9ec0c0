/**
 * The organisation's own VAT registration number, checked as HMRC issues
 * them: 9 digits whose last two are check digits (modulus 97, or since
 * 2010 "mod 9755"), 12 with a branch number (the check is on the first 9),
 * or a government department's GD or health authority's HA and 3 digits
 * (no check digits: accepted by shape). A contact's VAT number is only
 * shaped (imports/contacts/contact-values.ts): it may be another
 * country's, and HMRC is the judge of it.
 */
import { checkedField, type Checked } from './checked-field.js';

/** Weights of the first seven digits; the eighth and ninth are the check digits. */
const weights = [8, 7, 6, 5, 4, 3, 2] as const;

/**
 * Whether the nine digits pass HMRC's check. The weighted sum of the first
 * seven, less 97 until it is negative, is minus the check digits (modulus
 * 97): the check digits are 97 − (sum mod 97). The newer numbers add 55 to
 * the sum first ("mod 9755"), and start at 100 000 000.
 *
 * Worked by hand:
 *   980 7806 84: 9·8 + 8·7 + 0·6 + 7·5 + 8·4 + 0·3 + 6·2 = 72+56+0+35+32+0+12 = 207;
 *                207 mod 97 = 13, 97 − 13 = 84: valid (modulus 97).
 *   123 4567 82: 1·8 + 2·7 + 3·6 + 4·5 + 5·4 + 6·3 + 7·2 = 8+14+18+20+20+18+14 = 112;
 *                112 mod 97 = 15, 97 − 15 = 82: valid (modulus 97).
 *   123 4567 27: 112 + 55 = 167, 167 mod 97 = 70, 97 − 70 = 27: valid (mod 9755).
 *   123 4567 89: neither 82 nor 27: invalid.
 *   012 3456 20: 0+7+12+15+16+15+12 = 77, 97 − 77 = 20: valid (modulus 97).
 *   012 3456 62: 77 + 55 = 132, 132 mod 97 = 35, 97 − 35 = 62; but mod 9755
 *                numbers start at 100 000 000: invalid.
 */
export function passesCheckDigits(nine: string): boolean {
  const digits = [...nine].map(Number);
  const sum = weights.reduce((total, w, i) => total + w * (digits[i] ?? 0), 0);
  const check = Number(nine.slice(7, 9));
  if (check === 97 - (sum % 97)) return true;
  return Number(nine.slice(0, 3)) >= 100 && check === 97 - ((sum + 55) % 97);
}

const shape = /^(GB|XI)?(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;
const shapeProblem = 'must be a UK VAT number: 9 digits (12 with a branch number), optionally after GB, such as GB 980 7806 84';

/**
 * A UK VAT number as stored: upper case, without spaces, dots or hyphens,
 * with its prefix (GB when none is given; XI, Northern Ireland's, is kept).
 * The problem, phrased to follow the field's name, when it is not one.
 */
export function checkVatNumber(text: string): Checked {
  const compact = text.toUpperCase().replace(/[\s.-]/g, '');
  const m = shape.exec(compact);
  if (!m) return { problem: shapeProblem };
  const prefix = m[1] ?? 'GB';
  const number = m[2] as string;
  if (number.startsWith('GD') && Number(number.slice(2)) >= 500) return { problem: 'must be GD and 000 to 499 for a government department' };
  if (number.startsWith('HA') && Number(number.slice(2)) < 500) return { problem: 'must be HA and 500 to 999 for a health authority' };
  if (/^\d/.test(number) && !passesCheckDigits(number.slice(0, 9))) {
    return { problem: `fails HMRC's check digits (${prefix}${number}): is a digit mistyped?` };
  }
  return { value: `${prefix}${number}` };
}

/** The vatNumber field of an organisation's profile: checked and stored compact; an empty string or null clears it. */
export const vatNumberField = () =>
  checkedField(checkVatNumber, 'a UK VAT number (GB 980 7806 84): HMRC check digits verified, stored without spaces as GB980780684');
