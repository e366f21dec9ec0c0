/**
 * The values of a contact as exports write them, in the one form the import
 * compares and stores: e-mail addresses in lower case, UK postcodes as
 * "SW1A 1AA", VAT and company numbers without spaces. Each reader returns
 * null for an empty cell and throws a ValueProblem (caught by the row
 * reader, which rejects the row) for text that cannot be the value.
 */
import { z } from 'zod';
import { checkCompanyNumber } from '../../organisation/company-number.js';
import { isPlaceholder, readPostcode, readVatNumber, ukVat, ValueProblem } from '../../values.js';

export { readPostcode, readVatNumber, ValueProblem };

const quote = (v: string): string => JSON.stringify(v);

/** One e-mail address in lower case. */
export function readEmail(text: string): string | null {
  const v = text.trim().toLowerCase();
  if (v === '') return null;
  if (v.length > 254 || !z.email().safeParse(v).success) throw new ValueProblem(`${quote(text)} is not an e-mail address`);
  return v;
}

/** The domain of an e-mail address. */
export const emailDomain = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

/**
 * A VAT number as an identity: a UK number always with GB, so that
 * 123456789, GB 123 4567 89 and XI123456789 (the Northern Ireland prefix of
 * the same registration) are one; null when the text is not a VAT number.
 */
export function vatIdentity(vatNumber: string | null): string | null {
  if (vatNumber === null) return null;
  let v: string;
  try {
    v = readVatNumber(vatNumber) ?? '';
  } catch {
    return null;
  }
  const uk = ukVat.exec(v);
  if (uk) return `GB${uk[2] as string}`;
  return v === '' ? null : v;
}

/** A Companies House number, as the organisation's is checked (organisation/company-number.ts): 1234567 → 01234567, SC12345 → SC012345. */
export function readCompanyNumber(text: string): string | null {
  if (isPlaceholder(text) || text.replace(/[\s.-]/g, '') === '') return null;
  const checked = checkCompanyNumber(text);
  if ('value' in checked) return checked.value;
  throw new ValueProblem(`${quote(text)} is not a company number (8 digits, or 2 letters and 6 digits)`);
}

/** A company number as an identity, or null when the text is not one. */
export function companyIdentity(companyNumber: string | null): string | null {
  if (companyNumber === null) return null;
  try {
    return readCompanyNumber(companyNumber);
  } catch {
    return null;
  }
}

/** A telephone number's digits as dialled inside the UK (+44 (0)20 7946 0000 → 02079460000), or null with fewer than 6. */
export function phoneDigits(phone: string | null): string | null {
  if (phone === null) return null;
  const international = /^\s*(\+|00)\s*44/.test(phone);
  let d = phone.replace(/\(0\)/g, '').replace(/\D/g, '');
  if (international) d = `0${d.replace(/^(00)?44/, '')}`;
  return d.length >= 6 ? d : null;
}

export const maxPaymentTerms = 365;

/** Payment terms in days: 30, "Net 30", "30 days", "Due on receipt" (0). */
export function readPaymentTerms(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  let days: number;
  const m = /^(?:net\s*)?(\d+)(?:\s*days?)?$/.exec(t);
  if (m) days = Number(m[1]);
  else if (/^(?:due\s+)?(?:on|upon)\s+receipt$|^immediate(?:ly)?$/.test(t)) days = 0;
  else throw new ValueProblem(`payment terms ${quote(text)} are not a number of days`);
  if (days > maxPaymentTerms) throw new ValueProblem(`payment terms of ${days} days are not 0 to ${maxPaymentTerms} days`);
  return days;
}

export type ContactType = 'customer' | 'supplier' | 'both';

/** A contact type as exports name it: customer (client), supplier (vendor), both, or a mix of the two words. */
export function readContactType(text: string): ContactType | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (t === 'both') return 'both';
  const customer = /\b(?:customers?|clients?)\b/.test(t);
  const supplier = /\b(?:suppliers?|vendors?)\b/.test(t);
  if (customer && supplier) return 'both';
  if (customer) return 'customer';
  if (supplier) return 'supplier';
  throw new ValueProblem(`contact type ${quote(text)} is not customer, supplier or both`);
}

/** A Yes/No cell (Xero's IsCustomer, IsSupplier): true, false, or null when empty. */
export function readYesNo(text: string, column: string): boolean | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (['yes', 'y', 'true', '1'].includes(t)) return true;
  if (['no', 'n', 'false', '0'].includes(t)) return false;
  throw new ValueProblem(`${column} ${quote(text)} is not Yes or No`);
}

/** The type Xero's two flags make; null when neither is set. */
export function typeOfFlags(isCustomer: boolean | null, isSupplier: boolean | null): ContactType | null {
  if (isCustomer === true && isSupplier === true) return 'both';
  if (isCustomer === true) return 'customer';
  if (isSupplier === true) return 'supplier';
  return null;
}
