/**
 * The receivables invariant: whatever invoices go through, the balance of
 * 1100 Accounts Receivable equals what is owed on issued invoices (the sum
 * of amountDue over invoices that are sent or overdue). A seeded random
 * sequence of operations (create, update a draft, send, part pay, pay in
 * full, overpay, void, delete a draft, sweep, and refused moves) checks it
 * after every step, against a model the test keeps by hand as well.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Api } from '../helpers/index.js';
import { balanceOf, contactOk, ledger } from '../ledger-http/support.js';
import { allInvoices, createInvoice, pay } from './invoice-support.js';

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const rates = { standard: 20, reduced: 5, zero: 0, exempt: 0 } as const;
type Rate = keyof typeof rates;

interface Line {
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly vatRate: Rate;
}

interface Modelled {
  readonly id: string;
  status: 'draft' | 'sent' | 'overdue' | 'paid' | 'void';
  total: number;
  paid: number;
  readonly issueDate: string;
  dueDate: string;
}

const today = '2026-11-21';

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Whole quantities and prices in whole pounds: every line's VAT (20% or
 * 5% of a multiple of 100 pence) is exact, so the model's totals need no
 * rounding rule of their own.
 */
function linesOf(rnd: () => number): { lines: Line[]; total: number } {
  const n = 1 + Math.floor(rnd() * 3);
  const lines: Line[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const names = Object.keys(rates) as Rate[];
    const vatRate = names[Math.floor(rnd() * names.length)]!;
    const quantity = 1 + Math.floor(rnd() * 4);
    const unitPrice = 100 * (1 + Math.floor(rnd() * 500));
    const net = quantity * unitPrice;
    total += net + (net * rates[vatRate]) / 100;
    lines.push({ description: `Line ${i + 1}`, quantity, unitPrice, vatRate });
  }
  return { lines, total };
}

const owed = (m: Modelled) => (m.status === 'sent' || m.status === 'overdue' ? m.total - m.paid : 0);

/** The invariant, both ways: 1100 = Σ amountDue of sent and overdue invoices (as listed) = the model's sum; and each invoice as modelled. */
async function checkInvariant(t: Test, api: Api, acc1100: string, model: Map<string, Modelled>, step: string): Promise<void> {
  const listed = await allInvoices(api);
  // A list answers by the due date: it sweeps first, as POST /invoices/sweep does.
  for (const m of model.values()) if (m.status === 'sent' && m.dueDate < today) m.status = 'overdue';
  const receivable = (await balanceOf(api, acc1100)).net;
  const listedOwed = listed.filter((i) => i.status === 'sent' || i.status === 'overdue').reduce((s, i) => s + i.amountDue, 0);
  const modelOwed = [...model.values()].reduce((s, m) => s + owed(m), 0);
  t.equal(receivable, listedOwed, `${step}: 1100 (${receivable}) = Σ amountDue of sent and overdue invoices (${listedOwed})`);
  t.equal(listedOwed, modelOwed, `${step}: and = what the model says is owed`);
  const actual = Object.fromEntries(listed.map((i) => [i.id, [i.status, i.total, i.amountDue]]));
  const expected = Object.fromEntries(
    [...model.values()].map((m) => [m.id, [m.status, m.total, m.status === 'paid' || m.status === 'void' ? 0 : m.total - m.paid]]),
  );
  t.same(actual, expected, `${step}: every invoice as modelled`);
}

async function run(t: Test, seed: number, steps: number): Promise<void> {
  const rnd = prng(seed);
  const { api, acc } = await ledger(t);
  const contacts = [await contactOk(t, api, { name: 'Client One Ltd' }), await contactOk(t, api, { name: 'Client Two Ltd', paymentTerms: 7 })];
  const model = new Map<string, Modelled>();
  const pick = (statuses: readonly Modelled['status'][], filter: (m: Modelled) => boolean = () => true): Modelled | undefined => {
    const found = [...model.values()].filter((m) => statuses.includes(m.status) && filter(m));
    return found.length === 0 ? undefined : found[Math.floor(rnd() * found.length)];
  };
  const expectStatus = (r: { status: number; body: { error?: { code?: string } } }, status: number, what: string) =>
    t.equal(r.status, status, `${what}: ${status} ${r.body?.error?.code ?? ''}`);

  const ops = [
    'create',
    'create',
    'update',
    'send',
    'send',
    'partPay',
    'payInFull',
    'overpay',
    'void',
    'voidWithPayments',
    'deleteDraft',
    'sweep',
    'refused',
  ] as const;
  const tally = new Map<(typeof ops)[number], number>();
  for (let step = 1; step <= steps; step++) {
    let op: (typeof ops)[number] = ops[Math.floor(rnd() * ops.length)]!;
    const label = () => `seed ${seed} step ${step} ${op}`;
    switch (op) {
      case 'update': {
        const m = pick(['draft']);
        if (!m) {
          op = 'create';
          break;
        }
        const { lines, total } = linesOf(rnd);
        const r = await api.request('PUT', `/v1/invoices/${m.id}`, { body: { items: lines } });
        expectStatus(r, 200, label());
        t.equal(r.body.data.total, total, `${label()}: the total worked out by the model`);
        m.total = total;
        break;
      }
      case 'send': {
        const m = pick(['draft']);
        if (!m) {
          op = 'create';
          break;
        }
        expectStatus(await api.request('POST', `/v1/invoices/${m.id}/send`), 200, label());
        m.status = 'sent';
        break;
      }
      case 'partPay': {
        const m = pick(['sent', 'overdue'], (x) => x.total - x.paid >= 2);
        if (!m) {
          op = 'create';
          break;
        }
        const amount = 1 + Math.floor(rnd() * (m.total - m.paid - 1));
        const accountId = rnd() < 0.5 ? acc['1200']! : acc['1210']!;
        const r = await pay(api, m.id, { amount, date: today, accountId });
        expectStatus(r, 201, label());
        m.paid += amount;
        t.equal(r.body.data.amountDue, m.total - m.paid, `${label()}: amountDue drops by ${amount}`);
        break;
      }
      case 'payInFull': {
        const m = pick(['sent', 'overdue']);
        if (!m) {
          op = 'create';
          break;
        }
        const r = await pay(api, m.id, { amount: m.total - m.paid, date: today });
        expectStatus(r, 201, label());
        m.paid = m.total;
        m.status = 'paid';
        t.equal(r.body.data.invoiceStatus, 'paid', `${label()}: paid`);
        break;
      }
      case 'overpay': {
        const m = pick(['sent', 'overdue']);
        if (!m) {
          op = 'create';
          break;
        }
        expectStatus(await pay(api, m.id, { amount: m.total - m.paid + 1, date: today }), 422, label());
        break;
      }
      case 'void': {
        const m = pick(['draft', 'sent', 'overdue'], (x) => x.paid === 0);
        if (!m) {
          op = 'create';
          break;
        }
        expectStatus(await api.request('POST', `/v1/invoices/${m.id}/void`), 200, label());
        m.status = 'void';
        break;
      }
      case 'voidWithPayments': {
        const m = pick(['sent', 'overdue', 'paid'], (x) => x.paid > 0);
        if (!m) {
          op = 'create';
          break;
        }
        expectStatus(await api.request('POST', `/v1/invoices/${m.id}/void`), 422, label());
        break;
      }
      case 'deleteDraft': {
        const m = pick(['draft']);
        if (!m) {
          op = 'create';
          break;
        }
        expectStatus(await api.request('DELETE', `/v1/invoices/${m.id}`), 200, label());
        model.delete(m.id);
        break;
      }
      case 'sweep': {
        expectStatus(await api.request('POST', '/v1/invoices/sweep'), 200, label());
        for (const m of model.values()) if (m.status === 'sent' && m.dueDate < today) m.status = 'overdue';
        break;
      }
      case 'refused': {
        // One of the moves the state table refuses; each must leave the books as they were.
        const issued = pick(['sent', 'overdue']);
        const draft = pick(['draft']);
        if (issued && rnd() < 0.5) {
          expectStatus(await api.request('DELETE', `/v1/invoices/${issued.id}`), 422, `${label()} delete issued`);
          expectStatus(await api.request('PUT', `/v1/invoices/${issued.id}`, { body: { items: linesOf(rnd).lines } }), 422, `${label()} update issued`);
          expectStatus(await api.request('PATCH', `/v1/invoices/${issued.id}/status`, { body: { status: 'draft' } }), 422, `${label()} back to draft`);
        } else if (draft) {
          expectStatus(await pay(api, draft.id, { amount: 100, date: today }), 422, `${label()} pay a draft`);
          expectStatus(await api.request('PATCH', `/v1/invoices/${draft.id}/status`, { body: { status: 'paid' } }), 422, `${label()} draft to paid`);
        } else {
          op = 'create';
        }
        break;
      }
      case 'create':
        break;
    }
    if (op === 'create') {
      const { lines, total } = linesOf(rnd);
      // Issued between 1 September and today, due 0 to 60 days later: some fall due before today.
      const issueDate = addDays('2026-09-01', Math.floor(rnd() * 82));
      const dueDays = Math.floor(rnd() * 61);
      const contactId = contacts[Math.floor(rnd() * contacts.length)]!;
      const r = await createInvoice(api, contactId, { items: lines, issueDate, dueDays });
      expectStatus(r, 201, label());
      t.equal(r.body.data.total, total, `${label()}: the total worked out by the model`);
      t.equal(r.body.data.dueDate, addDays(issueDate, dueDays), `${label()}: due ${dueDays} days after ${issueDate}`);
      model.set(r.body.data.id, { id: r.body.data.id, status: 'draft', total, paid: 0, issueDate, dueDate: addDays(issueDate, dueDays) });
    }
    tally.set(op, (tally.get(op) ?? 0) + 1);
    await checkInvariant(t, api, acc['1100']!, model, label());
  }
  t.comment(`seed ${seed}: ${[...tally].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  t.same(new Set(tally.keys()), new Set(ops), 'every kind of operation ran at least once');
  const statuses = new Set([...model.values()].map((m) => m.status));
  t.ok(statuses.size >= 4, `the sequence reached several statuses: ${[...statuses].join(', ')}`);
}

for (const seed of [20261121, 7, 424242]) {
  t.test(`1100 = Σ amountDue of sent and overdue invoices after every step (seed ${seed}, 60 steps)`, (t) => run(t, seed, 60));
}

t.test('parallel payments against one invoice never take more than is due', async (t) => {
  const { api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  // 1 × 10000 standard: total 12000; ten payments of 5000 at once: room for two (10000), 2000 stays due.
  const r = await createInvoice(api, contactId, { items: [{ description: 'Work', quantity: 1, unitPrice: 10000, vatRate: 'standard' }] });
  t.equal(r.status, 201);
  const id = r.body.data.id as string;
  t.equal((await api.request('POST', `/v1/invoices/${id}/send`)).status, 200);
  const replies = await Promise.all(Array.from({ length: 10 }, () => pay(api, id, { amount: 5000, date: today })));
  t.same(replies.map((x) => x.status).sort(), [201, 201, 422, 422, 422, 422, 422, 422, 422, 422], 'two accepted, eight refused as more than is due');
  const invoice = (await api.request('GET', `/v1/invoices/${id}`)).body.data;
  t.match(invoice, { status: 'sent', amountPaid: 10000, amountDue: 2000 });
  t.equal(invoice.payments.length, 2);
  t.same(await balanceOf(api, acc['1100']!), { debit: 12000, credit: 10000, net: 2000 });
  t.equal((await balanceOf(api, acc['1200']!)).net, 10000);
});
