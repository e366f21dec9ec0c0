/** The presenters of the ledger: journal imports. */
import { listImports } from '../../engine/imports/import-ops.js';
import type { Batch } from '../../engine/imports/batches.js';
import { listPresenter, type Presenter } from './index.js';

/** 2026-04-01T09:30:00.000Z as 2026-04-01 09:30. */
const minute = (instant: string): string => instant.slice(0, 16).replace('T', ' ');

export const ledgerPresenters: readonly Presenter[] = [
  listPresenter(listImports, 'Journal imports', [
    ['id', 'id'],
    ['imported at (UTC)', 'createdAt', minute],
    ['source', 'source'],
    ['transactions', 'transactionCount'],
    ['total debit', 'totalDebit'],
    ['status', 'status', (status: Batch['status'], b: Batch) => (b.undoneAt === null ? status : `${status} ${b.undoneAt.slice(0, 10)}`)],
  ]),
];
