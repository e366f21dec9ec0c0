/**
 * The posted ledger as a plain-text accounting journal that hledger (and
 * ledger) read: account names carry their type and code
 * ("expenses:5100 Office Expenses"), amounts are pounds with £. With a
 * start date, an "Opening balances" entry carries every account's balance
 * before it, so balances agree with acct's on any date in the range.
 */
import type { Kysely } from 'kysely';
import { addDays } from '../dates.js';
import { formatPounds } from '../money.js';
import { postedBalances } from './balances.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

const roots: Readonly<Record<AccountsTable['account_type'], [string, string]>> = {
  asset: ['assets', 'A'],
  liability: ['liabilities', 'L'],
  equity: ['equity', 'E'],
  revenue: ['revenues', 'R'],
  expense: ['expenses', 'X'],
};

/** Text that cannot break the journal's syntax: no newlines, no comment or account separators, single spaces. */
const clean = (text: string): string => text.replace(/[\r\n\t]+/g, ' ').replace(/[;:]/g, ',').replace(/ {2,}/g, ' ').trim();

export const hledgerAccount = (type: AccountsTable['account_type'], code: string, name: string): string => `${roots[type][0]}:${clean(`${code} ${name}`)}`;

const amount = (pence: number): string => (pence < 0 ? `-£${formatPounds(-pence)}` : `£${formatPounds(pence)}`);

export interface ExportRange {
  readonly from?: string;
  readonly to?: string;
}

export async function exportHledger(db: Kysely<OrgDb>, range: ExportRange, write: (text: string) => void): Promise<void> {
  const accounts = await db.selectFrom('accounts').select(['id', 'code', 'name', 'account_type']).orderBy('code').execute();
  const nameOf = new Map(accounts.map((a) => [a.id, hledgerAccount(a.account_type, a.code, a.name)]));
  write('; Exported by acct: posted transactions only, amounts in GBP\n');
  for (const a of accounts) write(`account ${nameOf.get(a.id)}  ; type:${roots[a.account_type][1]}\n`);
  write('\n');
  if (range.from) {
    const opening = (await postedBalances(db, { to: addDays(range.from, -1) })).filter((b) => b.net !== 0);
    if (opening.length > 0) {
      write(`${range.from} * Opening balances\n`);
      for (const b of opening) write(`    ${nameOf.get(b.id)}  ${amount(b.net)}\n`);
      write('\n');
    }
  }
  let q = db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .where('lines.posted', '=', 1)
    .select(['transactions.id', 'transactions.date', 'transactions.description', 'transactions.reference', 'lines.account_id', 'lines.amount'])
    .orderBy('transactions.date')
    .orderBy('transactions.created_at')
    .orderBy('transactions.id')
    .orderBy('lines.line_no');
  if (range.from) q = q.where('lines.date', '>=', range.from);
  if (range.to) q = q.where('lines.date', '<=', range.to);
  let current = '';
  for await (const row of q.stream(1000)) {
    if (row.id !== current) {
      if (current !== '') write('\n');
      current = row.id;
      const reference = row.reference ? `, ref:${clean(row.reference)}` : '';
      write(`${row.date} * ${clean(row.description)}  ; txn:${row.id}${reference}\n`);
    }
    write(`    ${nameOf.get(row.account_id)}  ${amount(row.amount)}\n`);
  }
  if (current !== '') write('\n');
}
