/** The presenters of the ledger: the chart of accounts as a tree, journal imports. */
import { listImports } from '../../engine/imports/import-ops.js';
import { listAccounts } from '../../engine/ledger/account-ops.js';
import { listTransactions } from '../../engine/ledger/transaction-ops.js';
import type { Account, AccountNode } from '../../engine/ledger/accounts.js';
import type { Batch } from '../../engine/imports/batches.js';
import { essential } from '../fit-table.js';
import { listPresenter, presenter, type Cell, type Presented, type Presenter } from './index.js';

/** 2026-04-01T09:30:00.000Z as 2026-04-01 09:30. */
const minute = (instant: string): string => instant.slice(0, 16).replace('T', ' ');

/** What sets an account apart: a system account, a control account (and of what), cost of sales, inactive. */
function flagsOf(a: Account): string {
  const flags: string[] = [];
  if (a.isSystem) flags.push('system');
  if (a.isControlAccount) flags.push(a.controlType === null ? 'control' : `${a.controlType} control`);
  if (a.isCostOfSales) flags.push('cost of sales');
  if (!a.isActive) flags.push('inactive');
  return flags.join(', ');
}

/**
 * The chart of accounts, each account under its parent and indented by its
 * depth (a flat list is put in the same order from parentId), with the
 * flags that matter; the parent's code too, for CSV, where nothing is
 * indented.
 */
function accountTable(d: { accounts: readonly (Account | AccountNode)[] }): Presented {
  const byId = new Map(d.accounts.map((a) => [a.id, a]));
  const isTree = d.accounts.some((a) => 'children' in a);
  const childrenOf = (a: Account | AccountNode): readonly (Account | AccountNode)[] =>
    'children' in a ? a.children : isTree ? [] : d.accounts.filter((c) => c.parentId === a.id);
  const ordered: [Account, number][] = [];
  const walk = (a: Account | AccountNode, depth: number): void => {
    ordered.push([a, depth]);
    for (const c of childrenOf(a)) walk(c, depth + 1);
  };
  for (const root of isTree ? d.accounts : d.accounts.filter((a) => a.parentId === null || !byId.has(a.parentId))) walk(root, 0);
  const codeOf = new Map(ordered.map(([a]) => [a.id, a.code]));
  return {
    title: 'Chart of accounts',
    columns: ['code', 'name', 'type', 'flags', 'VAT rate', 'parent', 'description', 'id'],
    money: [],
    rows: ordered.map(([a]): Cell[] => [
      a.code,
      a.name,
      a.accountType,
      flagsOf(a),
      a.defaultVatRate === null ? null : `${a.defaultVatRate}%`,
      a.parentId === null ? null : (codeOf.get(a.parentId) ?? a.parentId),
      a.description,
      a.id,
    ]),
    keep: [essential, essential, 6, 5, 2, 1, 2, 2],
    indent: { column: 1, depths: ordered.map(([, depth]) => depth) },
  };
}

export const ledgerPresenters: readonly Presenter[] = [
  presenter(listAccounts, accountTable),
  // A transaction's amount is its debits (its credits are the same); on a narrow terminal the reference goes first, then the accounts and status.
  listPresenter(
    listTransactions,
    'Transactions',
    [
      ['date', 'date'],
      ['description', 'description'],
      ['amount', 'totalDebit'],
      ['status', 'status'],
      ['accounts', 'accountCodes'],
      ['reference', 'reference'],
      ['id', 'id'],
    ],
    [essential, essential, essential, 3, 3, 2, essential],
  ),
  listPresenter(listImports, 'Journal imports', [
    ['id', 'id'],
    ['imported at (UTC)', 'createdAt', minute],
    ['source', 'source'],
    ['transactions', 'transactionCount'],
    ['total debit', 'totalDebit'],
    ['status', 'status', (status: Batch['status'], b: Batch) => (b.undoneAt === null ? status : `${status} ${b.undoneAt.slice(0, 10)}`)],
  ]),
];
