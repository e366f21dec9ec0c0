/**
 * The scorer's suggestion for transactions with a line on the suspense
 * account (9999): the bank line read as the bank showed it (its
 * description, reference and amount on the bank-controlled account, and
 * the name of the contact its lines name, which contact_name rules read), and
 * the inbox of every such transaction, oldest first, each with the bank
 * account it is on; and the invoice, bill or entry the line seems to be
 * (bank-matches.ts).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { pence } from '../schema.js';
import { day } from '../output.js';
import { listPage, pageMeta, type Page } from '../pagination.js';
import { suspenseAccountId } from '../ledger/posting.js';
import { findTransactionRow } from '../ledger/transaction-view.js';
import { accountRef, accountRefSchema } from '../ledger/accounts.js';
import { provenances, ruleFields, type BankLineInput } from '../categorisation/rule.js';
import { decisionSchema, decisionView, type Categoriser } from './rules-store.js';
import { matchSchema, suggestMatches, type Match } from './bank-matches.js';
import type { OrgDb, TransactionsTable } from '../../store/tables.js';

export const suggestionSchema = z.strictObject({
  transactionId: z.string(),
  date: day(),
  description: z.string(),
  reference: z.string().nullable(),
  amount: pence().describe('the bank line: money in positive, out negative'),
  bankAccount: accountRefSchema
    .nullable()
    .describe('the bank account’s ledger account the line is on (1200 …): which account it came from; null for a line on no bank account, or on several'),
  onSuspense: z.boolean().describe('false once categorised: the suggestion is then only what the rules would say'),
  confidence: z.number().nullable().describe('0 to 1 when the rules know the account'),
  matchedOn: z.enum(ruleFields).nullable(),
  ruleType: z.enum(provenances).nullable(),
  decision: decisionSchema,
  suggestedMatch: matchSchema
    .nullable()
    .describe('the open invoice or bill the line seems to pay, or the entry already holding its money: POST /transactions/{id}/match'),
});
export type Suggestion = z.output<typeof suggestionSchema>;

interface BankSide {
  readonly amount: number;
  readonly onSuspense: boolean;
  /** The bank-controlled accounts of its lines, which no rule may send the line to. */
  readonly accounts: readonly string[];
  /** The contact its lines name, when they name one only. */
  readonly contactId: string | undefined;
}

/** The bank line's amount: the lines on bank-controlled accounts, else the suspense line's opposite. */
async function bankAmounts(db: Kysely<OrgDb>, ids: readonly string[], suspense: string | undefined): Promise<Map<string, BankSide>> {
  const out = new Map<string, BankSide>();
  if (ids.length === 0) return out;
  const lines = await db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .select(['lines.transaction_id', 'lines.amount', 'lines.account_id', 'lines.contact_id', 'accounts.control_type'])
    .where('lines.transaction_id', 'in', ids)
    .execute();
  for (const id of ids) {
    const mine = lines.filter((l) => l.transaction_id === id);
    const bank = mine.filter((l) => l.control_type === 'bank');
    const onSuspense = mine.filter((l) => l.account_id === suspense);
    const amount = bank.length > 0 ? bank.reduce((s, l) => s + l.amount, 0) : -onSuspense.reduce((s, l) => s + l.amount, 0);
    const contacts = [...new Set(mine.flatMap((l) => (l.contact_id === null ? [] : [l.contact_id])))];
    out.set(id, {
      amount,
      onSuspense: onSuspense.length > 0,
      accounts: bank.map((l) => l.account_id),
      contactId: contacts.length === 1 ? contacts[0] : undefined,
    });
  }
  return out;
}

/** The names of the lines' contacts, by contact id. */
async function contactNames(db: Kysely<OrgDb>, sides: Iterable<BankSide>): Promise<Map<string, string>> {
  const ids = [...new Set([...sides].flatMap((b) => (b.contactId === undefined ? [] : [b.contactId])))];
  if (ids.length === 0) return new Map();
  const contacts = await db.selectFrom('contacts').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(contacts.map((c) => [c.id, c.name]));
}

function suggestion(rules: Categoriser, row: TransactionsTable, bank: BankSide, match: Match | null, contactName: string | undefined): Suggestion {
  const line: BankLineInput = { description: row.description, reference: row.reference ?? undefined, amount: bank.amount, contactName };
  // A reconciled line goes to no bank account (posting.ts refuses it: the line would count as reconciled there), so no rule suggests one.
  const refused = row.is_reconciled === 1 ? [...rules.accounts.values()].filter((a) => a.control_type === 'bank').map((a) => a.id) : bank.accounts;
  const decision = rules.decide(line, refused);
  const known = decision.kind === 'Known' ? decision.evidence : null;
  const banks = [...new Set(bank.accounts)];
  const account = banks.length === 1 ? rules.accounts.get(banks[0]!) : undefined;
  return {
    transactionId: row.id,
    date: row.date,
    description: row.description,
    reference: row.reference,
    amount: bank.amount,
    bankAccount: account === undefined ? null : accountRef(account),
    onSuspense: bank.onSuspense,
    confidence: known?.confidence ?? null,
    matchedOn: known?.matchedField ?? null,
    ruleType: known?.provenance ?? null,
    decision: decisionView(decision, rules.accounts),
    suggestedMatch: bank.onSuspense ? match : null,
  };
}

/** The suggested match of each line on suspense with one bank account, bank account by bank account; null for the others. */
async function matchesOf(db: Kysely<OrgDb>, rows: readonly TransactionsTable[], amounts: ReadonlyMap<string, BankSide>): Promise<(Match | null)[]> {
  const out: (Match | null)[] = rows.map(() => null);
  const byBank = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const side = amounts.get(r.id)!;
    const banks = [...new Set(side.accounts)];
    if (side.onSuspense && banks.length === 1) byBank.set(banks[0]!, [...(byBank.get(banks[0]!) ?? []), i]);
  });
  const own = new Set(rows.map((r) => r.id));
  // Only a statement's line can pay several documents (bank-matches.ts): a line posted by hand is suggested one at most.
  const onStatements =
    byBank.size === 0
      ? new Set<string | null>()
      : new Set(
          (
            await db
              .selectFrom('bank_import_rows')
              .select('transaction_id')
              .where('transaction_id', 'in', [...own])
              .execute()
          ).map((r) => r.transaction_id),
        );
  for (const [bank, at] of byBank) {
    const lines = at.map((i) => ({
      date: rows[i]!.date,
      amount: amounts.get(rows[i]!.id)!.amount,
      description: rows[i]!.description,
      reference: rows[i]!.reference,
      onStatement: onStatements.has(rows[i]!.id),
    }));
    const found = await suggestMatches(db, bank, lines, own);
    at.forEach((i, n) => (out[i] = found[n] ?? null));
  }
  return out;
}

export async function suggestionFor(db: Kysely<OrgDb>, rules: Categoriser, id: string): Promise<Suggestion> {
  const row = await findTransactionRow(db, id);
  const amounts = await bankAmounts(db, [id], await suspenseAccountId(db));
  const [match] = await matchesOf(db, [row], amounts);
  const names = await contactNames(db, amounts.values());
  const bank = amounts.get(id)!;
  return suggestion(rules, row, bank, match ?? null, bank.contactId === undefined ? undefined : names.get(bank.contactId));
}

/** A page of the posted transactions with a line on suspense, oldest first, each with the rules' suggestion. */
export async function inbox(db: Kysely<OrgDb>, rules: Categoriser, page: { readonly page: number; readonly limit: number }): Promise<Page<Suggestion>> {
  const suspense = await suspenseAccountId(db);
  if (suspense === undefined) return { rows: [], meta: pageMeta(0, page.page, page.limit) };
  const onSuspense = db
    .selectFrom('transactions')
    .where('id', 'in', db.selectFrom('lines').select('transaction_id').where('account_id', '=', suspense))
    .where('status', '=', 'posted');
  const { rows, meta } = await listPage(onSuspense, (q) => q.selectAll().orderBy('date').orderBy('created_at').orderBy('id'), page);
  const amounts = await bankAmounts(
    db,
    rows.map((r) => r.id),
    suspense,
  );
  const matches = await matchesOf(db, rows, amounts);
  const names = await contactNames(db, amounts.values());
  const suggested = rows.map((r, i) => {
    const bank = amounts.get(r.id)!;
    return suggestion(rules, r, bank, matches[i] ?? null, bank.contactId === undefined ? undefined : names.get(bank.contactId));
  });
  return { rows: suggested, meta };
}
