/**
 * Contacts: customers and suppliers. Create, read, list, partial update
 * (isActive reactivates), delete (deactivates instead when anything refers
 * to the contact), and a customer's invoicing summary.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { AppError, notFound } from '../errors.js';
import { emit } from '../events.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { clearableText, idOf, searchText } from '../schema.js';
import { containsText } from '../search.js';
import { pageMeta, pageOffset, pageQuery, sortQuery } from '../pagination.js';
import type { ContactsTable, OrgDb } from '../../store/tables.js';

export const contactTypes = ['customer', 'supplier', 'both'] as const;

export function contactView(row: ContactsTable) {
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
  const row = await db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('contact', id);
  return row;
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

const optionalFields = {
  company: clearableText(200),
  email: email(),
  phone: clearableText(30),
  addressLine1: clearableText(255),
  addressLine2: clearableText(255),
  city: clearableText(100),
  region: clearableText(100),
  postalCode: clearableText(20),
  vatNumber: clearableText(20),
  paymentTerms: z.number().int().min(0).max(365).nullable().optional(),
  bankName: clearableText(100),
  bankSortCode: clearableText(20),
  bankAccount: clearableText(34),
  bankIban: clearableText(34),
  notes: clearableText(2000),
};

const createFields = {
  contactType: z.enum(contactTypes),
  name: z.string().trim().min(1).max(200),
  ...optionalFields,
  country: z.string().trim().min(1).max(100).default('United Kingdom'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as GBP')
    .default('GBP'),
};

type ContactInput = Partial<z.output<z.ZodObject<typeof createFields>>>;

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
  payment_terms: null,
  bank_name: null,
  bank_sort_code: null,
  bank_account: null,
  bank_iban: null,
  notes: null,
} as const;

const contactParams = { id: idOf('cont') };

export const createContact = defineOperation({
  name: 'contacts.create',
  summary: 'Add a customer or supplier',
  description: 'country defaults to United Kingdom and currency to GBP; paymentTerms (days) left out means the organisation default.',
  access: 'contacts:write',
  method: 'POST',
  path: '/contacts',
  status: 201,
  body: createFields,
  async run(ctx, input) {
    const row = await orgOf(ctx).write(async (trx) => {
      const columns = columnsOf(input);
      await checkEmailFree(trx, columns.email_key);
      const now = timestamp(ctx.clock);
      const row: ContactsTable = {
        ...nulls,
        ...(Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)) as Partial<ContactsTable>),
        contact_type: input.contactType,
        name: input.name,
        country: input.country,
        currency: input.currency,
        id: newId('cont', ctx.clock.now()),
        is_active: 1,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('contacts').values(row).execute();
      await emit(trx, ctx.clock, 'contact.created', contactView(row));
      return row;
    });
    return { data: contactView(row) };
  },
});

export const getContact = defineOperation({
  name: 'contacts.get',
  summary: 'Show a contact',
  access: 'contacts:read',
  method: 'GET',
  path: '/contacts/{id}',
  params: contactParams,
  async run(ctx, input) {
    return { data: contactView(await findContact(orgOf(ctx).db, input.id)) };
  },
});

export const listContacts = defineOperation({
  name: 'contacts.list',
  summary: 'List contacts: active ones unless active=false; type customer or supplier includes both',
  access: 'contacts:read',
  method: 'GET',
  path: '/contacts',
  query: {
    type: z.enum(contactTypes).optional(),
    search: searchText().optional(),
    active: z.boolean().default(true),
    ...pageQuery(50),
    ...sortQuery(['createdAt', 'name']),
  },
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('contacts').where('is_active', '=', input.active ? 1 : 0);
    if (input.type === 'both') q = q.where('contact_type', '=', 'both');
    else if (input.type) q = q.where('contact_type', 'in', [input.type, 'both']);
    const { search } = input;
    if (search) q = q.where((eb) => containsText(eb, ['name', 'company', 'email'], search));
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const column = input.sort.field === 'name' ? 'name' : 'created_at';
    const rows = await q
      .selectAll()
      .orderBy(column, input.sort.direction)
      .orderBy('id', input.sort.direction)
      .limit(input.limit)
      .offset(pageOffset(input.page, input.limit))
      .execute();
    return { data: rows.map(contactView), meta: pageMeta(Number(total), input.page, input.limit) };
  },
});

/** What a contact changed, for contact.updated: the fields whose values differ. */
function changedFields(before: ContactsTable, after: ContactsTable): string[] {
  const a = contactView(before) as Record<string, unknown>;
  const b = contactView(after) as Record<string, unknown>;
  return Object.keys(b).filter((k) => k !== 'updatedAt' && a[k] !== b[k]);
}

export const updateContact = defineOperation({
  name: 'contacts.update',
  summary: 'Change a contact (partial: fields left out stay as they are); isActive true reactivates it',
  access: 'contacts:write',
  method: 'PUT',
  path: '/contacts/{id}',
  params: contactParams,
  body: {
    contactType: createFields.contactType.optional(),
    name: createFields.name.optional(),
    ...optionalFields,
    country: z.string().trim().min(1).max(100).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as GBP')
      .optional(),
    isActive: z.boolean().optional(),
  },
  async run(ctx, input) {
    const row = await orgOf(ctx).write(async (trx) => {
      const before = await findContact(trx, input.id);
      const columns = columnsOf(input);
      await checkEmailFree(trx, columns.email_key, input.id);
      const changes: Partial<ContactsTable> = {
        ...columns,
        is_active: input.isActive === undefined ? undefined : input.isActive ? 1 : 0,
        updated_at: timestamp(ctx.clock),
      };
      await trx.updateTable('contacts').set(changes).where('id', '=', input.id).execute();
      const after = await findContact(trx, input.id);
      const changed = changedFields(before, after);
      if (changed.length > 0) await emit(trx, ctx.clock, 'contact.updated', { ...contactView(after), changedFields: changed });
      return after;
    });
    return { data: { id: row.id, updatedAt: row.updated_at } };
  },
});

/** Whether anything refers to the contact: invoices, bills, quotes or ledger lines. */
async function isReferenced(trx: Kysely<OrgDb>, id: string): Promise<string | null> {
  if (await trx.selectFrom('invoices').select('id').where('contact_id', '=', id).limit(1).executeTakeFirst()) return 'invoices or bills';
  if (await trx.selectFrom('quotes').select('id').where('contact_id', '=', id).limit(1).executeTakeFirst()) return 'quotes';
  if (await trx.selectFrom('lines').select('id').where('contact_id', '=', id).limit(1).executeTakeFirst()) return 'transactions';
  return null;
}

export const deleteContact = defineOperation({
  name: 'contacts.delete',
  summary: 'Delete a contact; one with invoices, bills, quotes or transactions is deactivated instead',
  access: 'contacts:write',
  method: 'DELETE',
  path: '/contacts/{id}',
  params: contactParams,
  async run(ctx, input) {
    return orgOf(ctx).write(async (trx) => {
      const row = await findContact(trx, input.id);
      const linked = await isReferenced(trx, input.id);
      if (linked === null) {
        await trx.deleteFrom('contacts').where('id', '=', input.id).execute();
        return { data: { id: input.id, deleted: true } };
      }
      if (row.is_active === 1) {
        const now = timestamp(ctx.clock);
        await trx.updateTable('contacts').set({ is_active: 0, updated_at: now }).where('id', '=', input.id).execute();
        await emit(trx, ctx.clock, 'contact.updated', { ...contactView({ ...row, is_active: 0, updated_at: now }), changedFields: ['isActive'] });
      }
      return {
        data: {
          id: input.id,
          deactivated: true,
          message: `contact ${row.name} has linked ${linked}, so it was deactivated rather than deleted; PUT isActive true reactivates it`,
        },
      };
    });
  },
});

export const contactSummary = defineOperation({
  name: 'contacts.summary',
  summary: "A contact's invoicing: issued invoices, open ones, amount invoiced, credited and outstanding",
  description:
    'Counts sales invoices that were issued (sent, overdue or paid); open means sent or overdue. Drafts and void invoices are left out. ' +
    'totalCredited sums issued credit notes; unallocatedCredit is their credit not yet allocated or refunded; outstanding is what open invoices ' +
    'still owe less that credit (negative when the customer is owed money).',
  access: 'contacts:read',
  method: 'GET',
  path: '/contacts/{id}/summary',
  params: contactParams,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const row = await findContact(db, input.id);
    const sums = await db
      .selectFrom('invoices')
      .where('kind', '=', 'sales')
      .where('contact_id', '=', input.id)
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
      .where('contact_id', '=', input.id)
      .where('status', '=', 'issued')
      .select((eb) => [eb.fn.sum<number>('total').as('credited'), eb.fn.sum<number>(eb(eb('total', '-', eb.ref('allocated')), '-', eb.ref('refunded'))).as('unallocated')])
      .executeTakeFirstOrThrow();
    const unallocatedCredit = Number(credits.unallocated ?? 0);
    const view = contactView(row);
    return {
      data: {
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
      },
    };
  },
});
