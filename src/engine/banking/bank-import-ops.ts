/** The operations of bank statement imports (bank-imports.ts): upload, list, get, remap, confirm, delete, undo (bank-import-undo.ts). */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { bankAccountIdOf, idOf, intId, uploadedText } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { undone } from '../undone.js';
import { amountModels, columnRoles } from './statements/types.js';
import { dateFormatNames } from '../tabular/date-formats.js';
import {
  confirmedSchema,
  confirmImport,
  deleteImport,
  importDetail,
  importDetailSchema,
  importSummarySchema,
  listImports,
  previewOf,
  previewSchema,
  remapImport,
  uploadStatement,
} from './bank-imports.js';
import { undoBankImport, undoneImportSchema } from './bank-import-undo.js';
import { matchTarget } from './bank-matches.js';

const params = { id: idOf('bimp') };

const layout = {
  columnMapping: z.record(z.string().max(3), z.enum(columnRoles)).optional().describe('column number ("0" first) → role, replacing the detected mapping'),
  amountModel: z.enum(amountModels).optional(),
  dateFormat: z.enum(dateFormatNames as [string, ...string[]]).optional(),
  hasHeader: z.boolean().optional(),
};

export const uploadImportOp = defineOperation({
  name: 'bank-imports.upload',
  summary: 'Upload a bank statement (CSV, OFX or QFX) as a pending import: its layout, balance proof and a preview',
  description:
    'The file as JSON {file, filename?, bankAccountId?}, as multipart/form-data (a file part named file; bankAccountId a field), or as the raw body (text/csv, application/x-ofx…) with bankAccountId and filename in the query; 413 past 10 MiB. bankAccountId defaults to the primary bank account. Rows that duplicate an earlier completed import (same date, description and amount) are marked; identical rows inside one file are kept. A row that cannot be read, or that no transaction can hold (a zero amount, a description over 500 or a reference over 100 characters), is rejected with its reason, and the rest of the file imports.',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/bank-imports/upload',
  status: 201,
  upload: { field: 'file', filename: 'filename' },
  body: {
    file: uploadedText().describe('the statement’s text'),
    filename: z.string().max(255).optional(),
    bankAccountId: bankAccountIdOf().optional(),
    ...layout,
  },
  output: previewSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const id = await books.write((trx) => uploadStatement(trx, postingOf(ctx), input));
    return { data: await previewOf(books.db, id) };
  },
});

export const listImportsOp = defineOperation({
  name: 'bank-imports.list',
  summary: 'List bank statement imports, newest first',
  access: 'bank-imports:read',
  method: 'GET',
  path: '/bank-imports',
  output: z.array(importSummarySchema),
  async run(ctx) {
    return { data: await listImports(orgOf(ctx).db) };
  },
});

export const getImportOp = defineOperation({
  name: 'bank-imports.get',
  summary: 'Show a bank statement import with every row, its status and the rules’ suggestion',
  access: 'bank-imports:read',
  method: 'GET',
  path: '/bank-imports/{id}',
  params,
  output: importDetailSchema,
  async run(ctx, input) {
    return { data: await importDetail(orgOf(ctx).db, input.id) };
  },
});

export const remapImportOp = defineOperation({
  name: 'bank-imports.remap',
  summary: 'Read a pending import’s statement again with corrected columns, amount model or date format',
  description: 'A columnMapping needs a date column and an amount column, or both a debit and a credit column.',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/bank-imports/{id}/remap',
  params,
  body: layout,
  output: previewSchema,
  async run(ctx, input) {
    const { id, ...correction } = input;
    const books = orgOf(ctx);
    await books.write((trx) => remapImport(trx, postingOf(ctx), id, Object.fromEntries(Object.entries(correction).filter(([, v]) => v !== undefined))));
    return { data: await previewOf(books.db, id) };
  },
});

export const confirmImportOp = defineOperation({
  name: 'bank-imports.confirm',
  summary: 'Post a pending import: one transaction a row, the bank line and its other side (a rule’s account, else suspense 9999)',
  description:
    'rows (row ids) chooses the rows to create, else every valid row; rows not created are skipped. While rows duplicate an earlier import (marked again at confirm against the imports completed since the upload), confirm needs duplicates skip or import (or rows): 422 unresolved_conflicts. A statement whose balances do not reconcile is 422 balance_mismatch. rowAccountMap and defaultAccountId name accounts over the rules: not the bank’s own account, nor the receivables or payables control account. ' +
    'matches (or acceptMatches, taking the rows’ suggestedMatch) records a row as the payment of an open invoice or bill, or ties it to an entry already on the bank account: no second entry. 409 once completed.',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/bank-imports/{id}/confirm',
  params,
  body: {
    rows: z.array(intId()).min(1).max(100_000).optional(),
    duplicates: z.enum(['skip', 'import']).optional(),
    defaultAccountId: idOf('acc').optional(),
    rowAccountMap: z.record(z.string().regex(/^\d+$/), idOf('acc')).optional(),
    matches: z
      .record(z.string().regex(/^\d+$/), matchTarget())
      .optional()
      .describe(
        'row id → the invoice (inv_…) or bill (bill_…) the row pays, recorded as its payment, or the entry (txn_…) already holding its money; ' +
          'or a list of invoices or bills the row pays together, in order, each paid what is due until the money runs out',
      ),
    acceptMatches: z.boolean().default(false).describe('take each chosen row’s suggestedMatch where neither matches nor rowAccountMap names the row'),
    dryRun: z.boolean().default(false).describe('check everything and answer what confirm would do (or its refusal); write nothing, the import stays pending'),
  },
  output: confirmedSchema,
  async run(ctx, input) {
    const { id, dryRun, ...confirmation } = input;
    return {
      data: await orgOf(ctx).write((trx) =>
        dryRun ? undone(trx, (t) => confirmImport(t, postingOf(ctx), id, confirmation)) : confirmImport(trx, postingOf(ctx), id, confirmation, ctx.progress),
      ),
    };
  },
});

export const deleteImportOp = defineOperation({
  name: 'bank-imports.delete',
  summary: 'Delete a pending import (a completed one stays: 409; undo it instead)',
  access: 'bank-imports:write',
  method: 'DELETE',
  path: '/bank-imports/{id}',
  params,
  output: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteImport(trx, input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const undoImportOp = defineOperation({
  name: 'bank-imports.undo',
  summary: 'Undo a completed import: remove every transaction it created, unless one is reconciled, in a closed period or in a filed VAT return',
  description:
    'All or none: a reconciled transaction is 409 already_reconciled, one dated in a closed period (or before one) 422, one counted in a filed VAT return 422 vat_return_filed, each naming the transaction. ' +
    'Categorised and edited transactions go too. The import stays on record, status undone, its rows with their transaction ids cleared; ' +
    'the same statement may then be imported again without its rows marked duplicates. A pending import is deleted instead (409); undoing twice is 409 already_voided.',
  access: 'bank-imports:write',
  method: 'POST',
  path: '/bank-imports/{id}/undo',
  params,
  output: undoneImportSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => undoBankImport(trx, postingOf(ctx), input.id)) };
  },
});
