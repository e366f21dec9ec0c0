/**
 * The money rules as properties: no penny is created or lost.
 *
 * - lineVat (src/engine/ledger/line-vat.ts): inclusive VAT is never more than the
 *   amount and net + VAT is the amount exactly; exclusive VAT is the amount
 *   × rate / 100 rounded half up, for every rate 0..100.
 * - Splitting: an amount split into any parts and posted as the lines of
 *   one transaction keeps it balanced and moves each account by its parts;
 *   the balances still sum to 0 (posting's `prepare` in-process, and over
 *   HTTP with the stored ledger checked after every transaction).
 * - Items (src/engine/sales/items.ts): subtotal, VAT and total are the
 *   exact sums of integer lines, each net within half a penny of quantity ×
 *   unit price; the invoice's draft transaction balances and debits
 *   receivables (1100) with the total.
 *
 * The expected figures come from a model written here in BigInt, apart
 * from src/. Replay with the seed the test prints: ACCT_MONEY_SEED=… npx tap <this file>.
 */
import assert from 'node:assert/strict';
import t from 'tap';
import fc from 'fast-check';
import { lineVat } from '../../src/engine/ledger/line-vat.js';
import { priceItem, priceItems, saleItemInput, type ItemInput } from '../../src/engine/sales/items.js';
import { loadBooks, prepare, type LineInput } from '../../src/engine/ledger/posting.js';
import { AppError } from '../../src/engine/errors.js';
import { fixedClock } from '../../src/engine/clock.js';
import { newBooks } from '../helpers/index.js';
import { chartCodes, checkStoredLedger, checkTrialBalance, clock, maxLineAmount, openBench, openLedger, postedNets, show } from '../properties/support.js';

const seed = Number(process.env['ACCT_MONEY_SEED'] ?? 20261121);
const runs = { vat: 3000, prepare: 1000, split: 60, price: 2000, invoice: 50 } as const;

// ---------------------------------------------------------------------------
// The model: integer division with the two roundings, in BigInt so that it is exact.

/** n / d to the nearest integer, halves up (n ≥ 0, d > 0). */
const halfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);
/** n / d to the nearest integer, halves away from zero (d > 0). */
const halfAway = (n: bigint, d: bigint): bigint => (n < 0n ? -halfUp(-n, d) : halfUp(n, d));
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** The percentage of each rate name, restated from the spec. */
const percent = { standard: 20, reduced: 5, zero: 0, exempt: 0 } as const;
type RateName = keyof typeof percent;
const rateNames = Object.keys(percent) as RateName[];
const schemes = ['standard', 'flat_rate', 'not_registered'] as const;

/** One item as the model prices it: quantity as ten-thousandths. */
interface ModelItem {
  readonly tenThousandths: bigint;
  readonly unitPrice: bigint;
  /** null: vatRate left out (a sale of a business not registered for VAT). */
  readonly rate: RateName | null;
}

function modelLine(item: ModelItem, scheme: (typeof schemes)[number]): { net: bigint; vat: bigint } {
  const net = halfAway(item.tenThousandths * item.unitPrice, 10_000n);
  const rate = scheme === 'not_registered' || item.rate === null ? 0n : BigInt(percent[item.rate]);
  return { net, vat: halfAway(net * rate, 100n) };
}

/** Amounts of one line: mostly everyday sums, sometimes up to the largest a line may hold. */
const lineAmount = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: -maxLineAmount, max: maxLineAmount }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, -1, 3, 5, 6, 60, 105, 120, maxLineAmount, -maxLineAmount) },
);
const rate = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 100 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 5, 20, 100) });

t.comment(`fast-check seed ${seed}; runs ${JSON.stringify(runs)} (replay: ACCT_MONEY_SEED=${seed})`);

// ---------------------------------------------------------------------------

t.test('lineVat: worked examples', async (t) => {
  t.equal(lineVat(120, 20, 'inclusive'), 20, '£1.20 gross at 20%: 20p VAT');
  t.equal(lineVat(-120, 20, 'inclusive'), 20, 'a credit carries the same VAT');
  t.equal(lineVat(3, 20, 'inclusive'), 1, '3 × 20 / 120 = 0.5: a half rounds up');
  t.equal(lineVat(2, 20, 'inclusive'), 0, '2 × 20 / 120 = 0.33 rounds down');
  t.equal(lineVat(1001, 20, 'exclusive'), 200, '1001 × 20% = 200.2');
  t.equal(lineVat(1003, 20, 'exclusive'), 201, '1003 × 20% = 200.6');
  t.equal(lineVat(10, 5, 'exclusive'), 1, '10 × 5% = 0.5: a half rounds up');
  t.equal(lineVat(-10, 5, 'exclusive'), 1, 'the VAT of a credit is of its size');
  t.equal(lineVat(999, 100, 'inclusive'), 500, '999 × 100 / 200 = 499.5 rounds up');
  t.equal(lineVat(500, 0, 'inclusive'), 0, 'a zero rate has no VAT');
  t.equal(lineVat(500, 20, 'none'), null, 'no treatment, no VAT');
});

t.test('lineVat: inclusive VAT never exceeds the amount, net + VAT is the amount, exclusive is |amount| × rate / 100 half up', async (t) => {
  const tally = { halves: 0 };
  fc.assert(
    fc.property(lineAmount, rate, (amount, r) => {
      const gross = BigInt(Math.abs(amount));
      const R = BigInt(r);
      const inclusive = lineVat(amount, r, 'inclusive');
      const exclusive = lineVat(amount, r, 'exclusive');
      assert.ok(inclusive !== null && Number.isSafeInteger(inclusive), `inclusive ${inclusive} is a whole number of pence`);
      assert.ok(exclusive !== null && Number.isSafeInteger(exclusive), `exclusive ${exclusive} is a whole number of pence`);

      assert.ok(inclusive >= 0 && BigInt(inclusive) <= gross, `inclusive VAT ${inclusive} within 0..|${amount}|`);
      const net = gross - BigInt(inclusive);
      assert.ok(net >= 0n, 'the net is not negative');
      assert.equal(net + BigInt(inclusive), gross, 'net + VAT is the amount exactly');
      assert.equal(BigInt(inclusive), halfUp(gross * R, 100n + R), `inclusive VAT of ${amount} at ${r}%: |amount| × rate / (100 + rate), half up`);
      // Charging the rate on the net gives back the VAT within a penny (each side rounded once).
      const recharged = lineVat(Number(net), r, 'exclusive');
      assert.ok(recharged !== null && Math.abs(recharged - inclusive) <= 1, `VAT on the net ${net} is ${recharged}, the VAT in the gross ${inclusive}`);

      assert.equal(BigInt(exclusive), halfUp(gross * R, 100n), `exclusive VAT of ${amount} at ${r}%: |amount| × rate / 100, half up`);
      assert.equal(lineVat(-amount, r, 'exclusive'), exclusive, 'the sign of the amount does not change the VAT');
      if ((gross * R) % 100n === 50n) tally.halves++;
      assert.equal(lineVat(amount, r, 'none'), null);
    }),
    { seed, numRuns: runs.vat },
  );
  t.pass(`${runs.vat} amounts and rates hold (${tally.halves} exclusive cases on an exact half penny)`);
});

// ---------------------------------------------------------------------------

/** Parts of a split: non-zero amounts whose sum (the amount split) is non-zero and fits one line. */
const split = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: -1 }) },
      { weight: 1, arbitrary: fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }).filter((n) => n !== 0) },
    ),
    { minLength: 1, maxLength: 12 },
  )
  .filter((parts) => {
    const sum = parts.reduce((s, p) => s + BigInt(p), 0n);
    return sum !== 0n && abs(sum) <= BigInt(maxLineAmount);
  });

t.test('splitting in-process: prepare keeps any split balanced and moves each account by its parts', async (t) => {
  const books = await newBooks(t, { clock });
  const db = books.store.org(books.organisationId, 'live').db;
  const ledgerBooks = await loadBooks(db);
  const accounts = [...ledgerBooks.accounts.values()].filter((a) => a.is_active === 1).map((a) => a.id);
  const posting = { clock: fixedClock(clock), actor: { id: 'test', name: 'test' } };
  const tally = { accepted: 0, refusedOffByOne: 0 };

  fc.assert(
    fc.property(
      split,
      fc.array(fc.constantFrom(...accounts), { minLength: 13, maxLength: 13 }),
      fc.constantFrom(...accounts),
      fc.constantFrom(1, -1),
      (parts, on, counter, nudge) => {
        const amount = parts.reduce((s, p) => s + p, 0);
        const lines: LineInput[] = [...parts.map((p, i) => ({ accountId: on[i]!, amount: p })), { accountId: counter, amount: -amount }];
        const prepared = prepare(ledgerBooks, posting, { date: '2026-06-01', description: 'Split', status: 'posted', sourceType: 'manual', lines });
        tally.accepted++;
        assert.deepEqual(
          prepared.lines.map((l) => [l.account_id, l.amount]),
          lines.map((l) => [l.accountId, l.amount]),
          'the lines as given',
        );
        assert.equal(
          prepared.lines.reduce((s, l) => s + BigInt(l.amount), 0n),
          0n,
          'the lines sum to 0',
        );
        const debits = lines.reduce((s, l) => s + BigInt(Math.max(l.amount, 0)), 0n);
        assert.equal(BigInt(prepared.row.total_debit), debits, 'totalDebit is the sum of the debits');
        assert.ok(prepared.lines.every((l) => l.posted === 1 && l.date === '2026-06-01'));

        // Each account moves by exactly its parts; together the moves are 0.
        const moves = new Map<string, bigint>();
        for (const l of prepared.lines) moves.set(l.account_id, (moves.get(l.account_id) ?? 0n) + BigInt(l.amount));
        const expected = new Map<string, bigint>();
        for (const l of lines) expected.set(l.accountId, (expected.get(l.accountId) ?? 0n) + BigInt(l.amount));
        assert.deepEqual(moves, expected, 'each account moves by its parts');
        assert.equal(
          [...moves.values()].reduce((s, m) => s + m, 0n),
          0n,
          'the balances still sum to the same',
        );

        // A penny more or less on any part is refused.
        const off = lines.map((l, i) => (i === 0 ? { ...l, amount: l.amount + nudge } : l));
        if (off[0]!.amount !== 0) {
          assert.throws(
            () => prepare(ledgerBooks, posting, { date: '2026-06-01', description: 'Off by a penny', status: 'posted', sourceType: 'manual', lines: off }),
            (e: unknown) => e instanceof AppError && e.code === 'validation_error' && /do not balance/.test(e.message),
            'a split a penny out is refused',
          );
          tally.refusedOffByOne++;
        }
      },
    ),
    { seed, numRuns: runs.prepare },
  );
  t.pass(`${tally.accepted} splits balanced, ${tally.refusedOffByOne} splits a penny out refused`);
});

t.test('splitting over HTTP: any split posted as lines keeps the ledger at 0 and moves each account by its parts', async (t) => {
  const bench = await openBench(t);
  const l = await openLedger(bench);
  const chart = await chartCodes(l);
  const codes = chart.journal.filter((c) => c !== chart.inactive);
  const nets = await postedNets(l);

  await fc.assert(
    fc.asyncProperty(split, fc.array(fc.constantFrom(...codes), { minLength: 13, maxLength: 13 }), fc.constantFrom(...codes), async (parts, on, counter) => {
      const amount = parts.reduce((s, p) => s + p, 0);
      const lines = [...parts.map((p, i) => ({ accountId: l.ids.get(on[i]!)!, amount: p })), { accountId: l.ids.get(counter)!, amount: -amount }];
      const r = await l.api.request('POST', '/v1/transactions', { body: { date: '2026-06-01', description: `Split of ${amount}`, lines } });
      assert.equal(r.status, 201, show(r));
      const data = r.body.data as { totalDebit: number; totalCredit: number; lines: { accountId: string; amount: number }[] };
      assert.equal(data.totalDebit, data.totalCredit, 'debits equal credits');
      assert.deepEqual(
        data.lines.map((x) => [x.accountId, x.amount]),
        lines.map((x) => [x.accountId, x.amount]),
        'the lines as sent',
      );
      for (const line of lines) nets.set(line.accountId, (nets.get(line.accountId) ?? 0) + line.amount);
      const after = await postedNets(l);
      assert.deepEqual(new Map([...after].filter(([, n]) => n !== 0)), new Map([...nets].filter(([, n]) => n !== 0)), 'each account moved by its parts');
      assert.equal(
        [...after.values()].reduce((s, n) => s + BigInt(n), 0n),
        0n,
        'the posted lines sum to 0',
      );
      await checkStoredLedger(l);
    }),
    { seed, numRuns: runs.split },
  );
  await checkTrialBalance(l, nets);
  t.pass(`${runs.split} split transactions posted; the ledger and the trial balance are at 0`);
});

// ---------------------------------------------------------------------------

/** Quantities with up to 4 decimals, as ten-thousandths: mostly up to 100, sometimes up to the 1,000,000 allowed. */
const tenThousandths = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 10_000_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(1, 5_000, 2_500, 15_000, 12_345, 10_000_000_000) },
);

const item = (unitPrice: fc.Arbitrary<number>, rate: fc.Arbitrary<RateName | null> = fc.constantFrom(...rateNames)): fc.Arbitrary<ModelItem> =>
  fc.record({
    tenThousandths: tenThousandths.map(BigInt),
    unitPrice: unitPrice.map(BigInt),
    rate,
  });
/** The rates of a business not registered for VAT: mostly none, zero or exempt; now and then standard or reduced, which it may not charge. */
const unregisteredRate = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<RateName | null>(null, 'zero', 'exempt') },
  { weight: 1, arbitrary: fc.constantFrom<RateName | null>('standard', 'reduced') },
);
const anyPrice = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -10_000_000, max: 10_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(1, -1, 3, 5, 25, -25, 10_000_000, -10_000_000) },
);
/** Mostly positive prices (discount lines now and then), so that most lists come to a positive total. */
const mostlyPositive = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 10_000_000 }) }, { weight: 1, arbitrary: anyPrice });

const itemOf = (m: ModelItem, i: number): ItemInput => ({
  description: `Item ${i + 1}`,
  quantity: Number(m.tenThousandths) / 10_000,
  unitPrice: Number(m.unitPrice),
  ...(m.rate === null ? {} : { vatRate: m.rate }),
});

/** £10bn: the largest net of one line, restated from the spec of items. */
const maxNet = 1_000_000_000_000n;

interface ModelDocument {
  readonly lines: { net: bigint; vat: bigint }[];
  readonly subtotal: bigint;
  readonly vat: bigint;
  readonly total: bigint;
  /** Why priceItems must refuse the items, or null. */
  readonly refused: string | null;
}

function modelDocument(items: readonly ModelItem[], scheme: (typeof schemes)[number]): ModelDocument {
  const lines = items.map((i) => modelLine(i, scheme));
  const subtotal = lines.reduce((s, l) => s + l.net, 0n);
  const vat = lines.reduce((s, l) => s + l.vat, 0n);
  const total = subtotal + vat;
  // Lines are checked in order: a sale claiming VAT though not registered (or stating no rate though registered), then a net over £10bn; the total last.
  const charging = (i: number) => (scheme === 'not_registered' ? items[i]!.rate === 'standard' || items[i]!.rate === 'reduced' : items[i]!.rate === null);
  const bad = lines.findIndex((l, i) => charging(i) || abs(l.net) > maxNet);
  const refused =
    bad >= 0
      ? charging(bad)
        ? `items[${bad}] is rated ${items[bad]!.rate ?? 'none'}: not registered for VAT charges none, registered needs one`
        : `items[${bad}] net ${lines[bad]!.net} is over £10bn`
      : total <= 0n
        ? `the total ${total} is not positive`
        : null;
  return { lines, subtotal, vat, total, refused };
}

t.test('priceItem: worked examples', async (t) => {
  const one = (quantity: number, unitPrice: number, vatRate: RateName) => priceItem({ description: 'x', quantity, unitPrice, vatRate }, 'standard');
  t.match(one(2, 1500, 'standard'), { net: 3000, vatAmount: 600, lineTotal: 3600 }, '2 × £15.00 plus 20%');
  t.match(one(0.5, 3, 'standard'), { net: 2, vatAmount: 0, lineTotal: 2 }, '1.5p rounds away from zero to 2p; 20% of 2p is 0.4p');
  t.match(one(0.5, -3, 'standard'), { net: -2, vatAmount: 0, lineTotal: -2 }, '-1.5p rounds away from zero to -2p');
  t.match(one(1, 25, 'reduced'), { net: 25, vatAmount: 1, lineTotal: 26 }, '5% of 25p is 1.25p');
  t.match(one(1, -10, 'reduced'), { net: -10, vatAmount: -1, lineTotal: -11 }, '5% of -10p is -0.5p: away from zero');
  t.match(one(7.5, 4999, 'exempt'), { net: 37493, vatAmount: 0, lineTotal: 37493 }, '7.5 × 4999 = 37492.5 rounds up; exempt has no VAT');
  t.match(one(0.0001, 4999, 'standard'), { net: 0, vatAmount: 0, lineTotal: 0 }, 'a ten-thousandth of £49.99 is half a penny less 1/10,000: 0');
  t.match(one(0.0001, 5000, 'standard'), { net: 1, vatAmount: 0, lineTotal: 1 }, 'a ten-thousandth of £50.00 is exactly half a penny: 1');
  const doc = priceItems(
    [
      { description: 'a', quantity: 3, unitPrice: 333, vatRate: 'standard' },
      { description: 'b', quantity: 1, unitPrice: -100, vatRate: 'standard' },
    ],
    'standard',
  );
  t.match(doc, { subtotal: 899, vatAmount: 180, total: 1079 }, '999 + 199.8 → 200, less 100 and its 20');
});

t.test('priceItems: sums of integer lines, each net within half a penny of quantity × unit price', async (t) => {
  const tally = { priced: 0, overLimit: 0, rate: 0, notPositive: 0 };
  const reason = (message: string) => (/over £10bn/.test(message) ? 'overLimit' : /registered for VAT/.test(message) ? 'rate' : 'notPositive');
  fc.assert(
    fc.property(
      fc
        .constantFrom(...schemes)
        .chain((scheme) =>
          fc.tuple(
            fc.array(item(mostlyPositive, scheme === 'not_registered' ? unregisteredRate : undefined), { minLength: 1, maxLength: 10 }),
            fc.constant(scheme),
          ),
        ),
      ([model, scheme]) => {
        const items = model.map(itemOf);
        for (const [i, input] of items.entries()) {
          const parsed = saleItemInput.safeParse(input);
          assert.ok(parsed.success, `items[${i}] ${JSON.stringify(input)} is valid input: ${parsed.error?.message}`);
        }
        const expected = modelDocument(model, scheme);
        let priced: ReturnType<typeof priceItems>;
        try {
          priced = priceItems(items, scheme);
        } catch (e) {
          assert.ok(e instanceof AppError && e.code === 'validation_error', `refused with ${String(e)}`);
          assert.ok(expected.refused !== null, `refused (${e.message}) although the model prices it at ${expected.total}`);
          assert.equal(reason(e.message), reason(expected.refused), `refused for the model's reason (${expected.refused}): ${e.message}`);
          tally[reason(e.message)]++;
          return;
        }
        assert.equal(expected.refused, null, `priced although ${expected.refused}`);
        tally.priced++;
        for (const [i, p] of priced.items.entries()) {
          const m = model[i]!;
          for (const [name, v] of Object.entries({ net: p.net, vatAmount: p.vatAmount, lineTotal: p.lineTotal })) {
            assert.ok(Number.isSafeInteger(v), `items[${i}].${name} ${v} is a whole number of pence`);
          }
          const exact = m.tenThousandths * m.unitPrice; // quantity × unit price, in ten-thousandths of a penny
          assert.ok(abs(BigInt(p.net) * 10_000n - exact) <= 5_000n, `items[${i}] net ${p.net} within half a penny of ${exact} / 10000`);
          assert.equal(BigInt(p.net), expected.lines[i]!.net, `items[${i}] net: halves away from zero`);
          assert.equal(BigInt(p.vatAmount), expected.lines[i]!.vat, `items[${i}] VAT`);
          assert.equal(p.lineTotal, p.net + p.vatAmount, `items[${i}] lineTotal = net + VAT`);
          assert.equal(p.vatRate, scheme === 'not_registered' || m.rate === null ? 0 : percent[m.rate], `items[${i}] rate`);
          assert.equal(p.vatRateName, m.rate, `items[${i}] rate name (null when left out)`);
        }
        for (const [name, v] of Object.entries({ subtotal: priced.subtotal, vatAmount: priced.vatAmount, total: priced.total })) {
          assert.ok(Number.isSafeInteger(v), `${name} ${v} is a whole number of pence`);
        }
        assert.equal(BigInt(priced.subtotal), expected.subtotal, 'subtotal = Σ net');
        assert.equal(BigInt(priced.vatAmount), expected.vat, 'vatAmount = Σ VAT');
        assert.equal(priced.total, priced.subtotal + priced.vatAmount, 'total = subtotal + vatAmount');
        assert.equal(
          priced.subtotal,
          priced.items.reduce((s, p) => s + p.net, 0),
        );
        assert.equal(
          priced.vatAmount,
          priced.items.reduce((s, p) => s + p.vatAmount, 0),
        );
      },
    ),
    { seed, numRuns: runs.price },
  );
  t.pass(
    `${runs.price} item lists hold: ${tally.priced} priced; refused as the model says, ${tally.overLimit} for a line over £10bn, ${tally.rate} for a rate the scheme does not allow, ${tally.notPositive} for a total not above 0`,
  );
  t.ok(tally.priced >= runs.price / 2 && tally.overLimit >= 1 && tally.rate >= 1 && tally.notPositive >= 1, 'every outcome was exercised');
});

t.test('invoices over HTTP: the draft transaction balances and debits 1100 with the total', async (t) => {
  const bench = await openBench(t);
  const l = await openLedger(bench);
  const contact = await l.api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Property Customer Ltd' } });
  assert.equal(contact.status, 201, show(contact));
  const contactId = contact.body.data.id as string;
  const tally = { created: 0 };

  await fc.assert(
    fc.asyncProperty(fc.array(item(mostlyPositive), { minLength: 1, maxLength: 8 }), async (model) => {
      const expected = modelDocument(model, 'standard');
      fc.pre(expected.refused === null);
      const r = await l.api.request('POST', '/v1/invoices', { body: { contactId, items: model.map(itemOf) } });
      assert.equal(r.status, 201, show(r));
      tally.created++;
      const inv = r.body.data as {
        subtotal: number;
        vatAmount: number;
        total: number;
        transactionId: string;
        items: { netAmount: number; vatAmount: number; lineTotal: number }[];
      };
      assert.deepEqual([inv.subtotal, inv.vatAmount, inv.total].map(BigInt), [expected.subtotal, expected.vat, expected.total], 'the invoice totals');
      assert.deepEqual(
        inv.items.map((i) => [BigInt(i.netAmount), BigInt(i.vatAmount), BigInt(i.lineTotal)]),
        expected.lines.map((x) => [x.net, x.vat, x.net + x.vat]),
        'the invoice lines',
      );

      const txn = await l.api.request('GET', `/v1/transactions/${inv.transactionId}`);
      assert.equal(txn.status, 200, show(txn));
      const data = txn.body.data as { status: string; lines: { accountCode: string; amount: number; vatAmount: number | null }[] };
      assert.equal(data.status, 'draft', 'the entries of a draft invoice are a draft');
      assert.equal(
        data.lines.reduce((s, x) => s + BigInt(x.amount), 0n),
        0n,
        'the lines sum to 0',
      );
      const receivable = data.lines.filter((x) => x.accountCode === '1100');
      assert.deepEqual(
        receivable.map((x) => BigInt(x.amount)),
        [expected.total],
        '1100 is debited with the total',
      );
      const vat = data.lines.filter((x) => x.accountCode === '2200');
      assert.deepEqual(
        vat.map((x) => BigInt(x.amount)),
        expected.vat === 0n ? [] : [-expected.vat],
        '2200 is credited with the VAT',
      );
      // The sales lines: one per item with a net, credited; the VAT noted on each is the item's, by lineVat's rounding.
      const sales = data.lines.filter((x) => x.accountCode !== '1100' && x.accountCode !== '2200');
      const withNet = model.map((m, i) => ({ m, line: expected.lines[i]! })).filter((x) => x.line.net !== 0n);
      assert.deepEqual(
        sales.map((x) => BigInt(x.amount)),
        withNet.map((x) => -x.line.net),
        'each item with a net is credited to sales',
      );
      sales.forEach((x, i) => {
        const { m, line } = withNet[i]!;
        assert.equal(x.vatAmount, m.rate === 'exempt' ? null : Number(abs(line.vat)), `sales line ${i}: the VAT noted is the item's`);
      });
      await checkStoredLedger(l);
    }),
    { seed, numRuns: runs.invoice },
  );
  t.pass(`${tally.created} invoices created; each draft transaction balances with 1100 at the total`);
});
