/** The operations of contacts (contacts.ts): create, get, list, update, delete and the invoicing summary. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { emit } from '../events.js';
import { currencyCode, idOf, searchText } from '../schema.js';
import { containsText } from '../search.js';
import { listPage, pageMetaSchema, pageQuery, sortQuery } from '../pagination.js';
import { idOut, instant, listOf } from '../output.js';
import {
  changeContact,
  changedFields,
  contactSchema,
  contactSummary,
  contactSummarySchema,
  contactTypes,
  contactView,
  createFields,
  findContact,
  insertContact,
  optionalFields,
  removeContact,
} from './contacts.js';

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
  output: contactSchema,
  async run(ctx, input) {
    const row = await orgOf(ctx).write(async (trx) => {
      const row = await insertContact(trx, ctx.clock, input);
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
  output: contactSchema,
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
  output: listOf(contactSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    let q = db.selectFrom('contacts').where('is_active', '=', input.active ? 1 : 0);
    if (input.type === 'both') q = q.where('contact_type', '=', 'both');
    else if (input.type) q = q.where('contact_type', 'in', [input.type, 'both']);
    const { search } = input;
    if (search) q = q.where((eb) => containsText(eb, ['name', 'company', 'email'], search));
    const column = input.sort.field === 'name' ? 'name' : 'created_at';
    const { direction } = input.sort;
    const { rows, meta } = await listPage(q, (all) => all.selectAll().orderBy(column, direction).orderBy('id', direction), input);
    return { data: rows.map(contactView), meta };
  },
});

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
    currency: currencyCode().optional(),
    isActive: z.boolean().optional(),
  },
  output: z.strictObject({ id: idOut('cont'), updatedAt: instant() }),
  async run(ctx, input) {
    const row = await orgOf(ctx).write(async (trx) => {
      const { before, after } = await changeContact(trx, ctx.clock, input.id, input);
      const changed = changedFields(before, after);
      if (changed.length > 0) await emit(trx, ctx.clock, 'contact.updated', { ...contactView(after), changedFields: changed });
      return after;
    });
    return { data: { id: row.id, updatedAt: row.updated_at } };
  },
});

export const deleteContact = defineOperation({
  name: 'contacts.delete',
  summary: 'Delete a contact; one with invoices, bills, quotes or transactions is deactivated instead',
  access: 'contacts:write',
  method: 'DELETE',
  path: '/contacts/{id}',
  params: contactParams,
  output: z.union([
    z.strictObject({ id: idOut('cont'), deleted: z.literal(true) }),
    z.strictObject({ id: idOut('cont'), deactivated: z.literal(true), message: z.string().describe('why it was deactivated rather than deleted') }),
  ]),
  async run(ctx, input) {
    return orgOf(ctx).write(async (trx) => {
      const removed = await removeContact(trx, ctx.clock, input.id);
      if (removed.outcome === 'deleted') return { data: { id: input.id, deleted: true as const } };
      if (removed.deactivated) await emit(trx, ctx.clock, 'contact.updated', { ...contactView(removed.deactivated), changedFields: ['isActive'] });
      return {
        data: {
          id: input.id,
          deactivated: true as const,
          message: `contact ${removed.row.name} has linked ${removed.linked}, so it was deactivated rather than deleted; PUT isActive true reactivates it`,
        },
      };
    });
  },
});

export const getContactSummary = defineOperation({
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
  output: contactSummarySchema,
  async run(ctx, input) {
    return { data: await contactSummary(orgOf(ctx).db, input.id) };
  },
});
