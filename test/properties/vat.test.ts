/**
 * VAT returns as a property over seeded random ledgers: a year of quarters,
 * each with random invoices, bills, payments, manual VAT lines and payments
 * to or from HMRC (settlements), some entered late (dated in a quarter
 * already filed), each quarter filed when it ends. Whatever happens:
 * - a settlement (a movement on 2202 with no VAT facts) never changes a box,
 *   of the open return or of a filed one;
 * - the draft of a quarter is what filing it gives;
 * - the sum of box 5 over the filed returns (payable positive, repayable
 *   negative) is the VAT liability the filings settled on 2202, and paying
 *   HMRC that balance leaves 2202 at zero;
 * - under the standard scheme on the accrual basis, every filing clears 2200
 *   and 2201 of the VAT it counted, so with everything filed both are zero.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { defaultOrganisation, newBooks, serveBooks, type Api, type Reply } from '../helpers/index.js';

const seed = Number(process.env['ACCT_VAT_SEED'] ?? 20261124);
const numRuns = Number(process.env['ACCT_VAT_RUNS'] ?? 12);
const quarters = [
  { key: '2026-03', start: '2026-01-01', end: '2026-03-31' },
  { key: '2026-06', start: '2026-04-01', end: '2026-06-30' },
  { key: '2026-09', start: '2026-07-01', end: '2026-09-30' },
  { key: '2026-12', start: '2026-10-01', end: '2026-12-31' },
] as const;

type Action =
  | { kind: 'invoice'; day: number; late: boolean; net: number; rate: 'standard' | 'reduced' | 'zero' | 'exempt' }
  | { kind: 'bill'; day: number; late: boolean; net: number; rate: 'standard' | 'reduced' | 'zero'; capital: boolean }
  | { kind: 'pay'; day: number; share: number }
  | { kind: 'manual'; day: number; late: boolean; gross: number; sale: boolean; inclusive: boolean }
  | { kind: 'settle'; day: number; amount: number };

const day = fc.integer({ min: 0, max: 89 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('invoice' as const),
    day,
    late: fc.boolean(),
    net: fc.integer({ min: 1, max: 500_000 }),
    rate: fc.constantFrom('standard', 'reduced', 'zero', 'exempt'),
  }),
  fc.record({
    kind: fc.constant('bill' as const),
    day,
    late: fc.boolean(),
    net: fc.integer({ min: 1, max: 400_000 }),
    rate: fc.constantFrom('standard', 'reduced', 'zero'),
    capital: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('pay' as const), day, share: fc.double({ min: 0.05, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('manual' as const),
    day,
    late: fc.boolean(),
    gross: fc.integer({ min: 1, max: 200_000 }),
    sale: fc.boolean(),
    inclusive: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('settle' as const), day, amount: fc.integer({ min: -50_000, max: 50_000 }).filter((a) => a !== 0) }),
);
const scenario = fc.record({
  scheme: fc.constantFrom('standard' as const, 'flat_rate' as const),
  basis: fc.constantFrom('accrual' as const, 'cash' as const),
  quarters: fc.array(fc.array(action, { maxLength: 6 }), { minLength: 4, maxLength: 4 }),
});

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const ok = (r: Reply, status: number, what: string) => {
  assert.equal(r.status, status, `${what}: ${r.status} ${JSON.stringify(r.body?.error)}`);
  return r.body.data;
};

t.test('VAT returns over random ledgers: settlements change no box, box 5 sums to the liability settled', async (t) => {
  const books = await newBooks(t, { clock: '2027-01-20T10:00:00Z' });
  const server = await serveBooks(t, books);
  let n = 0;
  let filed = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      const created = await createOrganisation(books.store, books.clock, {
        ...defaultOrganisation,
        name: `VAT Property ${++n}`,
        vatScheme: s.scheme,
        ...(s.scheme === 'flat_rate' ? { vatFlatRatePercent: 12 } : {}),
        vatRegistrationDate: '2026-01-01',
        vatAccountingBasis: s.basis,
      });
      const api: Api = { url: server.url, request: (m, p, o = {}) => server.request(m, p, { ...o, key: created.apiKey }) };
      const accounts = ok(await api.request('GET', '/v1/accounts?flat=true'), 200, 'chart').accounts as { id: string; code: string }[];
      const acc = Object.fromEntries(accounts.map((a) => [a.code, a.id]));
      const customer = ok(await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'C' } }), 201, 'customer').id as string;
      const supplier = ok(await api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'S' } }), 201, 'supplier').id as string;
      const open: { id: string; due: number }[] = [];
      const balance = async (code: string) => ok(await api.request('GET', `/v1/accounts/${acc[code]}/balance`), 200, 'balance').balance.net as number;
      const draft = async (key: string) => ok(await api.request('GET', `/v1/vat/periods/${key}`), 200, `show ${key}`);
      let hmrc = 0; // paid to HMRC less received from it

      for (let q = 0; q < 4; q++) {
        const quarter = quarters[q]!;
        for (const a of s.quarters[q]!) {
          // A late entry is dated in the previous, filed quarter.
          const date = 'late' in a && a.late && q > 0 ? addDays(quarters[q - 1]!.start, a.day) : addDays(quarter.start, a.day);
          if (a.kind === 'invoice') {
            const inv = ok(
              await api.request('POST', '/v1/invoices', {
                body: { contactId: customer, issueDate: date, items: [{ description: 'W', quantity: 1, unitPrice: a.net, vatRate: a.rate }] },
              }),
              201,
              'invoice',
            );
            ok(await api.request('POST', `/v1/invoices/${inv.id}/send`), 200, 'send');
            open.push({ id: inv.id as string, due: inv.total as number });
          } else if (a.kind === 'bill') {
            const bill = ok(
              await api.request('POST', '/v1/bills', {
                body: {
                  contactId: supplier,
                  issueDate: date,
                  items: [{ description: 'B', quantity: 1, unitPrice: a.net, vatRate: a.rate, accountId: acc[a.capital ? '1020' : '5100'] }],
                },
              }),
              201,
              'bill',
            );
            ok(await api.request('POST', `/v1/bills/${bill.id}/approve`), 200, 'approve');
          } else if (a.kind === 'pay') {
            const doc = open.find((d) => d.due > 0);
            if (!doc) continue;
            const amount = Math.max(1, Math.min(doc.due, Math.round(doc.due * a.share)));
            const inv = ok(await api.request('GET', `/v1/invoices/${doc.id}`), 200, 'invoice');
            const payDate = inv.issueDate > date ? inv.issueDate : date;
            ok(await api.request('POST', `/v1/invoices/${doc.id}/payments`, { body: { amount, date: payDate } }), 201, 'pay');
            doc.due -= amount;
          } else if (a.kind === 'manual') {
            // Under the flat rate scheme a purchase's VAT is part of its cost: only inclusive purchases there.
            const inclusive = a.inclusive || (s.scheme === 'flat_rate' && !a.sale);
            const vat = inclusive ? 0 : Math.floor((2 * a.gross * 20 + 100) / 200);
            const sign = a.sale ? -1 : 1;
            const lines = [
              { accountId: acc[a.sale ? '4000' : '5100'], amount: sign * a.gross, vatRate: 20, vatTreatment: inclusive ? 'inclusive' : 'exclusive' },
              ...(vat === 0 ? [] : [{ accountId: acc[a.sale ? '2200' : '2201'], amount: sign * vat }]),
              { accountId: acc['1200'], amount: -sign * (a.gross + vat) },
            ];
            ok(await api.request('POST', '/v1/transactions', { body: { date, description: 'M', lines } }), 201, 'manual');
          } else {
            const before = await draft(quarter.key);
            const filedBefore = ok(await api.request('GET', '/v1/vat/returns?limit=100'), 200, 'returns');
            ok(
              await api.request('POST', '/v1/transactions', {
                body: {
                  date,
                  description: 'HMRC',
                  lines: [
                    { accountId: acc['2202'], amount: a.amount },
                    { accountId: acc['1200'], amount: -a.amount },
                  ],
                },
              }),
              201,
              'settle',
            );
            hmrc += a.amount;
            assert.deepEqual(await draft(quarter.key), before, 'a settlement changes no box of the open return');
            assert.deepEqual(ok(await api.request('GET', '/v1/vat/returns?limit=100'), 200, 'returns'), filedBefore, 'nor of a filed one');
          }
        }
        const before = await draft(quarter.key);
        const r = ok(await api.request('POST', `/v1/vat/periods/${quarter.key}/file`), 201, `file ${quarter.key}`);
        filed++;
        assert.deepEqual([r.boxes, r.exact, r.netVatDirection], [before.boxes, before.exact, before.netVatDirection], 'filing gives the draft');
      }

      const returns = ok(await api.request('GET', '/v1/vat/returns?limit=100'), 200, 'returns').returns as {
        boxes: { box5: number };
        netVatDirection: string;
      }[];
      assert.equal(returns.length, 4);
      const owed = returns.reduce((sum, r) => sum + (r.netVatDirection === 'repayable' ? -r.boxes.box5 : r.boxes.box5), 0);
      // 2202 is credited with what is owed and debited with what is paid: its balance is paid − owed.
      assert.equal(await balance('2202'), hmrc - owed, 'box 5 over the returns is the liability on 2202');
      if (owed - hmrc !== 0) {
        ok(
          await api.request('POST', '/v1/transactions', {
            body: {
              date: '2027-01-07',
              description: 'HMRC',
              lines: [
                { accountId: acc['2202'], amount: owed - hmrc },
                { accountId: acc['1200'], amount: hmrc - owed },
              ],
            },
          }),
          201,
          'pay the rest',
        );
      }
      assert.equal(await balance('2202'), 0, 'settled in full');
      // On the cash basis the VAT of what is still unpaid waits on 2200 and 2201 until it is paid.
      if (s.scheme === 'standard' && s.basis === 'accrual') {
        assert.equal(await balance('2200'), 0, 'VAT output cleared by the filings');
        assert.equal(await balance('2201'), 0, 'VAT input cleared by the filings');
      }
    }),
    { seed, numRuns },
  );
  t.pass(`${numRuns} random years hold (${filed} returns filed); replay: ACCT_VAT_SEED=${seed} ACCT_VAT_RUNS=${numRuns}`);
});
