/**
 * What the rows merged into a contact change: the contact's blank fields
 * take the rows' values, its own values are never overwritten, and its type
 * widens (a customer that the file says is a supplier becomes both).
 *
 * A field the import compares (e-mail, phone, postcode, VAT and company
 * numbers) is filled only when the rows that have it agree: a contact in the
 * books without a phone may be the exact duplicate of two rows with
 * different phones, and taking either phone would make the other row a
 * stranger to the contact when the file is imported again. Other fields
 * take the first row's value.
 */
import { companyIdentity, phoneDigits, readPostcode, vatIdentity, type ContactType } from './contact-values.js';
import type { ContactRow } from './read-contacts.js';

/** The fields rows can fill. */
export const mergeableFields = [
  'company',
  'email',
  'phone',
  'addressLine1',
  'addressLine2',
  'city',
  'region',
  'postalCode',
  'country',
  'vatNumber',
  'companyNumber',
  'paymentTerms',
] as const;
type MergeableField = (typeof mergeableFields)[number];

/** How the identity rules compare each field they compare. */
const comparedAs: Partial<Record<MergeableField, (value: string) => string | null>> = {
  email: (v) => v.toLowerCase(),
  phone: (v) => phoneDigits(v) ?? v,
  postalCode: (v) => readPostcode(v)?.replace(/ /g, '') ?? null,
  vatNumber: (v) => vatIdentity(v) ?? v,
  companyNumber: (v) => companyIdentity(v) ?? v,
};

/**
 * A contact as a merge sees it: one in the books, or one being built from
 * the rows of a group. A field left out or '' counts as blank; a null type
 * is unknown.
 */
export type ContactRowLike = { readonly [F in MergeableField]?: ContactRow[F] | '' } & { readonly contactType?: ContactType | null };

export type MergedFields = { -readonly [F in MergeableField]?: NonNullable<ContactRow[F]> } & { contactType?: ContactType };

/**
 * The fields to set on `existing` so that it takes what the incoming rows
 * add: one row, or all the rows that merge into it, in file order (pass
 * the rows whose decision has useEmail false with email null).
 */
export function mergedFields(existing: ContactRowLike, incoming: ContactRow | readonly ContactRow[]): MergedFields {
  const rows: readonly ContactRow[] = Array.isArray(incoming) ? incoming : [incoming as ContactRow];
  const set: Record<string, unknown> = {};
  for (const field of mergeableFields) {
    const had = existing[field];
    if (had !== undefined && had !== null && had !== '') continue;
    const values = rows.map((r) => r[field]).filter((v) => v !== null);
    const compare = comparedAs[field];
    const agreed = compare === undefined || new Set(values.map((v) => compare(String(v)))).size === 1;
    if (values.length > 0 && agreed) set[field] = values[0];
  }
  const type = rows.reduce<ContactType | null>((t, r) => widened(t, r.contactType), existing.contactType ?? null);
  if (type !== null && type !== existing.contactType) set.contactType = type;
  return set;
}

function widened(a: ContactType | null, b: ContactType | null): ContactType | null {
  if (a === null || b === null || a === b) return a ?? b;
  return 'both';
}
