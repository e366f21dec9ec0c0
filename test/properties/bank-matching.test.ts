/**
 * Property: matching bank lines to what the books hold of their money
 * (bank-matches.ts) never counts money twice and never pays a document more
 * than it owes. Each case is a new organisation, over HTTP on a real port:
 * up to four invoices sent and three bills approved on 1 February 2024
 * (whole pence, standard 20%, zero or exempt; sometimes two of the same
 * amount, so that only a number or a contact's name tells them apart),
 * sometimes a payment recorded by hand on one invoice (in part or in full,
 * in February or March), then a CSV statement of March 2024 whose lines are
 * the amounts due of some documents (an invoice's in, a bill's out), the
 * amounts due of two documents of one kind together (naming both numbers),
 * the payment by hand's amount, and other amounts, some naming a document's
 * number or a contact; it is uploaded and confirmed with acceptMatches.
 *
 * Which line takes what is worked out here from the rule bank-matches.ts
 * documents, restated without its code: lines in file order; a line of the
 * payment by hand's amount dated within 14 days of it takes that entry
 * (once); else the open document due exactly the line's amount (bills
 * negative), not taken already, named by number, else the only one of them
 * of the contact the line names, else the only one; else the open documents
 * the line names by number, not taken, of its direction, when two or more
 * and due exactly its amount together (one entry paying them all). Every expected figure
 * comes from this test's own arithmetic (a total is net + 20% VAT when
 * standard, rounded to the penny; never half a penny, as 20% of whole pence
 * is a multiple of 0.2p), never from the code under test. Then:
 * 1. 1200 in the trial balance = the statement's lines + the payment by
 *    hand, less that payment again when a line was matched to its entry:
 *    its money is on the bank once (a line outside the 14 days is another
 *    line and is counted);
 * 2. no document owes less than nothing or is paid more than its total,
 *    each owes what the model says, and Σ (total − amountDue) = the lines
 *    that paid documents + the payment by hand;
 * 3. created + matched + skipped + rejected = the rows; matched is 1 when
 *    the entry by hand was taken, else 0; paid = the documents whose
 *    amountDue the statement changed; the upload's suggestions and the
 *    confirmed rows' matchedTo are what the model says;
 * 4. the trial balance balances (debits = credits, added up here);
 * 5. undo puts the trial balance back exactly as before the upload, and
 *    every document's amountDue; the entry by hand stays.
 * Replay with the seed the test prints:
 * ACCT_BANK_MATCHING_SEED=… ACCT_BANK_MATCHING_RUNS=… npx tap <this file>.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { defaultOrganisation, newBooks, serveBooks, type Api, type Reply } from '../helpers/index.js';

const seed = Number(process.env['ACCT_BANK_MATCHING_SEED'] ?? 20261125);
const numRuns = Number(process.env['ACCT_BANK_MATCHING_RUNS'] ?? 20);
const issueDate = '2024-02-01';
const asOf = '2024-12-31';
/** How far apart a line and the entry by hand may be dated for one to be matched to the other: the documented 14 days. */
const windowDays = 14;
const customers = ['Harbour Cafe Ltd', 'Moor Farm Shop'] as const;
const suppliers = ['Paper Supplies Ltd', 'Mill Lane Flour'] as const;

type Rate = 'standard' | 'zero' | 'exempt';
interface DocSpec {
  contact: number;
  net: number;
  rate: Rate;
}
interface HandSpec {
  invoice: number;
  /** all: the whole total; a number in [0, 1): a part of it. */
  share: 'all' | number;
  /** Days after the issue date (1 February 2024): up to 31 March. */
  day: number;
}
type Pays = { kind: 'invoice' | 'bill'; n: number } | { kind: 'pair'; of: 'invoice' | 'bill'; n: number; m: number } | { kind: 'hand' } | { kind: 'other' };
interface LineSpec {
  pays: Pays;
  /** The line's amount when it pays nothing (or there is nothing of its kind): never 0. */
  amount: number;
  /** The day of March 2024. */
  day: number;
  /** For the payment by hand's line: its date this many days from the payment's (kept in March). */
  near: number;
  words: string;
  names: { what: 'nothing' } | { what: 'number' | 'contact'; doc: number };
}
interface World {
  invoices: DocSpec[];
  bills: DocSpec[];
  hand: HandSpec | null;
  lines: LineSpec[];
}

interface Doc {
  kind: 'invoice' | 'bill';
  id: string;
  number: string;
  contact: string;
  total: number;
  /** Owed before the statement, as this test worked it out. */
  due: number;
}
interface Line {
  date: string;
  /** Money in positive, out negative. */
  amount: number;
  description: string;
  /** The document numbers the line names, in order: none, one, or two (a line paying two). */
  namesNumbers: string[];
  namesContact: string | null;
}
/** What a line is matched to: the entry by hand, a document (its index), several documents (their indexes), or nothing. */
type Target = 'entry' | number | number[] | null;

const ok = (r: Reply, status: number, what: string) => {
  assert.equal(r.status, status, `${what}: ${r.status} ${JSON.stringify(r.body?.error)}`);
  return r.body.data;
};
const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const addDays = (iso: string, days: number): string => new Date((dayNumber(iso) + days) * 86_400_000).toISOString().slice(0, 10);
const pad = (n: number): string => String(n).padStart(2, '0');
/** Pence as the statement writes pounds: -850.00, 1234.56. */
const pounds = (p: number): string => `${p < 0 ? '-' : ''}${Math.floor(Math.abs(p) / 100)}.${pad(Math.abs(p) % 100)}`;
/** 20% VAT on whole pence, to the nearest penny (a fifth of whole pence is never half a penny). */
const vatOf = (net: number, rate: Rate): number => (rate === 'standard' ? Math.round(net / 5) : 0);
/** What a document's line on the statement would be: an invoice's money in, a bill's out. */
const signed = (d: Doc, amount: number): number => (d.kind === 'invoice' ? amount : -amount);

/** The documented matching rule, restated: see the header. */
function predict(docs: readonly Doc[], entry: { amount: number; date: string } | null, lines: readonly Line[]): Target[] {
  let entryTaken = false;
  const taken = new Set<number>();
  return lines.map((line) => {
    if (entry && !entryTaken && line.amount === entry.amount && Math.abs(dayNumber(line.date) - dayNumber(entry.date)) <= windowDays) {
      entryTaken = true;
      return 'entry';
    }
    const same = docs.flatMap((d, i) => (!taken.has(i) && d.due !== 0 && signed(d, d.due) === line.amount && issueDate <= line.date ? [i] : []));
    const byNumber = same.filter((i) => line.namesNumbers.includes(docs[i]!.number));
    const byContact = same.filter((i) => docs[i]!.contact === line.namesContact);
    const pick = byNumber[0] ?? (byContact.length === 1 ? byContact[0] : same.length === 1 ? same[0] : undefined);
    if (pick !== undefined) {
      taken.add(pick);
      return pick;
    }
    const named = [
      ...new Set(
        line.namesNumbers.flatMap((number) =>
          docs.flatMap((d, i) =>
            d.number === number && !taken.has(i) && d.due !== 0 && Math.sign(signed(d, d.due)) === Math.sign(line.amount) && issueDate <= line.date ? [i] : [],
          ),
        ),
      ),
    ];
    if (named.length < 2 || sum(named.map((i) => signed(docs[i]!, docs[i]!.due))) !== line.amount) return null;
    for (const i of named) taken.add(i);
    return named;
  });
}

// ---------------------------------------------------------------------------
// Generators.

/** Mostly any amount; now and then one of a few, so that two documents are due the same. */
const net = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 500_000 }) }, { weight: 1, arbitrary: fc.constantFrom(10_000, 25_000) });
const doc: fc.Arbitrary<DocSpec> = fc.record({ contact: fc.nat({ max: 1 }), net, rate: fc.constantFrom<Rate>('standard', 'standard', 'zero', 'exempt') });
const hand: fc.Arbitrary<HandSpec> = fc.record({
  invoice: fc.nat({ max: 3 }),
  share: fc.oneof(fc.constant('all' as const), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })),
  // 14 February to 31 March: the lines of March are sometimes within 14 days of it, sometimes not.
  day: fc.integer({ min: 13, max: 59 }),
});
const otherAmount = fc
  .oneof(fc.integer({ min: 1, max: 500_000 }), fc.integer({ min: -500_000, max: -1 }), fc.integer({ min: -2_000, max: 2_000 }))
  .filter((a) => a !== 0);
const line: fc.Arbitrary<LineSpec> = fc.record({
  pays: fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('invoice' as const), n: fc.nat({ max: 3 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('bill' as const), n: fc.nat({ max: 2 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('pair' as const),
        of: fc.constantFrom('invoice' as const, 'bill' as const),
        n: fc.nat({ max: 3 }),
        m: fc.nat({ max: 3 }),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'hand' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'other' as const }) },
  ),
  amount: otherAmount,
  day: fc.integer({ min: 1, max: 31 }),
  // Often at the edge of the 14 days.
  near: fc.oneof(fc.integer({ min: -16, max: 16 }), fc.constantFrom(-15, -14, 14, 15)),
  words: fc.constantFrom('Faster payment', 'Bank transfer', 'Card payment', 'Standing order'),
  names: fc.oneof(
    { weight: 2, arbitrary: fc.constant({ what: 'nothing' as const }) },
    { weight: 1, arbitrary: fc.record({ what: fc.constantFrom('number' as const, 'contact' as const), doc: fc.nat({ max: 6 }) }) },
  ),
});
const world: fc.Arbitrary<World> = fc.record({
  invoices: fc.array(doc, { minLength: 1, maxLength: 4 }),
  bills: fc.array(doc, { maxLength: 3 }),
  hand: fc.option(hand, { freq: 3 }),
  lines: fc.array(line, { minLength: 1, maxLength: 8 }),
});

// ---------------------------------------------------------------------------

interface TrialBalance {
  accounts: { code: string; debit: number; credit: number }[];
  totals: { debit: number; credit: number };
  balanced: boolean;
}

t.test('bank lines matched at confirm: the bank holds each line once, no document is overpaid, undo restores the books', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const server = await serveBooks(t, books);
  let organisations = 0;
  const seen = new Map<string, number>();
  const see = (what: string, n = 1) => seen.set(what, (seen.get(what) ?? 0) + n);
  t.comment(`fast-check seed ${seed}, ${numRuns} runs (replay: ACCT_BANK_MATCHING_SEED=${seed} ACCT_BANK_MATCHING_RUNS=${numRuns})`);

  await fc.assert(
    fc.asyncProperty(world, async (w) => {
      // Each case its own organisation, so that shrinking replays it from nothing.
      const created = await createOrganisation(books.store, books.clock, { ...defaultOrganisation, name: `Matching Property ${++organisations}` });
      const api: Api = { url: server.url, request: (m, p, o = {}) => server.request(m, p, { ...o, key: created.apiKey }) };
      const get = async (path: string) => ok(await api.request('GET', path), 200, `GET ${path}`);
      const post = async (path: string, body: unknown, status: number) => ok(await api.request('POST', path, { body }), status, `POST ${path}`);
      const chart = (await get('/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
      const acc = new Map(chart.map((a) => [a.code, a.id]));
      const contactIds = new Map<string, string>();
      for (const [type, names] of [
        ['customer', customers],
        ['supplier', suppliers],
      ] as const) {
        for (const name of names) contactIds.set(name, (await post('/v1/contacts', { contactType: type, name }, 201)).id as string);
      }

      // The documents, with their totals worked out here.
      const docs: Doc[] = [];
      for (const spec of w.invoices) {
        const contact = customers[spec.contact]!;
        const inv = await post(
          '/v1/invoices',
          {
            contactId: contactIds.get(contact),
            issueDate,
            dueDays: 30,
            items: [{ description: 'Design work', quantity: 1, unitPrice: spec.net, vatRate: spec.rate }],
          },
          201,
        );
        await post(`/v1/invoices/${inv.id}/send`, {}, 200);
        const total = spec.net + vatOf(spec.net, spec.rate);
        assert.equal(inv.total, total, `invoice of ${spec.net} net at ${spec.rate}: total ${total}`);
        docs.push({ kind: 'invoice', id: inv.id as string, number: inv.invoiceNumber as string, contact, total, due: total });
      }
      for (const [i, spec] of w.bills.entries()) {
        const contact = suppliers[spec.contact]!;
        const number = `SUP-${101 + i}`;
        const bill = await post(
          '/v1/bills',
          {
            contactId: contactIds.get(contact),
            billNumber: number,
            issueDate,
            dueDays: 30,
            items: [{ description: 'Supplies', quantity: 1, unitPrice: spec.net, vatRate: spec.rate, accountId: acc.get('5100') }],
          },
          201,
        );
        await post(`/v1/bills/${bill.id}/approve`, undefined, 200);
        const total = spec.net + vatOf(spec.net, spec.rate);
        assert.equal(bill.total, total, `bill of ${spec.net} net at ${spec.rate}: total ${total}`);
        docs.push({ kind: 'bill', id: bill.id as string, number, contact, total, due: total });
      }
      const invoices = docs.filter((d) => d.kind === 'invoice');
      const bills = docs.filter((d) => d.kind === 'bill');

      // The payment by hand, through 1200 (the default bank account).
      let entry: { amount: number; date: string; transactionId: string } | null = null;
      if (w.hand) {
        const d = invoices[w.hand.invoice % invoices.length]!;
        const amount = w.hand.share === 'all' ? d.total : 1 + Math.floor(w.hand.share * (d.total - 1));
        const date = addDays(issueDate, w.hand.day);
        const payment = await post(`/v1/invoices/${d.id}/payments`, { amount, date, method: 'bank_transfer' }, 201);
        d.due -= amount;
        entry = { amount, date, transactionId: payment.transactionId as string };
      }
      const handAmount = entry?.amount ?? 0;

      // The statement.
      const lines: Line[] = w.lines.map((s) => {
        let amount = s.amount;
        let date = `2024-03-${pad(s.day)}`;
        if (s.pays.kind === 'invoice') {
          const d = invoices[s.pays.n % invoices.length]!;
          amount = d.due > 0 ? d.due : d.total;
        } else if (s.pays.kind === 'bill' && bills.length > 0) {
          const d = bills[s.pays.n % bills.length]!;
          amount = -d.due;
        }
        const pair: Doc[] = [];
        if (s.pays.kind === 'pair') {
          const of = s.pays.of === 'invoice' ? invoices : bills;
          if (of.length >= 2) {
            const first = s.pays.n % of.length;
            const second = s.pays.m % of.length === first ? (first + 1) % of.length : s.pays.m % of.length;
            pair.push(of[first]!, of[second]!);
            amount = sum(pair.map((d) => signed(d, d.due)));
            if (amount === 0) amount = s.amount;
          }
        } else if (s.pays.kind === 'hand' && entry) {
          amount = entry.amount;
          const near = addDays(entry.date, s.near);
          date = near < '2024-03-01' ? '2024-03-01' : near > '2024-03-31' ? '2024-03-31' : near;
        }
        const named = s.names.what === 'nothing' ? undefined : docs[s.names.doc % docs.length]!;
        const namesNumbers = pair.length > 0 ? pair.map((d) => d.number) : s.names.what === 'number' ? [named!.number] : [];
        const namesContact = pair.length === 0 && s.names.what === 'contact' ? named!.contact : null;
        return { date, amount, description: [s.words, ...namesNumbers, namesContact].filter(Boolean).join(' '), namesNumbers, namesContact };
      });
      const file = ['Date,Description,Amount', ...lines.map((l) => `${l.date.slice(8)}/03/2024,${l.description},${pounds(l.amount)}`), ''].join('\n');
      const targets = predict(docs, entry, lines);
      const entryMatched = targets.includes('entry');
      const paidBy = new Map(
        targets.flatMap((target, i) => (typeof target === 'number' ? [[target, i] as const] : Array.isArray(target) ? target.map((d) => [d, i] as const) : [])),
      );
      const paying = targets.flatMap((target, i) => (typeof target === 'number' || Array.isArray(target) ? [i] : []));
      const what = `statement:\n${file}\ndocuments: ${JSON.stringify(docs)}\nentry by hand: ${JSON.stringify(entry)}\npredicted: ${JSON.stringify(targets)}`;

      const dues = async () =>
        Promise.all(
          docs.map(
            async (d) => (await get(`/v1/${d.kind === 'invoice' ? 'invoices' : 'bills'}/${d.id}`)) as { total: number; amountPaid: number; amountDue: number },
          ),
        );
      const trialBalance = async () => (await get(`/v1/reports/trial-balance?asOf=${asOf}`)) as TrialBalance;
      const bank = (tb: TrialBalance) => {
        const a = tb.accounts.find((x) => x.code === '1200');
        return a === undefined ? 0 : a.debit - a.credit;
      };

      const before = await trialBalance();
      const dueBefore = await dues();
      assert.deepEqual(
        dueBefore.map((d) => d.amountDue),
        docs.map((d) => d.due),
        `before the statement each document owes its total less the payment by hand\n${what}`,
      );
      assert.equal(bank(before), handAmount, 'before the statement 1200 holds the payment by hand');

      const up = await post('/v1/bank-imports/upload', { file, filename: 'march.csv' }, 201);
      assert.equal(up.totalRows, lines.length, `every line read\n${what}`);
      const expectedMatch = (target: Target) => {
        if (target === null) return null;
        if (target === 'entry') return { kind: 'transaction', id: entry!.transactionId };
        const first = docs[typeof target === 'number' ? target : target[0]!]!;
        return { kind: first.kind, id: first.id };
      };
      const expectedDocuments = (target: Target) => (target === null || target === 'entry' ? [] : [target].flat().map((i) => docs[i]!.id));
      assert.deepEqual(
        (up.preview as { suggestedMatch: { kind: string; id: string; documents: { id: string }[] } | null }[]).map((r) =>
          r.suggestedMatch ? { kind: r.suggestedMatch.kind, id: r.suggestedMatch.id, documents: r.suggestedMatch.documents.map((d) => d.id) } : null,
        ),
        targets.map((target) => (target === null ? null : { ...expectedMatch(target), documents: expectedDocuments(target) })),
        `the upload suggests what the rule says\n${what}`,
      );

      const done = await post(`/v1/bank-imports/${up.importId}/confirm`, { acceptMatches: true }, 200);
      const after = await trialBalance();
      const dueAfter = await dues();

      // 1. The bank holds each line once, and the payment by hand once.
      const expectedBank = sum(lines.map((l) => l.amount)) + handAmount - (entryMatched ? handAmount : 0);
      assert.equal(bank(after), expectedBank, `1200 = the lines + the payment by hand, once\n${what}`);

      // 2. No document owes less than nothing or is paid more than its total; what they were paid is what the lines and the hand paid.
      dueAfter.forEach((d, i) => {
        assert.ok(d.amountDue >= 0, `${docs[i]!.number} owes ${d.amountDue}\n${what}`);
        assert.ok(d.amountPaid <= d.total, `${docs[i]!.number} paid ${d.amountPaid} of ${d.total}\n${what}`);
        assert.equal(d.amountDue, paidBy.has(i) ? 0 : docs[i]!.due, `${docs[i]!.number} owes what the rule says\n${what}`);
      });
      const paidByLines = sum(paying.map((i) => Math.abs(lines[i]!.amount)));
      assert.equal(sum(dueAfter.map((d) => d.total - d.amountDue)), paidByLines + handAmount, `Σ (total − due) = the lines that paid + the hand\n${what}`);

      // 3. The counts add up, and say what the rule says.
      const changed = dueAfter.filter((d, i) => d.amountDue !== dueBefore[i]!.amountDue).length;
      assert.equal(done.created + done.matched + done.skipped + done.rejected, done.total, `created + matched + skipped + rejected = total\n${what}`);
      assert.equal(done.total, lines.length, `total = the lines\n${what}`);
      assert.ok(done.matched <= 1, `only the entry by hand can be matched\n${what}`);
      assert.deepEqual(
        [done.matched, done.paid, done.created, done.skipped, done.rejected],
        [entryMatched ? 1 : 0, paying.length, lines.length - (entryMatched ? 1 : 0), 0, 0],
        `confirm's counts (paid: the lines that paid documents)\n${what}`,
      );
      assert.equal(paidBy.size, changed, `the documents the lines paid are those whose amountDue the statement changed\n${what}`);
      const rows = (await get(`/v1/bank-imports/${up.importId}`)).rows as {
        matchedTo: { kind: string; id: string } | null;
        payments: { id: string; amount: number }[];
        status: string;
      }[];
      assert.deepEqual(
        rows.map((r) => (r.matchedTo ? { kind: r.matchedTo.kind, id: r.matchedTo.id } : null)),
        targets.map(expectedMatch),
        `each row matched to what the rule says\n${what}`,
      );
      assert.deepEqual(
        rows.map((r) => r.payments.map((p) => [p.id, p.amount])),
        targets.map((target) => expectedDocuments(target).map((id) => [id, docs.find((d) => d.id === id)!.due])),
        `each row's payments: each document it paid, its whole due\n${what}`,
      );

      // 4. Debits equal credits.
      assert.equal(after.balanced, true, `the trial balance balances\n${what}`);
      assert.equal(sum(after.accounts.map((a) => a.debit)), sum(after.accounts.map((a) => a.credit)), `debits = credits\n${what}`);

      // 5. Undo: the books as before the upload, the entry by hand kept.
      const undone = await post(`/v1/bank-imports/${up.importId}/undo`, undefined, 200);
      assert.equal(undone.transactionsRemoved, lines.length - (entryMatched ? 1 : 0), `undo removes what the import made\n${what}`);
      assert.deepEqual(await trialBalance(), before, `undo puts the trial balance back\n${what}`);
      assert.deepEqual(
        (await dues()).map((d) => d.amountDue),
        dueBefore.map((d) => d.amountDue),
        `undo puts every amountDue back\n${what}`,
      );
      if (entry) ok(await api.request('GET', `/v1/transactions/${entry.transactionId}`), 200, 'the entry by hand stays');

      see('cases');
      see('lines', lines.length);
      if (entry) see(entryMatched ? 'entry by hand matched' : 'entry by hand not matched');
      see('invoices paid by a line', [...paidBy.keys()].filter((i) => docs[i]!.kind === 'invoice').length);
      see('bills paid by a line', [...paidBy.keys()].filter((i) => docs[i]!.kind === 'bill').length);
      see(
        'lines of a document’s amount left unmatched',
        lines.filter((l, i) => targets[i] === null && docs.some((d) => d.due !== 0 && signed(d, d.due) === l.amount)).length,
      );
      see('lines matched by number', targets.filter((x, i) => typeof x === 'number' && lines[i]!.namesNumbers.includes(docs[x]!.number)).length);
      see('lines paying two documents', targets.filter((x) => Array.isArray(x)).length);
    }),
    { seed, numRuns },
  );

  t.pass(`${numRuns} statements hold`);
  for (const what of ['entry by hand matched', 'entry by hand not matched', 'invoices paid by a line', 'bills paid by a line', 'lines paying two documents'])
    t.ok((seen.get(what) ?? 0) > 0, `some case had ${what}`);
  t.comment(
    `seen:\n${[...seen]
      .sort()
      .map(([what, n]) => `${what}: ${n}`)
      .join('\n')}`,
  );
});
