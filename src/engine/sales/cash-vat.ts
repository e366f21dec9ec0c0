/**
 * The VAT facts of money, for the cash basis (VAT Notice 731): VAT is due
 * when the customer pays and reclaimed when the supplier is paid, so a
 * payment against an invoice or a bill carries its share of the document's
 * VAT and net (entries of basis cash, documentId the document, dated the
 * payment's date). They are written on every payment whatever the basis
 * now set: a cash-basis return counts them, an accrual one the documents'
 * own entries, so a change of basis rewrites nothing.
 *
 * What a document's payments pay for (its cluster): the document less the
 * credit allocated to it, that is its own entries and, for each credit note
 * allocated to it, the part of that note's (negative) entries its
 * allocations there carry (below), kept under the note's id. A credit
 * agreed before payment thus reduces what is paid, and the payments carry
 * the VAT of what is left, at its rates (HMRC's VCAS5250: no adjustment,
 * the payment record shows the revised amount). Each group of entries
 * (sale or purchase, rate, reclaimed, capital, the account holding the
 * VAT) is shared apart, so filing clears the accounts the VAT sits on.
 *
 * Rounding is cumulative, so the shares sum exactly to the VAT once the
 * document is settled: with P paid of a cluster of total T less credit
 * allocated A, a group of VAT V and gross G (net + VAT) has had
 * round(V × P / (T − A)) of VAT and round(G × P / (T − A)) less that of
 * net, to the penny with halves away from zero, and a payment's entry is
 * that less what the cluster's entries already hold. Without credit this is
 * share_k = round(V × paid_k / T) − round(V × paid_(k−1) / T). Measuring
 * against what is recorded, not the previous payment, lets the next
 * settlement true up after a payment or an allocation is removed.
 *
 * A note's credit is used in parts (allocations to documents, refunds),
 * and its entries are shared over those uses the same way, in the order
 * they were made: the use that takes the note from U_(k−1) to U_k of its
 * total N carries round(V × U_k / N) − round(V × U_(k−1) / N) of a group's
 * VAT, and so for gross. The parts of a note used in full thus sum to its
 * VAT exactly, as the document's own shares do; a cluster counts its
 * note parts × P / (T − A) like its own entries.
 *
 * Credit allocated to a document already part paid changes what those
 * payments paid for, so the allocation trues the cluster up at its date: a
 * new credit note in its own transaction, spare credit allocated later in
 * a journal (allocation-journal.ts). Nothing is written while nothing is
 * paid. Worked: £120.00 with £20.00 VAT, £60.00 paid, counts £10.00; a
 * £60.00 credit note (VAT £10.00) settling the rest leaves a cluster of
 * £60.00, all paid, holding the invoice's £20.00 and the note's −£10.00:
 * its transaction adds £10.00 under the invoice and −£10.00 under the note,
 * £10.00 in all, the VAT of the £60.00 received. A refund of credit
 * carries the part of the note's entries its refunds carry, at its date.
 */
import type { Kysely } from 'kysely';
import type { VatEntryInput } from '../ledger/vat-entries.js';
import { divideRound } from './credit-lines.js';
import type { CreditNotesTable, InvoicesTable, OrgDb } from '../../store/tables.js';

/** The sourceType of the journal carrying an allocation's shares (allocation-journal.ts). */
export const allocationSource = 'credit_allocation';
/** The sourceType of a refund's transaction, and of the journals that share a note's VAT again over its refunds. */
export const refundSource = 'refund';

/** The facts a share is cut from. */
export type EntryFacts = Pick<VatEntryInput, 'direction' | 'rate' | 'net' | 'vat' | 'reclaimable' | 'capital' | 'vatAccountId'>;

interface Group {
  readonly documentId: string;
  readonly facts: Omit<EntryFacts, 'net' | 'vat'>;
  net: number;
  vat: number;
}

type Groups = Map<string, Group>;

const keyOf = (documentId: string, f: Omit<EntryFacts, 'net' | 'vat'>): string =>
  JSON.stringify([documentId, f.direction, f.rate, f.reclaimable, f.capital === true, f.vatAccountId]);

function add(groups: Groups, documentId: string, f: EntryFacts): void {
  const facts = { direction: f.direction, rate: f.rate, reclaimable: f.reclaimable, capital: f.capital === true, vatAccountId: f.vatAccountId };
  const key = keyOf(documentId, facts);
  const g = groups.get(key) ?? { documentId, facts, net: 0, vat: 0 };
  g.net += f.net;
  g.vat += f.vat;
  groups.set(key, g);
}

type EntryRow = {
  document_id: string | null;
  direction: EntryFacts['direction'];
  rate: number | null;
  reclaimable: number;
  capital: number;
  vat_account_id: string;
  net: number;
  vat: number;
};

const factsOf = (r: EntryRow): EntryFacts => ({
  direction: r.direction,
  rate: r.rate,
  reclaimable: r.reclaimable === 1,
  capital: r.capital === 1,
  vatAccountId: r.vat_account_id,
  net: Number(r.net),
  vat: Number(r.vat),
});

const entryColumns = ['document_id', 'direction', 'rate', 'reclaimable', 'capital', 'vat_account_id', 'net', 'vat'] as const;

/** The accrual entries of documents, by document. */
async function accrualEntries(db: Kysely<OrgDb>, documentIds: readonly string[]): Promise<EntryRow[]> {
  if (documentIds.length === 0) return [];
  return db.selectFrom('vat_entries').select(entryColumns).where('basis', '=', 'accrual').where('document_id', 'in', documentIds).execute();
}

/**
 * The cash entries the given transactions hold, grouped (added to `into`
 * when given): only those of document `only`, or of the lines `lines`.
 */
async function recorded(
  db: Kysely<OrgDb>,
  transactionIds: readonly string[],
  { only, lines, into }: { readonly only?: string; readonly lines?: readonly string[]; readonly into?: Groups } = {},
): Promise<Groups> {
  const groups: Groups = into ?? new Map<string, Group>();
  if (transactionIds.length === 0) return groups;
  let q = db.selectFrom('vat_entries').select(entryColumns).where('basis', '=', 'cash').where('transaction_id', 'in', transactionIds);
  if (only !== undefined) q = q.where('document_id', '=', only);
  if (lines !== undefined) q = q.where('line_id', 'in', lines);
  for (const r of await q.execute()) if (r.document_id !== null) add(groups, r.document_id, factsOf(r));
  return groups;
}

/** A share of a group: its fraction num / den of VAT and gross, the net the difference. */
function target(g: Group, num: bigint, den: bigint): { net: number; vat: number } {
  if (num === 0n || den === 0n) return { net: 0, vat: 0 };
  const vat = Number(divideRound(BigInt(g.vat) * num, den));
  const gross = Number(divideRound(BigInt(g.net + g.vat) * num, den));
  return { net: gross - vat, vat };
}

/** A use of a credit note's credit: an allocation to a document, or a refund (documentId null). */
interface Use {
  readonly documentId: string | null;
  readonly amount: number;
}

/** An id's time and sequence, which orders ids made one after another whatever their prefix (ids.ts). */
const sequenceOf = (id: string): string => id.slice(id.indexOf('_') + 1);

/** The uses of a note's credit in the order they were made, then `pending`, the one being made. */
async function usesOf(db: Kysely<OrgDb>, noteId: string, pending?: Use): Promise<Use[]> {
  const [allocations, refunds] = await Promise.all([
    db.selectFrom('credit_allocations').select(['id', 'invoice_id', 'amount', 'created_at']).where('credit_note_id', '=', noteId).execute(),
    db.selectFrom('refunds').select(['id', 'amount', 'created_at']).where('credit_note_id', '=', noteId).execute(),
  ]);
  // Timestamps are ISO 8601 of one width, so the text orders them; the id's sequence orders those made in one millisecond.
  const made = [
    ...allocations.map((a) => ({ documentId: a.invoice_id, amount: a.amount, order: `${a.created_at} ${sequenceOf(a.id)}` })),
    ...refunds.map((r) => ({ documentId: null, amount: r.amount, order: `${r.created_at} ${sequenceOf(r.id)}` })),
  ].sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return pending ? [...made, pending] : made;
}

/**
 * The part of a note's group that its uses for `documentId` (null: its
 * refunds) carry. Each use carries what the uses up to it carry less what
 * those before it do, so that the parts of all its uses sum exactly to the
 * group: £1.00 of credit with 17p of VAT used as 50p and 50p carries 9p and
 * 8p, where rounding each half apart would give 9p twice.
 */
function partOf(g: Group, total: number, uses: readonly Use[], documentId: string | null): Group {
  const den = BigInt(total);
  let before = 0n;
  let net = 0;
  let vat = 0;
  for (const use of uses) {
    const after = before + BigInt(use.amount);
    if (use.documentId === documentId) {
      const [from, to] = [target(g, before, den), target(g, after, den)];
      net += to.net - from.net;
      vat += to.vat - from.vat;
    }
    before = after;
  }
  return { ...g, net, vat };
}

/** What the targets add to what is recorded: one entry per group that moves. */
function trueUp(targets: Map<string, { group: Group; net: number; vat: number }>, held: Groups): VatEntryInput[] {
  const out: VatEntryInput[] = [];
  for (const key of new Set([...targets.keys(), ...held.keys()])) {
    const t = targets.get(key);
    const h = held.get(key);
    const group = (t?.group ?? h)!;
    const net = (t?.net ?? 0) - (h?.net ?? 0);
    const vat = (t?.vat ?? 0) - (h?.vat ?? 0);
    if (net === 0 && vat === 0) continue;
    out.push({ documentId: group.documentId, basis: 'cash', ...group.facts, net, vat });
  }
  return out;
}

/** What settles a document now, besides what is already recorded. */
export interface Settling {
  /** A payment being made. */
  readonly payment?: number;
  /** Credit being allocated from a credit note; its entries when they are not yet written (a new note). */
  readonly credit?: { readonly noteId: string; readonly total: number; readonly amount: number; readonly entries?: readonly EntryFacts[] };
}

/**
 * The cash entries that bring an invoice's or bill's cluster to its share
 * of what is paid, once `now` is recorded: a payment's own share, or the
 * true-up an allocation makes.
 */
export async function documentShares(db: Kysely<OrgDb>, doc: InvoicesTable, now: Settling): Promise<VatEntryInput[]> {
  const paid = BigInt(doc.amount_paid + (now.payment ?? 0));
  const allocated = await db
    .selectFrom('credit_allocations')
    .innerJoin('credit_notes', 'credit_notes.id', 'credit_allocations.credit_note_id')
    .select((eb) => ['credit_notes.id', 'credit_notes.total', eb.fn.sum<number>('credit_allocations.amount').as('amount')])
    .where('credit_allocations.invoice_id', '=', doc.id)
    .groupBy(['credit_notes.id', 'credit_notes.total'])
    .execute();
  const notes = new Map(allocated.map((a) => [a.id, { total: a.total, amount: Number(a.amount) }]));
  if (now.credit) {
    const n = notes.get(now.credit.noteId);
    notes.set(now.credit.noteId, { total: now.credit.total, amount: (n?.amount ?? 0) + now.credit.amount });
  }
  const credited = [...notes.values()].reduce((s, n) => s + n.amount, 0);
  const base = BigInt(doc.total - credited);

  const own: Groups = new Map();
  const fromNotes: Groups = new Map();
  for (const r of await accrualEntries(db, [doc.id, ...notes.keys()]))
    if (r.document_id !== null) add(r.document_id === doc.id ? own : fromNotes, r.document_id, factsOf(r));
  if (now.credit?.entries) for (const e of now.credit.entries) add(fromNotes, now.credit.noteId, e);

  const uses = new Map<string, Use[]>();
  for (const noteId of notes.keys())
    uses.set(noteId, await usesOf(db, noteId, now.credit?.noteId === noteId ? { documentId: doc.id, amount: now.credit.amount } : undefined));
  const targets = new Map<string, { group: Group; net: number; vat: number }>();
  for (const [key, g] of own) targets.set(key, { group: g, ...target(g, paid, base) });
  for (const [key, g] of fromNotes) {
    const part = partOf(g, notes.get(g.documentId)!.total, uses.get(g.documentId)!, doc.id);
    targets.set(key, { group: g, ...target(part, paid, base) });
  }

  // The cluster's transactions: the document's payments, its credit notes and the journals of credit allocated to it.
  const [payments, creditNotes, journals] = await Promise.all([
    db.selectFrom('payments').select(['transaction_id as id', 'line_id']).where('invoice_id', '=', doc.id).execute(),
    db.selectFrom('credit_notes').select('transaction_id as id').where('invoice_id', '=', doc.id).where('transaction_id', 'is not', null).execute(),
    db
      .selectFrom('transactions')
      .select('id')
      .where('source_type', '=', allocationSource)
      .where('source_id', 'in', (eb) => eb.selectFrom('credit_allocations').select('id').where('invoice_id', '=', doc.id))
      .execute(),
  ]);
  // A payment's entry may hold other documents' payments too (one bank line paying several): there only the entries of its own line count.
  const ids = [...payments.filter((p) => p.line_id === null), ...creditNotes, ...journals].map((r) => r.id).filter((id): id is string => id !== null);
  const shared = payments.flatMap((p) => (p.line_id === null ? [] : [p]));
  const held = await recorded(db, ids);
  if (shared.length > 0)
    await recorded(
      db,
      shared.map((p) => p.id),
      { lines: shared.map((p) => p.line_id!), into: held },
    );
  return trueUp(targets, held);
}

/** The cash entries of a refund of credit (`refund`, 0 to true up only): the part of the note's entries its refunds carry, less what they hold. */
export async function refundShares(db: Kysely<OrgDb>, note: CreditNotesTable, refund: number): Promise<VatEntryInput[]> {
  const groups: Groups = new Map();
  for (const r of await accrualEntries(db, [note.id])) add(groups, note.id, factsOf(r));
  const uses = await usesOf(db, note.id, { documentId: null, amount: refund });
  const targets = new Map(
    [...groups].map(([key, g]) => {
      const part = partOf(g, note.total, uses, null);
      return [key, { group: g, net: part.net, vat: part.vat }];
    }),
  );
  // The refunds' own transactions and the journals that trued their shares up, all of sourceType refund.
  const refunds = await db
    .selectFrom('transactions')
    .select('id')
    .where('source_type', '=', refundSource)
    .where('source_id', 'in', (eb) => eb.selectFrom('refunds').select('id').where('credit_note_id', '=', note.id))
    .execute();
  return trueUp(
    targets,
    await recorded(
      db,
      refunds.map((r) => r.id),
      { only: note.id },
    ),
  );
}
