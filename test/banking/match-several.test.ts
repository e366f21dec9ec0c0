/**
 * One bank line paying several invoices or bills, over HTTP: a customer
 * settles two invoices in one transfer (the second in part), the company
 * pays two bills by one direct debit.
 * - POST /transactions/{id}/match with invoiceIds (billIds) pays each in the
 *   order named what is due until the line's money runs out, in one entry:
 *   the bank's line for the whole, the control account's for each;
 * - cash-basis VAT follows each payment, and a later payment by hand of the
 *   rest counts only its own document's share;
 * - refusals (more than is due, spent before a document, named twice, the
 *   wrong direction, a line on no statement) write nothing;
 * - one payment of the entry cannot be removed alone (409); undoing the
 *   statement removes them all, the documents owed again.
 * Figures worked by hand in the comments.
 */
import t from 'tap';
import type { Test } from 'tap';
import { tableDigests } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { billApproved, cashBooks, invoiceSent, item, returnOf, type CashBooks } from '../vat/cash-support.js';

/** A Starling statement of 1200: the customer's £300.00 and the £90.00 direct debit in April, then the customer's £400.00 and £100.00 in July. */
const statement = [
  'Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes',
  '20/04/2026,Harbour Cafe Ltd,INV-0001 INV-0002,FASTER PAYMENT,300.00,300.00,INCOME,',
  '23/04/2026,Paper Supplies Ltd,DD,DIRECT DEBIT,-90.00,210.00,BILLS_AND_SERVICES,',
  '01/07/2026,Harbour Cafe Ltd,Account,FASTER PAYMENT,400.00,610.00,INCOME,',
  '02/07/2026,Harbour Cafe Ltd,Part,FASTER PAYMENT,100.00,710.00,INCOME,',
].join('\n');

async function ok(t: Test, c: CashBooks, method: string, path: string, body?: unknown, status = 200) {
  const r = await c.api.request(method, path, body === undefined ? {} : { body });
  t.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** A bank line posted by hand, money in to 1200 from suspense, on no statement. */
const lineByHand = (t: Test, c: CashBooks, date: string, description: string, amount: number) =>
  ok(
    t,
    c,
    'POST',
    '/v1/transactions',
    {
      date,
      description,
      lines: [
        { accountId: c.acc['1200'], amount },
        { accountId: c.acc['9999'], amount: -amount },
      ],
    },
    201,
  );

const books = (c: CashBooks) =>
  tableDigests(c.books.store.org(c.books.organisationId, 'live').db, ['transactions', 'lines', 'payments', 'invoices', 'vat_entries', 'bank_import_rows']);

interface Row {
  id: number;
  transactionId: string;
  matchedTo: { kind: string; id: string; number: string | null } | null;
  payments: { paymentId: string; kind: string; id: string; number: string | null; amount: number }[];
}

/**
 * Cash-basis books (registered 2026-01-01, quarters to June): INV-0001 for £100.00 + £20.00 VAT = £120.00
 * and INV-0002 for £200.00 + £40.00 VAT = £240.00 to Harbour Cafe Ltd, sent; bills of £50.00 + £10.00 VAT
 * = £60.00 and £25.00 + £5.00 VAT = £30.00 from Paper Supplies Ltd, approved; the statement imported, its
 * four lines waiting on suspense.
 */
async function world(t: Test, confirm = true) {
  const c = await cashBooks(t);
  const a = await invoiceSent(t, c, [item({ unitPrice: 10_000 })], '2026-04-01');
  const b = await invoiceSent(t, c, [item({ unitPrice: 20_000 })], '2026-04-02');
  const billA = await billApproved(t, c, [item({ description: 'Paper', unitPrice: 5_000 })], '2026-04-03');
  const billB = await billApproved(t, c, [item({ description: 'Toner', unitPrice: 2_500 })], '2026-04-03');
  t.same([a.invoiceNumber, b.invoiceNumber, a.total, b.total, billA.total, billB.total], ['INV-0001', 'INV-0002', 12_000, 24_000, 6_000, 3_000]);
  const up = await ok(t, c, 'POST', '/v1/bank-imports/upload', { file: statement, filename: 'starling.csv' }, 201);
  if (confirm) await ok(t, c, 'POST', `/v1/bank-imports/${up.importId}/confirm`, {});
  const rows = (await ok(t, c, 'GET', `/v1/bank-imports/${up.importId}`)).rows as Row[];
  return {
    c,
    a: a.id as string,
    b: b.id as string,
    billA: billA.id as string,
    billB: billB.id as string,
    importId: up.importId as string,
    rowIds: rows.map((r) => r.id),
    line: (n: number) => rows[n - 1]!.transactionId,
  };
}

t.test('one line pays two invoices, the second in part, in one entry; VAT on the cash basis follows each', async (t) => {
  const w = await world(t);
  const { c } = w;
  const matched = await ok(t, c, 'POST', `/v1/transactions/${w.line(1)}/match`, { invoiceIds: [w.a, w.b] });
  // £300.00: INV-0001's £120.00 in full, then £300.00 − £120.00 = £180.00 of INV-0002's £240.00.
  t.match(matched, {
    removedTransactionId: w.line(1),
    amount: 30_000,
    date: '2026-04-20',
    matchedTo: { kind: 'invoice', id: w.a, number: 'INV-0001' },
    payments: [
      { kind: 'invoice', id: w.a, number: 'INV-0001', amount: 12_000 },
      { kind: 'invoice', id: w.b, number: 'INV-0002', amount: 18_000 },
    ],
  });
  t.equal(matched.paymentId, matched.payments[0].paymentId, 'paymentId is the first');
  t.match(await ok(t, c, 'GET', `/v1/invoices/${w.a}`), { status: 'paid', amountPaid: 12_000, amountDue: 0 });
  // Due on the day issued, and the clock at 10 July: overdue until paid.
  t.match(await ok(t, c, 'GET', `/v1/invoices/${w.b}`), { status: 'overdue', amountPaid: 18_000, amountDue: 6_000 });

  // One entry: the bank's £300.00 in, and £120.00 and £180.00 off what the customer owes.
  const entry = await ok(t, c, 'GET', `/v1/transactions/${matched.transactionId}`);
  t.same(
    entry.lines.map((l: { accountId: string; amount: number }) => [l.accountId, l.amount]),
    [
      [c.acc['1200'], 30_000],
      [c.acc['1100'], -12_000],
      [c.acc['1100'], -18_000],
    ],
  );
  t.match(entry, { sourceType: 'payment', description: 'Payment for invoices INV-0001, INV-0002 from Harbour Cafe Ltd', reference: 'INV-0001 INV-0002' });
  for (const p of matched.payments) {
    const payments = (await ok(t, c, 'GET', `/v1/invoices/${p.id}`)).payments as { id: string; transactionId: string }[];
    t.same(
      payments.map((x) => [x.id, x.transactionId]),
      [[p.paymentId, matched.transactionId]],
      `${p.number}'s payment is in the entry`,
    );
  }
  // The statement's row shows both.
  const rows = (await ok(t, c, 'GET', `/v1/bank-imports/${w.importId}`)).rows as Row[];
  t.same(rows[0]!.payments, matched.payments);
  t.same(rows[2]!.payments, [], 'a row on suspense paid nothing');
  // The direct debit pays both bills (the next test), so that nothing of the quarter waits on suspense.
  await ok(t, c, 'POST', `/v1/transactions/${w.line(2)}/match`, { billIds: [w.billA, w.billB] });

  /**
   * Q2 2026 on the cash basis: INV-0001 paid in full brings its £20.00 of VAT on £100.00; INV-0002 paid
   * £180.00 of £240.00, three quarters, brings £40.00 × 3/4 = £30.00 on £200.00 × 3/4 = £150.00.
   * Box 1 = £20.00 + £30.00 = £50.00; box 6 = £100.00 + £150.00 = £250.00. The bills paid in full bring
   * £10.00 + £5.00 = £15.00 of input VAT on £50.00 + £25.00 = £75.00. Box 5 = £50.00 − £15.00 = £35.00.
   */
  t.match((await returnOf(t, c, '2026-06')).boxes, { box1: 5_000, box4: 1_500, box5: 3_500, box6: 25_000, box7: 7_500 });

  // The rest of INV-0002, £60.00, paid by hand: its own share only, £40.00 × 1/4 = £10.00 on £50.00.
  // Box 1 = £20.00 + £40.00 = £60.00 and box 6 = £100.00 + £200.00 = £300.00; INV-0001's share is left as it was.
  await ok(t, c, 'POST', `/v1/invoices/${w.b}/payments`, { amount: 6_000, date: '2026-05-01' }, 201);
  t.match(await ok(t, c, 'GET', `/v1/invoices/${w.b}`), { status: 'paid', amountDue: 0 });
  t.match((await returnOf(t, c, '2026-06')).boxes, { box1: 6_000, box4: 1_500, box5: 4_500, box6: 30_000, box7: 7_500 });
});

t.test('one direct debit pays two bills in one entry', async (t) => {
  const w = await world(t);
  const { c } = w;
  const matched = await ok(t, c, 'POST', `/v1/transactions/${w.line(2)}/match`, { billIds: [w.billA, w.billB] });
  // £90.00 out: £60.00 and £30.00, both in full.
  t.match(matched, {
    amount: -9_000,
    matchedTo: { kind: 'bill', id: w.billA },
    payments: [
      { kind: 'bill', id: w.billA, amount: 6_000 },
      { kind: 'bill', id: w.billB, amount: 3_000 },
    ],
  });
  const entry = await ok(t, c, 'GET', `/v1/transactions/${matched.transactionId}`);
  t.same(
    entry.lines.map((l: { accountId: string; amount: number }) => [l.accountId, l.amount]),
    [
      [c.acc['1200'], -9_000],
      [c.acc['2100'], 6_000],
      [c.acc['2100'], 3_000],
    ],
  );
  for (const id of [w.billA, w.billB]) t.match(await ok(t, c, 'GET', `/v1/bills/${id}`), { status: 'paid', amountDue: 0 });
});

t.test('refusals write nothing: more than is due, spent before a document, named twice, wrong way, off any statement', async (t) => {
  const w = await world(t);
  const { c } = w;
  // A bank line on suspense posted by hand, on no statement: £50.00 in.
  const byHand = await lineByHand(t, c, '2026-04-24', 'Cash paid in', 5_000);
  const before = await books(c);
  const refused: [string, Record<string, unknown>, number, string, { field?: string; message?: RegExp }][] = [
    // £400.00 against £120.00 + £240.00 = £360.00 due.
    [
      w.line(3),
      { invoiceIds: [w.a, w.b] },
      422,
      'unprocessable_entity',
      { message: /^invoiceIds: the line is £400.00, more than the £360.00 due on INV-0001, INV-0002 in all/ },
    ],
    // £100.00 is spent on INV-0001's £120.00 before INV-0002.
    [w.line(4), { invoiceIds: [w.a, w.b] }, 422, 'unprocessable_entity', { message: /^invoiceIds: the line’s £100.00 is spent before invoice INV-0002/ }],
    [w.line(1), { invoiceIds: [w.a, w.a] }, 400, 'validation_error', { field: 'invoiceIds', message: /named twice/ }],
    [
      w.line(2),
      { invoiceIds: [w.a, w.b] },
      422,
      'unprocessable_entity',
      { message: /^invoiceIds: the line is £90.00 out of the bank, which cannot pay an invoice/ },
    ],
    [w.line(1), { invoiceIds: [w.a, w.billA] }, 400, 'invalid_id', { field: 'invoiceIds[1]' }],
    [w.line(1), { invoiceIds: [] }, 400, 'validation_error', { field: 'invoiceIds' }],
    [w.line(1), { invoiceIds: [w.a], invoiceId: w.b }, 400, 'validation_error', { field: 'invoiceIds' }],
    [byHand.id, { invoiceIds: [w.a, w.b] }, 422, 'unprocessable_entity', { message: /^invoiceIds: transaction \S+ is on no bank statement/ }],
  ];
  for (const [txn, body, status, code, expected] of refused) {
    const r = await c.api.request('POST', `/v1/transactions/${txn}/match`, { body });
    expectError(t, r, status, code, expected);
  }
  t.same(await books(c), before, 'the refusals wrote nothing');
  // One document named in invoiceIds is paid as invoiceId would be, on any line: the hand-posted £50.00 pays £50.00 of INV-0001.
  const one = await ok(t, c, 'POST', `/v1/transactions/${byHand.id}/match`, { invoiceIds: [w.a] });
  t.match(one, { payments: [{ id: w.a, amount: 5_000 }], matchedTo: { id: w.a } });
});

t.test('a payment of the shared entry cannot be removed alone; undoing the statement removes them all', async (t) => {
  const w = await world(t);
  const { c } = w;
  const before = await books(c);
  const matched = await ok(t, c, 'POST', `/v1/transactions/${w.line(1)}/match`, { invoiceIds: [w.a, w.b] });
  const alone = await c.api.request('DELETE', `/v1/invoices/${w.a}/payments/${matched.payments[0].paymentId}`);
  expectError(t, alone, 409, 'conflict', { message: /is one of 2 that entry \S+ holds/ });
  await ok(t, c, 'POST', `/v1/bank-imports/${w.importId}/undo`, {});
  t.match(await ok(t, c, 'GET', `/v1/invoices/${w.a}`), { status: 'overdue', amountPaid: 0, amountDue: 12_000, payments: [] });
  t.match(await ok(t, c, 'GET', `/v1/invoices/${w.b}`), { status: 'overdue', amountPaid: 0, amountDue: 24_000, payments: [] });
  const after = await books(c);
  for (const table of ['payments', 'vat_entries']) t.equal(after.get(table), before.get(table), `${table} as before the statement's lines were matched`);
  const tb = await ok(t, c, 'GET', '/v1/reports/trial-balance?asOf=2026-06-30');
  // Nothing in the bank: the £120.00 + £240.00 owed on 1100 is all that is left of the sales.
  t.same(
    tb.accounts
      .filter((a: { code: string; debit: number; credit: number }) => ['1100', '1200', '9999'].includes(a.code) && (a.debit !== 0 || a.credit !== 0))
      .map((a: { code: string; debit: number }) => [a.code, a.debit]),
    [['1100', 36_000]],
  );
});

t.test('at confirm, matches takes a list for a row paying several; a refusal leaves the import pending', async (t) => {
  const w = await world(t, false);
  const { c } = w;
  const before = await books(c);
  // Row 3, £400.00, against the £360.00 due on both.
  const refused = await c.api.request('POST', `/v1/bank-imports/${w.importId}/confirm`, { body: { matches: { [w.rowIds[2]!]: [w.a, w.b] } } });
  expectError(t, refused, 422, 'unprocessable_entity', {
    message: /^matches: row 3: the line is £400.00, more than the £360.00 due on INV-0001, INV-0002 in all/,
  });
  t.same(await books(c), before, 'nothing written');
  t.match(await ok(t, c, 'GET', `/v1/bank-imports/${w.importId}`), { status: 'pending' });

  const done = await ok(t, c, 'POST', `/v1/bank-imports/${w.importId}/confirm`, {
    matches: { [w.rowIds[0]!]: [w.a, w.b], [w.rowIds[1]!]: [w.billA, w.billB] },
  });
  // All four rows created: rows 1 and 2 as payments, rows 3 and 4 on suspense.
  t.match(done, { paid: 2, created: 4 });
  const rows = (await ok(t, c, 'GET', `/v1/bank-imports/${w.importId}`)).rows as Row[];
  t.match(rows[0]!.payments, [
    { id: w.a, number: 'INV-0001', amount: 12_000 },
    { id: w.b, number: 'INV-0002', amount: 18_000 },
  ]);
  t.match(rows[1]!.payments, [
    { id: w.billA, amount: 6_000 },
    { id: w.billB, amount: 3_000 },
  ]);
  t.match(await ok(t, c, 'GET', `/v1/invoices/${w.b}`), { amountPaid: 18_000, amountDue: 6_000 });
});

t.test('a statement line naming invoices due exactly its amount together is suggested them; a line posted by hand is not', async (t) => {
  const c = await cashBooks(t);
  const a = await invoiceSent(t, c, [item({ unitPrice: 10_000 })], '2026-04-01');
  const b = await invoiceSent(t, c, [item({ unitPrice: 20_000 })], '2026-04-02');
  // The same words on a line posted by hand, 17 days earlier (outside the 14 days in which the statement's line would be taken
  // for it): it may pay one document at most, so it is suggested nothing.
  const byHand = await lineByHand(t, c, '2026-04-03', 'Harbour Cafe INV-0001, INV-0002', 36_000);
  // £120.00 + £240.00 = £360.00 names both and pays both; £300.00 naming both pays neither exactly.
  const file = [
    'Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes',
    '20/04/2026,Harbour Cafe Ltd,"INV-0001, INV-0002",FASTER PAYMENT,360.00,360.00,INCOME,',
    '21/04/2026,Harbour Cafe Ltd,INV-0001 INV-0002,FASTER PAYMENT,300.00,660.00,INCOME,',
  ].join('\n');
  const up = await ok(t, c, 'POST', '/v1/bank-imports/upload', { file, filename: 'starling.csv' }, 201);
  const preview = up.preview as { suggestedMatch: Record<string, unknown> | null }[];
  const together = {
    kind: 'invoice',
    id: a.id,
    number: 'INV-0001, INV-0002',
    contactName: 'Harbour Cafe Ltd',
    date: '2026-04-02',
    amount: 36_000,
    description: 'Invoices INV-0001, INV-0002 to Harbour Cafe Ltd',
    documents: [
      { id: a.id, number: 'INV-0001' },
      { id: b.id, number: 'INV-0002' },
    ],
  };
  t.same(preview[0]!.suggestedMatch, together, 'the £360.00 row: both');
  t.equal(preview[1]!.suggestedMatch, null, 'the £300.00 row: no exact sum, no suggestion');
  const inbox = (await ok(t, c, 'GET', '/v1/bank/inbox')) as { transactionId: string; suggestedMatch: unknown }[];
  t.equal(inbox.find((s) => s.transactionId === byHand.id)?.suggestedMatch, null, 'the line by hand: nothing');

  const done = await ok(t, c, 'POST', `/v1/bank-imports/${up.importId}/confirm`, { acceptMatches: true });
  t.match(done, { paid: 1 });
  for (const id of [a.id, b.id]) t.match(await ok(t, c, 'GET', `/v1/invoices/${id}`), { status: 'paid', amountDue: 0 });
});
