/**
 * Putting a sales mistake right through the CLI, amounts in
 * pounds: a payment removed, a credit note by an amount, a refund, credit
 * allocated to another invoice, and the tables and PDF a user sees.
 * Figures worked by hand; the documents are dated in 2025, well before
 * the clock of any run.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { books } from '../cli/support.js';
import { acctOk, customerOk, noSmtp, pdfText, row } from './support.js';

t.test('remove a payment, credit an amount, refund and allocate the credit, in pounds', async (t) => {
  const { dir } = await books(t);
  const customer = await customerOk(t, dir);
  // 3 × £450.00 at 20% = £1,350.00 + £270.00 VAT; 1 × £100.00 at 0%. Total £1,720.00.
  const inv = await acctOk(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    customer,
    '--item',
    'Oak tables;3;450.00;standard',
    '--item',
    'Delivery;1;100.00;zero',
    '--issue-date',
    '2025-10-01',
    '--due-date',
    '2025-10-31',
  ]);
  await acctOk(t, dir, ['invoices', 'send', inv.id]);
  const wrong = await acctOk(t, dir, ['invoices', 'pay', inv.id, '--amount', '1,720.00', '--date', '2025-10-15']);
  t.equal(wrong.invoiceStatus, 'paid');
  // The customer paid £500.00, not £1,720.00: remove the payment and record the right one.
  const removed = await acctOk(t, dir, ['invoices', 'remove-payment', inv.id, wrong.id]);
  t.same([removed.deleted, removed.amount, removed.invoiceStatus, removed.amountDue], [true, 172000, 'overdue', 172000], 'owed again, and past its due date');
  await acctOk(t, dir, ['invoices', 'pay', inv.id, '--amount', '500', '--date', '2025-10-15']);

  // £1,500.00 credited, VAT included, shared over what is left of the lines (£1,620.00 and £100.00 of £1,720.00):
  // 150000 × 162000/172000 = 141279.07 → 141279; 150000 × 10000/172000 = 8720.93 → 8720; the spare penny to the larger fraction: 8721.
  // Tables' share at 20%: net 141279 × 135000/162000 = 117732.5 → 117733, VAT 23546. Subtotal 117733 + 8721 = 126454.
  const table = await runCliInProcess(
    ['--data', dir, 'credit-notes', 'create', '--invoice-id', inv.id, '--amount', '£1,500.00', '--date', '2025-11-02', '--reason', 'Damaged'],
    { env: noSmtp },
  );
  t.equal(table.status, 0, table.stderr);
  t.match(table.stdout, row('creditNoteNumber', 'CN-0001'));
  t.match(table.stdout, row('subtotal', '1,264.54'));
  t.match(table.stdout, row('vatAmount', '235.46'));
  t.match(table.stdout, row('total', '1,500.00'));
  // It settles the £1,220.00 still due; £280.00 is the customer's credit.
  t.match(table.stdout, row('allocated', '1,220.00'));
  t.match(table.stdout, row('remainingCredit', '280.00'));
  t.match(table.stdout, row('invoiceStatus', 'paid'));
  const note = (await acctOk(t, dir, ['credit-notes', 'list']))[0];
  t.same([note.creditNoteNumber, note.total, note.remainingCredit], ['CN-0001', 150000, 28000], '--json stays pence');

  const tooMuch = await runCliInProcess(['--data', dir, 'credit-notes', 'create', '--invoice-id', inv.id, '--amount', '1000'], { env: noSmtp });
  t.equal(tooMuch.status, 5, 'a business rule: exit 5');
  // Left to credit: £1,720.00 − £1,500.00 = £220.00.
  t.match(tooMuch.stderr, 'a credit of £1,000.00 is more than the £220.00 of the invoice left to credit');

  // £80.00 refunded: £200.00 left. Then a new £150.00 zero-rated invoice takes £150.00 of it: £50.00 left.
  t.equal((await acctOk(t, dir, ['credit-notes', 'refund', note.id, '--amount', '80.00', '--date', '2025-11-05'])).remainingCredit, 20000);
  const next = await acctOk(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    customer,
    '--item',
    'Chairs;1;150.00;zero',
    '--issue-date',
    '2025-11-10',
    '--due-date',
    '2025-12-10',
  ]);
  await acctOk(t, dir, ['invoices', 'send', next.id]);
  const allocated = await acctOk(t, dir, ['credit-notes', 'allocate', note.id, '--invoice-id', next.id, '--date', '2025-11-10']);
  t.same([allocated.amount, allocated.remainingCredit, allocated.invoiceStatus], [15000, 5000, 'paid']);

  const list = await runCliInProcess(['--data', dir, 'credit-notes', 'list'], { env: noSmtp });
  t.equal(list.status, 0, list.stderr);
  t.match(list.stdout, row('CN-0001', 'issued', 'INV-0001', 'Client One Ltd', '2025-11-02', '1,500.00', '50.00'));

  // The customer's account: 1100 = £1,720.00 + £150.00 − £500.00 − £1,500.00 + £80.00 = −£50.00, the credit left.
  const summary = await acctOk(t, dir, ['contacts', 'summary', customer]);
  t.same([summary.summary.unallocatedCredit, summary.summary.outstanding], [5000, -5000]);
  const tb = await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-12-31']);
  const receivable = tb.accounts.find((a: { code: string }) => a.code === '1100');
  t.same([receivable.debit, receivable.credit], [0, 5000]);

  const out = path.join(dir, 'cn.pdf');
  await acctOk(t, dir, ['credit-notes', 'pdf', note.id, '-o', out]);
  const text = pdfText(fs.readFileSync(out));
  t.match(text, 'CREDIT NOTE');
  t.match(text, row('Credits invoice', 'INV-0001'));
  t.match(text, row('Total credit', '£1,500.00'));
  t.match(text, row('Refunded', '£80.00'));
  t.match(text, row('Credit remaining', '£50.00'));
});

t.test('a credit note for one line of an invoice with a discount cannot credit more than the invoice', async (t) => {
  const { dir } = await books(t);
  const customer = await customerOk(t, dir);
  // Design: 2 × £125.00 at 20% = £300.00 with VAT; Discount: −£25.00 at 20% = −£30.00 with VAT. Total £270.00.
  const inv = await acctOk(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    customer,
    '--item',
    'Design;2;125.00;standard',
    '--item',
    'Discount;1;-25.00;standard',
    '--issue-date',
    '2025-11-01',
    '--due-date',
    '2025-12-01',
  ]);
  t.equal(inv.total, 27000);
  await acctOk(t, dir, ['invoices', 'send', inv.id]);
  const design = (await acctOk(t, dir, ['invoices', 'get', inv.id])).items[0].id as string;
  const before = await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-12-31']);

  const refused = await runCliInProcess(['--data', dir, 'credit-notes', 'create', '--invoice-id', inv.id, '--line-ids', design, '--date', '2025-11-20'], {
    env: noSmtp,
  });
  t.equal(refused.status, 5, 'a business rule: exit 5');
  t.match(refused.stderr, '--line-ids: a credit of £300.00 is more than the £270.00 of the invoice left to credit');
  t.same(await acctOk(t, dir, ['credit-notes', 'list']), [], 'no credit note was made');
  t.same(await acctOk(t, dir, ['report', 'trial-balance', '--as-of', '2025-12-31']), before, 'the ledger is as it was');
});
