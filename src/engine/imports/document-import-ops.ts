/** The operations of invoice and bill imports (document-imports.ts): upload, get, delete, confirm, void, list; the same for each direction. */
import { z } from 'zod';
import { defineOperation, orgOf, type Operation } from '../operation.js';
import { idOf, uploadedText } from '../schema.js';
import { idOut } from '../output.js';
import { postingOf } from '../ledger/posting.js';
import { deleteImport, findImport, importRecordSchema, listImportsOf, maxImportFileBytes, poundsText } from './import-records.js';
import { confirmDocuments, directions, documentPreview, documentPreviewSchema, uploadDocuments, voidDocuments } from './document-imports.js';
import type { Direction } from './documents/read-documents.js';

const params = { id: idOf('dimp') };

/** The six operations of one direction: /invoice-imports for receivables, /bill-imports for payables. */
function documentImportOperations(direction: Direction): Operation[] {
  const kind = direction === 'receivables' ? 'invoices' : 'bills';
  const noun = direction === 'receivables' ? 'invoice' : 'bill';
  const path = `/${noun}-imports`;
  const cli = (action: string) => ({ group: `${noun}-imports`, action });
  return [
    defineOperation({
      name: `${noun}-imports.upload`,
      summary: `Upload a CSV of the ${noun}s outstanding at the cutover as a pending import: each row's contact matched, and the clearing proof`,
      description: `Columns: contact name, ${noun} number, date, due date, total, amount paid (or amount due); exports of Xero, FreeAgent and QuickBooks are read as they are. The file as JSON {file, filename?, source?}, as multipart/form-data (part file), or as the raw body; 413 past 5 MB. Needs an active opening balance in clearing mode (422) and refuses the cash VAT basis (422 CASH_VAT_UNSUPPORTED); 409 SINGLETON_VIOLATION while another ${noun} import is active. Contacts match by exact name, then by a similar one (85% or more), else are created on confirm. Money in the response is pounds with two decimals.`,
      access: 'invoices:write',
      method: 'POST',
      path: `${path}/upload`,
      status: 201,
      upload: { field: 'file', filename: 'filename', maxBytes: maxImportFileBytes },
      cli: cli('upload'),
      body: {
        file: uploadedText().describe(`the CSV of outstanding ${noun}s`),
        filename: z.string().max(255).optional(),
        source: z.string().max(100).optional().describe('where they come from, for their notes (Xero…); default the file name'),
      },
      output: documentPreviewSchema,
      async run(ctx, input) {
        const books = orgOf(ctx);
        const row = await books.write((trx) => uploadDocuments(trx, postingOf(ctx), direction, input));
        return { data: await documentPreview(books.db, row) };
      },
    }),
    defineOperation({
      name: `${noun}-imports.list`,
      summary: `List ${noun} imports, newest first`,
      access: 'invoices:read',
      method: 'GET',
      path,
      cli: cli('list'),
      output: z.array(importRecordSchema),
      async run(ctx) {
        return { data: await listImportsOf(orgOf(ctx).db, kind) };
      },
    }),
    defineOperation({
      name: `${noun}-imports.get`,
      summary: `Show a ${noun} import: each row with its contact match, the stats, the clearing proof and what blocks confirming`,
      access: 'invoices:read',
      method: 'GET',
      path: `${path}/{id}`,
      params,
      cli: cli('get'),
      output: documentPreviewSchema,
      async run(ctx, input) {
        const db = orgOf(ctx).db;
        return { data: await documentPreview(db, await findImport(db, kind, input.id)) };
      },
    }),
    defineOperation({
      name: `${noun}-imports.confirm`,
      summary: `Create the migrated ${noun}s (clearing journals, synthetic payments for what was paid, contacts not found); refused unless ${direction === 'receivables' ? '1198' : '2198'} then stands at zero`,
      description:
        '422 while a row is unreadable, a document is already in the books or dated after the cutover, or the clearing account would not net to zero: nothing is kept. 409 once completed.',
      access: 'invoices:write',
      method: 'POST',
      path: `${path}/{id}/confirm`,
      params,
      cli: cli('confirm'),
      output: z.strictObject({
        importId: idOut('dimp'),
        direction: z.enum(directions),
        documentsCreated: z.number().int(),
        syntheticPaymentsCreated: z.number().int(),
        contactsCreated: z.number().int(),
        clearingBalance: poundsText(),
        engineVersion: z.string(),
      }),
      async run(ctx, input) {
        return { data: await orgOf(ctx).write((trx) => confirmDocuments(trx, postingOf(ctx), direction, input.id, ctx.progress)) };
      },
    }),
    defineOperation({
      name: `${noun}-imports.void`,
      summary: `Void a completed ${noun} import: the ${noun}s it made leave the books with their entries, so the file may be imported again (refused once any has been paid or credited since)`,
      access: 'invoices:write',
      method: 'POST',
      path: `${path}/{id}/void`,
      params,
      cli: cli('void'),
      output: z.strictObject({ voided: z.literal(true), importId: idOut('dimp'), documentsVoided: z.number().int(), message: z.string() }),
      async run(ctx, input) {
        return { data: await orgOf(ctx).write((trx) => voidDocuments(trx, postingOf(ctx), direction, input.id)) };
      },
    }),
    defineOperation({
      name: `${noun}-imports.delete`,
      summary: `Delete a pending ${noun} import (a completed one is voided instead: 409)`,
      access: 'invoices:write',
      method: 'DELETE',
      path: `${path}/{id}`,
      params,
      cli: cli('delete'),
      output: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
      async run(ctx, input) {
        await orgOf(ctx).write((trx) => deleteImport(trx, kind, input.id));
        return { data: { id: input.id, deleted: true as const } };
      },
    }),
  ];
}

export const invoiceImportOperations = documentImportOperations('receivables');
export const billImportOperations = documentImportOperations('payables');
