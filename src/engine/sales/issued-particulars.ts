/**
 * The seller and the customer as a sales invoice or credit note prints them,
 * kept on the document when it is issued (sent or marked sent, brought
 * forward by a migration, a credit note made): a copy printed later is the
 * document as issued, whatever the organisation profile or the contact say
 * since. A draft prints them as they are now, and so does a document issued
 * before they were kept (migration 0035).
 */
import type { Kysely } from 'kysely';
import { loadOrganisation } from '../organisation/organisation.js';
import { findContact } from './contacts.js';
import { customerFields, sellerFields, type IssuedParticulars } from '../../pdf/invoice-data.js';
import type { OrgDb } from '../../store/tables.js';

function pick<T, K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;
}

/** The organisation's and the contact's particulars as they stand. */
async function particularsNow(db: Kysely<OrgDb>, contactId: string): Promise<IssuedParticulars> {
  const [organisation, contact] = await Promise.all([loadOrganisation(db), findContact(db, contactId)]);
  return { seller: pick(organisation, sellerFields), customer: pick(contact, customerFields) };
}

/** The particulars to keep on a document being issued to the contact, as its issued_particulars. */
export async function particularsToKeep(db: Kysely<OrgDb>, contactId: string): Promise<string> {
  return JSON.stringify(await particularsNow(db, contactId));
}

/** What a document prints: the particulars kept when it was issued, else (a draft, or one issued before they were kept) as they stand. */
export async function particularsOf(
  db: Kysely<OrgDb>,
  row: { readonly contact_id: string; readonly issued_particulars: string | null },
): Promise<IssuedParticulars> {
  if (row.issued_particulars === null) return particularsNow(db, row.contact_id);
  const kept = JSON.parse(row.issued_particulars) as IssuedParticulars;
  return { seller: pick(kept.seller, sellerFields), customer: pick(kept.customer, customerFields) };
}
