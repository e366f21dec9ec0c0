/**
 * Purchase bills over HTTP: create (a draft with draft entries), validation,
 * update of drafts, approve (entries posted), payments, void, delete, the
 * overdue sweep, the VAT return, scopes, and the payables invariant (the
 * 2100 balance is minus what approved and overdue bills still owe), also as
 * a property over random sequences. Figures are worked by hand in the
 * comments beside them. Today is 2026-11-21 (the clock of ledger()).
 */
import assert from 'node:assert/strict';
import t from 'tap';
import fc from 'fast-check';
import type { Api, Books } from '../helpers/index.js';
import { balanceOf, closeFy2025, contactOk, createKey, expectError, fileVat, ledger, outbox, transactionTotal } from '../ledger-http/support.js';
import { createInvoice, invoiceOk, sendOk } from './invoice-support.js';
import { approveOk, billOk, createBill, entries, getBill, item, nets, payBill, payBillOk, supplierOk } from './purchases-support.js';
import { movingClock } from '../helpers/index.js';

const ledgerCodes = ['2100', '2201', '5000', '5100', '1200'] as const;
const zero = { '2100': 0, '2201': 0, '5000': 0, '5100': 0, '1200': 0 };

/** The events that are not transaction or contact bookkeeping, in the order written (ids count up within a process: the clock stands still): bills raise none. */
async function documentEvents(books: Books): Promise<string[]> {
  const rows = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('outbox')
    .select('event')
    .where('event', 'not like', 'transaction.%')
    .where('event', 'not like', 'contact.%')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.event);
}

async function billTotal(api: Api, query = ''): Promise<number> {
  const r = await api.request('GET', `/v1/bills${query}`);
  if (r.status !== 200) throw new Error(`GET /v1/bills${query} gave ${r.status}`);
  return r.body.meta.total as number;
}

/** The sum of amountDue over every approved and overdue bill, read through GET /v1/bills. */
async function owed(api: Api): Promise<number> {
  let sum = 0;
  for (const status of ['approved', 'overdue']) {
    for (let page = 1; ; page++) {
      const r = await api.request('GET', `/v1/bills?status=${status}&limit=100&page=${page}`);
      if (r.status !== 200) throw new Error(`GET /v1/bills gave ${r.status}`);
      for (const b of r.body.data as { amountDue: number }[]) sum += b.amountDue;
      if (!r.body.meta.hasMore) break;
    }
  }
  return sum;
}

/**
 * 3 × 2450 standard on 5100: net 7350, VAT 1470, line 8820;
 * 10 × 1234 reduced on the default 5000: net 12340, VAT 617, line 12957;
 * 1 × 500 exempt on 5100: net 500, no VAT, line 500.
 * Net 20190, VAT 2087, total 22277.
 */
const monthly = (acc: Readonly<Record<string, string>>) => ({
  billNumber: 'SUP-881',
  issueDate: '2026-11-05',
  reference: 'PO-17',
  notes: 'Monthly order',
  items: [
    item({ description: 'Paper and toner', quantity: 3, unitPrice: 2450, accountId: acc['5100'] }),
    item({ description: 'Stock', quantity: 10, unitPrice: 1234, vatRate: 'reduced' }),
    item({ description: 'Postage', quantity: 1, unitPrice: 500, vatRate: 'exempt', accountId: acc['5100'] }),
  ],
});

t.test("create: 201 draft with the supplier's number, lines on their accounts (5000 by default), a draft transaction that moves no balance", async (t) => {
  const { books, api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const r = await createBill(api, supplier, monthly(acc));
  t.equal(r.status, 201, 'created');
  const bill = r.body.data;
  t.match(bill.id, /^bill_/);
  t.match(bill, {
    billNumber: 'SUP-881',
    status: 'draft',
    contactId: supplier,
    contactName: 'Paper Supplies Ltd',
    contact: { id: supplier, name: 'Paper Supplies Ltd' },
    currency: 'GBP',
    subtotal: 20190,
    vatAmount: 2087,
    total: 22277,
    amountPaid: 0,
    amountDue: 22277,
    issueDate: '2026-11-05',
    // the organisation's 30 days from 5 November
    dueDate: '2026-12-05',
    paidDate: null,
    approvedAt: null,
    voidedAt: null,
    notes: 'Monthly order',
    reference: 'PO-17',
    createdAt: '2026-11-21T10:00:00.000Z',
  });
  t.notOk('invoiceNumber' in bill, 'a bill has billNumber, not invoiceNumber');
  t.same(
    bill.items.map((i: Record<string, unknown>) => [i['description'], i['netAmount'], i['vatRate'], i['vatAmount'], i['lineTotal'], i['accountId']]),
    [
      ['Paper and toner', 7350, 20, 1470, 8820, acc['5100']],
      ['Stock', 12340, 5, 617, 12957, acc['5000']],
      ['Postage', 500, 0, 0, 500, acc['5100']],
    ],
    'each line on its account; the unnamed one on 5000 Cost of Sales',
  );
  t.same(bill.payments, []);
  t.same(
    await entries(t, api, bill.transactionId),
    {
      status: 'draft',
      lines: [
        ['2100', -22277],
        ['5100', 7350],
        ['5000', 12340],
        ['5100', 500],
        ['2201', 2087],
      ],
    },
    'a draft: debit each line account its net and 2201 the VAT, credit 2100 the total',
  );
  const txn = (await api.request('GET', `/v1/transactions/${bill.transactionId}`)).body.data;
  t.match(txn, { sourceType: 'bill', sourceId: bill.id, date: '2026-11-05', reference: 'SUP-881', totalDebit: 22277, totalCredit: 22277 });
  t.equal(await transactionTotal(api), 1, 'one transaction');
  t.same(await nets(api, acc, ledgerCodes), zero, 'a draft moves no balance');
  t.same(await getBill(t, api, bill.id), bill, 'GET shows what create returned');

  // billNumber is optional and need not be unique (it is the supplier's own number).
  const plain = await billOk(t, api, supplier);
  // 1 × 10000 standard on 5000: 10000 + 2000
  t.match(plain, { billNumber: null, status: 'draft', subtotal: 10000, vatAmount: 2000, total: 12000, issueDate: '2026-11-21', dueDate: '2026-12-21' });
  const other = await supplierOk(t, api, { name: 'Other Supplier Ltd', paymentTerms: 7 });
  // the contact's 7 days from today
  t.match(await billOk(t, api, other, { billNumber: 'SUP-881' }), { billNumber: 'SUP-881', dueDate: '2026-11-28' });
  const both = await contactOk(t, api, { contactType: 'both', name: 'Both Ways Ltd' });
  t.match(await billOk(t, api, both, { dueDays: 0 }), { contactId: both, dueDate: '2026-11-21' });
  // A capital purchase on an asset account: 1 × 90000 standard on 1020 Computer Equipment
  const laptop = await billOk(t, api, supplier, { items: [item({ description: 'Laptop', unitPrice: 90000, accountId: acc['1020'] })] });
  t.same((await entries(t, api, laptop.transactionId)).lines, [
    ['2100', -108000],
    ['1020', 90000],
    ['2201', 18000],
  ]);

  t.equal(await billTotal(api), 5);
  t.equal((await api.request('GET', '/v1/invoices')).body.meta.total, 0, 'bills are not listed as invoices');
  t.equal((await api.request('GET', '/v1/organisation/settings')).body.data.invoiceNextNumber, 1, 'bills take no invoice number');
  t.same(await documentEvents(books), [], 'bills raise no events');
});

t.test('create is validated: supplier, line accounts, items, dates; nothing stored on a refusal', async (t) => {
  const { api, acc } = await ledger(t);
  const customer = await contactOk(t, api);
  const supplier = await supplierOk(t, api);

  expectError(t, await createBill(api, customer), 400, 'validation_error', { field: 'contactId', message: /customer/ });
  expectError(t, await createBill(api, undefined), 400, 'validation_error', { field: 'contactId' });
  expectError(t, await createBill(api, 'cont_0000000000000000000000unknown'), 400, 'validation_error', { field: 'contactId' });
  expectError(t, await createBill(api, 'nope'), 400, 'invalid_id', { field: 'contactId' });
  expectError(t, await createBill(api, supplier, { items: [item({ accountId: acc['4000'] })] }), 400, 'validation_error', {
    field: 'items[0].accountId',
    message: /revenue/,
  });
  expectError(t, await createBill(api, supplier, { items: [item(), item({ accountId: acc['4100'] })] }), 400, 'validation_error', {
    field: 'items[1].accountId',
  });
  expectError(t, await createBill(api, supplier, { items: [item({ accountId: acc['2600'] })] }), 400, 'validation_error', {
    field: 'items[0].accountId',
    message: /liability/,
  });
  expectError(t, await createBill(api, supplier, { items: [item({ accountId: acc['3000'] })] }), 400, 'validation_error', { field: 'items[0].accountId' });
  expectError(t, await createBill(api, supplier, { items: [item({ accountId: 'acc_00000000000000000000000000' })] }), 400, 'validation_error', {
    field: 'items[0].accountId',
  });
  expectError(t, await createBill(api, supplier, { items: [item({ accountId: 'x' })] }), 400, 'invalid_id', { field: 'items[0].accountId' });
  // Control and system asset accounts: receivables, the bank, suspense, migration clearing.
  for (const code of ['1100', '1200', '1210', '9999', '1198']) {
    expectError(t, await createBill(api, supplier, { items: [item({ accountId: acc[code] })] }), 400, 'validation_error', {
      field: 'items[0].accountId',
      message: /control or system account/,
    });
  }
  t.equal((await createBill(api, supplier, { items: [item({ accountId: acc['1020'] })] })).status, 201, 'an ordinary asset (computer equipment) is fine');
  expectError(t, await createBill(api, supplier, { items: [] }), 400, 'validation_error', { field: 'items' });
  expectError(t, await createBill(api, supplier, { currency: 'EUR' }), 400, 'validation_error', { field: 'currency' });
  expectError(t, await createBill(api, supplier, { issueDate: '2026-11-10', dueDate: '2026-11-09' }), 400, 'validation_error', { field: 'dueDate' });
  expectError(t, await createBill(api, supplier, { dueDate: '2026-12-01', dueDays: 5 }), 400, 'validation_error', { field: 'dueDays' });
  expectError(t, await createBill(api, supplier, { billNumber: 'x'.repeat(101) }), 400, 'validation_error', { field: 'billNumber' });
  expectError(t, await createBill(api, supplier, { status: 'approved' }), 400, 'validation_error', { field: 'status' });
  t.equal(await billTotal(api), 1, 'only the computer equipment bill stored');
  t.equal(await transactionTotal(api), 1, 'only its transaction stored');

  expectError(t, await api.request('GET', '/v1/bills/nope'), 400, 'invalid_id');
  expectError(t, await api.request('GET', '/v1/bills/inv_00000000000000000000000000'), 400, 'invalid_id');
  expectError(t, await api.request('GET', '/v1/bills/bill_00000000000000000000000000'), 404, 'not_found');
  expectError(t, await api.request('POST', '/v1/bills/bill_00000000000000000000000000/approve'), 404, 'not_found');
  expectError(t, await payBill(api, 'bill_00000000000000000000000000', { amount: 100 }), 404, 'not_found');
  expectError(t, await api.request('POST', '/v1/bills/bill_00000000000000000000000000/void'), 404, 'not_found');
  // A sales invoice is not a bill, and a bill is not an invoice.
  const inv = await invoiceOk(t, api, customer);
  const bill = await billOk(t, api, supplier);
  expectError(t, await api.request('GET', `/v1/bills/${inv.id}`), 400, 'invalid_id');
  expectError(t, await api.request('GET', `/v1/invoices/${bill.id}`), 400, 'invalid_id');
});

t.test('approve posts the entries: 2100 = −total, 2201 = VAT, each expense its net; a second approve is 422', async (t) => {
  const { books, api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const bill = await billOk(t, api, supplier, monthly(acc));
  const r = await api.request('POST', `/v1/bills/${bill.id}/approve`);
  t.equal(r.status, 200, 'approved');
  t.same(r.body.data, { id: bill.id, billNumber: 'SUP-881', status: 'approved', approvedAt: '2026-11-21T10:00:00.000Z' });
  t.same(await entries(t, api, bill.transactionId), {
    status: 'posted',
    lines: [
      ['2100', -22277],
      ['5100', 7350],
      ['5000', 12340],
      ['5100', 500],
      ['2201', 2087],
    ],
  });
  // 5100: 7350 + 500
  t.same(await nets(api, acc, ledgerCodes), { '2100': -22277, '2201': 2087, '5000': 12340, '5100': 7850, '1200': 0 });
  t.same(await balanceOf(api, acc['2100']!), { debit: 0, credit: 22277, net: -22277 });
  t.match(await getBill(t, api, bill.id), { status: 'approved', approvedAt: '2026-11-21T10:00:00.000Z', amountDue: 22277, transactionId: bill.transactionId });

  expectError(t, await api.request('POST', `/v1/bills/${bill.id}/approve`), 422, 'unprocessable_entity', { message: /approved/ });
  t.same(await nets(api, acc, ledgerCodes), { '2100': -22277, '2201': 2087, '5000': 12340, '5100': 7850, '1200': 0 }, 'nothing posted twice');
  t.equal(await transactionTotal(api), 1);
  t.same(await documentEvents(books), [], 'approving raises no event');
});

t.test('PUT changes a draft and its draft transaction; approved or overdue 422, paid 409 already_paid, void 409 already_voided', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const draft = await billOk(t, api, supplier, { billNumber: 'A-1', notes: 'First' });
  const r = await api.request('PUT', `/v1/bills/${draft.id}`, {
    body: {
      billNumber: 'A-2',
      issueDate: '2026-11-02',
      // 2 × 3000 standard on 5100: net 6000, VAT 1200; 1 × 800 zero on 5000: net 800, VAT 0
      items: [
        item({ description: 'Chairs', quantity: 2, unitPrice: 3000, accountId: acc['5100'] }),
        item({ description: 'Delivery', unitPrice: 800, vatRate: 'zero' }),
      ],
    },
  });
  t.equal(r.status, 200, 'updated');
  t.match(r.body.data, {
    id: draft.id,
    billNumber: 'A-2',
    status: 'draft',
    notes: 'First',
    issueDate: '2026-11-02',
    // the due date kept as it was: 30 days from the original issue date
    dueDate: '2026-12-21',
    subtotal: 6800,
    vatAmount: 1200,
    total: 8000,
    amountDue: 8000,
    transactionId: draft.transactionId,
  });
  t.same(await entries(t, api, draft.transactionId), {
    status: 'draft',
    lines: [
      ['2100', -8000],
      ['5100', 6000],
      ['5000', 800],
      ['2201', 1200],
    ],
  });
  t.match(
    (await api.request('GET', `/v1/transactions/${draft.transactionId}`)).body.data,
    { date: '2026-11-02', reference: 'A-2' },
    'date and reference follow',
  );
  t.equal(await transactionTotal(api), 1, 'the same transaction, no second one');
  t.same(await nets(api, acc, ledgerCodes), zero, 'still no balance moved');

  const notes = await api.request('PUT', `/v1/bills/${draft.id}`, { body: { notes: 'Second', billNumber: null } });
  t.equal(notes.status, 200);
  t.match(notes.body.data, { notes: 'Second', billNumber: null, total: 8000 }, 'items kept, number cleared');
  expectError(t, await api.request('PUT', `/v1/bills/${draft.id}`, { body: { items: [item({ accountId: acc['4000'] })] } }), 400, 'validation_error', {
    field: 'items[0].accountId',
  });
  expectError(t, await api.request('PUT', `/v1/bills/${draft.id}`, { body: { contactId: await contactOk(t, api) } }), 400, 'validation_error', {
    field: 'contactId',
  });
  t.match(await getBill(t, api, draft.id), { total: 8000, contactId: supplier }, 'the refusals changed nothing');

  // One bill in each later state.
  const approved = await billOk(t, api, supplier);
  await approveOk(t, api, approved.id);
  const overdue = await billOk(t, api, supplier, { issueDate: '2026-10-01', dueDate: '2026-10-31' });
  await approveOk(t, api, overdue.id);
  t.equal((await api.request('POST', '/v1/invoices/sweep')).status, 200);
  const paid = await billOk(t, api, supplier);
  await approveOk(t, api, paid.id);
  await payBillOk(t, api, paid.id, { amount: 12000 });
  const voided = await billOk(t, api, supplier);
  t.equal((await api.request('POST', `/v1/bills/${voided.id}/void`)).status, 200);
  const before = await nets(api, acc, ledgerCodes);

  const change = { body: { notes: 'Late change', items: [item({ unitPrice: 1 })] } };
  expectError(t, await api.request('PUT', `/v1/bills/${approved.id}`, change), 422, 'unprocessable_entity', { message: /approved/ });
  expectError(t, await api.request('PUT', `/v1/bills/${overdue.id}`, change), 422, 'unprocessable_entity', { message: /overdue/ });
  expectError(t, await api.request('PUT', `/v1/bills/${paid.id}`, change), 409, 'already_paid');
  expectError(t, await api.request('PUT', `/v1/bills/${voided.id}`, change), 409, 'already_voided');
  for (const [b, status] of [
    [approved, 'approved'],
    [overdue, 'overdue'],
    [paid, 'paid'],
    [voided, 'void'],
  ] as const) {
    t.match(await getBill(t, api, b.id), { status, total: 12000, notes: null }, `the ${status} bill is unchanged`);
  }
  t.same(await nets(api, acc, ledgerCodes), before, 'no balance moved by the refusals');

  // Delete: only a draft, and its draft transaction goes with it.
  expectError(t, await api.request('DELETE', `/v1/bills/${approved.id}`), 422, 'unprocessable_entity');
  expectError(t, await api.request('DELETE', `/v1/bills/${paid.id}`), 409, 'already_paid');
  expectError(t, await api.request('DELETE', `/v1/bills/${voided.id}`), 409, 'already_voided');
  const del = await api.request('DELETE', `/v1/bills/${draft.id}`);
  t.equal(del.status, 200);
  t.same(del.body.data, { id: draft.id, deleted: true });
  expectError(t, await api.request('GET', `/v1/bills/${draft.id}`), 404, 'not_found');
  expectError(t, await api.request('GET', `/v1/transactions/${draft.transactionId}`), 404, 'not_found');
});

t.test('payments: draft 422; part then full makes it paid with paidDate; overpay 422; debit 2100 credit the bank; then 409 already_paid', async (t) => {
  const { books, api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  // 1 × 18000 standard on 5100: net 18000, VAT 3600, total 21600
  const bill = await billOk(t, api, supplier, { issueDate: '2026-11-05', items: [item({ description: 'Printer', unitPrice: 18000, accountId: acc['5100'] })] });
  expectError(t, await payBill(api, bill.id, { amount: 1000 }), 422, 'unprocessable_entity', { message: /approve/ });
  await approveOk(t, api, bill.id);

  const part = await payBillOk(t, api, bill.id, { amount: 10000, date: '2026-11-10', reference: 'BACS 1' });
  t.match(part, {
    billId: bill.id,
    amount: 10000,
    date: '2026-11-10',
    method: 'bank_transfer',
    reference: 'BACS 1',
    accountId: acc['1200'],
    billStatus: 'approved',
    // 21600 − 10000
    amountDue: 11600,
  });
  t.match(part.id, /^pay_/);
  t.same(await entries(t, api, part.transactionId), {
    status: 'posted',
    lines: [
      ['1200', -10000],
      ['2100', 10000],
    ],
  });
  t.match((await api.request('GET', `/v1/transactions/${part.transactionId}`)).body.data, { sourceType: 'payment', date: '2026-11-10' });
  t.same(await nets(api, acc, ['2100', '1200']), { '2100': -11600, '1200': -10000 });
  t.match(await getBill(t, api, bill.id), { status: 'approved', amountPaid: 10000, amountDue: 11600, paidDate: null });

  const refused = [
    // 11601 > 11600 due
    [await payBill(api, bill.id, { amount: 11601 }), 422, 'unprocessable_entity', undefined, /£116\.01.*£116\.00/],
    [await payBill(api, bill.id, { amount: 0 }), 400, 'validation_error', 'amount', undefined],
    [await payBill(api, bill.id, { amount: 10.5 }), 400, 'validation_error', 'amount', undefined],
    [await payBill(api, bill.id, { amount: 100, date: '2026-11-04' }), 400, 'validation_error', 'date', undefined],
    [await payBill(api, bill.id, { amount: 100, accountId: acc['5100'] }), 400, 'validation_error', 'accountId', undefined],
    [await payBill(api, bill.id, { amount: 100, method: 'cheque' }), 400, 'validation_error', 'method', undefined],
  ] as const;
  for (const [reply, status, code, field, message] of refused) {
    expectError(t, reply, status, code, { ...(field === undefined ? {} : { field }), ...(message === undefined ? {} : { message }) });
  }
  t.same(await nets(api, acc, ['2100', '1200']), { '2100': -11600, '1200': -10000 }, 'the refusals posted nothing');

  // The rest from the savings account (1210), a bank account too.
  const rest = await payBillOk(t, api, bill.id, { amount: 11600, date: '2026-11-18', method: 'card', accountId: acc['1210'] });
  t.match(rest, { billStatus: 'paid', amountDue: 0, accountId: acc['1210'], method: 'card' });
  t.same((await entries(t, api, rest.transactionId)).lines, [
    ['1210', -11600],
    ['2100', 11600],
  ]);
  const paid = await getBill(t, api, bill.id);
  t.match(paid, { status: 'paid', amountPaid: 21600, amountDue: 0, paidDate: '2026-11-18' });
  t.same(
    paid.payments.map((p: { amount: number; date: string }) => [p.amount, p.date]),
    [
      [10000, '2026-11-10'],
      [11600, '2026-11-18'],
    ],
  );
  t.same(await nets(api, acc, ['2100', '1200', '1210', '5100', '2201']), { '2100': 0, '1200': -10000, '1210': -11600, '5100': 18000, '2201': 3600 });

  expectError(t, await payBill(api, bill.id, { amount: 1 }), 409, 'already_paid');
  expectError(t, await api.request('POST', `/v1/bills/${bill.id}/void`), 422, 'unprocessable_entity', { message: /payments/ });
  expectError(t, await api.request('POST', `/v1/bills/${bill.id}/approve`), 409, 'already_paid');
  t.equal(await transactionTotal(api), 3, 'the bill and its two payments');

  // Paid on the latest payment's date, whatever the order they are recorded in: 1 × 1000 standard = 1200.
  const small = await billOk(t, api, supplier, { issueDate: '2026-11-01', items: [item({ unitPrice: 1000 })] });
  await approveOk(t, api, small.id);
  await payBillOk(t, api, small.id, { amount: 600, date: '2026-11-20' });
  t.match(await payBillOk(t, api, small.id, { amount: 600, date: '2026-11-12' }), { billStatus: 'paid', amountDue: 0 });
  t.match(await getBill(t, api, small.id), { status: 'paid', paidDate: '2026-11-20' });
  t.same(await documentEvents(books), [], 'bill payments raise no payment.received');
});

t.test('void: without payments the bill is void and its entries leave the ledger; with payments 422; twice 409 already_voided', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  // 1 × 5000 standard on 5100: net 5000, VAT 1000, total 6000
  const approved = await billOk(t, api, supplier, { items: [item({ unitPrice: 5000, accountId: acc['5100'] })] });
  await approveOk(t, api, approved.id);
  t.same(await nets(api, acc, ledgerCodes), { '2100': -6000, '2201': 1000, '5000': 0, '5100': 5000, '1200': 0 });

  const r = await api.request('POST', `/v1/bills/${approved.id}/void`);
  t.equal(r.status, 200, 'voided');
  t.match(r.body.data, { id: approved.id, status: 'void', voidedAt: '2026-11-21T10:00:00.000Z', transactionId: null, amountDue: 0, total: 6000 });
  expectError(t, await api.request('GET', `/v1/transactions/${approved.transactionId}`), 404, 'not_found');
  t.same(await nets(api, acc, ledgerCodes), zero, 'the posted entries are gone');
  t.equal(await transactionTotal(api), 0);
  expectError(t, await api.request('POST', `/v1/bills/${approved.id}/void`), 409, 'already_voided');
  expectError(t, await payBill(api, approved.id, { amount: 100 }), 409, 'already_voided');
  expectError(t, await api.request('POST', `/v1/bills/${approved.id}/approve`), 409, 'already_voided');
  expectError(t, await api.request('DELETE', `/v1/bills/${approved.id}`), 409, 'already_voided');
  t.match(await getBill(t, api, approved.id), { status: 'void' });

  // A draft can be voided too: its draft transaction goes.
  const draft = await billOk(t, api, supplier);
  t.match((await api.request('POST', `/v1/bills/${draft.id}/void`)).body.data, { status: 'void', transactionId: null });
  expectError(t, await api.request('GET', `/v1/transactions/${draft.transactionId}`), 404, 'not_found');

  // Part paid: 1 × 10000 standard = 12000, 2000 paid, so void is refused and nothing moves.
  const part = await billOk(t, api, supplier);
  await approveOk(t, api, part.id);
  await payBillOk(t, api, part.id, { amount: 2000 });
  const before = await nets(api, acc, ledgerCodes);
  t.same(before, { '2100': -10000, '2201': 2000, '5000': 10000, '5100': 0, '1200': -2000 });
  expectError(t, await api.request('POST', `/v1/bills/${part.id}/void`), 422, 'unprocessable_entity', { message: /payments/ });
  t.match(await getBill(t, api, part.id), { status: 'approved', amountDue: 10000, transactionId: part.transactionId });
  t.same(await nets(api, acc, ledgerCodes), before);
});

t.test('a closed period: a bill dated in it cannot be created or voided, nor paid on a date in it; paying it today still works', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  // 1 × 10000 standard = 12000, dated in FY 2025/26 while it is still open
  const old = await billOk(t, api, supplier, { issueDate: '2025-06-01' });
  await approveOk(t, api, old.id);
  const draft = await billOk(t, api, supplier, { issueDate: '2025-06-02' });
  const dropped = await billOk(t, api, supplier, { issueDate: '2025-06-03' });
  // The year may be closed once the return of April to June 2025, holding the approved bill's VAT, is filed: its 2000
  // moves from 2201 to 2202 VAT Liability.
  await fileVat(t, api, '2025-06');
  await closeFy2025(t, api);
  const before = await nets(api, acc, ledgerCodes);
  t.same(before, { '2100': -12000, '2201': 0, '5000': 10000, '5100': 0, '1200': 0 });

  expectError(t, await createBill(api, supplier, { issueDate: '2025-07-01' }), 422, 'unprocessable_entity');
  expectError(t, await api.request('POST', `/v1/bills/${old.id}/void`), 422, 'unprocessable_entity');
  t.match(
    await getBill(t, api, old.id),
    { status: 'overdue', transactionId: old.transactionId },
    'still issued (past its due date: overdue), its entries kept',
  );
  expectError(t, await payBill(api, old.id, { amount: 1000, date: '2025-06-10' }), 422, 'unprocessable_entity');
  expectError(t, await api.request('POST', `/v1/bills/${draft.id}/approve`), 422, 'unprocessable_entity');
  t.match(await getBill(t, api, draft.id), { status: 'draft' });
  expectError(t, await api.request('PUT', `/v1/bills/${draft.id}`, { body: { notes: 'still in June' } }), 422, 'unprocessable_entity', {
    message: /2025-06-02 falls in FY 2025\/26, which is closed/,
  });
  t.same(await nets(api, acc, ledgerCodes), before, 'nothing moved');
  t.match(await payBillOk(t, api, old.id, { amount: 12000, date: '2026-11-21' }), { billStatus: 'paid', amountDue: 0 });
  t.same(await nets(api, acc, ['2100', '1200']), { '2100': 0, '1200': -12000 });

  // A draft posts nothing: it can leave the closed year by a new date, or go.
  const moved = await api.request('PUT', `/v1/bills/${draft.id}`, { body: { issueDate: '2026-04-05', dueDate: '2026-05-05' } });
  t.equal(moved.status, 200, `moved to the open year: ${JSON.stringify(moved.body?.error ?? '')}`);
  t.match(await entries(t, api, draft.transactionId), { status: 'draft' });
  expectError(t, await api.request('PUT', `/v1/bills/${draft.id}`, { body: { issueDate: '2026-03-31' } }), 422, 'unprocessable_entity', {
    message: /2026-03-31 falls in FY 2025\/26, which is closed/,
  });
  await approveOk(t, api, draft.id);
  const gone = await api.request('DELETE', `/v1/bills/${dropped.id}`);
  t.equal(gone.status, 200, `deleted: ${JSON.stringify(gone.body?.error ?? '')}`);
  expectError(t, await api.request('GET', `/v1/transactions/${dropped.transactionId}`), 404, 'not_found');
  // The moved bill approved: 2100 0 − 12000, 2201 0 + 2000 (the first bill's 2000 filed), 5000 10000 + 10000; the bank as paid.
  t.same(await nets(api, acc, ledgerCodes), { '2100': -12000, '2201': 2000, '5000': 20000, '5100': 0, '1200': -12000 });
});

t.test('overdue: the sweep moves approved bills past their due date and lists their ids under overdueBills; no invoice.overdue for bills', async (t) => {
  const { books, api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api, { paymentTerms: 14 });
  const customer = await contactOk(t, api);
  // 1 November + 14 = 15 November: past
  const late = await billOk(t, api, supplier, { issueDate: '2026-11-01' });
  await approveOk(t, api, late.id);
  // 7 November + 14 = 21 November: due today, not yet overdue
  const today = await billOk(t, api, supplier, { issueDate: '2026-11-07' });
  await approveOk(t, api, today.id);
  // due yesterday
  const yesterday = await billOk(t, api, supplier, { issueDate: '2026-11-02', dueDate: '2026-11-20' });
  await approveOk(t, api, yesterday.id);
  // a draft past its due date is not owed, so not overdue
  const draft = await billOk(t, api, supplier, { issueDate: '2026-10-01' });
  // a paid bill past its due date stays paid
  const paid = await billOk(t, api, supplier, { issueDate: '2026-10-01' });
  await approveOk(t, api, paid.id);
  await payBillOk(t, api, paid.id, { amount: 12000 });
  // and one sent invoice past due, to tell the two apart
  const inv = (await createInvoice(api, customer, { issueDate: '2026-10-01', dueDate: '2026-10-31' })).body.data;
  await sendOk(t, api, inv.id);
  t.match(late, { dueDate: '2026-11-15' });
  t.match(today, { dueDate: '2026-11-21' });

  const sweep = await api.request('POST', '/v1/invoices/sweep');
  t.equal(sweep.status, 200);
  t.same(sweep.body.data, { date: '2026-11-21', overdueInvoices: ['INV-0001'], overdueBills: [late.id, yesterday.id] }, 'due 15 then 20 November');
  const statuses = async () => {
    const out: string[] = [];
    for (const b of [late, today, yesterday, draft, paid]) out.push((await getBill(t, api, b.id)).status);
    return out;
  };
  t.same(await statuses(), ['overdue', 'approved', 'overdue', 'draft', 'paid']);
  t.same(await documentEvents(books), ['invoice.created', 'invoice.sent', 'invoice.overdue'], 'one invoice.overdue, for the invoice only');
  const overdueEvent = (await outbox(books)).find((e) => e.event === 'invoice.overdue');
  t.equal(overdueEvent?.payload.id, inv.id);
  t.equal((await api.request('GET', '/v1/bills?status=overdue')).body.meta.total, 2);

  const again = await api.request('POST', '/v1/invoices/sweep');
  t.same(again.body.data, { date: '2026-11-21', overdueInvoices: [], overdueBills: [] }, 'each once');

  // Overdue bills are still owed: part payments keep them overdue, the last one makes them paid.
  t.match(await payBillOk(t, api, late.id, { amount: 2000 }), { billStatus: 'overdue', amountDue: 10000 });
  t.match(await payBillOk(t, api, late.id, { amount: 10000 }), { billStatus: 'paid', amountDue: 0 });
  // 2100: the two still owed, 12000 each
  t.same(await nets(api, acc, ['2100']), { '2100': -24000 });
  expectError(t, await api.request('POST', `/v1/bills/${yesterday.id}/approve`), 422, 'unprocessable_entity', { message: /overdue/ });
  t.match((await api.request('POST', `/v1/bills/${yesterday.id}/void`)).body.data, { status: 'void' }, 'an overdue bill without payments can be voided');
});

t.test('list: pagination A; filters by status, supplier and issue date; sorts', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const { api } = await ledger(t, { clock });
  const a = await supplierOk(t, api);
  const b = await supplierOk(t, api, { name: 'B Supplies Ltd' });
  // totals: 1 × 30000, 10000, 20000 standard = 36000, 12000, 24000
  const x = await billOk(t, api, a, { billNumber: 'C-3', issueDate: '2026-11-01', items: [item({ unitPrice: 30000 })] });
  clock.advance(1000);
  const y = await billOk(t, api, a, { billNumber: 'A-1', issueDate: '2026-11-03', items: [item({ unitPrice: 10000 })] });
  clock.advance(1000);
  const z = await billOk(t, api, b, { billNumber: 'B-2', issueDate: '2026-11-02', items: [item({ unitPrice: 20000 })] });
  await approveOk(t, api, y.id);

  const ids = async (query: string) => ((await api.request('GET', `/v1/bills?${query}`)).body.data as { id: string }[]).map((r) => r.id);
  const first = await api.request('GET', '/v1/bills?limit=2');
  t.same(first.body.meta, { total: 3, page: 1, limit: 2, hasMore: true });
  t.same(
    first.body.data.map((r: { id: string }) => r.id),
    [z.id, y.id],
    'newest first',
  );
  t.notOk('items' in first.body.data[0], 'no lines in the list');
  t.same((await api.request('GET', '/v1/bills?limit=2&page=2')).body.meta, { total: 3, page: 2, limit: 2, hasMore: false });
  t.same(await ids('status=approved'), [y.id]);
  t.same(await ids(`contactId=${a}`), [y.id, x.id]);
  t.same(await ids('fromDate=2026-11-02&toDate=2026-11-03'), [z.id, y.id]);
  t.same(await ids('sort=billNumber'), [y.id, z.id, x.id], 'A-1, B-2, C-3');
  t.same(await ids('sort=-total'), [x.id, z.id, y.id]);
  t.same(await ids('sort=issueDate'), [x.id, z.id, y.id]);
  expectError(t, await api.request('GET', '/v1/bills?sort=invoiceNumber'), 400, 'validation_error', { field: 'sort' });
  expectError(t, await api.request('GET', '/v1/bills?status=sent'), 400, 'validation_error', { field: 'status' });
  expectError(t, await api.request('GET', '/v1/bills?fromDate=2026-11-05&toDate=2026-11-01'), 400, 'validation_error', {
    field: 'fromDate',
    message: 'fromDate (2026-11-05) is after toDate (2026-11-01)',
  });
});

t.test('the payables invariant: 2100 is minus what approved and overdue bills still owe', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  // A: 1 × 30000 standard on 5100 = 36000, approved, 6000 paid: owes 30000
  const a = await billOk(t, api, supplier, { items: [item({ unitPrice: 30000, accountId: acc['5100'] })] });
  await approveOk(t, api, a.id);
  await payBillOk(t, api, a.id, { amount: 6000 });
  // B: 2 × 2500 reduced = 5000 + 250 = 5250, due 11 October, overdue after the sweep, 250 paid: owes 5000
  const b = await billOk(t, api, supplier, { issueDate: '2026-10-01', dueDays: 10, items: [item({ quantity: 2, unitPrice: 2500, vatRate: 'reduced' })] });
  await approveOk(t, api, b.id);
  t.same((await api.request('POST', '/v1/invoices/sweep')).body.data.overdueBills, [b.id]);
  await payBillOk(t, api, b.id, { amount: 250 });
  // C: 1 × 4000 zero = 4000, paid in full: owes nothing
  const c = await billOk(t, api, supplier, { items: [item({ unitPrice: 4000, vatRate: 'zero' })] });
  await approveOk(t, api, c.id);
  await payBillOk(t, api, c.id, { amount: 4000 });
  // D: 1 × 7000 standard = 8400, approved then voided: gone
  const d = await billOk(t, api, supplier, { items: [item({ unitPrice: 7000 })] });
  await approveOk(t, api, d.id);
  t.equal((await api.request('POST', `/v1/bills/${d.id}/void`)).status, 200);
  // E: a draft of 1 × 9900 standard = 11880: not owed
  await billOk(t, api, supplier, { items: [item({ unitPrice: 9900 })] });
  // F: 1 × 1234 exempt = 1234, approved, unpaid: owes 1234
  const f = await billOk(t, api, supplier, { items: [item({ unitPrice: 1234, vatRate: 'exempt' })] });
  await approveOk(t, api, f.id);

  // Owed: 30000 + 5000 + 1234
  t.equal(await owed(api), 36234, 'amountDue of approved and overdue bills');
  // credits 36000 + 5250 + 4000 + 1234 = 46484; debits (payments) 6000 + 250 + 4000 = 10250
  t.same(await balanceOf(api, acc['2100']!), { debit: 10250, credit: 46484, net: -36234 }, '2100 = −36234');
  // 2201: 6000 (A) + 250 (B); the void D's 1400 is gone
  t.equal((await balanceOf(api, acc['2201']!)).net, 6250);
  // 1200: −(6000 + 250 + 4000)
  t.equal((await balanceOf(api, acc['1200']!)).net, -10250);
});

t.test('VAT return: an approved bill fills boxes 4 and 7, a sent invoice boxes 1 and 6; drafts and other months stay out', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const customer = await contactOk(t, api);
  // Bill of 12 November: 2 × 15000 standard on 5100 (net 30000, VAT 6000) + 1 × 2500 zero on 5000 (net 2500): net 32500, VAT 6000, total 38500
  const bill = await billOk(t, api, supplier, {
    issueDate: '2026-11-12',
    items: [
      item({ description: 'Desks', quantity: 2, unitPrice: 15000, accountId: acc['5100'] }),
      item({ description: 'Books', unitPrice: 2500, vatRate: 'zero' }),
    ],
  });
  t.match(bill, { subtotal: 32500, vatAmount: 6000, total: 38500 });
  await approveOk(t, api, bill.id);
  // Paying it changes no box.
  await payBillOk(t, api, bill.id, { amount: 38500 });
  // Invoice of 21 November: 1 × 45000 standard (net 45000, VAT 9000) + 1 × 3000 exempt (net 3000): net 48000, VAT 9000
  const inv = await invoiceOk(t, api, customer, { items: [item({ unitPrice: 45000 }), item({ description: 'Training', unitPrice: 3000, vatRate: 'exempt' })] });
  t.match(inv, { subtotal: 48000, vatAmount: 9000, total: 57000 });
  await sendOk(t, api, inv.id);
  // Out of the return: a draft bill and a draft invoice in November, an approved bill of 31 October (1 × 10000 standard).
  await billOk(t, api, supplier, { items: [item({ unitPrice: 99999 })] });
  await invoiceOk(t, api, customer, { items: [item({ unitPrice: 77777 })] });
  const october = await billOk(t, api, supplier, { issueDate: '2026-10-31' });
  await approveOk(t, api, october.id);

  const r = await api.request('GET', '/v1/reports/vat?from=2026-11-01&to=2026-11-30');
  t.equal(r.status, 200);
  t.same(
    r.body.data.boxes,
    // box 3 = 9000 + 0; box 5 = 9000 − 6000
    { box1: 9000, box2: 0, box3: 9000, box4: 6000, box5: 3000, box6: 48000, box7: 32500, box8: 0, box9: 0 },
    'box 1 the invoice VAT, box 4 the bill VAT, box 6 the invoice net, box 7 the bill net',
  );
  const oct = await api.request('GET', '/v1/reports/vat?from=2026-10-01&to=2026-10-31');
  t.same(
    oct.body.data.boxes,
    // box 5 = |0 − 2000|, owed by HMRC: a repayment is a direction, not a negative box 5
    { box1: 0, box2: 0, box3: 0, box4: 2000, box5: 2000, box6: 0, box7: 10000, box8: 0, box9: 0 },
    'October: the one bill, reclaimable',
  );
  t.equal(oct.body.data.netVatDirection, 'repayable');
  // Voiding the October bill takes it out of its return.
  t.equal((await api.request('POST', `/v1/bills/${october.id}/void`)).status, 200);
  t.same((await api.request('GET', '/v1/reports/vat?from=2026-10-01&to=2026-10-31')).body.data.boxes, {
    box1: 0,
    box2: 0,
    box3: 0,
    box4: 0,
    box5: 0,
    box6: 0,
    box7: 0,
    box8: 0,
    box9: 0,
  });
});

t.test('scopes: bills use invoices:read and invoices:write', async (t) => {
  const { api } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const draft = await billOk(t, api, supplier);
  const approved = await billOk(t, api, supplier);
  await approveOk(t, api, approved.id);
  const reader = (await createKey(t, api, { name: 'reader', scopes: ['invoices:read'] })).key;
  const quotes = (await createKey(t, api, { name: 'quotes', scopes: ['quotes:read', 'quotes:write'] })).key;
  t.equal((await api.request('GET', '/v1/bills', { key: reader })).status, 200);
  t.equal((await api.request('GET', `/v1/bills/${draft.id}`, { key: reader })).status, 200);
  const writes: [string, string, unknown][] = [
    ['POST', '/v1/bills', { contactId: supplier, items: [item()] }],
    ['PUT', `/v1/bills/${draft.id}`, { notes: 'x' }],
    ['DELETE', `/v1/bills/${draft.id}`, undefined],
    ['POST', `/v1/bills/${draft.id}/approve`, undefined],
    ['POST', `/v1/bills/${approved.id}/payments`, { amount: 100, date: '2026-11-21' }],
    ['POST', `/v1/bills/${approved.id}/void`, undefined],
  ];
  for (const [method, path, body] of writes) {
    expectError(t, await api.request(method, path, { key: reader, body }), 403, 'insufficient_scope', { message: /invoices:write/ });
    expectError(t, await api.request(method, path, { key: quotes, body }), 403, 'insufficient_scope', { message: /invoices:write/ });
  }
  expectError(t, await api.request('GET', '/v1/bills', { key: quotes }), 403, 'insufficient_scope', { message: /invoices:read/ });
  t.match(await getBill(t, api, draft.id), { status: 'draft', notes: null });
  t.match(await getBill(t, api, approved.id), { status: 'approved', amountPaid: 0 });
  t.equal(await billTotal(api), 2);
});

/** What the model expects of each bill: its status, total, VAT and amount paid. */
interface ModelBill {
  id: string;
  status: 'draft' | 'approved' | 'overdue' | 'paid' | 'void';
  /** Due 31 October, before today, rather than 30 days from today. */
  past: boolean;
  total: number;
  vat: number;
  paid: number;
  payments: number;
}

const percent = { standard: 20, reduced: 5, zero: 0, exempt: 0 } as const;

type Op =
  | { kind: 'create'; unitPrice: number; vatRate: keyof typeof percent; past: boolean }
  | { kind: 'sweep' }
  | { kind: 'approve' | 'void' | 'delete'; pick: number }
  | { kind: 'pay'; pick: number; share: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    unitPrice: fc.integer({ min: 1, max: 500_000 }),
    vatRate: fc.constantFrom('standard', 'reduced', 'zero', 'exempt'),
    past: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('sweep' as const) }),
  fc.record({ kind: fc.constantFrom('approve' as const, 'void' as const, 'delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('pay' as const), pick: fc.nat(), share: fc.integer({ min: 1, max: 110 }) }),
);

t.test('property: after any sequence of bill operations, 2100 = −(amountDue of approved and overdue bills) and each answer is the one predicted', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const bills: ModelBill[] = [];
  let bank = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
      for (const op of ops) {
        if (op.kind === 'create') {
          const dates = op.past ? { issueDate: '2026-10-01', dueDate: '2026-10-31' } : {};
          const r = await createBill(api, supplier, { ...dates, items: [item({ unitPrice: op.unitPrice, vatRate: op.vatRate })] });
          assert.equal(r.status, 201);
          // VAT: net × rate / 100 to the nearest penny, halves up (all amounts are positive)
          const vat = Math.floor((op.unitPrice * percent[op.vatRate] * 2 + 100) / 200);
          assert.equal(r.body.data.total, op.unitPrice + vat);
          bills.push({ id: r.body.data.id, status: 'draft', past: op.past, total: op.unitPrice + vat, vat, paid: 0, payments: 0 });
          continue;
        }
        if (op.kind === 'sweep') {
          const r = await api.request('POST', '/v1/invoices/sweep');
          assert.equal(r.status, 200);
          const moved = bills.filter((b) => b.id !== '' && b.status === 'approved' && b.past);
          assert.deepEqual([...r.body.data.overdueBills].sort(), moved.map((b) => b.id).sort(), 'the approved bills past due, and only those');
          for (const b of moved) b.status = 'overdue';
          continue;
        }
        const live = bills.filter((b) => b.id !== '');
        if (live.length === 0) continue;
        const bill = live[op.pick % live.length]!;
        const blocked = bill.status === 'paid' ? 409 : bill.status === 'void' ? 409 : undefined;
        if (op.kind === 'pay') {
          const due = bill.total - bill.paid;
          const amount = Math.max(1, Math.floor((due * op.share) / 100));
          const r = await payBill(api, bill.id, { amount });
          // An overdue bill is still owed and payable; it stays overdue until paid.
          const expected = blocked ?? (bill.status === 'draft' ? 422 : amount > due ? 422 : 201);
          assert.equal(r.status, expected, `pay ${amount} of ${due} on ${bill.status}`);
          if (expected === 201) {
            bill.paid += amount;
            bill.payments += 1;
            bank += amount;
            if (bill.paid === bill.total) bill.status = 'paid';
            assert.equal(r.body.data.billStatus, bill.status);
            assert.equal(r.body.data.amountDue, bill.total - bill.paid);
          }
        } else if (op.kind === 'approve') {
          const r = await api.request('POST', `/v1/bills/${bill.id}/approve`);
          const expected = bill.status === 'draft' ? 200 : (blocked ?? 422);
          assert.equal(r.status, expected, `approve ${bill.status}`);
          if (expected === 200) bill.status = 'approved';
        } else if (op.kind === 'delete') {
          const r = await api.request('DELETE', `/v1/bills/${bill.id}`);
          const expected = bill.status === 'draft' ? 200 : (blocked ?? 422);
          assert.equal(r.status, expected, `delete ${bill.status}`);
          if (expected === 200) bill.id = '';
        } else if (op.kind === 'void') {
          const r = await api.request('POST', `/v1/bills/${bill.id}/void`);
          const expected = bill.status === 'void' ? 409 : bill.payments > 0 ? 422 : 200;
          assert.equal(r.status, expected, `void ${bill.status} with ${bill.payments} payments`);
          if (expected === 200) bill.status = 'void';
        }
      }
      const open = bills.filter((b) => b.id !== '' && (b.status === 'approved' || b.status === 'overdue'));
      const modelOwed = open.reduce((s, b) => s + b.total - b.paid, 0);
      assert.equal(await owed(api), modelOwed, 'amountDue of approved and overdue bills');
      assert.equal((await balanceOf(api, acc['2100']!)).net + modelOwed, 0, '2100 = −owed');
      assert.equal((await balanceOf(api, acc['1200']!)).net + bank, 0, '1200 = −payments');
      const issued = bills.filter((b) => b.id !== '' && (b.status === 'approved' || b.status === 'overdue' || b.status === 'paid'));
      for (const b of bills.filter((x) => x.id !== '')) {
        const got = await api.request('GET', `/v1/bills/${b.id}`);
        assert.equal(got.body.data.status, b.status, `bill ${b.id}`);
        assert.equal(got.body.data.amountDue, b.status === 'paid' || b.status === 'void' ? 0 : b.total - b.paid);
      }
      assert.equal(
        (await balanceOf(api, acc['2201']!)).net,
        issued.reduce((s, b) => s + b.vat, 0),
        '2201 = VAT of issued bills',
      );
    }),
    { numRuns: 25, seed: 20261121, endOnFailure: true },
  );
  t.pass('the invariant held over every run');
});
