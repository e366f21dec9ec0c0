// test-order: first (about a minute of one core: the longest property run)
/**
 * Property (issue 12): the receivables and payables invariants hold after
 * every step of random sequences over HTTP of: invoices sent and bills
 * approved (some left draft), payments (in part, in full, too much),
 * removed payments (also through another document: 404), credit notes
 * (whole, a chosen line, an amount, more than is left), credit allocated
 * (to the same contact's documents, to another contact's, more than
 * allowed), removed allocations, refunds (some too large), removed
 * refunds, voided credit notes and voided documents (refused once paid or
 * credited).
 *
 * Before each step the books are read through the API, and from them the
 * rules of the issue say whether the step must be accepted or refused.
 * After every step, reading through the API only:
 * - 1100 = Σ amountDue of issued invoices − Σ remainingCredit of issued
 *   credit notes, and each customer's summary `outstanding` is their share;
 * - 2100 = −(Σ amountDue of issued bills − Σ remainingCredit of issued
 *   supplier credit notes);
 * - aged debtors' total today = 1100, aged creditors' = −2100;
 * - the trial balance balances and the stored ledger is sound;
 * and a refused step answers a 4xx and changes no row of any table and
 * nothing the API shows. Replay with the seed the test prints:
 * ACCT_RECEIVABLES_SEED=… ACCT_RECEIVABLES_RUNS=… npx tap <this file>.
 */
import assert from 'node:assert/strict';
import t from 'tap';
import fc from 'fast-check';
import { addDays } from '../../src/engine/dates.js';
import { testDatabaseUrl, type Reply } from '../helpers/index.js';
import { checkStoredLedger, clock, openBench, openLedger, rowCounts, show, type Ledger } from './support.js';

const seed = Number(process.env['ACCT_RECEIVABLES_SEED'] ?? 20261121);
// Fewer sequences on PostgreSQL, where each request's queries are round trips (30 took 2 to 5 minutes there, in
// CI past its 300 s limit): that pass checks the store behaves the same, the SQLite pass the rules in depth.
const numRuns = Number(process.env['ACCT_RECEIVABLES_RUNS'] ?? (testDatabaseUrl() ? 15 : 30));
const today = clock.slice(0, 10);

type Kind = 'sales' | 'purchase';
type Amount = 'all' | 'part' | 'over';

interface ItemSpec {
  quantity: number;
  unitPrice: number;
  vatRate: 'standard' | 'reduced' | 'zero' | 'exempt';
}

type Op =
  | { op: 'issue'; kind: Kind; contact: number; items: ItemSpec[]; daysAgo: number; draft: boolean }
  | { op: 'pay'; kind: Kind; n: number; amount: Amount; x: number; aim: boolean }
  | { op: 'unpay'; kind: Kind; n: number; elsewhere: boolean }
  | { op: 'credit'; kind: Kind; n: number; mode: 'whole' | 'line' | 'amount' | 'over'; x: number; aim: boolean }
  | { op: 'allocate'; kind: Kind; n: number; m: number; amount: Amount; x: number; otherContact: boolean; aim: boolean }
  | { op: 'unallocate'; kind: Kind; n: number }
  | { op: 'refund'; kind: Kind; n: number; amount: Amount; x: number; aim: boolean }
  | { op: 'unrefund'; kind: Kind; n: number }
  | { op: 'void-note'; kind: Kind; n: number; aim: boolean }
  | { op: 'void-doc'; kind: Kind; n: number };

const paths = {
  sales: { docs: '/v1/invoices', notes: '/v1/credit-notes', field: 'invoiceId', issue: 'send', open: ['sent', 'overdue'], issued: ['sent', 'overdue', 'paid'] },
  purchase: {
    docs: '/v1/bills',
    notes: '/v1/supplier-credit-notes',
    field: 'billId',
    issue: 'approve',
    open: ['approved', 'overdue'],
    issued: ['approved', 'overdue', 'paid'],
  },
} as const;

interface DocRow {
  id: string;
  status: string;
  contactId: string;
  total: number;
  amountPaid: number;
  amountDue: number;
}

interface NoteRow {
  id: string;
  status: string;
  contactId: string;
  total: number;
  allocated: number;
  refunded: number;
  remainingCredit: number;
  invoiceId?: string;
  billId?: string;
}

/** What the API shows of one kind: its documents and credit notes, oldest first. */
interface Books {
  docs: DocRow[];
  notes: NoteRow[];
}

async function ok(l: Ledger, path: string): Promise<Reply['body']> {
  const r = await l.api.request('GET', path);
  assert.equal(r.status, 200, `GET ${path}: ${show(r)}`);
  return r.body;
}

/**
 * The order in which this test made each document and credit note: the
 * clock stands still and ids end in random characters, so the API's own
 * order would differ between a run and its replay.
 */
type Made = Map<string, number>;

async function read(l: Ledger, kind: Kind, made: Made): Promise<Books> {
  const list = async <T extends { id: string }>(path: string) => {
    const body = await ok(l, `${path}?limit=100`);
    assert.equal(body.meta.hasMore, false, `${path} fits one page`);
    return (body.data as T[]).sort((a, b) => (made.get(a.id) ?? 0) - (made.get(b.id) ?? 0));
  };
  return { docs: await list<DocRow>(paths[kind].docs), notes: await list<NoteRow>(paths[kind].notes) };
}

const docOf = (n: NoteRow): string => (n.invoiceId ?? n.billId) as string;
const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
/** An amount from 1 to `most` (all: most; part: somewhere in between; over: one penny more). */
const amountOf = (how: Amount, x: number, most: number): number =>
  how === 'all' ? most : how === 'over' ? most + 1 : 1 + Math.floor(x * Math.max(most - 1, 0));

/** What is left to credit of each line of a document: its lines less those of its issued credit notes. */
async function lineRemainders(l: Ledger, kind: Kind, docId: string): Promise<{ id: string; left: number }[]> {
  const doc = (await ok(l, `${paths[kind].docs}/${docId}`)).data;
  const notes = (await ok(l, `${paths[kind].notes}?${paths[kind].field}=${docId}&status=issued&limit=100`)).data as { id: string }[];
  const taken = new Map<string, number>();
  for (const n of notes) {
    for (const i of (await ok(l, `${paths[kind].notes}/${n.id}`)).data.items as { sourceLineId: string; lineTotal: number }[]) {
      taken.set(i.sourceLineId, (taken.get(i.sourceLineId) ?? 0) + i.lineTotal);
    }
  }
  return (doc.items as { id: string; lineTotal: number }[]).map((i) => ({ id: i.id, left: i.lineTotal - (taken.get(i.id) ?? 0) }));
}

/** A request, and whether the rules say it must be accepted; null when the step has nothing to aim at. */
type Plan = { method: string; path: string; body?: unknown; accept: boolean; why: string } | null;

async function plan(l: Ledger, o: Op, b: Books, contacts: Record<Kind, string[]>): Promise<Plan> {
  const p = paths[o.kind];
  // Aimed at the documents or credit notes an operation can succeed on (or, for some, fail on); at any when there are none.
  const pickDoc = (n: number, among: readonly string[] | null = null, paidFirst = false) => {
    const aimed = b.docs.filter((d) => among === null || among.includes(d.status));
    const paid = aimed.filter((d) => d.amountPaid > 0 && (d.status === 'paid' || n % 3 === 0));
    const docs = paidFirst && paid.length > 0 ? paid : aimed.length > 0 ? aimed : b.docs;
    return docs[n % Math.max(docs.length, 1)];
  };
  const pickNote = (n: number, among: (x: NoteRow) => boolean = () => true, strictly = false) => {
    const aimed = b.notes.filter(among);
    const notes = aimed.length > 0 || strictly ? aimed : b.notes;
    return notes[n % Math.max(notes.length, 1)];
  };
  switch (o.op) {
    case 'issue':
      return null;
    case 'pay': {
      const d = pickDoc(o.n, o.aim ? p.open : null);
      if (!d) return null;
      const open = (p.open as readonly string[]).includes(d.status);
      const amount = amountOf(o.amount, o.x, open ? d.amountDue : 100);
      return {
        method: 'POST',
        path: `${p.docs}/${d.id}/payments`,
        body: { amount, date: today },
        accept: open && amount <= d.amountDue,
        why: `pay ${amount} of ${d.amountDue} due on a ${d.status} document`,
      };
    }
    case 'unpay': {
      const paidInPart = b.docs.filter((x) => x.amountPaid > 0);
      const d = paidInPart[o.n % Math.max(paidInPart.length, 1)];
      if (!d) return null;
      const payments = (await ok(l, `${p.docs}/${d.id}`)).data.payments as { id: string }[];
      const payment = payments[o.n % Math.max(payments.length, 1)];
      if (!payment) return null;
      const other = b.docs.find((x) => x.id !== d.id);
      if (o.elsewhere && other)
        return { method: 'DELETE', path: `${p.docs}/${other.id}/payments/${payment.id}`, accept: false, why: "remove another document's payment" };
      return { method: 'DELETE', path: `${p.docs}/${d.id}/payments/${payment.id}`, accept: true, why: 'remove a payment' };
    }
    case 'credit': {
      // Aimed at documents paid (or now and then paid in part), whose credit notes leave the contact credit to allocate or refund.
      const d = pickDoc(o.n, o.aim ? p.issued : null, true);
      if (!d) return null;
      const creditable = (p.issued as readonly string[]).includes(d.status);
      const lines = await lineRemainders(l, o.kind, d.id);
      const left = sum(lines.map((x) => x.left));
      const body: Record<string, unknown> = { [p.field]: d.id };
      let accept = creditable && left > 0;
      let why = `${o.mode} credit of a ${d.status} document with ${left} left`;
      if (o.mode === 'line') {
        const line = lines[Math.floor(o.x * lines.length)]!;
        body['lineIds'] = [line.id];
        accept = creditable && line.left > 0;
        why = `credit a line with ${line.left} left of a ${d.status} document`;
      } else if (o.mode === 'amount' || o.mode === 'over') {
        body['amount'] = amountOf(o.mode === 'over' ? 'over' : 'part', o.x, Math.max(left, 1));
        accept &&= (body['amount'] as number) <= left;
        why = `credit ${String(body['amount'])} of a ${d.status} document with ${left} left`;
      }
      return { method: 'POST', path: p.notes, body, accept, why };
    }
    case 'allocate': {
      const owing = (contact: string) => b.docs.some((d) => d.contactId === contact && (p.open as readonly string[]).includes(d.status));
      const note = pickNote(o.n, (x) => !o.aim || (x.remainingCredit > 0 && (o.otherContact || owing(x.contactId))));
      if (!note) return null;
      const others = contacts[o.kind].filter((c) => c !== note.contactId);
      const targets = b.docs.filter(
        (d) => (o.otherContact ? others.includes(d.contactId) : d.contactId === note.contactId) && (!o.aim || (p.open as readonly string[]).includes(d.status)),
      );
      const d = targets[o.m % Math.max(targets.length, 1)];
      if (!d) return null;
      const open = (p.open as readonly string[]).includes(d.status);
      const most = Math.min(note.remainingCredit, d.amountDue);
      const amount = amountOf(o.amount, o.x, Math.max(most, 1));
      const accept = note.status === 'issued' && !o.otherContact && open && amount <= most;
      return {
        method: 'POST',
        path: `${p.notes}/${note.id}/allocations`,
        body: { [p.field]: d.id, amount },
        accept,
        why: `allocate ${amount} of ${note.remainingCredit} credit (${note.status}) to ${o.otherContact ? "another contact's" : 'a'} ${d.status} document owing ${d.amountDue}`,
      };
    }
    case 'unallocate':
    case 'unrefund': {
      const note = pickNote(o.n, (x) => (o.op === 'unallocate' ? x.allocated : x.refunded) > 0, true);
      if (!note) return null;
      const view = (await ok(l, `${p.notes}/${note.id}`)).data;
      const rows = (o.op === 'unallocate' ? view.allocations : view.refunds) as { id: string }[];
      const row = rows[o.n % Math.max(rows.length, 1)];
      if (!row) return null;
      return { method: 'DELETE', path: `${p.notes}/${note.id}/${o.op === 'unallocate' ? 'allocations' : 'refunds'}/${row.id}`, accept: true, why: o.op };
    }
    case 'refund': {
      const note = pickNote(o.n, (x) => !o.aim || x.remainingCredit > 0);
      if (!note) return null;
      const amount = amountOf(o.amount, o.x, Math.max(note.remainingCredit, 1));
      return {
        method: 'POST',
        path: `${p.notes}/${note.id}/refunds`,
        body: { amount, date: today },
        accept: note.status === 'issued' && amount <= note.remainingCredit,
        why: `refund ${amount} of ${note.remainingCredit} credit (${note.status})`,
      };
    }
    case 'void-note': {
      // Aimed at credit notes with refunds, which must be refused.
      const note = pickNote(o.n, (x) => !o.aim || x.refunded > 0);
      if (!note) return null;
      return {
        method: 'POST',
        path: `${p.notes}/${note.id}/void`,
        accept: note.status === 'issued' && note.refunded === 0,
        why: `void a ${note.status} credit note with ${note.refunded} refunded`,
      };
    }
    case 'void-doc': {
      const d = pickDoc(o.n);
      if (!d) return null;
      const view = (await ok(l, `${p.docs}/${d.id}`)).data;
      const noted = b.notes.some((n) => n.status === 'issued' && docOf(n) === d.id);
      const accept = d.status !== 'void' && view.payments.length === 0 && view.credits.length === 0 && !noted;
      return {
        method: 'POST',
        path: `${p.docs}/${d.id}/void`,
        accept,
        why: `void a ${d.status} document with ${view.payments.length} payments, ${view.credits.length} credits${noted ? ', credited' : ''}`,
      };
    }
  }
}

/** Create an invoice or bill over HTTP; sent or approved unless it stays a draft. */
async function issue(l: Ledger, o: Extract<Op, { op: 'issue' }>, contacts: Record<Kind, string[]>, made: Made): Promise<void> {
  const p = paths[o.kind];
  const items = o.items.map((i, n) => ({ description: `Line ${n + 1}`, ...i }));
  const r = await l.api.request('POST', p.docs, {
    body: { contactId: contacts[o.kind][o.contact % 2], items, issueDate: addDays(today, -o.daysAgo), dueDays: 30 },
  });
  assert.equal(r.status, 201, show(r));
  made.set(r.body.data.id as string, made.size);
  if (o.draft) return;
  const sent = await l.api.request('POST', `${p.docs}/${r.body.data.id}/${p.issue}`, o.kind === 'sales' ? { body: {} } : {});
  assert.equal(sent.status, 200, show(sent));
}

/** The invariants of the issue, read through the API. */
async function checkInvariants(l: Ledger, contacts: Record<Kind, string[]>, made: Made): Promise<void> {
  const net = async (code: string) => (await ok(l, `/v1/accounts/${l.ids.get(code)}/balance`)).data.balance.net as number;
  const owed = (b: Books, kind: Kind, contact?: string) => {
    const mine = <T extends { contactId: string }>(xs: T[]) => xs.filter((x) => contact === undefined || x.contactId === contact);
    const due = sum(
      mine(b.docs)
        .filter((d) => (paths[kind].issued as readonly string[]).includes(d.status))
        .map((d) => d.amountDue),
    );
    return (
      due -
      sum(
        mine(b.notes)
          .filter((n) => n.status === 'issued')
          .map((n) => n.remainingCredit),
      )
    );
  };
  const sales = await read(l, 'sales', made);
  const purchases = await read(l, 'purchase', made);
  const receivable = await net('1100');
  const payable = await net('2100');
  assert.equal(receivable, owed(sales, 'sales'), '1100 is what customers owe, net of their credit');
  assert.equal(payable, 0 - owed(purchases, 'purchase'), '2100 is what is owed to suppliers, net of their credit');
  let outstanding = 0;
  for (const c of contacts.sales) {
    const summary = (await ok(l, `/v1/contacts/${c}/summary`)).data.summary;
    assert.equal(summary.outstanding, owed(sales, 'sales', c), `contact ${c}: outstanding is what their invoices owe less their credit`);
    outstanding += summary.outstanding as number;
  }
  assert.equal(outstanding, receivable, "the customers' outstanding sums to 1100");
  assert.equal((await ok(l, `/v1/reports/aged-debtors?asOfDate=${today}`)).data.totals.total, receivable, 'aged debtors total 1100');
  assert.equal((await ok(l, `/v1/reports/aged-creditors?asOfDate=${today}`)).data.totals.total, 0 - payable, 'aged creditors total −2100');
  assert.equal((await ok(l, '/v1/reports/trial-balance')).data.balanced, true, 'the trial balance balances');
  await checkStoredLedger(l);
}

const kind = fc.constantFrom<Kind>('sales', 'purchase');
const n = fc.nat({ max: 1000 });
const x = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const amount = fc.constantFrom<Amount>('all', 'all', 'part', 'part', 'over');
/** Mostly aimed at what the operation can succeed on. */
const aim = fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
const item: fc.Arbitrary<ItemSpec> = fc.record({
  quantity: fc.constantFrom(1, 1, 2, 3, 0.5, 7.5),
  unitPrice: fc.integer({ min: 100, max: 200_000 }),
  vatRate: fc.constantFrom('standard' as const, 'standard' as const, 'reduced' as const, 'zero' as const, 'exempt' as const),
});
const issueOp = (kinds: fc.Arbitrary<Kind>, draft: fc.Arbitrary<boolean>): fc.Arbitrary<Op> =>
  fc.record({
    op: fc.constant('issue' as const),
    kind: kinds,
    contact: n,
    items: fc.array(item, { minLength: 1, maxLength: 3 }),
    daysAgo: fc.nat({ max: 120 }),
    draft,
  });
/**
 * Each sequence starts with two invoices sent and two bills approved, the
 * first of each paid and then credited in full (credit left to allocate or
 * refund), so that the operations after them have something to aim at.
 */
const start: fc.Arbitrary<Op[]> = fc
  .tuple(...(['sales', 'sales', 'purchase', 'purchase'] as const).map((k) => issueOp(fc.constant(k), fc.constant(false))))
  .map((issued) => [
    ...issued,
    ...(['sales', 'purchase'] as const).flatMap((k): Op[] => [
      { op: 'pay', kind: k, n: 0, amount: 'all', x: 0, aim: true },
      { op: 'credit', kind: k, n: 0, mode: 'whole', x: 0, aim: true },
    ]),
  ]);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: issueOp(kind, fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('pay' as const), kind, n, amount, x, aim }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('unpay' as const), kind, n, elsewhere: fc.boolean() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('credit' as const),
      kind,
      n,
      mode: fc.constantFrom('whole' as const, 'whole' as const, 'line' as const, 'amount' as const, 'amount' as const, 'over' as const),
      x,
      aim,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('allocate' as const),
      kind,
      n,
      m: n,
      amount,
      x,
      otherContact: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      aim,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('unallocate' as const), kind, n }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('refund' as const), kind, n, amount, x, aim }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('unrefund' as const), kind, n }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('void-note' as const), kind, n, aim: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void-doc' as const), kind, n }) },
);

t.test('receivables and payables equal what contacts owe, net of credit, after every step', async (t) => {
  const bench = await openBench(t);
  const seen = new Map<string, number>();
  const see = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
  const tally = { accepted: 0, refused: 0 };
  t.comment(`fast-check seed ${seed}, ${numRuns} runs (replay: ACCT_RECEIVABLES_SEED=${seed} ACCT_RECEIVABLES_RUNS=${numRuns})`);

  await fc.assert(
    fc.asyncProperty(start, fc.array(op, { minLength: 10, maxLength: 40, size: 'max' }), async (first, then) => {
      const ops = [...first, ...then];
      // Each sequence starts from new books, so that shrinking replays it from the same start.
      const l = await openLedger(bench);
      const contacts: Record<Kind, string[]> = { sales: [], purchase: [] };
      const made: Made = new Map();
      for (const [k, type, names] of [
        ['sales', 'customer', ['Harbour Cafe Ltd', 'Moor Farm Shop']],
        ['purchase', 'supplier', ['Paper Supplies Ltd', 'Mill Lane Flour']],
      ] as const) {
        for (const name of names) {
          const r = await l.api.request('POST', '/v1/contacts', { body: { name, contactType: type } });
          assert.equal(r.status, 201, show(r));
          contacts[k].push(r.body.data.id as string);
        }
      }
      for (const o of ops) {
        if (o.op === 'issue') {
          await issue(l, o, contacts, made);
          see(`issue ${o.kind} accepted`);
          await checkInvariants(l, contacts, made);
          continue;
        }
        const before = await read(l, o.kind, made);
        const p = await plan(l, o, before, contacts);
        if (!p) continue;
        const rows = await rowCounts(l);
        const r = await l.api.request(p.method, p.path, p.body === undefined ? {} : { body: p.body });
        const what = `${o.op} ${o.kind}: ${p.why} (${p.method} ${p.path} ${JSON.stringify(p.body ?? {})})`;
        assert.ok(r.status < 500, `no 5xx: ${what} → ${show(r)}`);
        const accepted = r.status >= 200 && r.status < 300;
        assert.equal(accepted, p.accept, `${what}: the rules say ${p.accept ? 'accept' : 'refuse'}, acct answered ${show(r)}`);
        see(`${o.op} ${o.kind} ${accepted ? 'accepted' : 'refused'}`);
        if (accepted) {
          tally.accepted++;
          if (o.op === 'credit') made.set(r.body.data.id as string, made.size);
        } else {
          tally.refused++;
          assert.equal(r.body.success, false, show(r));
          assert.deepEqual(await rowCounts(l), rows, `a refused ${what} adds or removes no row`);
          assert.deepEqual(await read(l, o.kind, made), before, `a refused ${what} changes no document or credit note`);
        }
        await checkInvariants(l, contacts, made);
      }
    }),
    { seed, numRuns },
  );

  t.pass(`${numRuns} sequences hold: ${tally.accepted} operations accepted, ${tally.refused} refused`);
  const some = (what: string, kinds: readonly Kind[] = ['sales', 'purchase']) =>
    t.ok(
      kinds.some((k) => seen.has(`${what.split(' ')[0]} ${k} ${what.split(' ')[1]}`)),
      `some ${what} (${kinds.join(' or ')})`,
    );
  for (const name of ['pay', 'credit', 'allocate', 'refund', 'void-note', 'void-doc']) {
    for (const k of ['sales', 'purchase'] as const) some(`${name} accepted`, [k]);
    some(`${name} refused`);
  }
  for (const name of ['unpay', 'unallocate', 'unrefund']) some(`${name} accepted`);
  some('unpay refused');
  t.comment(
    `outcomes seen:\n${[...seen]
      .sort()
      .map(([what, times]) => `${what}: ${times}`)
      .join('\n')}`,
  );
});
