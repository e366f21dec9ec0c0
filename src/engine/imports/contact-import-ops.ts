/** The operations of contact imports (contact-imports.ts): upload, list, get, resolve, confirm, delete. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, uploadedText } from '../schema.js';
import { idOut } from '../output.js';
import { postingOf } from '../ledger/posting.js';
import { deleteImport, findImport, importRecordSchema, listImportsOf, maxImportFileBytes } from './import-records.js';
import { confirmContacts, contactImportSchema, contactImportView, resolutionsField, resolveContacts, uploadContacts } from './contact-imports.js';

const params = { id: idOf('dimp') };
const cli = (action: string) => ({ group: 'contact-imports', action });

export const uploadContactImportOp = defineOperation({
  name: 'contact-imports.upload',
  summary: 'Upload a CSV of contacts: each row matched to the contacts in the books and to the other rows, as a merge preview; nothing is written yet',
  description:
    'Columns are found by their names (Name, Company, Email, Phone, Address, City, Postcode, Country, VAT Number, Company Number, Contact Type, Payment Terms, and the names Xero, FreeAgent and QuickBooks export). A VAT number, a Companies House number or a company e-mail domain (never a generic one such as gmail.com) forces a merge; a similar name, e-mail, phone or postcode makes a conflict to resolve (status processing); otherwise the import is pending. The file as JSON {file, filename?}, as multipart/form-data (part file), or as the raw body; 413 past 5 MB.',
  access: 'contacts:write',
  method: 'POST',
  path: '/contact-imports/upload',
  status: 201,
  upload: { field: 'file', filename: 'filename', maxBytes: maxImportFileBytes },
  cli: cli('upload'),
  body: { file: uploadedText().describe('the CSV of contacts'), filename: z.string().max(255).optional() },
  output: contactImportSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const row = await books.write((trx) => uploadContacts(trx, postingOf(ctx), input));
    return { data: await contactImportView(books.db, row) };
  },
});

export const listContactImportsOp = defineOperation({
  name: 'contact-imports.list',
  summary: 'List contact imports, newest first',
  access: 'contacts:read',
  method: 'GET',
  path: '/contact-imports',
  cli: cli('list'),
  output: z.array(importRecordSchema),
  async run(ctx) {
    return { data: await listImportsOf(orgOf(ctx).db, 'contacts') };
  },
});

export const getContactImportOp = defineOperation({
  name: 'contact-imports.get',
  summary: 'Show a contact import: its merge preview (outcomes, evidence, stats), the columns read and what becomes of each row',
  access: 'contacts:read',
  method: 'GET',
  path: '/contact-imports/{id}',
  params,
  cli: cli('get'),
  output: contactImportSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await contactImportView(db, await findImport(db, 'contacts', input.id)) };
  },
});

export const resolveContactImportOp = defineOperation({
  name: 'contact-imports.resolve',
  summary: 'Resolve identity conflicts: link two nodes (merge), split them (keep apart) or skip a row; the preview is worked out again',
  description: 'Node ids are row_N (a row of the file) and ledger_<contact id>. 409 unless the import is processing; 400 for an empty list or an unknown node.',
  access: 'contacts:write',
  method: 'POST',
  path: '/contact-imports/{id}/resolve',
  params,
  cli: cli('resolve'),
  body: { resolutions: resolutionsField },
  output: contactImportSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const row = await books.write((trx) => resolveContacts(trx, input.id, input.resolutions));
    return { data: await contactImportView(books.db, row) };
  },
});

export const confirmContactImportOp = defineOperation({
  name: 'contact-imports.confirm',
  summary:
    'Write the merge preview: new contacts created, existing ones given the details they lack (nothing overwritten); created + merged + skipped + rejected = rows',
  description: '409 unless pending (conflicts resolved).',
  access: 'contacts:write',
  method: 'POST',
  path: '/contact-imports/{id}/confirm',
  params,
  cli: cli('confirm'),
  output: z.strictObject({
    importId: idOut('dimp'),
    created: z.number().int(),
    merged: z.number().int(),
    skipped: z.number().int(),
    rejected: z.number().int(),
    total: z.number().int(),
  }),
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => confirmContacts(trx, postingOf(ctx), input.id)) };
  },
});

export const deleteContactImportOp = defineOperation({
  name: 'contact-imports.delete',
  summary: 'Delete a contact import not yet confirmed (a completed one stays: 409)',
  access: 'contacts:write',
  method: 'DELETE',
  path: '/contact-imports/{id}',
  params,
  cli: cli('delete'),
  output: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteImport(trx, 'contacts', input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const contactImportOperations = [
  uploadContactImportOp,
  listContactImportsOp,
  getContactImportOp,
  resolveContactImportOp,
  confirmContactImportOp,
  deleteContactImportOp,
];
