/**
 * The posted ledger as a plain-text accounting journal: hledger's format
 * (which ledger also reads) or beancount's. Account names carry their type
 * and code ("expenses:5100 Office Expenses", "Expenses:5100-Office-Expenses");
 * amounts are pounds. With a start date, an "Opening balances" entry
 * carries the asset, liability and equity balances before it and closes
 * earlier income and expenses into retained earnings (in hledger's format
 * each balance's reconciled part a cleared posting, the rest uncleared), so the range's income
 * statement is acct's profit and loss for it and its balance sheet acct's on
 * any date in the range (the trial balance keeps earlier income and expenses
 * on their own accounts; the export has them in retained earnings).
 */
import type { Kysely } from 'kysely';
import { addDays } from '../dates.js';
import { formatPounds } from '../money.js';
import { chunksOf } from '../chunks.js';
import { postedBalances, sum } from './balances.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

export const exportFormats = ['hledger', 'beancount'] as const;
export type ExportFormat = (typeof exportFormats)[number];

type AccountType = AccountsTable['account_type'];
type Account = Pick<AccountsTable, 'id' | 'code' | 'name' | 'account_type'>;

export interface ExportRange {
  readonly from?: string;
  readonly to?: string;
}

/** What differs between the formats: names, amounts, and the shape of an entry. */
interface Dialect {
  accountName(a: Account): string;
  preamble(accounts: readonly Account[], names: ReadonlyMap<string, string>, firstDate: string): string;
  header(date: string, description: string, meta: { txn?: string; ref?: string | null; reconciled?: boolean }): string;
  /** One posting; `cleared` marks it as the bank has confirmed it, where the format marks postings (marksPostings). */
  posting(account: string, pence: number, cleared?: boolean): string;
  readonly marksPostings: boolean;
}

/** Text on one line, single spaces. */
const oneLine = (text: string): string =>
  text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** Text that cannot break a journal's syntax: on one line, no comment or account separators. */
const clean = (text: string): string => oneLine(text.replace(/[;:]/g, ','));

/**
 * A description as hledger reads it back whole: a ; would start a comment
 * (written as ,), and a | would split it into payee and note (written as ¦).
 */
const description = (text: string): string => described(oneLine(text.replace(/;/g, ',').replace(/\|/g, '¦')));

/**
 * A tag value as hledger reads it back whole: it ends at a comma, and has no
 * escape for one, so a comma is written as ‚ (U+201A, which looks the same).
 */
const tagValue = (text: string): string => oneLine(text.replace(/,/g, '‚'));

/**
 * A description that starts with *, ! or ( would be read as a status mark or
 * a code ("* AMAZON PRIME" as cleared): an empty code, (), before it keeps
 * it text, for hledger and ledger alike.
 */
const described = (text: string): string => (/^[*!(]/.test(text) ? `() ${text}` : text);

const hledgerRoots: Readonly<Record<AccountType, [string, string]>> = {
  asset: ['assets', 'A'],
  liability: ['liabilities', 'L'],
  equity: ['equity', 'E'],
  revenue: ['revenues', 'R'],
  expense: ['expenses', 'X'],
};

const hledger: Dialect = {
  accountName: (a) => `${hledgerRoots[a.account_type][0]}:${clean(`${a.code} ${a.name}`)}`,
  preamble: (accounts, names) =>
    `; Exported by acct: posted transactions only, amounts in GBP\n${accounts
      .map((a) => `account ${names.get(a.id)}  ; type:${hledgerRoots[a.account_type][1]}\n`)
      .join('')}\n`,
  // Cleared (*) is hledger's mark for what the bank has confirmed: a transaction reconciled (in the opening balances, the
  // reconciled part of each, as a cleared posting); others go unmarked, so -C gives the reconciled balance.
  header: (date, text, meta) =>
    `${date}${meta.reconciled === true ? ' *' : ''} ${description(text)}${meta.txn ? `  ; txn:${meta.txn}${meta.ref ? `, ref:${tagValue(meta.ref)}` : ''}` : ''}\n`,
  posting: (account, pence, cleared = false) =>
    `    ${cleared ? '* ' : ''}${account}  ${pence < 0 ? `-£${formatPounds(-pence)}` : `£${formatPounds(pence)}`}\n`,
  marksPostings: true,
};

const beancountRoots: Readonly<Record<AccountType, string>> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  revenue: 'Income',
  expense: 'Expenses',
};

const quoted = (text: string): string => `"${text.replace(/[\r\n\t]+/g, ' ').replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * A component holds letters, digits and hyphens and starts with a capital or
 * a digit: accents are folded ("Ünïcode" as "Unicode"), what is left of
 * other characters runs as one hyphen, and a code's lowercase first letter
 * is capitalised ("mkt" as "Mkt").
 */
const beancountComponent = (text: string): string => {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

const beancount: Dialect = {
  accountName: (a) => `${beancountRoots[a.account_type]}:${beancountComponent(`${a.code} ${a.name}`)}`,
  preamble: (accounts, names, firstDate) =>
    `; Exported by acct: posted transactions only\noption "operating_currency" "GBP"\n\n${accounts
      .map((a) => `${firstDate} open ${names.get(a.id)} GBP\n`)
      .join('')}\n`,
  header: (date, description, meta) =>
    `${date} * ${quoted(description)}\n${meta.txn ? `  txn: ${quoted(meta.txn)}\n` : ''}${meta.ref ? `  ref: ${quoted(meta.ref)}\n` : ''}`,
  posting: (account, pence) => `  ${account}  ${formatPounds(pence)} GBP\n`,
  marksPostings: false,
};

const dialects: Readonly<Record<ExportFormat, Dialect>> = { hledger, beancount };

/** 3100 is provisioned and cannot be deleted, but a database edited by hand may lack it: earlier profit still needs an equity account. */
const syntheticRetainedEarnings: Account = { id: 'retained-earnings', code: '', name: 'Retained Earnings', account_type: 'equity' };

/**
 * Balances on the day before `from`, as an export starting on `from` opens:
 * assets, liabilities and equity as they stand, and all earlier income and
 * expenses closed into 3100 Retained Earnings (active or not: the export
 * reports, it posts nothing), in code order. Totals only, from account_days.
 */
async function openingBalances(db: Kysely<OrgDb>, from: string, accounts: readonly Account[]): Promise<{ account: Account; net: number; cleared: number }[]> {
  const all = closedInto(await postedBalances(db, { to: addDays(from, -1) }), accounts);
  const reconciled = await db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .select(['accounts.id', 'accounts.account_type as accountType'])
    .select((eb) => eb.fn.sum<number>('lines.amount').as('net'))
    .where('lines.posted', '=', 1)
    .where('lines.date', '<', from)
    .where('transactions.is_reconciled', '=', 1)
    .groupBy(['accounts.id', 'accounts.account_type'])
    .execute();
  const cleared = closedInto(
    reconciled.map((r) => ({ id: r.id, accountType: r.accountType, net: Number(r.net) })),
    accounts,
  );
  // An account whose cleared and uncleared parts cancel still opens with both, so that -C sees the cleared part.
  return [...accounts, syntheticRetainedEarnings]
    .map((account) => ({ account, net: all.get(account.id) ?? 0, cleared: cleared.get(account.id) ?? 0 }))
    .filter((o) => o.net !== 0 || o.cleared !== 0);
}

/** Each account's net, with income and expenses closed into retained earnings. */
function closedInto(balances: readonly { id: string; accountType: AccountType; net: number }[], accounts: readonly Account[]): Map<string, number> {
  const isEarnings = (type: AccountType) => type === 'revenue' || type === 'expense';
  const net = new Map(balances.filter((b) => !isEarnings(b.accountType)).map((b) => [b.id, b.net]));
  const retained = accounts.find((a) => a.code === '3100' && a.account_type === 'equity') ?? syntheticRetainedEarnings;
  net.set(retained.id, (net.get(retained.id) ?? 0) + sum(balances.filter((b) => isEarnings(b.accountType)).map((b) => b.net)));
  return net;
}

/**
 * Each account's name in the dialect, one account to a name: where several
 * would share one (beancount's "5.1 Fees" and "5-1 Fees" both
 * Expenses:5-1-Fees), the first by code keeps it and the others take -2,
 * -3 and so on, skipping any name an account has anyway. Codes are ordered
 * by their characters, not a database's collation, so the names are the
 * same whatever the store.
 */
function distinctNames(accounts: readonly Account[], dialect: Dialect): Map<string, string> {
  const byCode = [...accounts].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.id < b.id ? -1 : 1));
  const wanted = byCode.map((a) => dialect.accountName(a));
  const taken = new Set(wanted);
  const given = new Set<string>();
  const names = new Map<string, string>();
  byCode.forEach((a, i) => {
    const name = wanted[i] as string;
    if (!given.has(name)) {
      given.add(name);
      names.set(a.id, name);
      return;
    }
    let n = 2;
    while (taken.has(`${name}-${n}`)) n += 1;
    taken.add(`${name}-${n}`);
    names.set(a.id, `${name}-${n}`);
  });
  return names;
}

export async function exportJournal(db: Kysely<OrgDb>, format: ExportFormat, range: ExportRange, write: (text: string) => void): Promise<void> {
  const dialect = dialects[format];
  const accounts = await db.selectFrom('accounts').select(['id', 'code', 'name', 'account_type']).orderBy('code').execute();
  const first = await db
    .selectFrom('lines')
    .where('posted', '=', 1)
    .select((eb) => eb.fn.min<string>('date').as('date'))
    .executeTakeFirstOrThrow();
  const opening = range.from ? await openingBalances(db, range.from, accounts) : [];
  const declared = opening.some((o) => o.account === syntheticRetainedEarnings) ? [...accounts, syntheticRetainedEarnings] : accounts;
  const names = distinctNames(declared, dialect);
  write(dialect.preamble(declared, names, range.from ?? first.date ?? '1970-01-01'));
  if (range.from && opening.length > 0) {
    write(dialect.header(range.from, 'Opening balances', { reconciled: false }));
    for (const o of opening) {
      const name = names.get(o.account.id) as string;
      if (!dialect.marksPostings || o.cleared === 0) {
        if (o.net !== 0) write(dialect.posting(name, o.net));
        continue;
      }
      write(dialect.posting(name, o.cleared, true));
      if (o.net !== o.cleared) write(dialect.posting(name, o.net - o.cleared));
    }
    write('\n');
  }
  let q = db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .where('lines.posted', '=', 1)
    .select([
      'transactions.id',
      'transactions.date',
      'transactions.description',
      'transactions.reference',
      'transactions.is_reconciled',
      'lines.account_id',
      'lines.amount',
    ])
    .orderBy('transactions.date')
    .orderBy('transactions.created_at')
    .orderBy('transactions.id')
    .orderBy('lines.line_no');
  if (range.from) q = q.where('lines.date', '>=', range.from);
  if (range.to) q = q.where('lines.date', '<=', range.to);
  let current = '';
  for await (const chunk of chunksOf(db, q)) {
    for (const row of chunk) {
      if (row.id !== current) {
        if (current !== '') write('\n');
        current = row.id;
        write(dialect.header(row.date, row.description, { txn: row.id, ref: row.reference, reconciled: row.is_reconciled === 1 }));
      }
      write(dialect.posting(names.get(row.account_id) as string, row.amount));
    }
  }
  if (current !== '') write('\n');
}
