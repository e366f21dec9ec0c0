/**
 * Posting: the only code that writes transactions and lines. Every rule of
 * the double entry is checked here, before anything is written:
 * at least 2 lines, each a non-zero whole number of pence; the lines sum to
 * exactly 0; every account exists in this organisation and is active; every
 * contact named exists; the date is not in a closed period; the books' total
 * debits stay within maxBooksDebit. Invoices, payments, imports and the
 * transactions API all come through these functions.
 */
import { PostgresAdapter, type Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { emit, emitAll } from '../events.js';
import { newId } from '../ids.js';
import { maxLineAmount, sterling } from '../money.js';
import { timestamp, today, type Clock } from '../clock.js';
import { lineVat, type VatTreatment } from './line-vat.js';
import { actorOf, type Actor, type Ctx } from '../operation.js';
import { checkDateOpen, closedRanges, type ClosedRange } from './periods.js';
import { chargesOutputVat, entryOfLine, refuseVatBeforeRegistration, type VatBooks, type VatEntryInput } from './vat-entries.js';
import { bankAccountsAmong, bankLineRefusal } from './bank-line-account.js';
import { findTransactionRow, loadTransaction, transactionViewOf, type TransactionView } from './transaction-view.js';
import type { AccountsTable, LinesTable, OrgDb, TransactionsTable, VatEntriesTable } from '../../store/tables.js';

export const maxLines = 500;
/** The longest description and reference a transaction holds. */
export const maxDescriptionLength = 500;
export const maxReferenceLength = 100;
/**
 * £10 trillion in pence: the most the debits of all the books' transactions
 * (drafts included) may add up to. Any balance or report total is a sum
 * over some of the lines, so none can exceed it, and it is a ninth of
 * Number.MAX_SAFE_INTEGER: every figure and every sum of a few of them
 * stays an exact integer, in SQL and in JavaScript.
 */
export const maxBooksDebit = 1_000_000_000_000_000;

export interface LineInput {
  readonly accountId: string;
  readonly amount: number;
  readonly description?: string | null;
  readonly contactId?: string | null;
  readonly vatRate?: number | null;
  readonly vatTreatment?: VatTreatment | null;
  /** The VAT the caller rounded, within a penny of the rate's (so an inclusive split can keep its gross); else computed. */
  readonly vatAmount?: number | null;
}

export interface TransactionInput {
  readonly date: string;
  readonly description: string;
  readonly reference?: string | null;
  readonly status: 'draft' | 'posted';
  /** manual, invoice, payment, import, bank_import… */
  readonly sourceType: string;
  readonly sourceId?: string | null;
  readonly lines: readonly LineInput[];
  /**
   * The VAT facts, when the caller states them (documents, cash-basis
   * payments); otherwise each line's vatRate and vatTreatment make them.
   */
  readonly vatEntries?: readonly VatEntryInput[];
}

export interface Posting {
  readonly clock: Clock;
  readonly actor: Actor;
}

/** Money that has moved (a payment, a refund) cannot be dated after today: 400 on date. */
export function refuseAfterToday(posting: Posting, date: string, what: 'payment' | 'refund' | 'dividend payment'): void {
  const now = today(posting.clock);
  if (date > now) throw new AppError('validation_error', `date ${date}: a ${what} cannot be dated after today, ${now}`, 'date');
}

/** Who posts and when, for an operation's caller. */
export const postingOf = (ctx: Ctx): Posting => ({ clock: ctx.clock, actor: actorOf(ctx) });

/** What posting needs to know of the books, loaded once per batch. */
export interface Books {
  readonly accounts: ReadonlyMap<string, AccountsTable>;
  /** Ids of contacts lines may name. */
  readonly contacts: ReadonlySet<string>;
  readonly closed: readonly ClosedRange[];
  /** Loaded only when a line's VAT metadata makes an entry (two more queries on the hot path otherwise). */
  readonly vat: VatBooks | null;
}

/** Whether posting these lines makes VAT entries from their metadata (rather than entries the caller states). */
const linesMakeEntries = (input: Pick<TransactionInput, 'lines' | 'vatEntries'>): boolean =>
  input.vatEntries === undefined && input.lines.some((l) => l.vatRate != null && (l.vatTreatment === 'inclusive' || l.vatTreatment === 'exclusive'));

/** Whether posting needs the VAT books: lines that make entries, or posted entries the caller states that charge output VAT (checked against the registration date). */
const needsVatBooks = (input: Pick<TransactionInput, 'lines' | 'vatEntries' | 'status'>): boolean =>
  linesMakeEntries(input) || (input.status === 'posted' && (input.vatEntries?.some(chargesOutputVat) ?? false));

/** The VAT scheme and the VAT accounts, for the entries of lines. */
async function loadVatBooks(trx: Kysely<OrgDb>): Promise<VatBooks> {
  const org = await trx.selectFrom('organisation').select(['vat_scheme', 'vat_registration_date']).executeTakeFirst();
  const vatAccounts = await trx.selectFrom('accounts').select(['id', 'code']).where('code', 'in', ['2200', '2201']).execute();
  const schemes = await trx.selectFrom('vat_schemes').select(['from_date', 'scheme']).orderBy('from_date', 'desc').execute();
  return {
    scheme: org?.vat_scheme ?? 'not_registered',
    schemes: schemes.map((s) => ({ from: s.from_date, scheme: s.scheme })),
    registrationDate: org?.vat_registration_date ?? null,
    vatAccountIds: { output: vatAccounts.find((a) => a.code === '2200')?.id, input: vatAccounts.find((a) => a.code === '2201')?.id },
  };
}

/** The accounts and contacts `lines` name, or all of them for a batch; the VAT books when `vat` or for a batch. */
export async function loadBooks(trx: Kysely<OrgDb>, lines?: readonly LineInput[], vat = lines === undefined): Promise<Books> {
  let accountQuery = trx.selectFrom('accounts').selectAll();
  let contactQuery = trx.selectFrom('contacts').select('id');
  if (lines) {
    const only = (ids: readonly (string | null | undefined)[]) => {
      const set = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
      return set.length > 0 ? set : [''];
    };
    accountQuery = accountQuery.where('id', 'in', only(lines.map((l) => l.accountId)));
    contactQuery = contactQuery.where('id', 'in', only(lines.map((l) => l.contactId)));
  }
  const accounts = await accountQuery.execute();
  // Lines that name no contact need no query for them (one round trip of every post on PostgreSQL).
  const contacts = lines && !lines.some((l) => typeof l.contactId === 'string') ? [] : await contactQuery.execute();
  return {
    accounts: new Map(accounts.map((a) => [a.id, a])),
    contacts: new Set(contacts.map((c) => c.id)),
    closed: await closedRanges(trx),
    vat: vat ? await loadVatBooks(trx) : null,
  };
}

export interface Prepared {
  readonly row: TransactionsTable;
  readonly lines: LinesTable[];
  readonly vatEntries: VatEntriesTable[];
  /** The accounts the lines name (the books' map): the view is made from what was written, not read back. */
  readonly accounts: ReadonlyMap<string, AccountsTable>;
}

/**
 * A line's VAT: rate × amount (vat.ts), or the amount the caller states,
 * which may differ from it by a penny of rounding and no more: splitting a
 * gross into net and VAT lines, the VAT of the gross can be a penny off the
 * rate × net that an exclusive line would otherwise give.
 */
function lineVatAmount(line: LineInput, i: number): number | null {
  const rate = line.vatRate ?? null;
  const treatment = line.vatTreatment ?? null;
  const computed = rate === null || treatment === null ? null : lineVat(line.amount, rate, treatment);
  const stated = line.vatAmount ?? null;
  if (stated === null) return computed;
  const field = `lines[${i}].vatAmount`;
  if (computed === null) throw new AppError('validation_error', `${field} needs vatRate with vatTreatment inclusive or exclusive`, field);
  if (!Number.isSafeInteger(stated) || stated < 0) throw new AppError('validation_error', `${field} must be a whole number of pence, 0 or more`, field);
  if (Math.abs(stated - computed) > 1 || (treatment === 'inclusive' && stated > Math.abs(line.amount))) {
    throw new AppError(
      'validation_error',
      `${field}: ${sterling(stated)} is not ${rate}% VAT ${treatment === 'inclusive' ? 'inside' : 'on'} ${sterling(Math.abs(line.amount))} (${sterling(computed)}, give or take a penny of rounding)`,
      field,
    );
  }
  return stated;
}

/** Check a transaction against the rules; its rows, ready to insert. Throws the first broken rule. */
export function prepare(books: Books, posting: Posting, input: TransactionInput, id = newId('txn', posting.clock.now())): Prepared {
  const { lines } = input;
  if (lines.length < 2) throw new AppError('validation_error', `a transaction needs at least 2 lines, not ${lines.length}`, 'lines');
  if (lines.length > maxLines) throw new AppError('validation_error', `a transaction has at most ${maxLines} lines`, 'lines');
  let sum = 0;
  let debit = 0;
  lines.forEach((line, i) => {
    const field = `lines[${i}].amount`;
    if (!Number.isSafeInteger(line.amount)) throw new AppError('validation_error', `${field} must be a whole number of pence`, field);
    if (line.amount === 0) throw new AppError('validation_error', `${field} must not be zero`, field);
    if (Math.abs(line.amount) > maxLineAmount) throw new AppError('validation_error', `${field} is larger than ${sterling(maxLineAmount)}`, field);
    sum += line.amount;
    if (line.amount > 0) debit += line.amount;
  });
  if (sum !== 0) {
    throw new AppError(
      'validation_error',
      `lines do not balance: debits ${sterling(debit)}, credits ${sterling(debit - sum)}, difference ${sterling(sum)} (the amounts must sum to exactly 0)`,
      'lines',
    );
  }
  const codes: string[] = [];
  const lineRows = lines.map((line, i): LinesTable => {
    const account = books.accounts.get(line.accountId);
    if (!account) throw new AppError('validation_error', `lines[${i}].accountId: no account ${line.accountId} in this organisation`, `lines[${i}].accountId`);
    if (account.is_active !== 1) {
      // A document's entries are made from its own fields, not lines the caller sent: the account's state is the bar.
      if (input.sourceType !== 'manual') {
        const source = input.sourceType.replaceAll('_', ' ');
        throw new AppError(
          'unprocessable_entity',
          `account ${account.code} ${account.name} is inactive: this ${source} posts to it, so reactivate the account or choose another first`,
        );
      }
      throw new AppError('validation_error', `lines[${i}].accountId: account ${account.code} ${account.name} is inactive`, `lines[${i}].accountId`);
    }
    if (line.contactId != null && !books.contacts.has(line.contactId)) {
      throw new AppError('validation_error', `lines[${i}].contactId: no contact ${line.contactId} in this organisation`, `lines[${i}].contactId`);
    }
    const rate = line.vatRate ?? null;
    const treatment = line.vatTreatment ?? null;
    if (rate !== null && treatment === null)
      throw new AppError('validation_error', `lines[${i}].vatTreatment is required with vatRate`, `lines[${i}].vatTreatment`);
    if (rate === null && (treatment === 'inclusive' || treatment === 'exclusive')) {
      throw new AppError('validation_error', `lines[${i}].vatRate is required with vatTreatment ${treatment}`, `lines[${i}].vatRate`);
    }
    const vatAmount = lineVatAmount(line, i);
    if (!codes.includes(account.code)) codes.push(account.code);
    return {
      id: newId('line', posting.clock.now()),
      transaction_id: id,
      line_no: i + 1,
      account_id: account.id,
      contact_id: line.contactId ?? null,
      amount: line.amount,
      description: line.description ?? null,
      vat_rate: rate,
      vat_treatment: treatment,
      vat_amount: vatAmount,
      date: input.date,
      posted: input.status === 'posted' ? 1 : 0,
    };
  });
  const vatBooks = books.vat;
  if (vatBooks === null && linesMakeEntries(input)) throw new Error('posting: lines with VAT metadata need the VAT books (loadBooks with vat)');
  const entryInputs =
    input.vatEntries ??
    (vatBooks === null
      ? []
      : lines.flatMap(
          (line, i) => entryOfLine(vatBooks, input.date, books.accounts.get(line.accountId)!, { ...line, vatAmount: lineRows[i]!.vat_amount }, i) ?? [],
        ));
  if (vatBooks !== null && input.status === 'posted') refuseVatBeforeRegistration(vatBooks, input.date, entryInputs);
  const vatEntries = entryInputs.map((e, i): VatEntriesTable => {
    if (!Number.isSafeInteger(e.net) || !Number.isSafeInteger(e.vat)) throw new Error(`VAT entry ${i} of a transaction is not in whole pence`);
    return {
      id: newId('vate', posting.clock.now()),
      transaction_id: id,
      line_id: e.lineIndex === undefined ? null : lineRows[e.lineIndex]!.id,
      document_id: e.documentId ?? null,
      date: input.date,
      direction: e.direction,
      basis: e.basis,
      rate: e.rate,
      net: e.net,
      vat: e.vat,
      reclaimable: e.reclaimable ? 1 : 0,
      capital: e.capital ? 1 : 0,
      vat_account_id: e.vatAccountId,
      return_id: null,
    };
  });
  checkDateOpen(books.closed, input.date);
  const now = timestamp(posting.clock);
  return {
    row: {
      id,
      date: input.date,
      description: input.description,
      reference: input.reference ?? null,
      source_type: input.sourceType,
      source_id: input.sourceId ?? null,
      status: input.status,
      is_reconciled: 0,
      reconciled_at: null,
      created_by: posting.actor.id,
      created_by_name: posting.actor.name,
      total_debit: debit,
      account_codes: codes.join(','),
      created_at: now,
      updated_at: now,
    },
    lines: lineRows,
    vatEntries,
    accounts: books.accounts,
  };
}

/** Refuse (422 amount_too_large) a change that adds `added` pence of debits when that takes the books past maxBooksDebit. */
async function checkBooksDebit(trx: Kysely<OrgDb>, added: number): Promise<void> {
  if (added <= 0) return;
  const row = await trx.selectFrom('ledger_totals').select('total_debit').where('id', '=', 1).executeTakeFirstOrThrow();
  const total = Number(row.total_debit) + added;
  if (total > maxBooksDebit) {
    throw new AppError(
      'amount_too_large',
      `this would take the total debits of the books to ${sterling(total)} (drafts included), past the ${sterling(maxBooksDebit)} acct keeps every balance and report total within, so that they stay exact`,
    );
  }
}

/** Rows per INSERT: many rows a statement is far faster than one, and 200 × 12 columns stays under SQLite's variable limit. */
const batchSize = 200;
/** Parameters per INSERT on PostgreSQL, which takes at most 65,535 a statement. */
const postgresParameters = 60_000;

/**
 * How many rows go in one INSERT. On PostgreSQL as many as its parameters
 * allow: the triggers of account_days, row_counts and ledger_totals fire once
 * a statement (migration 0034), and each time they update a row the import's
 * open transaction has updated before, they walk every version of it it left,
 * so fewer statements make a long import's last ones no slower than its first.
 */
function rowsPerInsert(trx: Kysely<OrgDb>, row: object | undefined): number {
  if (row === undefined || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return batchSize;
  return Math.max(batchSize, Math.floor(postgresParameters / Object.keys(row).length));
}

async function insertBatched<T extends 'transactions' | 'lines' | 'vat_entries'>(trx: Kysely<OrgDb>, table: T, rows: readonly OrgDb[T][]): Promise<void> {
  const perStatement = rowsPerInsert(trx, rows[0]);
  for (let i = 0; i < rows.length; i += perStatement) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + perStatement) as never)
      .execute();
  }
}

/**
 * Insert prepared transactions and raise their events (created, and posted
 * when posted); the views the events carry. A bulk load of history passes
 * events: false and gets no views.
 */
export async function insertPrepared(
  trx: Kysely<OrgDb>,
  posting: Posting,
  prepared: readonly Prepared[],
  options = { events: true },
): Promise<TransactionView[]> {
  await checkBooksDebit(
    trx,
    prepared.reduce((total, p) => total + p.row.total_debit, 0),
  );
  await insertBatched(
    trx,
    'transactions',
    prepared.map((p) => p.row),
  );
  await insertBatched(
    trx,
    'lines',
    prepared.flatMap((p) => p.lines),
  );
  await insertBatched(
    trx,
    'vat_entries',
    prepared.flatMap((p) => p.vatEntries),
  );
  if (!options.events) return [];
  const views: TransactionView[] = [];
  for (const p of prepared) {
    // What was just written, as loadTransaction would read it back (test/ledger-http/events.test.ts holds them equal): two queries fewer.
    const view = transactionViewOf(
      p.row,
      p.lines.map((l) => {
        const account = p.accounts.get(l.account_id)!;
        return { ...l, code: account.code, name: account.name };
      }),
    );
    await emitAll(trx, posting.clock, p.row.status === 'posted' ? ['transaction.created', 'transaction.posted'] : ['transaction.created'], view);
    views.push(view);
  }
  return views;
}

/** One transaction prepared against the books its lines name (their accounts and contacts, and the VAT books when a line makes an entry). */
async function prepareAgainstBooks(trx: Kysely<OrgDb>, posting: Posting, input: TransactionInput, id?: string): Promise<Prepared> {
  return prepare(await loadBooks(trx, input.lines, needsVatBooks(input)), posting, input, id);
}

/** Create one transaction (draft or posted); its view. */
export async function createTransaction(trx: Kysely<OrgDb>, posting: Posting, input: TransactionInput): Promise<TransactionView> {
  const [view] = await insertPrepared(trx, posting, [await prepareAgainstBooks(trx, posting, input)]);
  return view!;
}

/**
 * Create one posted transaction of history brought forward (a migrated
 * invoice or bill, or what was paid on it before the cutover): like a
 * journal import, it raises no events, since it records what happened in
 * other software rather than something happening now; its id.
 */
export async function postHistory(trx: Kysely<OrgDb>, posting: Posting, input: TransactionInput): Promise<string> {
  const prepared = await prepareAgainstBooks(trx, posting, { ...input, status: 'posted' });
  await insertPrepared(trx, posting, [prepared], { events: false });
  return prepared.row.id;
}

function refuseReconciled(row: TransactionsTable, what: string): void {
  if (row.is_reconciled === 1) throw new AppError('already_reconciled', `transaction ${row.id} is reconciled and cannot be ${what}`);
}

/**
 * A transaction a bank statement's row holds (the entry the row made, or the
 * payment or entry it was matched to) stays, posted, while the import does
 * (409 conflict): removed, or back in draft where its lines can be edited,
 * the statement's money would leave the books. Categorising it moves only
 * its suspense line, never the bank line. Undoing the import lets go of its rows first. `id`: one transaction, or every one of a source.
 */
async function refuseOnStatement(trx: Kysely<OrgDb>, id: string | { readonly sourceType: string; readonly sourceId: string }, what: string): Promise<void> {
  const rows = trx
    .selectFrom('bank_import_rows')
    .innerJoin('transactions', 'transactions.id', 'bank_import_rows.transaction_id')
    .select(['bank_import_rows.transaction_id', 'bank_import_rows.import_id', 'bank_import_rows.row_index']);
  const held = await (
    typeof id === 'string'
      ? rows.where('transactions.id', '=', id)
      : rows.where('transactions.source_type', '=', id.sourceType).where('transactions.source_id', '=', id.sourceId)
  )
    .orderBy('bank_import_rows.id')
    .limit(1)
    .executeTakeFirst();
  if (held) {
    throw new AppError(
      'conflict',
      `transaction ${held.transaction_id} is row ${held.row_index} of bank import ${held.import_id} and cannot be ${what}: the statement's money would leave the books; undo that import first`,
    );
  }
}

/** A transaction whose VAT a filed return counted, or which settles one, stays as it is (422 vat_return_filed). */
async function refuseFiled(trx: Kysely<OrgDb>, id: string, what: string): Promise<void> {
  const filed = await trx
    .selectFrom('vat_entries')
    .innerJoin('vat_returns', 'vat_returns.id', 'vat_entries.return_id')
    .select(['vat_returns.period_start', 'vat_returns.period_end'])
    .where('vat_entries.transaction_id', '=', id)
    .executeTakeFirst();
  const settles = filed
    ? undefined
    : await trx.selectFrom('vat_returns').select(['period_start', 'period_end']).where('transaction_id', '=', id).executeTakeFirst();
  if (settles) {
    throw new AppError(
      'vat_return_filed',
      `transaction ${id} settles the VAT return filed for ${settles.period_start} to ${settles.period_end} and cannot be ${what}`,
    );
  }
  if (filed) {
    throw new AppError(
      'vat_return_filed',
      `transaction ${id} is counted in the VAT return filed for ${filed.period_start} to ${filed.period_end} and cannot be ${what}; post a correction instead (it goes into the next open return)`,
    );
  }
}

/**
 * How the date a draft stands on is checked when it is changed or removed.
 * A draft journal dated in a closed period stays there (closed periods are
 * read-only for drafts too), but a draft invoice's or bill's entries are the
 * document's shadow, which no report reads: the document may leave a
 * period closed since it was made, by a new date or by going.
 */
export interface DraftRelease {
  /** Let a draft dated in a closed period be moved out of it or removed; its new date is checked as ever. */
  readonly leaveClosedPeriod?: boolean;
}

/** Refuse a transaction's current date when closed, unless it is a draft the caller may take out of a closed period. */
async function checkCurrentDateOpen(trx: Kysely<OrgDb>, row: TransactionsTable, release: DraftRelease): Promise<void> {
  if (release.leaveClosedPeriod === true && row.status === 'draft') return;
  checkDateOpen(await closedRanges(trx), row.date);
}

/** A VAT entry's facts, its line by position: what a draft prepared again is compared on. */
const entryFacts = (e: VatEntriesTable, lineIds: readonly string[]): string =>
  JSON.stringify([
    e.line_id === null ? null : lineIds.indexOf(e.line_id),
    e.document_id,
    e.date,
    e.direction,
    e.basis,
    Number(e.rate),
    Number(e.net),
    Number(e.vat),
    Number(e.reclaimable),
    Number(e.capital),
    e.vat_account_id,
  ]);

/** Whether a draft prepared again is what is stored already: the same fields, lines in order and VAT entries, ids aside. */
async function sameDraft(trx: Kysely<OrgDb>, row: TransactionsTable, current: TransactionView, prepared: Prepared): Promise<boolean> {
  const next = prepared.row;
  if (next.date !== row.date || next.description !== row.description || next.reference !== row.reference || next.status !== row.status) return false;
  if (prepared.lines.length !== current.lines.length) return false;
  const sameLines = prepared.lines.every((l, i) => {
    const c = current.lines[i]!;
    return (
      l.account_id === c.accountId &&
      l.amount === c.amount &&
      l.contact_id === c.contactId &&
      l.description === c.description &&
      l.vat_rate === c.vatRate &&
      l.vat_treatment === c.vatTreatment &&
      l.vat_amount === c.vatAmount
    );
  });
  if (!sameLines) return false;
  const stored = await trx.selectFrom('vat_entries').selectAll().where('transaction_id', '=', row.id).execute();
  const storedLineIds = current.lines.map((l) => l.id);
  const preparedLineIds = prepared.lines.map((l) => l.id);
  const was = stored.map((e) => entryFacts(e, storedLineIds)).sort();
  const is = prepared.vatEntries.map((e) => entryFacts(e, preparedLineIds)).sort();
  return was.length === is.length && was.every((facts, i) => facts === is[i]);
}

/**
 * Replace a draft's fields and all its lines; a posted transaction is
 * refused (422). A change that leaves the draft as it is (nothing sent, or
 * what it holds already) is checked as any other but writes nothing: its
 * lines keep their ids and updatedAt stays.
 */
export async function replaceDraft(
  trx: Kysely<OrgDb>,
  posting: Posting,
  id: string,
  change: Partial<Omit<TransactionInput, 'sourceType' | 'sourceId'>>,
  release: DraftRelease = {},
): Promise<TransactionView> {
  const row = await findTransactionRow(trx, id);
  refuseReconciled(row, 'modified');
  if (row.status !== 'draft') throw new AppError('unprocessable_entity', `transaction ${id} is posted and cannot be changed; revert it to draft first`);
  // Only posted entries go on a statement, and they cannot go back to draft; a held draft that older versions let through may be posted again, not changed.
  await refuseOnStatement(trx, id, 'changed');
  const current = await loadTransaction(trx, id);
  const input: TransactionInput = {
    date: change.date ?? row.date,
    description: change.description ?? row.description,
    reference: change.reference === undefined ? row.reference : change.reference,
    status: change.status ?? 'draft',
    sourceType: row.source_type,
    sourceId: row.source_id,
    lines: change.lines ?? current.lines,
    // A document's draft hands its own VAT facts (its document, basis, exempt lines); a journal's come from its lines.
    ...(change.vatEntries === undefined ? {} : { vatEntries: change.vatEntries }),
  };
  // The transaction's current date must be open too: moving a draft out of a closed period changes that period.
  await checkCurrentDateOpen(trx, row, release);
  const prepared = await prepareAgainstBooks(trx, posting, input, id);
  if (await sameDraft(trx, row, current, prepared)) return current;
  await checkBooksDebit(trx, prepared.row.total_debit - row.total_debit);
  await trx.deleteFrom('lines').where('transaction_id', '=', id).execute();
  await trx.deleteFrom('vat_entries').where('transaction_id', '=', id).execute();
  await trx
    .updateTable('transactions')
    .set({ ...prepared.row, id: undefined, created_at: undefined, created_by: undefined, created_by_name: undefined })
    .where('id', '=', id)
    .execute();
  await insertBatched(trx, 'lines', prepared.lines);
  await insertBatched(trx, 'vat_entries', prepared.vatEntries);
  const view = await loadTransaction(trx, id);
  if (input.status === 'posted') await emit(trx, posting.clock, 'transaction.posted', view);
  return view;
}

/** Move a transaction between draft and posted; posting re-checks every rule. */
export async function setTransactionStatus(trx: Kysely<OrgDb>, posting: Posting, id: string, status: 'draft' | 'posted'): Promise<TransactionsTable> {
  const row = await findTransactionRow(trx, id);
  if (row.status === status) return row;
  if (status === 'draft' && row.is_reconciled === 1) {
    throw new AppError('unprocessable_entity', `transaction ${id} is reconciled and cannot go back to draft`);
  }
  if (status === 'draft') {
    await refuseFiled(trx, id, 'reverted to draft');
    // A draft can be edited, and is out of the balances: the statement's money would leave the bank account.
    await refuseOnStatement(trx, id, 'reverted to draft');
  }
  const books = await loadBooks(trx);
  checkDateOpen(books.closed, row.date);
  if (status === 'posted') {
    // The lines must still pass: an account may have been deactivated since the draft was made.
    const current = await loadTransaction(trx, id);
    prepare(books, posting, { ...current, status, lines: current.lines }, id);
  }
  const updatedAt = timestamp(posting.clock);
  await trx.updateTable('transactions').set({ status, updated_at: updatedAt }).where('id', '=', id).execute();
  await trx
    .updateTable('lines')
    .set({ posted: status === 'posted' ? 1 : 0 })
    .where('transaction_id', '=', id)
    .execute();
  if (status === 'posted') await emit(trx, posting.clock, 'transaction.posted', await loadTransaction(trx, id));
  return { ...row, status, updated_at: updatedAt };
}

/** The account a suspense line moves to, with the VAT facts and contact the line then carries. */
export interface Categorisation {
  readonly accountId: string;
  readonly vatRate?: number | null;
  readonly vatTreatment?: VatTreatment | null;
  readonly contactId?: string | null;
}

/** The suspense account's id (code 9999), which holds imported bank lines until they are categorised. */
export async function suspenseAccountId(db: Kysely<OrgDb>): Promise<string | undefined> {
  return (await db.selectFrom('accounts').select('id').where('code', '=', '9999').executeTakeFirst())?.id;
}

/** A refusal of the moved line (lines[i].accountId) names the field as the caller sent it (accountId). */
function asSent<T>(at: number, prepare: () => T): T {
  try {
    return prepare();
  } catch (e) {
    const prefix = `lines[${at}].`;
    if (!(e instanceof AppError) || !e.field?.startsWith(prefix)) throw e;
    const field = e.field.slice(prefix.length);
    throw new AppError(e.code, e.message.replaceAll(e.field, field), field);
  }
}

/**
 * The line categorise moves: the one on suspense; else, on a bank line an
 * import made (a statement's line, categorised by a rule or by hand), its
 * one line beside the bank's, so that a rule's account or a missing VAT
 * rate can be put right without undoing the import (as Xero lets a bank
 * rule's transaction be edited). 422 for any other entry.
 */
async function lineToCategorise(trx: Kysely<OrgDb>, row: TransactionsTable, current: TransactionView, suspense: string | undefined): Promise<number> {
  const onSuspense = current.lines.findIndex((l) => l.accountId === suspense);
  if (onSuspense >= 0) return onSuspense;
  if (row.source_type === 'bank_import' && current.lines.length === 2) {
    const bankIds = await bankAccountsAmong(
      trx,
      current.lines.map((l) => l.accountId),
    );
    const others = current.lines.flatMap((l, i) => (bankIds.has(l.accountId) ? [] : [i]));
    if (bankIds.size === 1 && others.length === 1) return others[0]!;
  }
  throw new AppError('unprocessable_entity', `transaction ${row.id} has no line on the suspense account 9999: it is categorised already`);
}

/**
 * Move a transaction's line on the suspense account (9999) to the account
 * chosen for it, with its VAT facts: the bank line stays as the bank said,
 * so a reconciled transaction may be categorised, though not to another
 * bank-controlled account (409 already_reconciled). Every posting rule is
 * checked again on the whole transaction (the account active, the period
 * open, the VAT within a penny); a transaction a filed VAT return counted
 * stays (422). 422 when there is no suspense line left to move.
 */
export async function categoriseTransaction(trx: Kysely<OrgDb>, posting: Posting, id: string, change: Categorisation): Promise<TransactionView> {
  const row = await findTransactionRow(trx, id);
  const suspense = await suspenseAccountId(trx);
  if (change.accountId === suspense)
    throw new AppError('validation_error', 'accountId: a line cannot be categorised to the suspense account itself', 'accountId');
  // The bank line is what was paid, VAT included: exclusive would claim VAT on top of money that never left the bank.
  if (change.vatTreatment === 'exclusive')
    throw new AppError('validation_error', 'vatTreatment: a bank line’s amount is what was paid, VAT included: use inclusive, not exclusive', 'vatTreatment');
  const current = await loadTransaction(trx, id);
  const at = await lineToCategorise(trx, row, current, suspense);
  const target = await trx.selectFrom('accounts').select(['id', 'code', 'name', 'control_type']).where('id', '=', change.accountId).executeTakeFirst();
  const refusal =
    target &&
    bankLineRefusal(
      target,
      current.lines.filter((_, i) => i !== at).map((l) => l.accountId),
    );
  if (refusal) throw new AppError('validation_error', `accountId: ${refusal}`, 'accountId');
  // A transaction is reconciled as a whole: a new line on another bank account would count as reconciled there
  // though no statement of that account showed it (its reconciled balance would move by the line's amount).
  if (row.is_reconciled === 1 && target?.control_type === 'bank') {
    throw new AppError(
      'already_reconciled',
      `accountId: transaction ${id} is reconciled, so it cannot be categorised to the bank account ${target.code} ${target.name}: the line would count as reconciled there though no statement of it showed it; mark it unreconciled first`,
      'accountId',
    );
  }
  checkDateOpen(await closedRanges(trx), row.date);
  await refuseFiled(trx, id, 'categorised');
  const lines: LineInput[] = current.lines.map((l, i) =>
    i === at
      ? {
          ...l,
          accountId: change.accountId,
          vatRate: change.vatRate ?? null,
          vatTreatment: change.vatTreatment ?? null,
          vatAmount: null,
          contactId: change.contactId ?? l.contactId,
        }
      : l,
  );
  const input: TransactionInput = {
    date: row.date,
    description: row.description,
    reference: row.reference,
    status: row.status,
    sourceType: row.source_type,
    sourceId: row.source_id,
    lines,
  };
  const books = await loadBooks(trx, lines, needsVatBooks(input));
  const prepared = asSent(at, () => prepare(books, posting, input, id));
  await trx.deleteFrom('lines').where('transaction_id', '=', id).execute();
  await trx.deleteFrom('vat_entries').where('transaction_id', '=', id).execute();
  await trx
    .updateTable('transactions')
    .set({ account_codes: prepared.row.account_codes, total_debit: prepared.row.total_debit, updated_at: prepared.row.updated_at })
    .where('id', '=', id)
    .execute();
  await insertBatched(trx, 'lines', prepared.lines);
  await insertBatched(trx, 'vat_entries', prepared.vatEntries);
  return loadTransaction(trx, id);
}

/**
 * Mark a posted transaction reconciled, or undo that; drafts cannot be
 * reconciled (422). `reconciledAt`: when the reconciliation carried over from
 * another entry (a matched bank line's) was first made, kept rather than now.
 */
export async function setReconciled(
  trx: Kysely<OrgDb>,
  posting: Posting,
  id: string,
  reconciled: boolean,
  reconciledAt?: string | null,
): Promise<TransactionsTable> {
  const row = await findTransactionRow(trx, id);
  if (row.status !== 'posted') throw new AppError('unprocessable_entity', `transaction ${id} is a draft: only posted transactions may be reconciled`);
  checkDateOpen(await closedRanges(trx), row.date);
  if ((row.is_reconciled === 1) === reconciled) return row;
  const now = timestamp(posting.clock);
  const change = { is_reconciled: reconciled ? 1 : 0, reconciled_at: reconciled ? (reconciledAt ?? now) : null, updated_at: now };
  await trx.updateTable('transactions').set(change).where('id', '=', id).execute();
  return { ...row, ...change };
}

/** Remove a draft; posted (422) and reconciled (409) transactions stay. */
export async function deleteTransaction(trx: Kysely<OrgDb>, id: string): Promise<void> {
  const row = await findTransactionRow(trx, id);
  refuseReconciled(row, 'deleted');
  if (row.status !== 'draft') throw new AppError('unprocessable_entity', `transaction ${id} is posted and cannot be deleted; revert it to draft first`);
  checkDateOpen(await closedRanges(trx), row.date);
  await refuseOnStatement(trx, id, 'deleted');
  await trx.deleteFrom('transactions').where('id', '=', id).execute();
}

/**
 * Remove a transaction another feature made, draft or posted (a voided
 * invoice leaves the ledger, a removed payment takes its entry with it);
 * reconciled (409) and closed-period (422) ones stay (a draft may go
 * with `release`). `what` names the record the transaction belongs to in
 * the refusal (payment pay_…).
 */
export async function removeTransaction(trx: Kysely<OrgDb>, id: string, what?: string, release: DraftRelease = {}): Promise<void> {
  const row = await findTransactionRow(trx, id);
  try {
    refuseReconciled(row, 'deleted');
    await checkCurrentDateOpen(trx, row, release);
    await refuseFiled(trx, id, 'removed');
    await refuseOnStatement(trx, id, 'removed');
  } catch (e) {
    if (what === undefined || !(e instanceof AppError)) throw e;
    throw new AppError(e.code, `${what} cannot be removed: ${e.message}`, e.field);
  }
  await trx.deleteFrom('transactions').where('id', '=', id).execute();
}

/**
 * Remove every transaction another feature made under one source (all of an
 * import), draft or posted, all or none: one reconciled (409), dated in a
 * closed period or before one (422), counted in a filed VAT return (422
 * vat_return_filed), or held by a bank statement's row (409) keeps them
 * all, and is named. How many were removed.
 */
export async function removeTransactionsOf(trx: Kysely<OrgDb>, sourceType: string, sourceId: string): Promise<number> {
  const ofSource = trx
    .selectFrom('transactions')
    .select(['id', 'date'])
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .orderBy('date')
    .orderBy('id')
    .limit(1);
  const source = `${sourceType} ${sourceId}`;
  const reconciled = await ofSource.where('is_reconciled', '=', 1).executeTakeFirst();
  if (reconciled) throw new AppError('already_reconciled', `transaction ${reconciled.id} of ${source} is reconciled, so none of ${source} can be removed`);
  const filed = await trx
    .selectFrom('vat_entries')
    .innerJoin('transactions', 'transactions.id', 'vat_entries.transaction_id')
    .select('transactions.id')
    .where('transactions.source_type', '=', sourceType)
    .where('transactions.source_id', '=', sourceId)
    .where('vat_entries.return_id', 'is not', null)
    .executeTakeFirst();
  if (filed) await refuseFiled(trx, filed.id, `removed, so none of ${source} can be`);
  await refuseOnStatement(trx, { sourceType, sourceId }, `removed, so none of ${source} can be`);
  // One look for the first transaction on or before the last closed day rather than a date check per row (an import may
  // hold a million transactions): a date before a closed period is as closed as one inside it.
  const closed = await closedRanges(trx);
  const lastClosed = closed.reduce<string | undefined>((last, r) => (last === undefined || r.end_date > last ? r.end_date : last), undefined);
  const shut = lastClosed === undefined ? undefined : await ofSource.where('date', '<=', lastClosed).executeTakeFirst();
  if (shut) checkDateOpen(closed, shut.date, `transaction ${shut.id} of ${source}`);
  // Lines go by ON DELETE CASCADE; the triggers of account_days and row_counts follow.
  const result = await trx.deleteFrom('transactions').where('source_type', '=', sourceType).where('source_id', '=', sourceId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
