/**
 * Matching a bank line to what the books already hold of its money, as
 * Xero's Match and FreeAgent's explanations do:
 * - an open invoice (money in) or bill (money out): the line is recorded
 *   as its payment, on the line's date, for the line's amount, through the
 *   line's bank account (payments.ts), so the document is paid and aged
 *   debtors and creditors agree with the bank;
 * - an entry already on the same bank account for the same money (a
 *   payment recorded by hand before the statement came): the statement row
 *   points at it, and no second entry doubles the bank balance.
 * A line is matched as a statement is confirmed (bank-imports.ts), or
 * later, when it waits on suspense (matchBankEntry).
 *
 * Suggestions, each candidate suggested once, lines in order: an entry not
 * yet on a statement of the bank account, of the same amount on it, dated
 * within 14 days (the nearest: a payment by hand, or a transfer another
 * bank account's statement made); else the open document due exactly the
 * amount that the line names by number, else by its contact's name, else
 * the only one; else several open documents the line names by number that
 * are due exactly its amount together (one transfer settling them).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { addDays, daysBetween } from '../dates.js';
import { sterling } from '../money.js';
import { day } from '../output.js';
import { pence } from '../schema.js';
import { removeTransaction, setReconciled, suspenseAccountId, type Posting } from '../ledger/posting.js';
import { findTransactionRow, loadTransaction } from '../ledger/transaction-view.js';
import { bankAccountsAmong } from '../ledger/bank-line-account.js';
import { amountDue, purchaseBill, salesInvoice, type Kind } from '../sales/documents.js';
import { announceReceipt } from '../sales/receipt-events.js';
import { payableDocument, recordPayments, type PaymentPart } from '../sales/payments.js';
import type { BankImportRowsTable, InvoicesTable, OrgDb } from '../../store/tables.js';

export const matchKinds = ['invoice', 'bill', 'transaction'] as const;
export type MatchKind = (typeof matchKinds)[number];

/** How far apart a line and an entry of the same money may be dated for the entry to be suggested. */
export const matchWindowDays = 14;

const kindOfPrefix: Readonly<Record<string, MatchKind>> = { inv: 'invoice', bill: 'bill', txn: 'transaction' };

/** What a line may be matched to: an invoice's, a bill's or an entry's id, or several invoices' or bills' ids (one line paying several). */
export const matchTarget = () =>
  z.union([
    z
      .string()
      .regex(/^(inv|bill|txn)_[0-9A-Za-z]{1,64}$/, 'must be an invoice (inv_…), bill (bill_…) or entry (txn_…) id')
      .describe('an invoice (inv_…) or bill (bill_…) the line pays, or an entry (txn_…) already on the bank account for the same money'),
    z
      .array(z.string().regex(/^(inv|bill)_[0-9A-Za-z]{1,64}$/, 'must be an invoice (inv_…) or bill (bill_…) id'))
      .min(1)
      .max(maxDocuments)
      .describe('several invoices or bills, of one kind, the line pays in the order named: each paid what is due until the money runs out'),
  ]);

/** The most documents one bank line may pay. */
export const maxDocuments = 100;

export const matchSchema = z.strictObject({
  kind: z.enum(matchKinds),
  id: z.string(),
  number: z.string().nullable().describe('the invoice or bill number; null for an entry'),
  contactName: z.string().nullable(),
  date: day().describe('the document’s issue date, or the entry’s date'),
  amount: pence().describe('what is due on the document, or what the entry moves through the bank account (money in positive)'),
  description: z.string(),
  documents: z
    .array(z.strictObject({ id: z.string(), number: z.string().nullable() }))
    .describe('the invoices or bills the line pays: the one, or several it names by number that are due exactly its amount together; empty for an entry'),
});
export type Match = z.output<typeof matchSchema>;

export const matchedToSchema = z.strictObject({ kind: z.enum(matchKinds), id: z.string(), number: z.string().nullable() });
export type MatchedTo = z.output<typeof matchedToSchema>;

/** A bank line as the statement gave it: money in positive, out negative. */
export interface BankLine {
  readonly date: string;
  readonly amount: number;
  readonly description: string;
  readonly reference: string | null;
  /** False for a line no statement holds, which may pay one document at most; a statement's row, else. */
  readonly onStatement?: boolean;
}

/**
 * The rows of statements of ledger account `bank` still on record (imports
 * not undone) that hold an entry. Another bank account's statement holding
 * it does not count: a transfer between two accounts is on both statements.
 */
const rowsOfStatements = (db: Kysely<OrgDb>, bank: string) =>
  db
    .selectFrom('bank_import_rows')
    .innerJoin('bank_imports', 'bank_imports.id', 'bank_import_rows.import_id')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'bank_imports.bank_account_id')
    .where('bank_accounts.account_id', '=', bank)
    .where('bank_imports.undone_at', 'is', null)
    .where('bank_import_rows.transaction_id', 'is not', null);

/**
 * Posted entries on ledger account `bank` between two dates that no
 * statement of it holds, with what they move through it: those a person
 * made, and those another bank account's statement made (a transfer).
 */
async function entryCandidates(db: Kysely<OrgDb>, bank: string, from: string, to: string): Promise<Match[]> {
  const rows = await db
    .selectFrom('lines')
    .innerJoin('transactions', 'transactions.id', 'lines.transaction_id')
    .select(['transactions.id', 'transactions.date', 'transactions.description'])
    .select((eb) => eb.fn.sum<number>('lines.amount').as('amount'))
    .where('lines.account_id', '=', bank)
    .where('lines.posted', '=', 1)
    .where('lines.date', '>=', from)
    .where('lines.date', '<=', to)
    .where('transactions.id', 'not in', rowsOfStatements(db, bank).select('bank_import_rows.transaction_id'))
    .groupBy(['transactions.id', 'transactions.date', 'transactions.description'])
    .orderBy('transactions.date')
    .orderBy('transactions.id')
    .execute();
  return rows.map((r) => ({
    kind: 'transaction',
    id: r.id,
    number: null,
    contactName: null,
    date: r.date,
    amount: Number(r.amount),
    description: r.description,
    documents: [],
  }));
}

/** Open invoices and bills, with what is due on each (an invoice's positive, a bill's negative, as the bank would see it). */
async function documentCandidates(db: Kysely<OrgDb>): Promise<Match[]> {
  const rows = await db
    .selectFrom('invoices')
    .innerJoin('contacts', 'contacts.id', 'invoices.contact_id')
    .selectAll('invoices')
    .select('contacts.name as contact_name')
    .where('invoices.status', 'in', ['sent', 'approved', 'overdue'])
    .orderBy('invoices.issue_date')
    .orderBy('invoices.id')
    .execute();
  return rows.map((r) => ({
    kind: r.kind === 'sales' ? 'invoice' : 'bill',
    id: r.id,
    number: r.number,
    contactName: r.contact_name,
    date: r.issue_date,
    amount: (r.kind === 'sales' ? 1 : -1) * amountDue(r),
    description: r.kind === 'sales' ? `Invoice ${r.number ?? r.id} to ${r.contact_name}` : `Bill ${r.number ?? r.id} from ${r.contact_name}`,
    documents: [{ id: r.id, number: r.number }],
  }));
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `text` names `word` as a whole word, ignoring case ("INV-1042" in "Acme INV-1042", not in "INV-10420"). */
const names = (text: string, word: string | null) =>
  word !== null && word.trim() !== '' && new RegExp(`(?<![0-9A-Za-z])${escaped(word.trim())}(?![0-9A-Za-z])`, 'i').test(text);

/** The document among `candidates` a line most likely pays: named by number, else by contact, else the only one. */
function likeliestDocument(line: BankLine, candidates: readonly Match[]): Match | undefined {
  const text = `${line.description} ${line.reference ?? ''}`;
  const byNumber = candidates.filter((c) => names(text, c.number));
  if (byNumber.length > 0) return byNumber[0];
  const byContact = candidates.filter((c) => names(text, c.contactName));
  if (byContact.length === 1) return byContact[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** A document number as a line's text may hold it, for looking up: without the punctuation around it, in lower case. */
const numberKey = (word: string) => word.replace(/^[^0-9A-Za-z]+|[^0-9A-Za-z]+$/g, '').toLowerCase();

/**
 * Open documents by number, money in (invoices) and out (bills) apart; a
 * number two documents of one side share is left out, as naming neither.
 */
function documentsByNumber(documents: readonly Match[]): Map<string, Match | null> {
  const out = new Map<string, Match | null>();
  for (const d of documents) {
    if (d.number === null || numberKey(d.number) === '') continue;
    const key = `${Math.sign(d.amount)}:${numberKey(d.number)}`;
    out.set(key, out.has(key) ? null : d);
  }
  return out;
}

/**
 * Several open documents a line names by number (words of its description
 * and reference, "INV-0001 INV-0002" or "INV-0001, INV-0002") that are due
 * exactly the line's amount together, as one suggestion; else undefined.
 */
function namedTogether(line: BankLine, byNumber: ReadonlyMap<string, Match | null>, used: ReadonlySet<string>): Match | undefined {
  const named: Match[] = [];
  for (const word of `${line.description} ${line.reference ?? ''}`.split(/[\s,;&+]+/)) {
    const doc = byNumber.get(`${Math.sign(line.amount)}:${numberKey(word)}`);
    if (doc && !used.has(doc.id) && doc.date <= line.date && !named.includes(doc)) named.push(doc);
  }
  if (named.length < 2 || named.reduce((sum, d) => sum + d.amount, 0) !== line.amount) return undefined;
  const first = named[0]!;
  const numbers = named.map((d) => d.number!).join(', ');
  const contacts = [...new Set(named.map((d) => d.contactName ?? ''))].join(', ');
  return {
    kind: first.kind,
    id: first.id,
    number: numbers,
    contactName: contacts,
    date: named.map((d) => d.date).sort()[named.length - 1]!,
    amount: line.amount,
    description: first.kind === 'invoice' ? `Invoices ${numbers} to ${contacts}` : `Bills ${numbers} from ${contacts}`,
    documents: named.map((d) => ({ id: d.id, number: d.number })),
  };
}

/** What taking suggestion `m` names: the entry's or document's id, or the ids of the several documents it pays. */
export const targetOf = (m: Match): string | string[] => (m.documents.length > 1 ? m.documents.map((d) => d.id) : m.id);

/**
 * The suggested match of each line of ledger account `bank`, in order, or
 * null; `exclude` holds ids not to suggest (taken by the caller already).
 */
export async function suggestMatches(
  db: Kysely<OrgDb>,
  bank: string,
  lines: readonly BankLine[],
  exclude: ReadonlySet<string> = new Set(),
): Promise<(Match | null)[]> {
  if (lines.length === 0) return [];
  const dates = lines.map((l) => l.date).sort();
  const byAmount = (candidates: readonly Match[]) => {
    const out = new Map<number, Match[]>();
    for (const c of candidates) {
      const same = out.get(c.amount);
      if (same) same.push(c);
      else out.set(c.amount, [c]);
    }
    return out;
  };
  // By amount: a statement of 100,000 rows against thousands of entries looks each row's amount up once.
  const entries = byAmount(await entryCandidates(db, bank, addDays(dates[0]!, -matchWindowDays), addDays(dates[dates.length - 1]!, matchWindowDays)));
  const open = (await documentCandidates(db)).filter((d) => d.amount !== 0);
  const documents = byAmount(open);
  const byNumber = documentsByNumber(open);
  const used = new Set(exclude);
  return lines.map((line) => {
    const distance = (m: Match) => Math.abs(daysBetween(m.date, line.date));
    const near = (entries.get(line.amount) ?? []).filter((e) => !used.has(e.id) && distance(e) <= matchWindowDays).sort((a, b) => distance(a) - distance(b));
    const match =
      near[0] ??
      likeliestDocument(
        line,
        (documents.get(line.amount) ?? []).filter((d) => !used.has(d.id) && d.date <= line.date),
      ) ??
      (line.onStatement === false ? undefined : namedTogether(line, byNumber, used));
    if (match === undefined) return null;
    used.add(match.id);
    for (const d of match.documents) used.add(d.id);
    return match;
  });
}

export interface Settled {
  readonly kind: MatchKind;
  readonly id: string;
  /** The entry that now holds the line's money: the payment's, or the entry matched. */
  readonly transactionId: string;
  readonly paymentId: string | null;
  /** Each document the line pays, with its payment: one, or several (one bank line paying several); none for an entry. */
  readonly payments: readonly Paid[];
}

export const paidSchema = z.strictObject({
  paymentId: z.string(),
  kind: z.enum(['invoice', 'bill']),
  id: z.string(),
  number: z.string().nullable(),
  amount: pence().describe('what the payment pays of the document'),
});
export type Paid = z.output<typeof paidSchema>;

/** The row of a statement of ledger account `bank`, if any, that holds entry `id`. */
async function rowHolding(db: Kysely<OrgDb>, bank: string, id: string): Promise<{ import_id: string; row_index: number } | undefined> {
  return rowsOfStatements(db, bank)
    .select(['bank_import_rows.import_id', 'bank_import_rows.row_index'])
    .where('bank_import_rows.transaction_id', '=', id)
    .executeTakeFirst();
}

/** What an entry moves through ledger account `bank`. */
async function throughBank(db: Kysely<OrgDb>, id: string, bank: string): Promise<number> {
  const row = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
    .where('transaction_id', '=', id)
    .where('account_id', '=', bank)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Settle a line of ledger account `bank` against `target`: record it as the
 * invoice's or bill's payment, or take the entry as the line's own. Refusals
 * name `field`.
 */
export async function settleLine(
  trx: Kysely<OrgDb>,
  posting: Posting,
  bank: string,
  line: BankLine,
  target: string | readonly string[],
  field: string,
): Promise<Settled> {
  if (typeof target !== 'string') {
    const kinds = new Set(target.map((t) => kindOfPrefix[t.slice(0, t.indexOf('_'))]));
    if (target.length === 0 || kinds.size !== 1 || !(kinds.has('invoice') || kinds.has('bill')))
      throw new AppError('validation_error', `${field}: name invoices (inv_…) or bills (bill_…), all of one kind`, field);
    const twice = target.find((id, i) => target.indexOf(id) !== i);
    if (twice !== undefined) throw new AppError('validation_error', `${field}: ${twice} is named twice: the line pays each document once`, field);
    return payDocuments(trx, posting, bank, line, target, field);
  }
  const kind = kindOfPrefix[target.slice(0, target.indexOf('_'))];
  if (kind === undefined) throw new AppError('validation_error', `${field}: ${target} is not an invoice, bill or entry id`, field);
  if (kind === 'transaction') {
    const entry = await findTransactionRow(trx, target).catch((e: unknown) => {
      throw e instanceof AppError ? new AppError(e.code, e.message, field) : e;
    });
    if (entry.status !== 'posted')
      throw new AppError('unprocessable_entity', `${field}: entry ${target} is a draft; only a posted entry holds the bank’s money`, field);
    const held = await rowHolding(trx, bank, target);
    if (held) throw new AppError('conflict', `${field}: entry ${target} is row ${held.row_index} of bank import ${held.import_id} already`, field);
    const moved = await throughBank(trx, target, bank);
    if (moved !== line.amount) {
      throw new AppError(
        'unprocessable_entity',
        `${field}: entry ${target} moves ${sterling(moved)} through the bank account, the line ${sterling(line.amount)}: match it to an entry of the same money`,
        field,
      );
    }
    return { kind, id: target, transactionId: target, paymentId: null, payments: [] };
  }
  return payDocuments(trx, posting, bank, line, [target], field);
}

/**
 * Record bank line `line` as the payment of the invoices or bills `targets`
 * (all of one kind), in the order named: each is paid what is due on it
 * until the line's money runs out, so the last may be paid in part. One
 * entry holds the payments (payments.ts). Refused (422) when the line is
 * more than they are due in all, or runs out before a document named.
 */
async function payDocuments(trx: Kysely<OrgDb>, posting: Posting, bank: string, line: BankLine, targets: readonly string[], field: string): Promise<Settled> {
  const kind = kindOfPrefix[targets[0]!.slice(0, targets[0]!.indexOf('_'))] as 'invoice' | 'bill';
  const k: Kind = kind === 'invoice' ? salesInvoice : purchaseBill;
  if ((kind === 'invoice') !== line.amount > 0) {
    throw new AppError(
      'unprocessable_entity',
      `${field}: the line is ${sterling(Math.abs(line.amount))} ${line.amount > 0 ? 'into' : 'out of'} the bank, which cannot pay ${k.noun === 'invoice' ? 'an invoice' : 'a bill'} (${targets.join(', ')})`,
      field,
    );
  }
  try {
    const parts: PaymentPart[] = [];
    let left = Math.abs(line.amount);
    if (targets.length > 1) {
      const rows: InvoicesTable[] = [];
      for (const id of targets) rows.push(await payableDocument(trx, k, id));
      for (const row of rows) {
        const amount = Math.min(amountDue(row), left);
        if (amount === 0) {
          throw new AppError(
            'unprocessable_entity',
            `the line’s ${sterling(Math.abs(line.amount))} is spent before ${k.noun} ${row.number ?? row.id}: name only the ${k.noun}s it pays`,
          );
        }
        parts.push({ id: row.id, amount, document: row });
        left -= amount;
      }
      if (left > 0) {
        const due = Math.abs(line.amount) - left;
        throw new AppError(
          'unprocessable_entity',
          `the line is ${sterling(Math.abs(line.amount))}, more than the ${sterling(due)} due on ${rows.map((r) => r.number ?? r.id).join(', ')} in all`,
        );
      }
    } else parts.push({ id: targets[0]!, amount: left });
    const recorded = await recordPayments(trx, k, posting, parts, {
      date: line.date,
      method: 'bank_transfer',
      reference: line.reference,
      accountId: bank,
    });
    if (k === salesInvoice) for (const { payment, document } of recorded) await announceReceipt(trx, posting.clock, payment, document);
    const first = recorded[0]!.payment;
    return {
      kind,
      id: first.invoice_id,
      transactionId: first.transaction_id,
      paymentId: first.id,
      payments: recorded.map(({ payment, document }) => ({ paymentId: payment.id, kind, id: document.id, number: document.number, amount: payment.amount })),
    };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    throw new AppError(e.code, e.message.startsWith(`${field}:`) ? e.message : `${field}: ${e.message}`, field);
  }
}

/** Point the statement rows that held entry `from` at what settled them. */
async function relinkRows(trx: Kysely<OrgDb>, rowIds: readonly number[], settled: Settled): Promise<void> {
  if (rowIds.length === 0) return;
  await trx
    .updateTable('bank_import_rows')
    .set({ transaction_id: settled.transactionId, matched_kind: settled.kind, matched_id: settled.id })
    .where('id', 'in', rowIds)
    .execute();
}

export const matchedEntrySchema = z.strictObject({
  removedTransactionId: z.string().describe('the bank line’s own entry, on suspense, now gone'),
  transactionId: z.string().describe('the entry that holds the line’s money now: the payment’s, or the entry matched'),
  paymentId: z.string().nullable().describe('the payment recorded (the first, when the line pays several documents); null for an entry'),
  payments: z.array(paidSchema).describe('each invoice or bill the line pays, in the order named, with its payment; empty for an entry'),
  matchedTo: matchedToSchema.describe('what the line is matched to: the entry, or the (first) document it pays'),
  amount: pence().describe('the bank line: money in positive, out negative'),
  date: day(),
});
export type MatchedEntry = z.output<typeof matchedEntrySchema>;

/** The bank line of a posted entry waiting on suspense: its bank account and amount. */
async function suspenseLineOf(trx: Kysely<OrgDb>, id: string): Promise<{ bank: string; line: BankLine; reconciled: boolean; reconciledAt: string | null }> {
  const row = await findTransactionRow(trx, id);
  if (row.status !== 'posted') throw new AppError('unprocessable_entity', `transaction ${id} is a draft: only a posted bank line can be matched`);
  const suspense = await suspenseAccountId(trx);
  const view = await loadTransaction(trx, id);
  if (!view.lines.some((l) => l.accountId === suspense))
    throw new AppError('unprocessable_entity', `transaction ${id} has no line on the suspense account 9999: it is categorised already`);
  const bankIds = [
    ...(await bankAccountsAmong(
      trx,
      view.lines.map((l) => l.accountId),
    )),
  ];
  if (bankIds.length !== 1 || view.lines.some((l) => l.accountId !== suspense && l.accountId !== bankIds[0])) {
    throw new AppError('unprocessable_entity', `transaction ${id} is not a bank line on suspense: one bank account line and its suspense line`);
  }
  const bank = bankIds[0]!;
  const amount = view.lines.filter((l) => l.accountId === bank).reduce((sum, l) => sum + l.amount, 0);
  return {
    bank,
    line: { date: row.date, amount, description: row.description, reference: row.reference },
    reconciled: row.is_reconciled === 1,
    reconciledAt: row.reconciled_at,
  };
}

/**
 * Match bank line `id`, waiting on suspense, to `target`: its own entry
 * goes, and the invoice's or bill's payment, or the entry matched, holds its
 * money; its statement row points there, and a reconciled line stays
 * reconciled, as of when it was first reconciled. All or none.
 */
export async function matchBankEntry(
  trx: Kysely<OrgDb>,
  posting: Posting,
  id: string,
  target: string | readonly string[],
  field: string,
): Promise<MatchedEntry> {
  if (target === id) throw new AppError('validation_error', `${field}: a bank line cannot be matched to itself`, field);
  const { bank, line, reconciled, reconciledAt } = await suspenseLineOf(trx, id);
  const rows = await trx.selectFrom('bank_import_rows').select('id').where('transaction_id', '=', id).execute();
  const rowIds = rows.map((r) => r.id);
  // Several payments in one entry go together, as the statement holding them is undone (removePayment refuses one alone).
  if (typeof target !== 'string' && target.length > 1 && rowIds.length === 0) {
    throw new AppError(
      'unprocessable_entity',
      `${field}: transaction ${id} is on no bank statement: only a statement’s line can pay several documents; record the payments one by one instead`,
      field,
    );
  }
  // The rows let go of the entry first: they refer to it. A refusal below rolls this back with the rest.
  if (rowIds.length > 0) await trx.updateTable('bank_import_rows').set({ transaction_id: null }).where('id', 'in', rowIds).execute();
  if (reconciled) await setReconciled(trx, posting, id, false);
  await removeTransaction(trx, id, `bank line ${id}`);
  const settled = await settleLine(trx, posting, bank, line, target, field);
  if (reconciled) {
    const now = await findTransactionRow(trx, settled.transactionId);
    // Reconciled as of the line's first reconciliation, not now (reconciling again keeps the first reconciledAt).
    if (now.is_reconciled !== 1) await setReconciled(trx, posting, settled.transactionId, true, reconciledAt);
  }
  await relinkRows(trx, rowIds, settled);
  return {
    removedTransactionId: id,
    transactionId: settled.transactionId,
    paymentId: settled.paymentId,
    payments: [...settled.payments],
    matchedTo: (await matchedTo(trx, [{ matched_kind: settled.kind, matched_id: settled.id }]))[0]!,
    amount: line.amount,
    date: line.date,
  };
}

/** What rows were matched to, with the documents' numbers, in order; null for a row not matched. */
export async function matchedTo(db: Kysely<OrgDb>, rows: readonly Pick<BankImportRowsTable, 'matched_kind' | 'matched_id'>[]): Promise<(MatchedTo | null)[]> {
  const documentIds = [
    ...new Set(rows.flatMap((r) => ((r.matched_kind === 'invoice' || r.matched_kind === 'bill') && r.matched_id !== null ? [r.matched_id] : []))),
  ];
  const numbers = new Map(
    documentIds.length === 0
      ? []
      : (await db.selectFrom('invoices').select(['id', 'number']).where('id', 'in', documentIds).execute()).map((d) => [d.id, d.number]),
  );
  return rows.map((r) =>
    r.matched_kind === null || r.matched_id === null ? null : { kind: r.matched_kind, id: r.matched_id, number: numbers.get(r.matched_id) ?? null },
  );
}

/** The payments each of the entries `transactionIds` holds, by entry, with their documents: what statement rows paid. */
export async function paymentsOfEntries(db: Kysely<OrgDb>, transactionIds: readonly string[]): Promise<Map<string, Paid[]>> {
  const out = new Map<string, Paid[]>();
  const rows = [];
  // A slice at a time: a long statement's ids would pass the databases' limits on a statement's parameters.
  for (let i = 0; i < transactionIds.length; i += 1000) {
    rows.push(
      ...(await db
        .selectFrom('payments')
        .innerJoin('invoices', 'invoices.id', 'payments.invoice_id')
        .select(['payments.id', 'payments.transaction_id', 'payments.amount', 'invoices.id as document_id', 'invoices.kind', 'invoices.number'])
        .where('payments.transaction_id', 'in', transactionIds.slice(i, i + 1000))
        .orderBy('payments.id')
        .execute()),
    );
  }
  for (const r of rows) {
    const paid: Paid = { paymentId: r.id, kind: r.kind === 'sales' ? 'invoice' : 'bill', id: r.document_id, number: r.number, amount: r.amount };
    const of = out.get(r.transaction_id);
    if (of) of.push(paid);
    else out.set(r.transaction_id, [paid]);
  }
  return out;
}
