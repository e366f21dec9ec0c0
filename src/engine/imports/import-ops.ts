/** The operations of journal imports: list them, show one, undo one. (The import itself is `acct import journal`, from a file.) */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf } from '../schema.js';
import { pageMetaSchema, pageQuery, sortQuery } from '../pagination.js';
import { postingOf } from '../ledger/posting.js';
import { batchSchema, batchStatuses, batchView, findBatch, listBatches, undoBatch, undoneBatchSchema } from './batches.js';

const batchParams = { id: idOf('dimp') };

export const listImports = defineOperation({
  name: 'imports.list',
  summary: 'List journal imports, newest first, undone ones included (status filters)',
  access: 'transactions:read',
  method: 'GET',
  path: '/imports',
  query: {
    status: z.enum(batchStatuses).optional(),
    ...pageQuery(),
    ...sortQuery(['createdAt']),
  },
  cli: { group: 'import', action: 'list' },
  output: z.array(batchSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const { rows, meta } = await listBatches(orgOf(ctx).db, input);
    return { data: rows, meta };
  },
});

export const getImport = defineOperation({
  name: 'imports.get',
  summary: 'Show one journal import: source, content hash, counts, total debit, dates, who imported it and whether it was undone',
  access: 'transactions:read',
  method: 'GET',
  path: '/imports/{id}',
  params: batchParams,
  cli: { group: 'import', action: 'get' },
  output: batchSchema,
  async run(ctx, input) {
    return { data: batchView(await findBatch(orgOf(ctx).db, input.id)) };
  },
});

export const undoImport = defineOperation({
  name: 'imports.undo',
  summary: 'Undo a journal import: remove every transaction it made, unless one is reconciled or in a closed period',
  description:
    'Drafts and posted transactions alike go, including any edited since the import; the batch stays on record, ' +
    'marked undone, and its content may be imported again.',
  access: 'transactions:write',
  method: 'POST',
  path: '/imports/{id}/undo',
  params: batchParams,
  cli: { group: 'import', action: 'undo' },
  output: undoneBatchSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => undoBatch(trx, postingOf(ctx), input.id)) };
  },
});
