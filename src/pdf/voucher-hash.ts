/**
 * A dividend voucher's verification hash: whoever holds a voucher can
 * recompute it from the particulars printed on it and see that none was
 * altered. It covers what the dividend is (who, how much, of what, by which
 * resolution), not its state, so the voucher issued on declaration and the
 * one marked PAID carry the same hash.
 */
import { createHash } from 'node:crypto';
import type { VoucherData } from './voucher-data.js';

export interface VoucherHashFields {
  readonly companyName: string;
  readonly companyNumber: string | null;
  /** DIV-0001 */
  readonly voucherNumber: string;
  readonly shareholderName: string;
  readonly shareClass: string;
  readonly sharesHeld: number;
  /** The gross dividend, pence. */
  readonly amountPence: number;
  /** YYYY-MM-DD */
  readonly declaredDate: string;
  readonly resolutionReference: string;
}

/** The fields in the order they are serialised: sorted by name, so the canonical form is plain to rebuild by hand. */
const canonicalKeys: readonly (keyof VoucherHashFields)[] = [
  'amountPence',
  'companyName',
  'companyNumber',
  'declaredDate',
  'resolutionReference',
  'shareClass',
  'shareholderName',
  'sharesHeld',
  'voucherNumber',
];

/**
 * The canonical JSON the hash is taken of: the listed fields only, keys
 * sorted, no spaces, text in Unicode NFC (a name typed with a combining
 * accent and one typed precomposed are the same name).
 */
export function voucherCanonicalJson(fields: VoucherHashFields): string {
  const picked = Object.fromEntries(canonicalKeys.map((key) => [key, canonicalValue(fields[key])]));
  return JSON.stringify(picked);
}

function canonicalValue(value: string | number | null): string | number | null {
  return typeof value === 'string' ? value.normalize('NFC') : value;
}

/** sha256 of the canonical JSON, its first 16 hex digits upper case in groups of four: "8F3A-01C2-77D4-E9B0". */
export function voucherHash(fields: VoucherHashFields): string {
  const hex = createHash('sha256').update(voucherCanonicalJson(fields), 'utf8').digest('hex').slice(0, 16).toUpperCase();
  return (hex.match(/.{4}/g) ?? []).join('-');
}

/** The hash printed on a voucher, of the particulars printed beside it. */
export function voucherDataHash(data: VoucherData): string {
  return voucherHash({
    companyName: data.company.name,
    companyNumber: data.company.companyNumber,
    voucherNumber: data.voucherNumber,
    shareholderName: data.shareholder.name,
    shareClass: data.shareClass,
    sharesHeld: data.sharesHeld,
    amountPence: data.amountPence,
    declaredDate: data.declaredDate,
    resolutionReference: data.resolution.reference,
  });
}
