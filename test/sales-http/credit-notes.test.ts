/**
 * Credit notes, allocations and refunds over HTTP, with figures worked by
 * hand. The clock stands at 2026-11-21 (FY 2026/27 is current, FY 2025/26
 * has ended and can be closed).
 */
import t from 'tap';
import type { Test } from 'tap';
import { balanceOf, closeFy2025, contactOk, expectError, fileVat, ledger, outbox, type Ledger } from '../ledger-http/support.js';
import { getInvoice, invoiceOk, item, payOk, sendOk } from './invoice-support.js';
import type { Reply } from '../helpers/index.js';

/** POST /v1/credit-notes. */
const credit = (l: Ledger, body: Record<string, unknown>): Promise<Reply> => l.api.request('POST', '/v1/credit-notes', { body });

async function creditOk(t: Test, l: Ledger, body: Record<string, unknown>): Promise<Reply['body']> {
  const r = await credit(l, body);
  t.equal(r.status, 201, `credit note issued: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** A sent invoice for the contact: the items given, issued and due as given. */
async function sentInvoice(t: Test, l: Ledger, contactId: string, items: Record<string, unknown>[], issueDate = '2026-10-01', dueDate = '2026-10-31') {
  const inv = await invoiceOk(t, l.api, contactId, { items, issueDate, dueDate });
  await sendOk(t, l.api, inv.id);
  return inv;
}

const net = async (l: Ledger, code: string): Promise<number> => (await balanceOf(l.api, l.acc[code]!)).net;

t.test('a credit note for a whole line of a part-paid invoice settles it and leaves the rest as credit', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // Line 1: 3 × £450.00 at 20% = £1,350.00 net + £270.00 VAT = £1,620.00.
  // Line 2: 1 × £100.00 at 0% = £100.00.
  // Invoice: subtotal £1,450.00, VAT £270.00, total £1,720.00 = 172000p.
  const inv = await sentInvoice(t, l, customer, [
    item({ description: 'Tables', quantity: 3, unitPrice: 45000 }),
    item({ description: 'Delivery', unitPrice: 10000, vatRate: 'zero' }),
  ]);
  t.equal(inv.total, 172000);
  await payOk(t, l.api, inv.id, { amount: 50000, date: '2026-10-15' });
  // Due after the £500.00 payment: 172000 − 50000 = 122000.
  const lines = (await getInvoice(t, l.api, inv.id)).items as { id: string }[];

  const note = await creditOk(t, l, { invoiceId: inv.id, lineIds: [lines[0]!.id], date: '2026-11-02', reason: 'Tables returned' });
  t.equal(note.creditNoteNumber, 'CN-0001', 'numbered from its own prefix');
  t.match(note.id, /^cn_/);
  // The whole first line: £1,350.00 net + £270.00 VAT = £1,620.00.
  t.same([note.subtotal, note.vatAmount, note.total], [135000, 27000, 162000], 'the credited line, VAT included');
  // It settles the £1,220.00 still due; £1,620.00 − £1,220.00 = £400.00 is the customer's credit.
  t.same([note.allocated, note.refunded, note.remainingCredit], [122000, 0, 40000], 'applied to the invoice, the rest left as credit');
  t.same([note.invoiceStatus, note.invoiceAmountDue], ['paid', 0], 'the invoice is settled');
  t.same(
    note.items.map((i: { quantity: number; unitPrice: number; sourceLineId: string }) => [i.quantity, i.unitPrice, i.sourceLineId]),
    [[3, 45000, lines[0]!.id]],
    'the line as invoiced',
  );

  const after = await getInvoice(t, l.api, inv.id);
  t.same(
    [after.status, after.amountPaid, after.amountCredited, after.amountDue, after.paidDate],
    ['paid', 50000, 122000, 0, '2026-11-02'],
    'paid by payment and credit',
  );
  t.same(
    after.credits.map((c: { creditNoteNumber: string; amount: number }) => [c.creditNoteNumber, c.amount]),
    [['CN-0001', 122000]],
  );

  // 1100: 172000 − 50000 − 162000 = −40000 (the customer is owed £400.00).
  // 4000: −145000 + 135000 = −10000; 2200: −27000 + 27000 = 0.
  t.equal(await net(l, '1100'), -40000, 'receivables: the customer is owed £400.00');
  t.equal(await net(l, '4000'), -10000, 'sales: only the delivery is left');
  t.equal(await net(l, '2200'), 0, 'output VAT reversed with the line');

  const entry = await l.api.request('GET', `/v1/transactions/${note.transactionId}`);
  t.same(
    entry.body.data.lines.map((x: { accountCode: string; amount: number }) => [x.accountCode, x.amount]),
    [
      ['1100', -162000],
      ['4000', 135000],
      ['2200', 27000],
    ],
    'the reversal of the line: debit sales and VAT, credit receivables',
  );
  t.equal(entry.body.data.sourceType, 'credit_note');

  const events = (await outbox(l.books)).map((e) => e.event).filter((e) => !e.startsWith('transaction.'));
  t.same(events.slice(-2), ['credit_note.created', 'invoice.paid'], 'credit_note.created, then invoice.paid');

  // A second whole-invoice credit note takes only what is left: the delivery line, £100.00.
  const rest = await creditOk(t, l, { invoiceId: inv.id, date: '2026-11-03' });
  t.same([rest.creditNoteNumber, rest.total, rest.allocated, rest.remainingCredit], ['CN-0002', 10000, 0, 10000], 'the delivery line, all of it credit');
  expectError(t, await credit(l, { invoiceId: inv.id }), 422, 'unprocessable_entity', { message: /credited in full/ });
  // 1100: −40000 − 10000 = −50000: the £500.00 paid is all owed back.
  t.equal(await net(l, '1100'), -50000, 'the customer is owed what they paid');
});

t.test('a refund pays credit back out of the bank; removing it restores the credit', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // 1 × £240.00 at 20%: £240.00 + £48.00 = £288.00, paid in full.
  const inv = await sentInvoice(t, l, customer, [item({ unitPrice: 24000 })]);
  await payOk(t, l.api, inv.id, { amount: 28800, date: '2026-10-10' });
  const note = await creditOk(t, l, { invoiceId: inv.id, date: '2026-10-20' });
  t.same([note.total, note.allocated, note.remainingCredit], [28800, 0, 28800], "a paid invoice: the whole credit is the customer's");
  t.equal((await getInvoice(t, l.api, inv.id)).status, 'paid', 'a paid invoice stays paid');

  // A refund is money that has moved, as a payment is: the clock's today is 2026-11-21.
  const bank = await net(l, '1200');
  expectError(t, await l.api.request('POST', `/v1/credit-notes/${note.id}/refunds`, { body: { amount: 15000, date: '2026-11-22' } }), 400, 'validation_error', {
    field: 'date',
    message: /a refund cannot be dated after today, 2026-11-21/,
  });
  t.equal(await net(l, '1200'), bank, 'the refused refund left the bank as it was');
  t.equal((await l.api.request('GET', `/v1/credit-notes/${note.id}`)).body.data.remainingCredit, 28800, 'and the credit');

  const refund = await l.api.request('POST', `/v1/credit-notes/${note.id}/refunds`, { body: { amount: 15000, date: '2026-10-25' } });
  t.equal(refund.status, 201, JSON.stringify(refund.body));
  t.match(refund.body.data.id, /^rfd_/);
  // Credit left: 28800 − 15000 = 13800.
  t.equal(refund.body.data.remainingCredit, 13800);
  // Bank: +28800 − 15000 = 13800; 1100: 28800 − 28800 − 28800 + 15000 = −13800.
  t.equal(await net(l, '1200'), 13800, 'the bank paid £150.00 back');
  t.equal(await net(l, '1100'), -13800, 'the customer is still owed £138.00');
  const entry = await l.api.request('GET', `/v1/transactions/${refund.body.data.transactionId}`);
  t.same(
    entry.body.data.lines.map((x: { accountCode: string; amount: number }) => [x.accountCode, x.amount]),
    [
      ['1200', -15000],
      ['1100', 15000],
    ],
    'credit the bank, debit receivables',
  );

  expectError(t, await l.api.request('POST', `/v1/credit-notes/${note.id}/refunds`, { body: { amount: 13801 } }), 422, 'unprocessable_entity', {
    message: /£138\.01 is more than the £138\.00/,
  });
  expectError(t, await l.api.request('POST', `/v1/credit-notes/${note.id}/void`), 422, 'unprocessable_entity', { message: /refunds/ });

  const removed = await l.api.request('DELETE', `/v1/credit-notes/${note.id}/refunds/${refund.body.data.id}`);
  t.equal(removed.status, 200, JSON.stringify(removed.body));
  t.same([removed.body.data.deleted, removed.body.data.remainingCredit], [true, 28800]);
  t.equal(await net(l, '1200'), 28800, 'the refund has left the bank');

  // The rest of the credit refunded in one go (no amount: all that is left).
  const all = await l.api.request('POST', `/v1/credit-notes/${note.id}/refunds`, { body: { date: '2026-10-26' } });
  t.same([all.status, all.body.data.amount, all.body.data.remainingCredit], [201, 28800, 0]);
  t.equal(await net(l, '1100'), 0, 'nothing owed either way');
  expectError(t, await l.api.request('POST', `/v1/credit-notes/${note.id}/refunds`, { body: {} }), 422, 'unprocessable_entity', { message: /no credit left/ });
});

t.test('credit allocated to another invoice of the customer', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  const other = await contactOk(t, l.api, { name: 'Other Customer Ltd' });
  // A: 1 × £500.00 at 20% = £600.00, paid; credited £150.00 by amount: all of it credit.
  const a = await sentInvoice(t, l, customer, [item({ unitPrice: 50000 })]);
  await payOk(t, l.api, a.id, { amount: 60000, date: '2026-10-05' });
  const note = await creditOk(t, l, { invoiceId: a.id, amount: 15000, date: '2026-10-06' });
  // £150.00 at 20% VAT included: net 15000 × 50000/60000 = 12500, VAT 2500.
  t.same([note.subtotal, note.vatAmount, note.total, note.remainingCredit], [12500, 2500, 15000, 15000]);
  // B: 1 × £100.00 at 20% = £120.00.
  const b = await sentInvoice(t, l, customer, [item({ unitPrice: 10000 })], '2026-11-05', '2026-12-05');
  const c = await sentInvoice(t, l, other, [item({ unitPrice: 10000 })], '2026-11-05', '2026-12-05');
  const allocate = (body: Record<string, unknown>) => l.api.request('POST', `/v1/credit-notes/${note.id}/allocations`, { body });

  expectError(t, await allocate({ invoiceId: c.id }), 400, 'validation_error', { field: 'invoiceId', message: /another contact/ });
  expectError(t, await allocate({ invoiceId: b.id, amount: 12001 }), 422, 'unprocessable_entity', { message: /£120\.01 is more than the £120\.00 due/ });
  expectError(t, await allocate({ invoiceId: b.id, date: '2026-11-04' }), 400, 'validation_error', { field: 'date' });

  // Default: as much as both allow, min(15000, 12000) = 12000, dated today.
  const done = await allocate({ invoiceId: b.id });
  t.equal(done.status, 201, JSON.stringify(done.body));
  t.same(
    [done.body.data.amount, done.body.data.date, done.body.data.remainingCredit, done.body.data.invoiceStatus, done.body.data.invoiceAmountDue],
    [12000, '2026-11-21', 3000, 'paid', 0],
  );
  const paidB = await getInvoice(t, l.api, b.id);
  t.same([paidB.status, paidB.amountPaid, paidB.amountCredited, paidB.paidDate], ['paid', 0, 12000, '2026-11-21'], 'B is settled by credit alone');
  // 1100: A 60000 − 60000 − 15000, B 12000, C 12000: −15000 + 24000 = 9000 = C's 12000 less the £30.00 credit left.
  t.equal(await net(l, '1100'), 9000, 'allocation posts nothing: receivables are unchanged by it');
  const summary = await l.api.request('GET', `/v1/contacts/${customer}/summary`);
  t.same([summary.body.data.summary.outstanding, summary.body.data.summary.unallocatedCredit], [-3000, 3000], 'the customer has £30.00 of credit');

  // Taken back: B owes £120.00 again and the credit is £150.00 again.
  const undo = await l.api.request('DELETE', `/v1/credit-notes/${note.id}/allocations/${done.body.data.id}`);
  t.same([undo.status, undo.body.data.remainingCredit, undo.body.data.invoiceStatus, undo.body.data.invoiceAmountDue], [200, 15000, 'sent', 12000]);
});

t.test('a credit note by an amount over lines at different rates shares it out to the penny', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // Line 1: £100.00 at 20% = £120.00; line 2: £60.00 at 0% = £60.00; total £180.00.
  const inv = await sentInvoice(t, l, customer, [item({ unitPrice: 10000 }), item({ description: 'Books', unitPrice: 6000, vatRate: 'zero' })]);
  // £10.01: 1001 × 12000/18000 = 667.33 → 667; 1001 × 6000/18000 = 333.67 → 333; the spare penny to line 2 (the larger fraction): 334.
  // Line 1's 667 at 20%: net 667 × 10000/12000 = 555.83 → 556, VAT 111. Line 2: net 334.
  const note = await creditOk(t, l, { invoiceId: inv.id, amount: 1001 });
  t.same(
    note.items.map((i: { netAmount: number; vatAmount: number }) => [i.netAmount, i.vatAmount]),
    [
      [556, 111],
      [334, 0],
    ],
  );
  t.same([note.subtotal, note.vatAmount, note.total], [890, 111, 1001]);
  // Left to credit: 18000 − 1001 = 16999.
  expectError(t, await credit(l, { invoiceId: inv.id, amount: 17000 }), 422, 'unprocessable_entity', { message: /£170\.00 is more than the £169\.99/ });
});

t.test('a credit note for chosen lines cannot credit more than is left of the invoice', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  // Design: 2 × £125.00 at 20% = £250.00 + £50.00 VAT = £300.00.
  // Discount: 1 × −£25.00 at 20% = −£25.00 − £5.00 VAT = −£30.00.
  // Invoice: 25000 − 2500 = 22500 net, 5000 − 500 = 4500 VAT, total 27000.
  const inv = await sentInvoice(t, l, customer, [
    item({ description: 'Design', quantity: 2, unitPrice: 12500 }),
    item({ description: 'Discount', unitPrice: -2500 }),
  ]);
  t.equal(inv.total, 27000);
  const lines = (await getInvoice(t, l.api, inv.id)).items as { id: string }[];
  const before = { receivables: await net(l, '1100'), sales: await net(l, '4000'), vat: await net(l, '2200'), events: (await outbox(l.books)).length };

  // The design line alone is £300.00, more than the £270.00 the invoice comes to.
  expectError(t, await credit(l, { invoiceId: inv.id, lineIds: [lines[0]!.id], date: '2026-11-20' }), 422, 'unprocessable_entity', {
    message: /lineIds: a credit of £300\.00 is more than the £270\.00 of the invoice left to credit/,
  });
  t.equal((await l.api.request('GET', '/v1/credit-notes')).body.meta.total, 0, 'no credit note was made');
  t.same(
    { receivables: await net(l, '1100'), sales: await net(l, '4000'), vat: await net(l, '2200'), events: (await outbox(l.books)).length },
    before,
    'the ledger and the outbox are as they were',
  );

  // Both lines together are the whole invoice: £300.00 − £30.00 = £270.00.
  const both = await creditOk(t, l, { invoiceId: inv.id, lineIds: [lines[0]!.id, lines[1]!.id], date: '2026-11-20' });
  t.same([both.subtotal, both.vatAmount, both.total, both.allocated, both.remainingCredit], [22500, 4500, 27000, 27000, 0]);
});

t.test('refusals leave nothing behind', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  const draft = await invoiceOk(t, l.api, customer, { items: [item()] });
  const before = (await outbox(l.books)).length;
  expectError(t, await credit(l, { invoiceId: draft.id }), 422, 'unprocessable_entity', { message: /draft/ });
  expectError(t, await credit(l, { invoiceId: 'inv_0000000000000000000000000' }), 400, 'validation_error', { field: 'invoiceId' });
  expectError(t, await credit(l, { invoiceId: 'bill_123' }), 400, 'invalid_id', { field: 'invoiceId' });
  expectError(t, await credit(l, { invoiceId: draft.id, amount: 0 }), 400, 'validation_error', { field: 'amount' });
  expectError(t, await credit(l, { invoiceId: draft.id, amount: 1.5 }), 400, 'validation_error', { field: 'amount' });
  const sent = await sentInvoice(t, l, customer, [item()]);
  expectError(t, await credit(l, { invoiceId: sent.id, lineIds: ['line_notonthisinvoice'] }), 400, 'validation_error', { field: 'lineIds[0]' });
  expectError(t, await credit(l, { invoiceId: sent.id, amount: 100, lineIds: [] }), 400, 'validation_error', { field: 'lineIds' });
  expectError(t, await credit(l, { invoiceId: sent.id, date: '2026-09-30' }), 400, 'validation_error', { field: 'date' });
  const voided = await sentInvoice(t, l, customer, [item()]);
  t.equal((await l.api.request('POST', `/v1/invoices/${voided.id}/void`)).status, 200);
  expectError(t, await credit(l, { invoiceId: voided.id }), 409, 'already_voided');
  t.equal((await l.api.request('GET', '/v1/credit-notes')).body.meta.total, 0, 'no credit note was made');
  t.equal((await outbox(l.books)).filter((e) => e.event === 'credit_note.created').length, 0);
  t.ok((await outbox(l.books)).length >= before);

  // Another organisation's credit note is not found.
  const note = await creditOk(t, l, { invoiceId: sent.id });
  const stranger = await ledger(t);
  t.equal((await stranger.api.request('GET', `/v1/credit-notes/${note.id}`)).status, 404);
  t.equal((await l.api.request('GET', `/v1/supplier-credit-notes/${note.id}`)).status, 400, 'a cn_ id is not a supplier credit note id');
});

t.test('an invoice with payments is corrected by a credit note, not voided; a credit note voided undoes its allocation', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  const inv = await sentInvoice(t, l, customer, [item()]);
  await payOk(t, l.api, inv.id, { amount: 2000, date: '2026-10-02' });
  expectError(t, await l.api.request('POST', `/v1/invoices/${inv.id}/void`), 422, 'unprocessable_entity', { message: /credit note/ });
  // £120.00 − £20.00 paid = £100.00 due; a whole credit note of £120.00 settles it, £20.00 left as credit.
  const note = await creditOk(t, l, { invoiceId: inv.id, date: '2026-10-03' });
  t.same([note.allocated, note.remainingCredit], [10000, 2000]);
  const voided = await l.api.request('POST', `/v1/credit-notes/${note.id}/void`);
  t.same([voided.status, voided.body.data.status, voided.body.data.allocated, voided.body.data.remainingCredit], [200, 'void', 0, 0]);
  const after = await getInvoice(t, l.api, inv.id);
  // Back to what it was: due £100.00, and past its due date 2026-10-31: overdue.
  t.same([after.status, after.amountCredited, after.amountDue], ['overdue', 0, 10000]);
  t.equal(await net(l, '1100'), 10000, 'the credit note has left the ledger');
  expectError(t, await l.api.request('POST', `/v1/credit-notes/${note.id}/void`), 409, 'already_voided');
  // Once void, its lines are free to credit again.
  t.equal((await creditOk(t, l, { invoiceId: inv.id })).total, 12000);
});

t.test('a credit note in a closed period is refused', async (t) => {
  const l = await ledger(t);
  const customer = await contactOk(t, l.api, { name: 'Harbour Cafe Ltd' });
  const inv = await sentInvoice(t, l, customer, [item()], '2026-03-01', '2026-03-31');
  // Its VAT is on the return for January to March 2026, filed before the year may be closed.
  await fileVat(t, l.api, '2026-03');
  await closeFy2025(t, l.api);
  expectError(t, await credit(l, { invoiceId: inv.id, date: '2026-03-15' }), 422, 'unprocessable_entity', { message: /closed/ });
  t.equal((await creditOk(t, l, { invoiceId: inv.id, date: '2026-04-01' })).total, 12000, 'dated in the open year it is accepted');
});
