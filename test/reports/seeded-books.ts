/**
 * Seeded books for the differential tests (not a test file itself): a
 * small seeded PRNG drives acct in-process through the operation registry
 * over several fiscal years (manual journals, invoices and bills with
 * several lines at every VAT rate, some left draft or voided, payments,
 * removed payments, credit notes, allocations, refunds and their removal),
 * and keeps its own records of what it did, from which model-journal.ts
 * writes the ledger as an accountant would, without acct's code.
 *
 * The model restates the documented money rules instead of importing them:
 * - a line (src/engine/sales/items.ts): net = quantity × unitPrice rounded
 *   to the nearest penny, halves away from zero; VAT = net × rate / 100
 *   rounded the same way; rates standard 20, reduced 5, zero and exempt 0;
 * - a credit note (src/engine/sales/credit-lines.ts): the whole document or
 *   chosen lines take each line's remainder (what earlier issued credit
 *   notes left of it); an amount is shared over the open lines in
 *   proportion to their remainders, whole pennies by largest remainder, and
 *   each share is split into net (rounded half away from zero) and VAT
 *   (the rest) in the line's own proportion;
 * - a credit note first settles what its document still owes; payments and
 *   allocations never exceed what is due, nor allocations and refunds the
 *   credit left (src/engine/sales/settle.ts, credits.ts).
 *
 * What the generator does is restricted to what this model predicts
 * exactly: dates never go backwards (so every date rule holds), no period
 * is closed and nothing is reconciled (so every removal is allowed), and a
 * credit note by amount is only made when every open line is positive and
 * the largest-remainder step has no tie at its cut (the order in which
 * credit-lines.ts breaks ties is not part of its documented rule); when it
 * would, the generator credits chosen lines instead.
 */
import assert from 'node:assert/strict';
import { addDays } from '../../src/engine/dates.js';
import { parseOperationInput } from '../../src/engine/input.js';
import { operations } from '../../src/engine/registry.js';
import type { Ctx } from '../../src/engine/operation.js';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rate = 'standard' | 'reduced' | 'zero' | 'exempt';
const percent: Readonly<Record<Rate, bigint>> = { standard: 20n, reduced: 5n, zero: 0n, exempt: 0n };

/** n / d to the nearest integer, halves away from zero (d > 0). */
function halfAway(n: bigint, d: bigint): bigint {
  const up = (m: bigint) => (2n * m + d) / (2n * d);
  return n < 0n ? -up(-n) : up(n);
}

/** Floor division (d > 0). */
const floorDiv = (n: bigint, d: bigint): bigint => (n >= 0n ? n / d : -((-n + d - 1n) / d));

export type DocKind = 'sales' | 'purchase';

/** The accounts each kind posts to, restated from the chart (fixtures/chart-of-accounts/uk.json). */
export const control: Readonly<Record<DocKind, string>> = { sales: '1100', purchase: '2100' };
export const vatAccount: Readonly<Record<DocKind, string>> = { sales: '2200', purchase: '2201' };
const lineAccounts: Readonly<Record<DocKind, readonly string[]>> = {
  sales: ['4000', '4100', '4200'],
  purchase: ['5000', '5100', '5200', '5300', '5800', '1010', '1300'],
};
const banks = ['1200', '1210', '1250'] as const;
/**
 * Manual journals use accounts of every type, the bank and VAT control
 * accounts included; not receivables (1100) nor payables (2100), which
 * manual journals may not post to (documents keep them).
 */
export const journalAccounts = [
  '1010',
  '1200',
  '1210',
  '1300',
  '9999',
  '2200',
  '2201',
  '2400',
  '2600',
  '3000',
  '3200',
  '4000',
  '4100',
  '4200',
  '5000',
  '5100',
  '5200',
  '5950',
];

export interface Line {
  readonly id: string;
  readonly account: string;
  readonly net: number;
  readonly vat: number;
}

export interface Payment {
  readonly id: string;
  readonly amount: number;
  readonly date: string;
  readonly bank: string;
  live: boolean;
}

export interface Allocation {
  readonly id: string;
  readonly note: Note;
  readonly doc: Doc;
  readonly amount: number;
  live: boolean;
}

export interface Doc {
  readonly kind: DocKind;
  readonly id: string;
  readonly contact: string;
  readonly date: string;
  readonly lines: readonly Line[];
  readonly total: number;
  status: 'draft' | 'issued' | 'void';
  readonly payments: Payment[];
  /** Credit allocated to this document. */
  readonly credits: Allocation[];
  /** Credit notes against this document. */
  readonly notes: Note[];
}

export interface NoteLine {
  readonly source: Line;
  readonly net: number;
  readonly vat: number;
}

export interface Note {
  readonly kind: DocKind;
  readonly id: string;
  readonly doc: Doc;
  readonly date: string;
  readonly lines: readonly NoteLine[];
  readonly total: number;
  status: 'issued' | 'void';
  readonly allocations: Allocation[];
  readonly refunds: Payment[];
}

export interface Journal {
  readonly date: string;
  readonly posted: boolean;
  readonly lines: readonly (readonly [string, number])[];
}

/** Everything the generator did, in the order it did it. */
export type Step =
  | { readonly type: 'doc'; readonly doc: Doc }
  | { readonly type: 'payment'; readonly doc: Doc; readonly payment: Payment }
  | { readonly type: 'note'; readonly note: Note }
  | { readonly type: 'refund'; readonly note: Note; readonly refund: Payment }
  | { readonly type: 'journal'; readonly journal: Journal };

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
const live = <T extends { live: boolean }>(xs: readonly T[]): T[] => xs.filter((x) => x.live);

export const paid = (d: Doc): number => sum(live(d.payments).map((p) => p.amount));
export const credited = (d: Doc): number => sum(live(d.credits).map((a) => a.amount));
/** What an issued document still owes. */
export const due = (d: Doc): number => (d.status === 'issued' ? d.total - paid(d) - credited(d) : 0);
export const allocated = (n: Note): number => sum(live(n.allocations).map((a) => a.amount));
export const refunded = (n: Note): number => sum(live(n.refunds).map((r) => r.amount));
export const remaining = (n: Note): number => (n.status === 'issued' ? n.total - allocated(n) - refunded(n) : 0);

/** What issued credit notes have left of a line. */
function remainder(doc: Doc, line: Line): { net: number; vat: number } {
  const taken = doc.notes.filter((n) => n.status === 'issued').flatMap((n) => n.lines.filter((l) => l.source === line));
  return { net: line.net - sum(taken.map((l) => l.net)), vat: line.vat - sum(taken.map((l) => l.vat)) };
}

const openLines = (doc: Doc) => doc.lines.map((line) => ({ line, ...remainder(doc, line) })).filter((r) => r.net !== 0 || r.vat !== 0);

/** The credit note lines of an amount, or null when the model cannot predict them (see the header). */
function apportion(doc: Doc, amount: number): NoteLine[] | null {
  const open = openLines(doc);
  if (open.some((o) => o.net < 0 || o.vat < 0)) return null;
  const totals = open.map((o) => BigInt(o.net + o.vat));
  const whole = totals.reduce((s, x) => s + x, 0n);
  const exact = totals.map((t) => BigInt(amount) * t);
  const shares = exact.map((x) => floorDiv(x, whole));
  const left = Number(BigInt(amount) - shares.reduce((s, x) => s + x, 0n));
  const fractions = exact.map((x, i) => x - shares[i]! * whole);
  const order = fractions.map((f, i) => ({ f, i })).sort((a, b) => (a.f === b.f ? 0 : a.f > b.f ? -1 : 1));
  if (left > 0 && left < order.length && order[left - 1]!.f === order[left]!.f) return null;
  for (const { i } of order.slice(0, left)) shares[i]! += 1n;
  return open.flatMap((o, i) => {
    const share = shares[i]!;
    if (share === 0n) return [];
    const net = Number(halfAway(share * BigInt(o.net), totals[i]!));
    return [{ source: o.line, net, vat: Number(share) - net }];
  });
}

// ---------------------------------------------------------------------------
// Driving acct in-process.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are read field by field
type Data = any;

/** Run an operation of the registry as an adapter would: its input parsed from params, query and body. */
export async function call(
  ctx: Ctx,
  name: string,
  params: Readonly<Record<string, string>> = {},
  body?: unknown,
  query: Readonly<Record<string, string>> = {},
): Promise<Data> {
  const op = operations.find((o) => o.name === name);
  assert.ok(op, `operation ${name}`);
  try {
    return (await op.run(ctx, parseOperationInput(op, { params: { ...params }, query: { ...query }, body }))).data;
  } catch (e) {
    throw new Error(`${name} ${JSON.stringify({ params, body })}: ${(e as Error).message}`, { cause: e });
  }
}

export interface SeededBooks {
  readonly records: readonly Step[];
  readonly first: string;
  readonly last: string;
  /** How many of each kind of operation acct accepted. */
  readonly tally: Readonly<Record<string, number>>;
}

export interface SeedOptions {
  /** The first day of the first fiscal year. */
  readonly start: string;
  /** No operation is dated after this day. */
  readonly end: string;
}

/**
 * Seeded books: contacts, then one operation at a time, each dated 0 to 4
 * days after the one before, until `end`. Every operation must be
 * accepted: a refusal means the model and acct disagree.
 */
export async function seedBooks(ctx: Ctx, seed: number, o: SeedOptions): Promise<SeededBooks> {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const between = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const chance = (p: number): boolean => random() < p;

  const chart = (await call(ctx, 'accounts.list', {}, undefined, { flat: 'true' })).accounts as { id: string; code: string }[];
  const acc = new Map(chart.map((a) => [a.code, a.id]));
  const id = (code: string): string => acc.get(code) ?? assert.fail(`account ${code} in the chart`);
  const contacts: Record<DocKind, string[]> = { sales: [], purchase: [] };
  for (const [kind, type, names] of [
    ['sales', 'customer', ['Harbour Cafe Ltd', 'Moor Farm Shop', 'Quayside Bakery', 'Northgate Hotel']],
    ['purchase', 'supplier', ['Paper Supplies Ltd', 'Mill Lane Flour', 'Coastal Energy']],
  ] as const) {
    for (const name of names) contacts[kind].push((await call(ctx, 'contacts.create', {}, { name, contactType: type })).id as string);
  }

  const records: Step[] = [];
  const docs: Doc[] = [];
  const notes: Note[] = [];
  const tally: Record<string, number> = {};
  const count = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);
  const base = (kind: DocKind) => (kind === 'sales' ? '/invoices' : '/bills');
  const ops = (kind: DocKind) =>
    kind === 'sales'
      ? { group: 'invoices', issue: 'send', noteGroup: 'credit-notes', field: 'invoiceId' }
      : { group: 'bills', issue: 'approve', noteGroup: 'supplier-credit-notes', field: 'billId' };

  async function createDoc(kind: DocKind, date: string): Promise<void> {
    const items: { description: string; quantity: number; unitPrice: number; vatRate: Rate; accountId: string }[] = [];
    const lines: { account: string; net: number; vat: number }[] = [];
    const add = (tenThousandths: number, unitPrice: number, rate: Rate, account: string) => {
      const net = Number(halfAway(BigInt(tenThousandths) * BigInt(unitPrice), 10_000n));
      items.push({ description: `Line ${items.length + 1}`, quantity: tenThousandths / 10_000, unitPrice, vatRate: rate, accountId: id(account) });
      lines.push({ account, net, vat: Number(halfAway(BigInt(net) * percent[rate], 100n)) });
    };
    const rates: Rate[] = ['standard', 'standard', 'standard', 'reduced', 'zero', 'exempt'];
    for (let i = between(1, 4); i > 0; i--) {
      add(pick([10_000, 20_000, 30_000, 5_000, 2_500, 12_500, 75_000, 3_333, 120_000, 16_667]), between(100, 150_000), pick(rates), pick(lineAccounts[kind]));
    }
    // Now and then a discount line, as long as the document still comes to more than zero.
    const gross = sum(lines.map((l) => l.net + l.vat));
    if (chance(0.06) && gross > 1000) add(10_000, -between(1, Math.floor(gross / 3)), pick(rates), pick(lineAccounts[kind]));
    const total = sum(lines.map((l) => l.net + l.vat));
    assert.ok(total > 0);
    const body = { contactId: pick(contacts[kind]), items, issueDate: date, dueDays: pick([0, 14, 30, 60]) };
    const made = await call(ctx, `${ops(kind).group}.create`, {}, kind === 'sales' ? body : { ...body, billNumber: `S-${docs.length + 1}` });
    const seen = (made.items as { id: string; netAmount: number; vatAmount: number }[]).map((i) => [i.netAmount, i.vatAmount]);
    assert.deepEqual(
      seen,
      lines.map((l) => [l.net, l.vat]),
      `${base(kind)} ${made.id}: acct prices each line as the model does`,
    );
    assert.equal(made.total, total, `${made.id}: total`);
    const doc: Doc = {
      kind,
      id: made.id,
      contact: body.contactId,
      date,
      lines: lines.map((l, i) => ({ ...l, id: made.items[i].id as string })),
      total,
      status: 'draft',
      payments: [],
      credits: [],
      notes: [],
    };
    docs.push(doc);
    records.push({ type: 'doc', doc });
    count(`${kind} draft`);
    if (chance(0.9)) {
      await call(ctx, `${ops(kind).group}.${ops(kind).issue}`, { id: doc.id }, kind === 'sales' ? {} : undefined);
      doc.status = 'issued';
      count(`${kind} issued`);
    }
  }

  async function pay(doc: Doc, date: string): Promise<void> {
    const owed = due(doc);
    const amount = chance(0.55) ? owed : between(1, owed);
    const bank = pick(banks);
    const r = await call(ctx, `${ops(doc.kind).group}.pay`, { id: doc.id }, { amount, date, accountId: id(bank) });
    const payment: Payment = { id: r.id, amount, date, bank, live: true };
    doc.payments.push(payment);
    records.push({ type: 'payment', doc, payment });
    assert.equal(r.amountDue, due(doc), `${doc.id}: due after a payment`);
    count(`${doc.kind} payment`);
  }

  async function unpay(doc: Doc, payment: Payment): Promise<void> {
    const r = await call(ctx, `${ops(doc.kind).group}.remove-payment`, { id: doc.id, paymentId: payment.id });
    payment.live = false;
    assert.equal(r.amountDue, due(doc), `${doc.id}: due after a payment is removed`);
    count(`${doc.kind} payment removed`);
  }

  async function creditNote(doc: Doc, date: string): Promise<void> {
    const open = openLines(doc);
    const left = sum(open.map((x) => x.net + x.vat));
    let body: { date: string; lineIds?: string[]; amount?: number } = { date };
    let lines: NoteLine[] | null = null;
    const mode = random();
    if (mode < 0.4) {
      const amount = chance(0.2) ? left : between(1, left);
      lines = apportion(doc, amount);
      if (lines) body = { ...body, amount };
    }
    if (!lines && mode < 0.75) {
      const chosen = open.filter(() => chance(0.5));
      // Lines worth more than is left (a discount line left out) are refused, as an amount over it is: not chosen.
      const worth = sum(chosen.map((x) => x.net + x.vat));
      if (chosen.length > 0 && worth > 0 && worth <= left) {
        body = { ...body, lineIds: chosen.map((x) => x.line.id) };
        lines = chosen.map((x) => ({ source: x.line, net: x.net, vat: x.vat }));
      }
    }
    if (!lines) lines = open.map((x) => ({ source: x.line, net: x.net, vat: x.vat }));
    const total = sum(lines.map((l) => l.net + l.vat));
    const owed = due(doc);
    const r = await call(ctx, `${ops(doc.kind).noteGroup}.create`, {}, { [ops(doc.kind).field]: doc.id, ...body });
    assert.deepEqual(
      [r.subtotal, r.vatAmount, r.total],
      [sum(lines.map((l) => l.net)), sum(lines.map((l) => l.vat)), total],
      `${r.id} ${JSON.stringify(body)}: its amounts`,
    );
    const note: Note = { kind: doc.kind, id: r.id, doc, date, lines, total, status: 'issued', allocations: [], refunds: [] };
    doc.notes.push(note);
    notes.push(note);
    records.push({ type: 'note', note });
    const applied = Math.min(total, owed);
    assert.equal(r.allocated, applied, `${note.id}: settles what ${doc.id} owed`);
    if (applied > 0) {
      const allocation: Allocation = { id: r.allocations[0].id, note, doc, amount: applied, live: true };
      note.allocations.push(allocation);
      doc.credits.push(allocation);
    }
    count(`${doc.kind} credit note ${body.amount !== undefined ? 'amount' : body.lineIds ? 'lines' : 'whole'}`);
  }

  async function allocate(note: Note, doc: Doc, date: string): Promise<void> {
    const most = Math.min(remaining(note), due(doc));
    const amount = chance(0.5) ? most : between(1, most);
    const r = await call(ctx, `${ops(note.kind).noteGroup}.allocate`, { id: note.id }, { [ops(note.kind).field]: doc.id, amount, date });
    const allocation: Allocation = { id: r.id, note, doc, amount, live: true };
    note.allocations.push(allocation);
    doc.credits.push(allocation);
    assert.equal(r.remainingCredit, remaining(note), `${note.id}: credit left after an allocation`);
    count(`${note.kind} allocation`);
  }

  async function unallocate(a: Allocation): Promise<void> {
    const r = await call(ctx, `${ops(a.note.kind).noteGroup}.remove-allocation`, { id: a.note.id, allocationId: a.id });
    a.live = false;
    assert.equal(r.remainingCredit, remaining(a.note), `${a.note.id}: credit left after an allocation is removed`);
    count(`${a.note.kind} allocation removed`);
  }

  async function refund(note: Note, date: string): Promise<void> {
    const amount = chance(0.5) ? remaining(note) : between(1, remaining(note));
    const bank = pick(banks);
    const r = await call(ctx, `${ops(note.kind).noteGroup}.refund`, { id: note.id }, { amount, date, accountId: id(bank) });
    const row: Payment = { id: r.id, amount, date, bank, live: true };
    note.refunds.push(row);
    records.push({ type: 'refund', note, refund: row });
    count(`${note.kind} refund`);
  }

  async function unrefund(note: Note, row: Payment): Promise<void> {
    await call(ctx, `${ops(note.kind).noteGroup}.remove-refund`, { id: note.id, refundId: row.id });
    row.live = false;
    count(`${note.kind} refund removed`);
  }

  async function voidNote(note: Note): Promise<void> {
    await call(ctx, `${ops(note.kind).noteGroup}.void`, { id: note.id });
    note.status = 'void';
    for (const a of note.allocations) a.live = false;
    count(`${note.kind} credit note voided`);
  }

  async function voidDoc(doc: Doc): Promise<void> {
    await call(ctx, `${ops(doc.kind).group}.void`, { id: doc.id });
    count(`${doc.kind} ${doc.status} voided`);
    doc.status = 'void';
  }

  async function journal(date: string): Promise<void> {
    const n = between(2, 5);
    const amounts = Array.from({ length: n - 1 }, () => Math.round((random() - 0.5) * 2_000_000) || 1);
    amounts.push(-sum(amounts));
    if (amounts[n - 1] === 0) {
      amounts[0]! += 7;
      amounts[n - 1] = -7;
    }
    const lines = amounts.map((amount) => [pick(journalAccounts), amount] as const);
    const posted = chance(0.88);
    await call(
      ctx,
      'transactions.create',
      {},
      {
        date,
        description: `Journal ${records.length}`,
        status: posted ? 'posted' : 'draft',
        lines: lines.map(([code, amount]) => ({ accountId: id(code), amount })),
      },
    );
    records.push({ type: 'journal', journal: { date, posted, lines } });
    count(posted ? 'journal' : 'journal draft');
  }

  const issued = () => docs.filter((d) => d.status === 'issued');
  let date = o.start;
  let last = o.start;
  while (date <= o.end) {
    last = date;
    const owing = issued().filter((d) => due(d) > 0);
    const payments = docs.flatMap((d) => live(d.payments).map((p) => [d, p] as const));
    const creditable = issued().filter((d) => openLines(d).length > 0 && sum(openLines(d).map((x) => x.net + x.vat)) > 0);
    const withCredit = notes.filter((n) => remaining(n) > 0);
    const targets = withCredit.flatMap((n) => owing.filter((d) => d.kind === n.kind && d.contact === n.doc.contact).map((d) => [n, d] as const));
    const allocations = notes.filter((n) => n.status === 'issued').flatMap((n) => live(n.allocations));
    const refunds = notes.flatMap((n) => live(n.refunds).map((r) => [n, r] as const));
    const voidableNotes = notes.filter((n) => n.status === 'issued' && refunded(n) === 0);
    const voidableDocs = docs.filter(
      (d) => d.status !== 'void' && live(d.payments).length === 0 && d.notes.every((n) => n.status === 'void') && live(d.credits).length === 0,
    );
    const choices: [number, () => Promise<void>][] = [
      [14, () => createDoc('sales', date)],
      [10, () => createDoc('purchase', date)],
      [6, () => journal(date)],
      [owing.length > 0 ? 14 : 0, () => pay(pick(owing), date)],
      [payments.length > 0 ? 3 : 0, () => unpay(...pick(payments))],
      [creditable.length > 0 ? 5 : 0, () => creditNote(pick(creditable), date)],
      [targets.length > 0 ? 4 : 0, () => allocate(...pick(targets), date)],
      [allocations.length > 0 ? 1.5 : 0, () => unallocate(pick(allocations))],
      [withCredit.length > 0 ? 3 : 0, () => refund(pick(withCredit), date)],
      [refunds.length > 0 ? 1 : 0, () => unrefund(...pick(refunds))],
      [voidableNotes.length > 0 ? 1 : 0, () => voidNote(pick(voidableNotes))],
      [voidableDocs.length > 0 ? 2 : 0, () => voidDoc(pick(voidableDocs))],
    ];
    let at = random() * sum(choices.map(([w]) => w));
    const chosen = choices.find(([w]) => (at -= w) < 0) ?? choices[0]!;
    await chosen[1]();
    date = addDays(date, between(0, 4));
  }
  return { records, first: o.start, last, tally };
}
