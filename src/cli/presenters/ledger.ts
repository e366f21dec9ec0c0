/** The presenters of the ledger: journal imports. */
import { legacy, type Presenter } from './index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- untyped until the operations declare their outputs */
export const ledgerPresenters: readonly Presenter[] = [
  legacy('imports.list', (d) => ({
    title: 'Journal imports',
    columns: ['id', 'imported at (UTC)', 'source', 'transactions', 'total debit', 'status'],
    money: [4],
    rows: d.map((b: any) => [b.id, b.createdAt.slice(0, 16).replace('T', ' '), b.source, b.transactionCount, b.totalDebit, b.undoneAt === null ? b.status : `${b.status} ${b.undoneAt.slice(0, 10)}`]),
  })),
];
/* eslint-enable @typescript-eslint/no-explicit-any */
