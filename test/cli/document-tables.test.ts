/**
 * A document shows its header fields, then each list it holds (items,
 * payments, credits, lines) as a titled table of its own, never "(N items)";
 * amounts in pounds, thousands grouped. Figures are worked by hand.
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, books } from './support.js';

/** The section of a record's output under a title line, up to the next blank line. */
const section = (out: string, title: string): string[] => {
  const lines = out.split('\n');
  const at = lines.indexOf(title);
  if (at === -1) return [];
  const end = lines.indexOf('', at);
  return lines.slice(at + 1, end === -1 ? undefined : end);
};

t.test('invoices get: the header, then the items, the payments and the credits as tables', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob Ltd', '--email', 'bob@example.com']);
  await acctJson(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    'Bob',
    '--issue-date',
    '2026-03-02',
    '--item',
    'Consulting;1.5;500.00;standard;4000',
    '--item',
    'Kiln hire;10;120.00;standard;4000',
  ]);
  await acctJson(t, dir, ['invoices', 'send', 'INV-0001']);
  await acctJson(t, dir, ['invoices', 'pay', 'INV-0001', '--amount', '1,000.00', '--date', '2026-03-10']);
  const r = await runCliInProcess(['--data', dir, 'invoices', 'get', 'INV-0001']);
  t.equal(r.status, 0, r.stderr);
  t.notMatch(r.stdout, /\(\d+ items\)/, 'no (N items)');
  // Net 1.5 × 500.00 = 750.00 and 10 × 120.00 = 1,200.00: 1,950.00; VAT 20% 390.00; total 2,340.00; paid 1,000.00; due 1,340.00.
  t.match(r.stdout, /^subtotal +1,950\.00 *$/m);
  t.match(r.stdout, /^total +2,340\.00 *$/m);
  t.match(r.stdout, /^amountDue +1,340\.00 *$/m);
  t.match(r.stdout, /^credits +none *$/m, 'an empty list says none');
  const items = section(r.stdout, 'items');
  t.equal(items.length, 3, 'a header and two lines');
  t.match(items[0], /^id +description +quantity +unitPrice +vatRate +vatRateName +netAmount +vatAmount +lineTotal +accountId$/);
  t.match(items[1], /^line_\w+ +Consulting +1\.5 +500\.00 +20 +standard +750\.00 +150\.00 +900\.00 +acc_\w+$/);
  t.match(items[2], /^line_\w+ +Kiln hire +10 +120\.00 +20 +standard +1,200\.00 +240\.00 +1,440\.00 +acc_\w+$/);
  const payments = section(r.stdout, 'payments');
  t.equal(payments.length, 2, 'a header and the payment');
  t.match(payments[1], /^pay_\w+ +inv_\w+ +1,000\.00 +2026-03-10 +bank_transfer /);
});

t.test('bills get and quotes get: their lines as tables', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Clay Supplies']);
  await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Ann Smith']);
  const bill = await acctJson(t, dir, [
    'bills',
    'create',
    '--contact-id',
    'Clay',
    '--bill-number',
    'CS-77',
    '--issue-date',
    '2026-03-02',
    '--item',
    'Stoneware clay;40;21.50;standard',
  ]);
  const shown = await runCliInProcess(['--data', dir, 'bills', 'get', bill.id]);
  t.equal(shown.status, 0, shown.stderr);
  t.notMatch(shown.stdout, /\(\d+ items\)/);
  // 40 × 21.50 = 860.00 net, VAT 172.00, 1,032.00 in all.
  t.match(section(shown.stdout, 'items')[1], /Stoneware clay +40 +21\.50 .*860\.00 +172\.00 +1,032\.00/);
  t.match(shown.stdout, /^payments +none *$/m);

  const quote = await acctJson(t, dir, [
    'quotes',
    'create',
    '--contact-id',
    'Ann',
    '--issue-date',
    '2026-03-02',
    '--valid-until',
    '2026-04-01',
    '--item',
    'Dinner service;2;1,250.00;standard;4000',
  ]);
  const q = await runCliInProcess(['--data', dir, 'quotes', 'get', quote.id]);
  t.equal(q.status, 0, q.stderr);
  // 2 × 1,250.00 = 2,500.00 net, VAT 500.00, 3,000.00 in all.
  t.match(section(q.stdout, 'items')[1], /Dinner service +2 +1,250\.00 .*2,500\.00 +500\.00 +3,000\.00/);
  t.match(q.stdout, /^total +3,000\.00 *$/m);
});

t.test('credit-notes get: its lines and allocations as tables', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'customer', '--name', 'Bob Ltd']);
  const invoice = await acctJson(t, dir, ['invoices', 'create', '--contact-id', 'Bob', '--issue-date', '2026-03-02', '--item', 'Vase;3;40.00;standard;4000']);
  await acctJson(t, dir, ['invoices', 'send', invoice.id]);
  const note = await acctJson(t, dir, ['credit-notes', 'create', '--invoice-id', invoice.id, '--amount', '60.00', '--reason', 'Returned']);
  const r = await runCliInProcess(['--data', dir, 'credit-notes', 'get', note.id]);
  t.equal(r.status, 0, r.stderr);
  t.notMatch(r.stdout, /\(\d+ items\)/);
  t.match(r.stdout, /^total +60\.00 *$/m, 'the £60.00 credited');
  // £60.00 of a 20% invoice: 50.00 net and 10.00 VAT, on the invoice's one line, set against that invoice.
  t.match(section(r.stdout, 'items')[1], /^line_\w+ +Vase +1 +50\.00 +20 +standard +50\.00 +10\.00 +60\.00 /);
  t.match(section(r.stdout, 'allocations')[1], /^alloc_\w+ +inv_\w+ +INV-0001 +60\.00 /);
  t.match(r.stdout, /^refunds +none *$/m);
});

t.test('acct post: one line; --verbose the whole transaction with its lines; --json the API’s data', async (t) => {
  const { dir } = await books(t);
  const post = (...args: string[]) => runCliInProcess(['--data', dir, 'post', ...args]);
  // £120.00 net and 20% VAT, £24.00, to 2201: 144.00 debited and credited, in three lines.
  const one = await post('2026-03-01', 'Chairs', '5100=120@20', '1200=-144');
  t.equal(one.status, 0, one.stderr);
  t.match(one.stdout, /^Posted txn_\w{26} 2026-03-01 Chairs: 144\.00 \(3 lines\)\n$/);
  const ref = await post('2026-03-02', 'Kiln', '1000=2500', '1200=-2500', '--ref', 'K-9', '--draft');
  t.match(ref.stdout, /^Saved draft txn_\w{26} 2026-03-02 \(K-9\) Kiln: 2,500\.00 \(2 lines\)\n$/, 'a draft, its reference, thousands grouped');
  const verbose = await post('2026-03-03', 'Desk', '5100=1000', '1200=-1000', '--verbose');
  t.match(verbose.stdout, /^description +Desk *$/m);
  t.match(section(verbose.stdout, 'lines')[0], /^id +accountId +accountCode +accountName +contactId +amount/);
  t.equal(section(verbose.stdout, 'lines').length, 3, 'a header and its two lines');
  const json = await acctJson(t, dir, ['post', '2026-03-04', 'Lamp', '5100=30', '1200=-30']);
  t.match(json, { description: 'Lamp', totalDebit: 3000, lines: [{ amount: 3000 }, { amount: -3000 }] }, '--json: pence, as the API');
});
