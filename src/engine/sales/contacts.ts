/**
 * Contacts: customers and suppliers. What a contact is (its record and the
 * fields clients send), and the changes to one: create, partial update
 * (isActive reactivates), delete (deactivate instead when anything refers
 * to the contact), and a customer's invoicing summary. The operations are
 * declared in contact-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import { clearablePostcode, clearableText, clearableVatNumber, currencyCode, pence } from '../schema.js';
import { idOut, instant } from '../output.js';
import type { ContactsTable, OrgDb } from '../../store/tables.js';

export const contactTypes = ['customer', 'supplier', 'both'] as const;

export const contactSchema = z.strictObject({
  id: idOut('cont'),
  contactType: z.enum(contactTypes),
  name: z.string(),
  company: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string(),
  vatNumber: z.string().nullable(),
  companyNumber: z.string().nullable().describe('Companies House number'),
  paymentTerms: z.number().int().nullable().describe("days to pay; null: the organisation's default terms"),
  currency: z.string().describe('ISO 4217 code'),
  bankName: z.string().nullable(),
  bankSortCode: z.string().nullable(),
  bankAccount: z.string().nullable(),
  bankIban: z.string().nullable(),
  isActive: z.boolean(),
  notes: z.string().nullable(),
  createdAt: instant(),
  updatedAt: instant(),
});
export type Contact = z.output<typeof contactSchema>;

export function contactView(row: ContactsTable): Contact {
  return {
    id: row.id,
    contactType: row.contact_type,
    name: row.name,
    company: row.company,
    email: row.email,
    phone: row.phone,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    region: row.region,
    postalCode: row.postal_code,
    country: row.country,
    vatNumber: row.vat_number,
    companyNumber: row.company_number,
    paymentTerms: row.payment_terms,
    currency: row.currency,
    bankName: row.bank_name,
    bankSortCode: row.bank_sort_code,
    bankAccount: row.bank_account,
    bankIban: row.bank_iban,
    isActive: row.is_active === 1,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findContact(db: Kysely<OrgDb>, id: string): Promise<ContactsTable> {
  return found(db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst(), 'contact', id);
}

/** An email address, or '' / null to clear it. */
const email = () =>
  z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || z.email().safeParse(v).success, { message: 'must be a valid email address' })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** The fields a client may leave out of a new contact, or clear with null. */
export const optionalFields = {
  company: clearableText(200),
  email: email(),
  phone: clearableText(30),
  addressLine1: clearableText(255),
  addressLine2: clearableText(255),
  city: clearableText(100),
  region: clearableText(100),
  postalCode: clearablePostcode(),
  vatNumber: clearableVatNumber(),
  companyNumber: clearableText(20),
  paymentTerms: z.number().int().min(0).max(365).nullable().optional(),
  bankName: clearableText(100),
  bankSortCode: clearableText(20),
  bankAccount: clearableText(34),
  bankIban: clearableText(34),
  notes: clearableText(2000),
};

/** A new contact as clients send it. */
export const createFields = {
  contactType: z.enum(contactTypes),
  name: z.string().trim().min(1).max(200),
  ...optionalFields,
  country: z.string().trim().min(1).max(100).default('United Kingdom'),
  currency: currencyCode().default('GBP'),
};

type ContactInput = Partial<z.output<z.ZodObject<typeof createFields>>>;
export type NewContact = z.output<z.ZodObject<typeof createFields>>;
export type ContactChange = ContactInput & { readonly isActive?: boolean | undefined };

/** The columns a create or update input sets (fields left out are left out). */
function columnsOf(input: ContactInput): Partial<ContactsTable> {
  const emailValue = input.email;
  return {
    contact_type: input.contactType,
    name: input.name,
    company: input.company,
    email: emailValue,
    email_key: emailValue === undefined ? undefined : emailValue === null ? null : emailValue.toLowerCase(),
    phone: input.phone,
    address_line1: input.addressLine1,
    address_line2: input.addressLine2,
    city: input.city,
    region: input.region,
    postal_code: input.postalCode,
    country: input.country,
    vat_number: input.vatNumber,
    company_number: input.companyNumber,
    payment_terms: input.paymentTerms,
    currency: input.currency,
    bank_name: input.bankName,
    bank_sort_code: input.bankSortCode,
    bank_account: input.bankAccount,
    bank_iban: input.bankIban,
    notes: input.notes,
  };
}

/** One contact per email address (case ignored): 409 conflict naming the contact that has it. */
async function checkEmailFree(trx: Kysely<OrgDb>, emailKey: string | null | undefined, self?: string): Promise<void> {
  if (!emailKey) return;
  let q = trx.selectFrom('contacts').select(['id', 'name']).where('email_key', '=', emailKey);
  if (self) q = q.where('id', '!=', self);
  const other = await q.executeTakeFirst();
  if (other) throw new AppError('conflict', `email ${emailKey} is already used by contact ${other.id} (${other.name})`, 'email');
}

/** A new contact's optional columns, all empty. */
const nulls = {
  company: null,
  email: null,
  email_key: null,
  phone: null,
  address_line1: null,
  address_line2: null,
  city: null,
  region: null,
  postal_code: null,
  vat_number: null,
  company_number: null,
  payment_terms: null,
  bank_name: null,
  bank_sort_code: null,
  bank_account: null,
  bank_iban: null,
  notes: null,
} as const;

/** A new contact from the fields given, every other optional field empty, in the United Kingdom and sterling unless said. */
export function newContactInput(fields: Partial<NewContact> & Pick<NewContact, 'contactType' | 'name'>): NewContact {
  const empty = Object.fromEntries(Object.keys(optionalFields).map((k) => [k, null])) as Record<keyof typeof optionalFields, null>;
  return { ...empty, country: 'United Kingdom', currency: 'GBP', ...fields };
}

/** Add a contact: active, its email free. */
export async function insertContact(trx: Kysely<OrgDb>, clock: Clock, input: NewContact): Promise<ContactsTable> {
  const columns = columnsOf(input);
  await checkEmailFree(trx, columns.email_key);
  const now = timestamp(clock);
  const row: ContactsTable = {
    ...nulls,
    ...(Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)) as Partial<ContactsTable>),
    contact_type: input.contactType,
    name: input.name,
    country: input.country,
    currency: input.currency,
    id: newId('cont', clock.now()),
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('contacts').values(row).execute();
  return row;
}

/** Change the fields an input names; the contact before and after. Values it has already are no change: when nothing differs nothing is written, and updatedAt stays. */
export async function changeContact(
  trx: Kysely<OrgDb>,
  clock: Clock,
  id: string,
  input: ContactChange,
): Promise<{ before: ContactsTable; after: ContactsTable }> {
  const before = await findContact(trx, id);
  const columns = columnsOf(input);
  await checkEmailFree(trx, columns.email_key, id);
  if (input.contactType !== undefined && input.contactType !== before.contact_type) await checkOpenDocuments(trx, before, input.contactType);
  const sent: Partial<ContactsTable> = { ...columns, is_active: input.isActive === undefined ? undefined : input.isActive ? 1 : 0 };
  const changes = Object.fromEntries(Object.entries(sent).filter(([column, value]) => value !== undefined && value !== before[column as keyof ContactsTable]));
  if (Object.keys(changes).length === 0) return { before, after: before };
  await trx
    .updateTable('contacts')
    .set({ ...changes, updated_at: timestamp(clock) })
    .where('id', '=', id)
    .execute();
  return { before, after: await findContact(trx, id) };
}

/**
 * A contact with open invoices (not paid or void, drafts included) stays a
 * customer, one with open bills a supplier: the documents would otherwise
 * sit, and be chased in the aged reports, under a contact of the other kind.
 * 422 naming them; "both" is always open.
 */
async function checkOpenDocuments(trx: Kysely<OrgDb>, contact: ContactsTable, to: (typeof contactTypes)[number]): Promise<void> {
  if (to === 'both') return;
  const kind = to === 'supplier' ? 'sales' : 'purchase';
  const open = await trx
    .selectFrom('invoices')
    .select('number')
    .where('contact_id', '=', contact.id)
    .where('kind', '=', kind)
    .where('status', 'not in', ['paid', 'void'])
    .orderBy('number')
    .limit(4)
    .execute();
  if (open.length === 0) return;
  const what = kind === 'sales' ? 'invoice' : 'bill';
  const named =
    open
      .slice(0, 3)
      .map((r) => r.number ?? 'a draft')
      .join(', ') + (open.length > 3 ? ' and more' : '');
  throw new AppError(
    'unprocessable_entity',
    `contactType: ${contact.name} has open ${what}s (${named}): a contact with open ${what}s stays a ${kind === 'sales' ? 'customer' : 'supplier'}; make it both, or settle or void them first`,
    'contactType',
  );
}

/** What a contact changed, for contact.updated: the fields whose values differ. */
export function changedFields(before: ContactsTable, after: ContactsTable): string[] {
  const a: Record<string, unknown> = contactView(before);
  const b: Record<string, unknown> = contactView(after);
  return Object.keys(b).filter((k) => k !== 'updatedAt' && a[k] !== b[k]);
}

/** Whether anything refers to the contact: invoices, bills, quotes or ledger lines. */
async function isReferenced(trx: Kysely<OrgDb>, id: string): Promise<string | null> {
  if (await trx.selectFrom('invoices').select('id').where('contact_id', '=', id).limit(1).executeTakeFirst()) return 'invoices or bills';
  if (await trx.selectFrom('quotes').select('id').where('contact_id', '=', id).limit(1).executeTakeFirst()) return 'quotes';
  if (await trx.selectFrom('lines').select('id').where('contact_id', '=', id).limit(1).executeTakeFirst()) return 'transactions';
  return null;
}

export type Removed =
  | { readonly outcome: 'deleted' }
  /** `deactivated` is the row it became, or null when it was inactive already. */
  | { readonly outcome: 'kept'; readonly row: ContactsTable; readonly linked: string; readonly deactivated: ContactsTable | null };

/** Delete a contact nothing refers to; deactivate one that something does. */
export async function removeContact(trx: Kysely<OrgDb>, clock: Clock, id: string): Promise<Removed> {
  const row = await findContact(trx, id);
  const linked = await isReferenced(trx, id);
  if (linked === null) {
    await trx.deleteFrom('contacts').where('id', '=', id).execute();
    return { outcome: 'deleted' };
  }
  if (row.is_active === 0) return { outcome: 'kept', row, linked, deactivated: null };
  const now = timestamp(clock);
  await trx.updateTable('contacts').set({ is_active: 0, updated_at: now }).where('id', '=', id).execute();
  return { outcome: 'kept', row, linked, deactivated: { ...row, is_active: 0, updated_at: now } };
}

export const contactSummarySchema = z.strictObject({
  contact: contactSchema.pick({ id: true, contactType: true, name: true, company: true, email: true, phone: true, isActive: true }),
  summary: z.strictObject({
    totalInvoices: z.number().int().describe('sales invoices issued: sent, overdue or paid'),
    openInvoices: z.number().int().describe('sent or overdue'),
    totalInvoiced: pence(),
    totalCredited: pence().describe('the totals of issued credit notes'),
    unallocatedCredit: pence().describe('credit of issued credit notes not yet allocated or refunded'),
    outstanding: pence().describe('what open invoices still owe less unallocated credit; negative when the customer is owed money'),
  }),
});
export type ContactSummary = z.output<typeof contactSummarySchema>;

/** A contact's invoicing: issued sales invoices and credit notes (drafts and void ones left out). */
export async function contactSummary(db: Kysely<OrgDb>, id: string): Promise<ContactSummary> {
  const row = await findContact(db, id);
  const sums = await db
    .selectFrom('invoices')
    .where('kind', '=', 'sales')
    .where('contact_id', '=', id)
    .where('status', 'in', ['sent', 'overdue', 'paid'])
    .select((eb) => [
      eb.fn.countAll<number>().as('totalInvoices'),
      eb.fn.sum<number>(eb.case().when('status', 'in', ['sent', 'overdue']).then(1).else(0).end()).as('openInvoices'),
      eb.fn.sum<number>('total').as('totalInvoiced'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('status', 'in', ['sent', 'overdue'])
            .then(eb(eb('total', '-', eb.ref('amount_paid')), '-', eb.ref('amount_credited')))
            .else(0)
            .end(),
        )
        .as('due'),
    ])
    .executeTakeFirstOrThrow();
  const credits = await db
    .selectFrom('credit_notes')
    .where('kind', '=', 'sales')
    .where('contact_id', '=', id)
    .where('status', '=', 'issued')
    .select((eb) => [
      eb.fn.sum<number>('total').as('credited'),
      eb.fn.sum<number>(eb(eb('total', '-', eb.ref('allocated')), '-', eb.ref('refunded'))).as('unallocated'),
    ])
    .executeTakeFirstOrThrow();
  const unallocatedCredit = Number(credits.unallocated ?? 0);
  const view = contactView(row);
  return {
    contact: {
      id: view.id,
      contactType: view.contactType,
      name: view.name,
      company: view.company,
      email: view.email,
      phone: view.phone,
      isActive: view.isActive,
    },
    summary: {
      totalInvoices: Number(sums.totalInvoices),
      openInvoices: Number(sums.openInvoices ?? 0),
      totalInvoiced: Number(sums.totalInvoiced ?? 0),
      totalCredited: Number(credits.credited ?? 0),
      unallocatedCredit,
      outstanding: Number(sums.due ?? 0) - unallocatedCredit,
    },
  };
}
