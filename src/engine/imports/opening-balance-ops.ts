/** The operations of opening balances (opening-balances.ts): status, upload, get, map, confirm, void, delete. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, isoDate, uploadedText } from '../schema.js';
import { idOut, day } from '../output.js';
import { postingOf } from '../ledger/posting.js';
import { deleteImport, findImport, maxImportFileBytes, poundsText } from './import-records.js';
import {
  activeOpeningBalance,
  confirmBalances,
  mapBalances,
  openingBalanceModes,
  openingBalancePreview,
  openingBalancePreviewSchema,
  uploadBalances,
  voidBalances,
} from './opening-balances.js';

const params = { id: idOf('dimp') };
const cli = (action: string) => ({ group: 'opening-balances', action });

const mappingsField = z
  .array(z.strictObject({ sourceLabel: z.string().min(1).max(500), targetAccountId: idOf('acc').nullable() }))
  .max(10_000)
  .optional()
  .describe('sourceLabel → targetAccountId (an acc_ id; null returns the row to the automatic tiers)');

export const openingBalanceStatusOp = defineOperation({
  name: 'opening-balances.status',
  summary: 'Whether the books have an active opening balance, and its journal',
  access: 'transactions:read',
  method: 'GET',
  path: '/opening-balances/status',
  cli: cli('status'),
  output: z.strictObject({
    hasOpeningBalance: z.boolean(),
    transactionId: idOut('txn').nullable(),
    importId: idOut('dimp').nullable(),
    cutoverDate: day().nullable(),
    openingBalanceMode: z.enum(openingBalanceModes).nullable(),
  }),
  async run(ctx) {
    const active = await activeOpeningBalance(orgOf(ctx).db);
    const options = active ? (JSON.parse(active.options_json) as { cutoverDate: string; mode: (typeof openingBalanceModes)[number] }) : null;
    return {
      data: {
        hasOpeningBalance: active !== undefined,
        transactionId: active?.transaction_id ?? null,
        importId: active?.id ?? null,
        cutoverDate: options?.cutoverDate ?? null,
        openingBalanceMode: options?.mode ?? null,
      },
    };
  },
});

export const uploadOpeningBalancesOp = defineOperation({
  name: 'opening-balances.upload',
  summary: 'Upload a trial balance (CSV) as a pending opening balance: its rows mapped to accounts, and the balance proof',
  description:
    'Exports of Xero, FreeAgent and QuickBooks are read as they are (title lines, YTD columns, £ amounts, code prefixes). The file as JSON {file, filename?, clearingMode?, cutoverDate?, mappings?}, as multipart/form-data (part file), or as the raw body with the other fields in the query; 413 past 5 MB. clearingMode clearing sends Trade Debtors to 1198 and Trade Creditors to 2198 for the invoice and bill imports to clear; direct (the default) keeps them on 1100 and 2100. cutoverDate is a month end, by default the one the file’s title states (As at 31 March 2026), else the last day of last month; a cutover other than the stated date blocks confirm, and so does a stated date that cannot be read, until a cutoverDate is given here or by PATCH /opening-balances/{id}/map; in direct mode no row is matched to 1198 or 2198 automatically. 409 SINGLETON_VIOLATION while another opening balance is active. Money in the response is pounds with two decimals.',
  access: 'transactions:write',
  method: 'POST',
  path: '/opening-balances/upload',
  status: 201,
  upload: { field: 'file', filename: 'filename', maxBytes: maxImportFileBytes },
  cli: cli('upload'),
  body: {
    file: uploadedText().describe('the trial balance’s text'),
    filename: z.string().max(255).optional(),
    clearingMode: z.enum(openingBalanceModes).optional(),
    cutoverDate: isoDate().optional(),
    mappings: mappingsField,
  },
  output: openingBalancePreviewSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const row = await books.write((trx) => uploadBalances(trx, postingOf(ctx), input));
    return { data: await openingBalancePreview(books.db, row) };
  },
});

export const getOpeningBalancesOp = defineOperation({
  name: 'opening-balances.get',
  summary: 'Show an opening balance import: lines, mappings with method and confidence, the balance proof and what blocks confirming',
  access: 'transactions:read',
  method: 'GET',
  path: '/opening-balances/{id}',
  params,
  cli: cli('get'),
  output: openingBalancePreviewSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await openingBalancePreview(db, await findImport(db, 'balances', input.id)) };
  },
});

export const mapOpeningBalancesOp = defineOperation({
  name: 'opening-balances.map',
  summary: 'Map trial balance rows to accounts by hand, or change the cutover date, of a pending opening balance',
  access: 'transactions:write',
  method: 'PATCH',
  path: '/opening-balances/{id}/map',
  params,
  cli: cli('map'),
  body: { mappings: mappingsField, cutoverDate: isoDate().optional() },
  output: openingBalancePreviewSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const { id, ...change } = input;
    const row = await books.write((trx) => mapBalances(trx, id, change));
    return { data: await openingBalancePreview(books.db, row) };
  },
});

export const confirmOpeningBalancesOp = defineOperation({
  name: 'opening-balances.confirm',
  summary: 'Post the opening balance as one migration journal at the cutover date (it cannot be edited; void it instead)',
  description:
    '422 while a row is unmapped or unreadable, or the trial balance is out by more than £0.05 (up to £0.05 goes to 7999 Rounding); 409 SINGLETON_VIOLATION when another is active; 409 once completed.',
  access: 'transactions:write',
  method: 'POST',
  path: '/opening-balances/{id}/confirm',
  params,
  cli: cli('confirm'),
  output: z.strictObject({
    importId: idOut('dimp'),
    transactionId: idOut('txn'),
    cutoverDate: day(),
    openingBalanceMode: z.enum(openingBalanceModes),
    lines: z.number().int(),
    totalDebit: poundsText(),
    totalCredit: poundsText(),
  }),
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => confirmBalances(trx, postingOf(ctx), input.id)) };
  },
});

export const voidOpeningBalancesOp = defineOperation({
  name: 'opening-balances.void',
  summary: 'Void the active opening balance: its journal is reversed (both stay in the ledger), and another may be imported',
  description:
    '404 while the import is pending; 409 already_voided when it is void already; 409 while an invoice or bill import cleared against it (void that first).',
  access: 'transactions:write',
  method: 'POST',
  path: '/opening-balances/{id}/void',
  params,
  cli: cli('void'),
  output: z.strictObject({
    voided: z.literal(true),
    importId: idOut('dimp'),
    transactionId: idOut('txn'),
    reversalTransactionId: idOut('txn'),
    message: z.string(),
  }),
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => voidBalances(trx, postingOf(ctx), input.id)) };
  },
});

export const deleteOpeningBalancesOp = defineOperation({
  name: 'opening-balances.delete',
  summary: 'Delete a pending opening balance import (a completed one is voided instead: 409)',
  access: 'transactions:write',
  method: 'DELETE',
  path: '/opening-balances/{id}',
  params,
  cli: cli('delete'),
  output: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    await orgOf(ctx).write((trx) => deleteImport(trx, 'balances', input.id));
    return { data: { id: input.id, deleted: true as const } };
  },
});

export const openingBalanceOperations = [
  openingBalanceStatusOp,
  uploadOpeningBalancesOp,
  getOpeningBalancesOp,
  mapOpeningBalancesOp,
  confirmOpeningBalancesOp,
  voidOpeningBalancesOp,
  deleteOpeningBalancesOp,
];
