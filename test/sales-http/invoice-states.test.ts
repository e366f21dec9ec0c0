/**
 * The Invoice state table of the spec, row by row, over HTTP: create, update
 * of a draft, send, payments (part, final, refused), the overdue sweep,
 * void, delete, the status operation and preview; then the pricing rules
 * (VAT schemes, due dates, rounding). Figures are worked by hand in the
 * comments beside them. Today is 2026-11-21 (the clock of ledger()).
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Api, Books } from '../helpers/index.js';
import { balanceOf, contactOk, expectError, ledger, transactionTotal } from '../ledger-http/support.js';
import { counts, createInvoice, getInvoice, invoiceOk, invoiceTotal, item, pay, payOk, salesEvents, sendOk } from './invoice-support.js';

/** A transaction's lines as [account code, amount] (debits positive). */
async function entries(t: Test, api: Api, transactionId: string): Promise<{ status: string; lines: [string, number][] }> {
  const r = await api.request('GET', `/v1/transactions/${transactionId}`);
  t.equal(r.status, 200, `transaction ${transactionId} readable`);
  return { status: r.body.data.status, lines: r.body.data.lines.map((l: { accountCode: string; amount: number }) => [l.accountCode, l.amount]) };
}

/** net of the balances of the given account codes. */
async function nets(api: Api, acc: Readonly<Record<string, string>>, codes: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const code of codes) out[code] = (await balanceOf(api, acc[code]!)).net;
  return out;
}

/** Everything a refused request must leave alone: the invoice, the counts and the receivables balance. */
async function state(t: Test, api: Api, books: Books, acc: Readonly<Record<string, string>>, id: string) {
  return { invoice: await getInvoice(t, api, id), counts: await counts(api, books), balances: await nets(api, acc, ['1100', '1200', '4000', '2200']) };
}

/** 2 × £150.00 standard: net 30000, VAT 6000, total 36000. */
const twoDays = { items: [item({ description: 'Two days of design', quantity: 2, unitPrice: 15000 })] };

t.test('create: 201 draft, numbered INV-0001 then INV-0002, priced lines, a draft transaction that moves no balance, invoice.created', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const r = await createInvoice(api, contactId, {
    issueDate: '2026-11-10',
    notes: 'Thank you for your business',
    reference: 'PO-4471',
    items: [
      // 3 × 12000 standard: net 36000, VAT 20% 7200, line 43200
      item({ description: 'Design work', quantity: 3, unitPrice: 12000, vatRate: 'standard' }),
      // 2 × 2550 reduced: net 5100, VAT 5% 255, line 5355
      item({ description: 'Printed books', quantity: 2, unitPrice: 2550, vatRate: 'reduced' }),
      // 1 × 8000 zero: net 8000, VAT 0, line 8000
      item({ description: 'Export goods', quantity: 1, unitPrice: 8000, vatRate: 'zero' }),
      // 1 × 5000 exempt: net 5000, no VAT, line 5000
      item({ description: 'Training', quantity: 1, unitPrice: 5000, vatRate: 'exempt' }),
    ],
  });
  t.equal(r.status, 201, 'created');
  const inv = r.body.data;
  t.match(inv.id, /^inv_/);
  t.match(inv, {
    invoiceNumber: 'INV-0001',
    status: 'draft',
    contactId,
    contact: { id: contactId, name: 'Client One Ltd' },
    currency: 'GBP',
    // 36000 + 5100 + 8000 + 5000
    subtotal: 54100,
    // 7200 + 255
    vatAmount: 7455,
    // 54100 + 7455
    total: 61555,
    amountPaid: 0,
    amountDue: 61555,
    issueDate: '2026-11-10',
    // no contact terms: the organisation's 30 days from 10 November
    dueDate: '2026-12-10',
    paidDate: null,
    notes: 'Thank you for your business',
    reference: 'PO-4471',
    createdAt: '2026-11-21T10:00:00.000Z',
  });
  t.same(
    inv.items.map((i: Record<string, unknown>) => [
      i['description'],
      i['quantity'],
      i['unitPrice'],
      i['vatRate'],
      i['vatRateName'],
      i['vatAmount'],
      i['lineTotal'],
    ]),
    [
      ['Design work', 3, 12000, 20, 'standard', 7200, 43200],
      ['Printed books', 2, 2550, 5, 'reduced', 255, 5355],
      ['Export goods', 1, 8000, 0, 'zero', 0, 8000],
      ['Training', 1, 5000, 0, 'exempt', 0, 5000],
    ],
    'items: numeric vatRate, its name, VAT and lineTotal = net + VAT',
  );
  for (const i of inv.items) t.match(i.id, /^line_/, 'each line has a line_ id');

  const txn = await entries(t, api, inv.transactionId);
  t.same(
    txn,
    {
      status: 'draft',
      lines: [
        ['1100', 61555],
        ['4000', -36000],
        ['4000', -5100],
        ['4000', -8000],
        ['4000', -5000],
        ['2200', -7455],
      ],
    },
    'a draft transaction: debit 1100 the total, credit 4000 each net, credit 2200 the VAT',
  );
  const txnRow = await api.request('GET', `/v1/transactions/${inv.transactionId}`);
  t.match(txnRow.body.data, { sourceType: 'invoice', sourceId: inv.id, date: '2026-11-10', totalDebit: 61555, totalCredit: 61555 });
  t.same(await nets(api, acc, ['1100', '4000', '2200']), { '1100': 0, '4000': 0, '2200': 0 }, 'a draft moves no balance');

  const got = await getInvoice(t, api, inv.id);
  t.match(got, { invoiceNumber: 'INV-0001', status: 'draft', total: 61555, amountDue: 61555 });
  t.equal(got.items.length, 4);
  t.same(got.payments, []);

  const second = await invoiceOk(t, api, contactId);
  t.equal(second.invoiceNumber, 'INV-0002', 'the next number');
  // 1 × 10000 standard: 10000 + 2000
  t.match(second, { status: 'draft', subtotal: 10000, vatAmount: 2000, total: 12000, amountDue: 12000, issueDate: '2026-11-21', dueDate: '2026-12-21' });

  const events = await salesEvents(books);
  t.same(
    events.map((e) => [e.event, e.payload['id'], e.payload['invoiceNumber'], e.payload['status']]),
    [
      ['invoice.created', inv.id, 'INV-0001', 'draft'],
      ['invoice.created', second.id, 'INV-0002', 'draft'],
    ],
    'one invoice.created each',
  );
});

t.test('PUT of a draft replaces the fields sent; the draft transaction follows; fields left out stay', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId, { notes: 'First notes', reference: 'PO-1' });
  const r = await api.request('PUT', `/v1/invoices/${inv.id}`, {
    body: {
      notes: 'Revised notes',
      dueDate: '2027-01-15',
      // 2 × 7500 standard: net 15000, VAT 3000; 1 × 999 reduced: net 999, VAT 49.95 → 50
      items: [
        item({ description: 'Revised work', quantity: 2, unitPrice: 7500 }),
        item({ description: 'Booklet', quantity: 1, unitPrice: 999, vatRate: 'reduced' }),
      ],
    },
  });
  t.equal(r.status, 200, 'updated');
  t.match(r.body.data, {
    id: inv.id,
    invoiceNumber: 'INV-0001',
    status: 'draft',
    notes: 'Revised notes',
    reference: 'PO-1',
    dueDate: '2027-01-15',
    subtotal: 15999,
    vatAmount: 3050,
    total: 19049,
    amountDue: 19049,
    transactionId: inv.transactionId,
  });
  t.same(
    r.body.data.items.map((i: Record<string, unknown>) => [i['description'], i['vatAmount'], i['lineTotal']]),
    [
      ['Revised work', 3000, 18000],
      ['Booklet', 50, 1049],
    ],
  );
  t.same(
    await entries(t, api, inv.transactionId),
    {
      status: 'draft',
      lines: [
        ['1100', 19049],
        ['4000', -15000],
        ['4000', -999],
        ['2200', -3050],
      ],
    },
    'the same draft transaction, its lines replaced',
  );
  t.equal(await transactionTotal(api), 1, 'no second transaction');

  const notesOnly = await api.request('PUT', `/v1/invoices/${inv.id}`, { body: { notes: 'Just the notes' } });
  t.equal(notesOnly.status, 200);
  t.match(notesOnly.body.data, { notes: 'Just the notes', dueDate: '2027-01-15', total: 19049 }, 'items and due date kept');
  t.equal(notesOnly.body.data.items.length, 2);
  t.same(await nets(api, acc, ['1100', '4000', '2200']), { '1100': 0, '4000': 0, '2200': 0 }, 'still a draft: no balance moves');

  const other = await contactOk(t, api, { name: 'Client Two Ltd' });
  const moved = await api.request('PUT', `/v1/invoices/${inv.id}`, { body: { contactId: other, issueDate: '2026-11-15' } });
  t.equal(moved.status, 200);
  t.match(moved.body.data, { contactId: other, contact: { name: 'Client Two Ltd' }, issueDate: '2026-11-15', dueDate: '2027-01-15' });
  const txn = (await api.request('GET', `/v1/transactions/${inv.transactionId}`)).body.data;
  t.match(
    txn,
    { date: '2026-11-15', status: 'draft', description: 'Invoice INV-0001 to Client Two Ltd' },
    'the draft transaction follows the date and the contact',
  );
  t.same(
    txn.lines.map((l: { contactId: string }) => l.contactId),
    [other, other, other, other],
    'every line names the new contact',
  );
  t.same(
    (await salesEvents(books)).map((e) => e.event),
    ['invoice.created'],
    'an update raises no invoice event',
  );
});

t.test('PUT of an issued invoice is refused and changes nothing: sent and overdue 422, paid 409 already_paid, void 409 already_voided', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const sent = await invoiceOk(t, api, contactId, twoDays);
  await sendOk(t, api, sent.id);
  const overdue = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-10-01', dueDate: '2026-10-31' });
  await sendOk(t, api, overdue.id);
  t.equal((await api.request('POST', '/v1/invoices/sweep')).status, 200);
  const paid = await invoiceOk(t, api, contactId, twoDays);
  await sendOk(t, api, paid.id);
  await payOk(t, api, paid.id, { amount: 36000 });
  const voided = await invoiceOk(t, api, contactId, twoDays);
  t.equal((await api.request('POST', `/v1/invoices/${voided.id}/void`)).status, 200);

  const cases: [string, string, number, string][] = [
    [sent.id, 'sent', 422, 'unprocessable_entity'],
    [overdue.id, 'overdue', 422, 'unprocessable_entity'],
    [paid.id, 'paid', 409, 'already_paid'],
    [voided.id, 'void', 409, 'already_voided'],
  ];
  for (const [id, status, code, name] of cases) {
    const before = await state(t, api, books, acc, id);
    t.equal(before.invoice.status, status);
    const r = await api.request('PUT', `/v1/invoices/${id}`, {
      body: { notes: 'Changed after issue', dueDate: '2027-02-01', items: [item({ unitPrice: 1 })] },
    });
    expectError(t, r, code, name);
    t.same(await state(t, api, books, acc, id), before, `${status}: nothing changed`);
  }
});

t.test('send: {id, status sent, sentAt}; the entries are posted; invoice.sent; a second send is 422', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId, twoDays);
  const r = await api.request('POST', `/v1/invoices/${inv.id}/send`, { body: { sendEmail: false } });
  t.equal(r.status, 200);
  t.match(r.body.data, { id: inv.id, status: 'sent', sentAt: '2026-11-21T10:00:00.000Z' });
  t.equal((await entries(t, api, inv.transactionId)).status, 'posted', 'the same transaction, now posted');
  t.same(await balanceOf(api, acc['1100']!), { debit: 36000, credit: 0, net: 36000 }, '1100 holds the total');
  t.same(await nets(api, acc, ['4000', '2200']), { '4000': -30000, '2200': -6000 }, 'sales and VAT credited');
  const got = await getInvoice(t, api, inv.id);
  t.match(got, { status: 'sent', sentAt: '2026-11-21T10:00:00.000Z', amountDue: 36000 });
  const sentEvents = (await salesEvents(books)).filter((e) => e.event === 'invoice.sent');
  t.equal(sentEvents.length, 1, 'one invoice.sent');
  t.match(sentEvents[0]?.payload, { id: inv.id, invoiceNumber: 'INV-0001', status: 'sent', total: 36000 });

  const before = await state(t, api, books, acc, inv.id);
  expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/send`), 422, 'unprocessable_entity');
  t.same(await state(t, api, books, acc, inv.id), before, 'a second send changes nothing');
});

t.test('send with sendEmail true and no mail server: 422, still a draft, nothing posted', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api, { email: 'accounts@client.example' });
  const inv = await invoiceOk(t, api, contactId, twoDays);
  const before = await state(t, api, books, acc, inv.id);
  expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/send`, { body: { sendEmail: true } }), 422, 'unprocessable_entity');
  t.same(await state(t, api, books, acc, inv.id), before);
  t.equal((await entries(t, api, inv.transactionId)).status, 'draft');
});

t.test('send of a paid invoice: 409 already_paid', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId, twoDays);
  await sendOk(t, api, inv.id);
  await payOk(t, api, inv.id, { amount: 36000 });
  const before = await state(t, api, books, acc, inv.id);
  expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/send`), 409, 'already_paid');
  t.same(await state(t, api, books, acc, inv.id), before);
});

t.test('payments', async (t) => {
  t.test('on a draft: 422, nothing stored', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    const before = await state(t, api, books, acc, inv.id);
    expectError(t, await pay(api, inv.id, { amount: 1000 }), 422, 'unprocessable_entity');
    t.same(await state(t, api, books, acc, inv.id), before);
  });

  t.test('a part payment keeps sent; the one that clears the balance makes it paid on its date; overpayment refused', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-11-01' });
    await sendOk(t, api, inv.id);

    const first = await payOk(t, api, inv.id, { amount: 10000, date: '2026-11-05', method: 'card', reference: 'REMIT-1' });
    t.match(first, { invoiceId: inv.id, amount: 10000, date: '2026-11-05', method: 'card', createdAt: '2026-11-21T10:00:00.000Z' });
    t.match(first.id, /^pay_/);
    let got = await getInvoice(t, api, inv.id);
    // 36000 − 10000
    t.match(got, { status: 'sent', amountPaid: 10000, amountDue: 26000, paidDate: null });
    t.equal(got.payments.length, 1);
    t.same(await nets(api, acc, ['1100', '1200']), { '1100': 26000, '1200': 10000 }, 'bank debited, receivables credited');
    let events = await salesEvents(books);
    t.match(events.at(-1), { event: 'payment.received', payload: { id: first.id, invoiceId: inv.id, amount: 10000 } });
    t.equal(events.filter((e) => e.event === 'invoice.paid').length, 0, 'not paid yet');

    const before = await state(t, api, books, acc, inv.id);
    expectError(t, await pay(api, inv.id, { amount: 26001 }), 422, 'unprocessable_entity');
    t.same(await state(t, api, books, acc, inv.id), before, 'a payment above what is due stores nothing');

    const last = await payOk(t, api, inv.id, { amount: 26000, date: '2026-11-20' });
    t.match(last, { amount: 26000, date: '2026-11-20', method: 'bank_transfer' });
    got = await getInvoice(t, api, inv.id);
    t.match(got, { status: 'paid', amountPaid: 36000, amountDue: 0, paidDate: '2026-11-20' });
    t.equal(got.payments.length, 2);
    t.same(await nets(api, acc, ['1100', '1200']), { '1100': 0, '1200': 36000 });
    events = await salesEvents(books);
    t.same(
      events.slice(-2).map((e) => e.event),
      ['payment.received', 'invoice.paid'],
      'payment.received then invoice.paid',
    );
    const paidEvent = events.find((e) => e.event === 'invoice.paid');
    t.match(paidEvent?.payload, { id: inv.id, invoiceNumber: 'INV-0001', status: 'paid', total: 36000 }, 'the spec example: id, invoiceNumber, status, total');
    t.equal(events.filter((e) => e.event === 'invoice.paid').length, 1);

    const paidState = await state(t, api, books, acc, inv.id);
    expectError(t, await pay(api, inv.id, { amount: 1 }), 409, 'already_paid');
    t.same(await state(t, api, books, acc, inv.id), paidState, 'nothing stored on a paid invoice');
  });

  t.test('on a void invoice: 409 already_voided', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, inv.id);
    t.equal((await api.request('POST', `/v1/invoices/${inv.id}/void`)).status, 200);
    const before = await state(t, api, books, acc, inv.id);
    expectError(t, await pay(api, inv.id, { amount: 1000 }), 409, 'already_voided');
    t.same(await state(t, api, books, acc, inv.id), before);
  });

  t.test('invalid bodies: 400 with the field, nothing stored', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-11-01' });
    await sendOk(t, api, inv.id);
    const before = await state(t, api, books, acc, inv.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: 0 }, 'validation_error', 'amount'],
      [{ amount: -500 }, 'validation_error', 'amount'],
      [{ amount: 1.5 }, 'validation_error', 'amount'],
      [{ amount: '100' }, 'invalid_type', 'amount'],
      [{ amount: null }, 'validation_error', 'amount'],
      [{ amount: 100, date: '2026-13-01' }, 'invalid_date', 'date'],
      [{ amount: 100, date: '05/11/2026' }, 'invalid_date', 'date'],
      [{ amount: 100, method: 'cheque' }, 'validation_error', 'method'],
      [{ amount: 100, date: '2026-10-31' }, 'validation_error', 'date'],
      [{ amount: 100, accountId: 'bank' }, 'invalid_id', 'accountId'],
      [{ amount: 100, accountId: acc['4000']! }, 'validation_error', 'accountId'],
      [{ amount: 100, accountId: acc['1100']! }, 'validation_error', 'accountId'],
      [{ amount: 100, colour: 'blue' }, 'validation_error', 'colour'],
    ];
    for (const [body, code, field] of cases) {
      expectError(t, await pay(api, inv.id, body), 400, code, { field });
    }
    const noAmount = await api.request('POST', `/v1/invoices/${inv.id}/payments`, { body: { date: '2026-11-21' } });
    expectError(t, noAmount, 400, 'validation_error', { field: 'amount' });
    const noDate = await api.request('POST', `/v1/invoices/${inv.id}/payments`, { body: { amount: 100 } });
    expectError(t, noDate, 400, 'validation_error', { field: 'date' });
    t.same(await state(t, api, books, acc, inv.id), before, 'no refused payment left anything');
  });

  t.test('paidDate is the date the balance was cleared: the latest payment date, whatever order they are recorded in', async (t) => {
    const { api } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-11-01' });
    await sendOk(t, api, inv.id);
    await payOk(t, api, inv.id, { amount: 20000, date: '2026-11-18' });
    // Recorded last but dated earlier: the invoice was only cleared once the 18 November payment came in.
    await payOk(t, api, inv.id, { amount: 16000, date: '2026-11-03' });
    t.match(await getInvoice(t, api, inv.id), { status: 'paid', paidDate: '2026-11-18', amountDue: 0 });
  });

  t.test('a payment to a chosen bank account posts there', async (t) => {
    const { api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, inv.id);
    const p = await payOk(t, api, inv.id, { amount: 5000, accountId: acc['1210']! });
    t.equal(p.accountId, acc['1210']);
    t.same(await nets(api, acc, ['1210', '1200', '1100']), { '1210': 5000, '1200': 0, '1100': 31000 }, 'savings debited, current account untouched');
  });
});

t.test('overdue: the sweep moves sent invoices past their due date, once; payments still work; the status move refuses early', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  // Due yesterday: overdue once swept.
  const late = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-10-01', dueDate: '2026-11-20' });
  await sendOk(t, api, late.id);
  // Due today: not yet overdue.
  const dueToday = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-10-01', dueDate: '2026-11-21' });
  await sendOk(t, api, dueToday.id);
  // Past due but never sent: stays a draft.
  const draft = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-10-01', dueDate: '2026-10-31' });

  const sweep = await api.request('POST', '/v1/invoices/sweep');
  t.equal(sweep.status, 200);
  t.same(sweep.body.data.overdueInvoices, ['INV-0001'], 'only the one past due');
  t.match(await getInvoice(t, api, late.id), { status: 'overdue', amountDue: 36000 });
  t.equal((await getInvoice(t, api, dueToday.id)).status, 'sent');
  t.equal((await getInvoice(t, api, draft.id)).status, 'draft');
  t.equal((await balanceOf(api, acc['1100']!)).net, 72000, 'overdue changes no entry: 2 × 36000 sent');

  const again = await api.request('POST', '/v1/invoices/sweep');
  t.same(again.body.data.overdueInvoices, [], 'nothing moves twice');
  const overdueEvents = (await salesEvents(books)).filter((e) => e.event === 'invoice.overdue');
  t.equal(overdueEvents.length, 1, 'invoice.overdue exactly once');
  t.match(overdueEvents[0]?.payload, { id: late.id, invoiceNumber: 'INV-0001', status: 'overdue' });

  const before = await state(t, api, books, acc, dueToday.id);
  expectError(t, await api.request('PATCH', `/v1/invoices/${dueToday.id}/status`, { body: { status: 'overdue' } }), 422, 'unprocessable_entity');
  t.same(await state(t, api, books, acc, dueToday.id), before, 'not overdue before its due date has passed');

  await payOk(t, api, late.id, { amount: 6000 });
  // 36000 − 6000
  t.match(await getInvoice(t, api, late.id), { status: 'overdue', amountPaid: 6000, amountDue: 30000 });
  await payOk(t, api, late.id, { amount: 30000 });
  t.match(await getInvoice(t, api, late.id), { status: 'paid', amountDue: 0, paidDate: '2026-11-21' });
  t.equal((await balanceOf(api, acc['1100']!)).net, 36000, 'only the invoice due today is owed');
  t.equal((await salesEvents(books)).filter((e) => e.event === 'invoice.paid').length, 1);
});

t.test('PATCH status to overdue of a sent invoice past its due date moves it (the sweep, on demand)', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const late = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-10-01', dueDate: '2026-10-31' });
  await sendOk(t, api, late.id);
  const r = await api.request('PATCH', `/v1/invoices/${late.id}/status`, { body: { status: 'overdue' } });
  t.equal(r.status, 200);
  t.same(r.body.data, { id: late.id, status: 'overdue' });
  t.equal((await salesEvents(books)).filter((e) => e.event === 'invoice.overdue').length, 1);
});

t.test('void', async (t) => {
  t.test('a draft: void, its transaction gone, invoice.cancelled', async (t) => {
    const { books, api } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    const r = await api.request('POST', `/v1/invoices/${inv.id}/void`);
    t.equal(r.status, 200);
    t.match(r.body.data, { id: inv.id, invoiceNumber: 'INV-0001', status: 'void', voidedAt: '2026-11-21T10:00:00.000Z', transactionId: null, amountDue: 0 });
    expectError(t, await api.request('GET', `/v1/transactions/${inv.transactionId}`), 404, 'not_found');
    t.equal(await transactionTotal(api), 0);
    const cancelled = (await salesEvents(books)).filter((e) => e.event === 'invoice.cancelled');
    t.equal(cancelled.length, 1);
    t.match(cancelled[0]?.payload, { id: inv.id, status: 'void' });
    t.equal((await getInvoice(t, api, inv.id)).status, 'void', 'a voided invoice stays readable');
  });

  t.test('a sent invoice: its entries leave the ledger', async (t) => {
    const { api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, inv.id);
    t.same(await nets(api, acc, ['1100', '4000', '2200']), { '1100': 36000, '4000': -30000, '2200': -6000 });
    t.equal((await api.request('POST', `/v1/invoices/${inv.id}/void`)).status, 200);
    t.same(await nets(api, acc, ['1100', '4000', '2200']), { '1100': 0, '4000': 0, '2200': 0 }, 'back to nothing');
    expectError(t, await api.request('GET', `/v1/transactions/${inv.transactionId}`), 404, 'not_found');
  });

  t.test('an overdue invoice without payments can be voided', async (t) => {
    const { api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, { ...twoDays, issueDate: '2026-10-01', dueDate: '2026-10-31' });
    await sendOk(t, api, inv.id);
    await api.request('POST', '/v1/invoices/sweep');
    const r = await api.request('POST', `/v1/invoices/${inv.id}/void`);
    t.equal(r.status, 200);
    t.equal(r.body.data.status, 'void');
    t.equal((await balanceOf(api, acc['1100']!)).net, 0);
  });

  t.test('with payments: 422 and nothing changes', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, inv.id);
    await payOk(t, api, inv.id, { amount: 1000 });
    const before = await state(t, api, books, acc, inv.id);
    expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/void`), 422, 'unprocessable_entity');
    t.same(await state(t, api, books, acc, inv.id), before);
    // A paid invoice has payments too.
    await payOk(t, api, inv.id, { amount: 35000 });
    const paid = await state(t, api, books, acc, inv.id);
    // The spec's row: an invoice with payments is refused 422, paid or not.
    expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/void`), 422, 'unprocessable_entity');
    t.same(await state(t, api, books, acc, inv.id), paid);
  });

  t.test('void of a void invoice: 409 already_voided; it is irreversible', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    t.equal((await api.request('POST', `/v1/invoices/${inv.id}/void`)).status, 200);
    const before = await state(t, api, books, acc, inv.id);
    expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/void`), 409, 'already_voided');
    expectError(t, await api.request('POST', `/v1/invoices/${inv.id}/send`), 409, 'already_voided');
    expectError(t, await api.request('PATCH', `/v1/invoices/${inv.id}/status`, { body: { status: 'sent' } }), 409, 'already_voided');
    expectError(t, await api.request('PATCH', `/v1/invoices/${inv.id}/status`, { body: { status: 'draft' } }), 409, 'already_voided');
    expectError(t, await api.request('DELETE', `/v1/invoices/${inv.id}`), 409, 'already_voided');
    t.same(await state(t, api, books, acc, inv.id), before);
  });
});

t.test('DELETE: a draft goes with its transaction; issued invoices stay; numbers are not reused', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const first = await invoiceOk(t, api, contactId, twoDays);
  const second = await invoiceOk(t, api, contactId, twoDays);
  const r = await api.request('DELETE', `/v1/invoices/${second.id}`);
  t.equal(r.status, 200);
  t.match(r.body.data, { deleted: true });
  expectError(t, await api.request('GET', `/v1/invoices/${second.id}`), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/transactions/${second.transactionId}`), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/invoices/${second.id}`), 404, 'not_found');
  t.equal(await invoiceTotal(api), 1);
  t.equal(await transactionTotal(api), 1);

  const third = await invoiceOk(t, api, contactId, twoDays);
  t.equal(third.invoiceNumber, 'INV-0003', 'INV-0002 is not reused');

  await sendOk(t, api, first.id);
  const before = await state(t, api, books, acc, first.id);
  expectError(t, await api.request('DELETE', `/v1/invoices/${first.id}`), 422, 'unprocessable_entity');
  t.same(await state(t, api, books, acc, first.id), before, 'a sent invoice is not deleted');

  await payOk(t, api, first.id, { amount: 36000 });
  const paid = await state(t, api, books, acc, first.id);
  expectError(t, await api.request('DELETE', `/v1/invoices/${first.id}`), 409, 'already_paid');
  t.same(await state(t, api, books, acc, first.id), paid);
});

t.test('a draft dated in a period closed since can be moved out of it, deleted or voided; not sent, nor changed or moved inside it', async (t) => {
  const { books, api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const dated = { ...twoDays, issueDate: '2026-02-02', dueDate: '2026-03-02' };
  const moved = await invoiceOk(t, api, contactId, dated);
  const deleted = await invoiceOk(t, api, contactId, dated);
  const voided = await invoiceOk(t, api, contactId, dated);
  t.equal((await api.request('POST', '/v1/reports/periods/period_20250401/close')).status, 200, 'FY 2025/26 closed');
  const untouched = { '1100': 0, '1200': 0, '4000': 0, '2200': 0 };

  const before = await state(t, api, books, acc, moved.id);
  expectError(t, await api.request('POST', `/v1/invoices/${moved.id}/send`, { body: {} }), 422, 'unprocessable_entity', {
    message: '2026-02-02 falls in FY 2025/26, which is closed',
  });
  expectError(t, await api.request('PUT', `/v1/invoices/${moved.id}`, { body: { notes: 'still in February' } }), 422, 'unprocessable_entity', {
    message: /2026-02-02 falls in FY 2025\/26, which is closed/,
  });
  t.same(await state(t, api, books, acc, moved.id), before, 'refusals change nothing');

  const r = await api.request('PUT', `/v1/invoices/${moved.id}`, { body: { issueDate: '2026-04-05', dueDate: '2026-05-05' } });
  t.equal(r.status, 200, `moved to the open year: ${JSON.stringify(r.body?.error ?? '')}`);
  t.match(r.body.data, { status: 'draft', issueDate: '2026-04-05', dueDate: '2026-05-05' });
  const txn = await api.request('GET', `/v1/transactions/${moved.transactionId}`);
  t.same([txn.body.data.date, txn.body.data.status], ['2026-04-05', 'draft'], 'its draft entries moved with it');
  expectError(t, await api.request('PUT', `/v1/invoices/${moved.id}`, { body: { issueDate: '2026-03-31' } }), 422, 'unprocessable_entity', {
    message: /2026-03-31 falls in FY 2025\/26, which is closed/,
  });
  t.equal((await getInvoice(t, api, moved.id)).issueDate, '2026-04-05', 'not moved back into the closed year');
  await sendOk(t, api, moved.id);

  const gone = await api.request('DELETE', `/v1/invoices/${deleted.id}`);
  t.equal(gone.status, 200, `deleted: ${JSON.stringify(gone.body?.error ?? '')}`);
  expectError(t, await api.request('GET', `/v1/transactions/${deleted.transactionId}`), 404, 'not_found');

  const v = await api.request('POST', `/v1/invoices/${voided.id}/void`);
  t.equal(v.status, 200, `voided: ${JSON.stringify(v.body?.error ?? '')}`);
  expectError(t, await api.request('GET', `/v1/transactions/${voided.transactionId}`), 404, 'not_found');

  // Only the moved invoice is posted: 1100 +36000, 4000 −30000, 2200 −6000 (2 × £150.00 + 20%).
  t.same(await nets(api, acc, ['1100', '1200', '4000', '2200']), { ...untouched, '1100': 36000, '4000': -30000, '2200': -6000 });
});

t.test('PATCH status', async (t) => {
  t.test('draft → sent works as send', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    const r = await api.request('PATCH', `/v1/invoices/${inv.id}/status`, { body: { status: 'sent' } });
    t.equal(r.status, 200);
    t.same(r.body.data, { id: inv.id, status: 'sent' });
    t.match(await getInvoice(t, api, inv.id), { status: 'sent', sentAt: '2026-11-21T10:00:00.000Z' });
    t.equal((await entries(t, api, inv.transactionId)).status, 'posted');
    t.equal((await balanceOf(api, acc['1100']!)).net, 36000);
    t.equal((await salesEvents(books)).filter((e) => e.event === 'invoice.sent').length, 1);
  });

  t.test('draft → void works as void', async (t) => {
    const { books, api } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    const r = await api.request('PATCH', `/v1/invoices/${inv.id}/status`, { body: { status: 'void' } });
    t.equal(r.status, 200);
    t.same(r.body.data, { id: inv.id, status: 'void' });
    expectError(t, await api.request('GET', `/v1/transactions/${inv.transactionId}`), 404, 'not_found');
    t.equal((await salesEvents(books)).filter((e) => e.event === 'invoice.cancelled').length, 1);
  });

  t.test('sent → void with payments: 422 as void', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const inv = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, inv.id);
    await payOk(t, api, inv.id, { amount: 100 });
    const before = await state(t, api, books, acc, inv.id);
    expectError(t, await api.request('PATCH', `/v1/invoices/${inv.id}/status`, { body: { status: 'void' } }), 422, 'unprocessable_entity');
    t.same(await state(t, api, books, acc, inv.id), before);
  });

  t.test('refused moves: → paid 422 (payments make paid), sent → draft 422, paid → anything 409; nothing changes', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const draft = await invoiceOk(t, api, contactId, twoDays);
    const sent = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, sent.id);
    const paid = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, paid.id);
    await payOk(t, api, paid.id, { amount: 36000 });
    const cases: [string, string, number, string][] = [
      [draft.id, 'paid', 422, 'unprocessable_entity'],
      [sent.id, 'paid', 422, 'unprocessable_entity'],
      [sent.id, 'draft', 422, 'unprocessable_entity'],
      [paid.id, 'draft', 409, 'already_paid'],
      [paid.id, 'sent', 409, 'already_paid'],
    ];
    for (const [id, status, code, name] of cases) {
      const before = await state(t, api, books, acc, id);
      expectError(t, await api.request('PATCH', `/v1/invoices/${id}/status`, { body: { status } }), code, name);
      t.same(await state(t, api, books, acc, id), before, `→ ${status} changed nothing`);
    }
    expectError(t, await api.request('PATCH', `/v1/invoices/${sent.id}/status`, { body: { status: 'cancelled' } }), 400, 'validation_error', {
      field: 'status',
    });
  });

  t.test('the status it already has: 200, no change, no event', async (t) => {
    const { books, api, acc } = await ledger(t);
    const contactId = await contactOk(t, api);
    const draft = await invoiceOk(t, api, contactId, twoDays);
    const sent = await invoiceOk(t, api, contactId, twoDays);
    await sendOk(t, api, sent.id);
    for (const [id, status] of [
      [draft.id, 'draft'],
      [sent.id, 'sent'],
    ] as const) {
      const before = await state(t, api, books, acc, id);
      const r = await api.request('PATCH', `/v1/invoices/${id}/status`, { body: { status } });
      t.equal(r.status, 200);
      t.same(r.body.data, { id, status });
      t.same(await state(t, api, books, acc, id), before, `${status} → ${status} changes nothing`);
    }
  });
});

t.test('preview computes what create would, storing nothing', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api, { paymentTerms: 14 });
  await invoiceOk(t, api, contactId, twoDays);
  const before = await counts(api, books);
  const settingsBefore = (await api.request('GET', '/v1/organisation/settings')).body.data;
  const body = {
    contactId,
    issueDate: '2026-11-10',
    items: [
      // 3 × 12000 standard: 36000 + 7200
      item({ description: 'Design work', quantity: 3, unitPrice: 12000 }),
      // 2 × 2550 reduced: 5100 + 255
      item({ description: 'Printed books', quantity: 2, unitPrice: 2550, vatRate: 'reduced' }),
      // 1 × 5000 exempt: 5000 + 0
      item({ description: 'Training', quantity: 1, unitPrice: 5000, vatRate: 'exempt' }),
    ],
  };
  const r = await api.request('POST', '/v1/invoices/preview', { body });
  t.equal(r.status, 200);
  t.match(r.body.data, { contactId, currency: 'GBP', issueDate: '2026-11-10', dueDate: '2026-11-24', subtotal: 46100, vatAmount: 7455, total: 53555 });
  t.same(
    r.body.data.items.map((i: Record<string, unknown>) => [i['vatRate'], i['vatRateName'], i['vatAmount'], i['lineTotal']]),
    [
      [20, 'standard', 7200, 43200],
      [5, 'reduced', 255, 5355],
      [0, 'exempt', 0, 5000],
    ],
  );
  t.same(await counts(api, books), before, 'no invoice, transaction or event stored');
  t.same((await api.request('GET', '/v1/organisation/settings')).body.data, settingsBefore, 'no number taken');

  const created = await invoiceOk(t, api, contactId, body);
  t.match(created, { subtotal: 46100, vatAmount: 7455, total: 53555, dueDate: '2026-11-24', invoiceNumber: 'INV-0002' }, 'create gives the same figures');

  const noContact = await api.request('POST', '/v1/invoices/preview', { body: { items: [item()] } });
  t.equal(noContact.status, 200);
  t.match(noContact.body.data, { contactId: null, issueDate: '2026-11-21', dueDate: '2026-12-21', total: 12000 }, 'without a contact: the organisation terms');
});

t.test('VAT schemes: not registered charges none and posts no VAT line; flat rate charges VAT as standard', async (t) => {
  const { api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const unregistered = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered' } });
  t.equal(unregistered.status, 200);
  // 10000 with no rate + 2 × 2500 zero-rated: no VAT at all (standard or reduced would be refused: test/vat/not-registered.test.ts)
  const plain = await invoiceOk(t, api, contactId, { items: [item({ vatRate: undefined }), item({ quantity: 2, unitPrice: 2500, vatRate: 'zero' })] });
  t.match(plain, { subtotal: 15000, vatAmount: 0, total: 15000, amountDue: 15000 });
  t.same(
    plain.items.map((i: Record<string, unknown>) => [i['vatRate'], i['vatRateName'], i['vatAmount'], i['lineTotal']]),
    [
      [0, null, 0, 10000],
      [0, 'zero', 0, 5000],
    ],
  );
  t.same(
    (await entries(t, api, plain.transactionId)).lines,
    [
      ['1100', 15000],
      ['4000', -10000],
      ['4000', -5000],
    ],
    'no 2200 line',
  );
  await sendOk(t, api, plain.id);
  t.equal((await balanceOf(api, acc['2200']!)).net, 0);

  const flat = await api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: 12 } });
  t.equal(flat.status, 200);
  t.match(flat.body.data, { vatScheme: 'flat_rate', vatFlatRatePercent: 12 });
  // 10000 standard: VAT 2000 charged to the customer as usual; 12% applies to the return, not the invoice
  const charged = await invoiceOk(t, api, contactId);
  t.match(charged, { subtotal: 10000, vatAmount: 2000, total: 12000 });
  t.equal(charged.items[0].vatRate, 20);
  t.same((await entries(t, api, charged.transactionId)).lines, [
    ['1100', 12000],
    ['4000', -10000],
    ['2200', -2000],
  ]);
});

t.test('due date: dueDate, else issueDate + dueDays, else + the contact terms, else + the organisation default (30)', async (t) => {
  const { books, api } = await ledger(t);
  const plain = await contactOk(t, api, { name: 'No Terms Ltd' });
  const fortnight = await contactOk(t, api, { name: 'Fortnight Ltd', paymentTerms: 14 });
  const onReceipt = await contactOk(t, api, { name: 'On Receipt Ltd', paymentTerms: 0 });

  t.equal((await invoiceOk(t, api, plain)).dueDate, '2026-12-21', '21 Nov + 30');
  t.equal((await invoiceOk(t, api, plain, { issueDate: '2026-12-20' })).dueDate, '2027-01-19', '20 Dec + 30, into the new year');
  t.equal((await invoiceOk(t, api, fortnight)).dueDate, '2026-12-05', '21 Nov + 14 (contact terms)');
  t.equal((await invoiceOk(t, api, onReceipt)).dueDate, '2026-11-21', 'contact terms of 0 days: due on issue');
  t.equal((await invoiceOk(t, api, fortnight, { issueDate: '2026-11-01', dueDays: 7 })).dueDate, '2026-11-08', 'dueDays over the contact terms');
  t.equal((await invoiceOk(t, api, plain, { dueDays: 14 })).dueDate, '2026-12-05', '21 Nov + 14');
  t.equal((await invoiceOk(t, api, plain, { dueDate: '2027-03-31' })).dueDate, '2027-03-31', 'dueDate as given');
  t.equal((await invoiceOk(t, api, plain, { dueDate: '2026-11-21' })).dueDate, '2026-11-21', 'due on the issue date is allowed');

  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { defaultPaymentTerms: 45 } })).status, 200);
  t.equal((await invoiceOk(t, api, plain)).dueDate, '2027-01-05', '21 Nov + 45 (9 to 30 Nov, 31 in Dec, 5 in Jan)');
  t.equal((await invoiceOk(t, api, fortnight)).dueDate, '2026-12-05', 'contact terms still win over the organisation');

  const before = await counts(api, books);
  expectError(t, await createInvoice(api, plain, { dueDate: '2026-12-31', dueDays: 14 }), 400, 'validation_error');
  expectError(t, await createInvoice(api, plain, { issueDate: '2026-11-21', dueDate: '2026-11-20' }), 400, 'validation_error', { field: 'dueDate' });
  expectError(t, await createInvoice(api, plain, { dueDays: -1 }), 400, 'validation_error', { field: 'dueDays' });
  expectError(t, await createInvoice(api, plain, { dueDays: 1.5 }), 400, 'validation_error', { field: 'dueDays' });
  t.same(await counts(api, books), before, 'refused creates store nothing');
});

t.test('rounding: each line to the nearest penny, halves away from zero, then summed', async (t) => {
  const { api, acc } = await ledger(t);
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId, {
    items: [
      // 3 × 333 = 999; VAT 199.8 → 200; line 1199
      item({ description: 'A', quantity: 3, unitPrice: 333 }),
      // 0.5 × 1 = 0.5 → 1 (half up); VAT 0.2 → 0; line 1
      item({ description: 'B', quantity: 0.5, unitPrice: 1 }),
      // 1 × 10 reduced: VAT 0.5 → 1 (half up); line 11
      item({ description: 'C', quantity: 1, unitPrice: 10, vatRate: 'reduced' }),
      // 2.5 × 333 zero = 832.5 → 833; line 833
      item({ description: 'D', quantity: 2.5, unitPrice: 333, vatRate: 'zero' }),
      // 0.3333 × 1000 = 333.3 → 333; VAT 66.6 → 67; line 400
      item({ description: 'E', quantity: 0.3333, unitPrice: 1000 }),
    ],
  });
  t.same(
    inv.items.map((i: Record<string, unknown>) => [i['description'], i['netAmount'], i['vatAmount'], i['lineTotal']]),
    [
      ['A', 999, 200, 1199],
      ['B', 1, 0, 1],
      ['C', 10, 1, 11],
      ['D', 833, 0, 833],
      ['E', 333, 67, 400],
    ],
  );
  // subtotal 999 + 1 + 10 + 833 + 333 = 2176; VAT 200 + 1 + 67 = 268; total 2444 = 1199 + 1 + 11 + 833 + 400
  t.match(inv, { subtotal: 2176, vatAmount: 268, total: 2444, amountDue: 2444 });
  t.same((await entries(t, api, inv.transactionId)).lines, [
    ['1100', 2444],
    ['4000', -999],
    ['4000', -1],
    ['4000', -10],
    ['4000', -833],
    ['4000', -333],
    ['2200', -268],
  ]);
  await sendOk(t, api, inv.id);
  t.equal((await balanceOf(api, acc['1100']!)).net, 2444);
});

t.test('today is the UK date: at 23:30 UTC on 1 July it is already 2 July (BST) for issue dates and the sweep', async (t) => {
  const { api } = await ledger(t, { clock: '2026-07-01T23:30:00Z' });
  const contactId = await contactOk(t, api);
  const inv = await invoiceOk(t, api, contactId);
  // 2 July + 30 days = 1 August
  t.match(inv, { issueDate: '2026-07-02', dueDate: '2026-08-01' });
  const late = await invoiceOk(t, api, contactId, { issueDate: '2026-06-01', dueDate: '2026-07-01' });
  await sendOk(t, api, late.id);
  const sweep = await api.request('POST', '/v1/invoices/sweep');
  t.same(sweep.body.data.overdueInvoices, ['INV-0002'], 'due 1 July, overdue on 2 July in London');
  t.equal(sweep.body.data.date, '2026-07-02');
});

t.test('PATCH status overdue moves only the invoice named, and raises only its invoice.overdue; a read of the other moves it', async (t) => {
  const { books, api } = await ledger(t);
  const contactId = await contactOk(t, api);
  const a = await invoiceOk(t, api, contactId, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  const b = await invoiceOk(t, api, contactId, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  await sendOk(t, api, a.id);
  await sendOk(t, api, b.id);
  const r = await api.request('PATCH', `/v1/invoices/${a.id}/status`, { body: { status: 'overdue' } });
  t.strictSame(r.body.data, { id: a.id, status: 'overdue' });
  const overdue = async () => (await salesEvents(books)).filter((e) => e.event === 'invoice.overdue').map((e) => e.payload['id']);
  t.strictSame(await overdue(), [a.id]);
  // A get answers by the due date: the other past-due invoice moves when read, with its event, once.
  t.equal((await getInvoice(t, api, b.id)).status, 'overdue');
  t.equal((await getInvoice(t, api, b.id)).status, 'overdue');
  t.strictSame(await overdue(), [a.id, b.id]);
});
