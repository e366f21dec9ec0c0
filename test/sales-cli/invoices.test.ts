/**
 * Invoices through the CLI: create with --item lines in pounds, send, pay,
 * the PDF to a file and the list table (that one through the real bin/acct).
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCli, runCliInProcess } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { acctOk, customerOk, noSmtp, pdfText, row, twoItems } from './support.js';

t.test('invoices create takes --item lines in pounds and works out the figures', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const invoice = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, '--issue-date', '2026-11-01']);
  t.match(invoice, {
    invoiceNumber: 'INV-0001',
    status: 'draft',
    contactId,
    issueDate: '2026-11-01',
    dueDate: '2026-12-01',
    subtotal: 77000,
    vatAmount: 15000,
    total: 92000,
    amountDue: 92000,
  });
  t.match(invoice.items, [
    { description: 'Consulting', quantity: 1.5, unitPrice: 50000, vatRateName: 'standard', netAmount: 75000, vatAmount: 15000, lineTotal: 90000 },
    { description: 'Books', quantity: 2, unitPrice: 1000, vatRateName: 'zero', netAmount: 2000, vatAmount: 0, lineTotal: 2000 },
  ]);
  t.equal(invoice.items.length, 2);
});

t.test('a bad --item is a usage error (exit 2) naming the field, and nothing is written', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const cases: [string, RegExp][] = [
    // Without a rate (as a business not registered for VAT writes it): a registered one must state it.
    ['Consulting;1.5;500.00', /validation_error: --item 1 vatRate is required: the organisation is registered for VAT.* \(field --item 1 vatRate\)/],
    ['Consulting;standard', /validation_error: --item "Consulting;standard": expected "description;quantity;unit price;vatRate" \(field --item 1\)/],
    ['Consulting;x;500.00;standard', /validation_error: --item 1 quantity must be a number, not x \(field --item 1 quantity\)/],
    [
      'Consulting;1;12.345;standard',
      /validation_error: --item 1 unit price must be an amount in pounds such as 120\.00, not 12\.345 \(field --item 1 unit price\)/,
    ],
    // A percentage where the rate goes: rates are names. Read as it stood, 20 was the price and the error was "vatRate is required".
    [
      'x;1;1;20',
      /validation_error: --item 1: 20 is not a VAT rate name: for 20% write standard \(the rates are standard \(20%\), reduced \(5%\), zero \(0%\) or exempt\) \(field --item 1 vatRate\)/,
    ],
    ['Fuel;2;45.00;5', /--item 1: 5 is not a VAT rate name: for 5% write reduced .* \(field --item 1 vatRate\)/],
    ['Books;2;10.00;0', /--item 1: 0 is not a VAT rate name: for 0% write zero .* \(field --item 1 vatRate\)/],
    ['Work;1;100.00;20%;4000', /--item 1: 20% is not a VAT rate name: for 20% write standard .* \(field --item 1 vatRate\)/],
    [
      'Work;1;100.00;17.5%',
      /--item 1: 17\.5% is not a VAT rate name: write standard \(20%\), reduced \(5%\), zero \(0%\) or exempt \(field --item 1 vatRate\)/,
    ],
  ];
  for (const [item, message] of cases) {
    const r = await runCliInProcess(['--data', dir, 'invoices', 'create', '--contact-id', contactId, '--item', item], { env: noSmtp });
    t.equal(r.status, 2, item);
    t.equal(r.stdout, '');
    t.match(r.stderr, message);
  }
  const second = await runCliInProcess(['--data', dir, 'invoices', 'create', '--contact-id', contactId, '--item', 'Fine;1;1;zero', '--item', 'Bad;1;1'], {
    env: noSmtp,
  });
  t.equal(second.status, 2);
  t.match(second.stderr, /field --item 2 vatRate/, 'the second --item is named as --item 2');
  t.same(await acctOk(t, dir, ['invoices', 'list']), [], 'no invoice was written');
});

t.test('send, pay, the PDF to a file and the list table', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  // Due far ahead: the CLI runs on the real clock, and a due date past today would make the invoice overdue, not sent.
  const dates = ['--issue-date', '2026-11-01', '--due-date', '2099-12-01'];
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, ...dates]);

  t.match(await acctOk(t, dir, ['invoices', 'send', id]), { id, invoiceNumber: 'INV-0001', status: 'sent', emailed: false });
  // --amount is in pounds: £500.00 = 50000p paid of £920.00, leaving £420.00 = 42000p
  const paid = await acctOk(t, dir, ['invoices', 'pay', id, '--amount', '500.00', '--date', '2026-11-10']);
  t.match(paid, { invoiceId: id, amount: 50000, date: '2026-11-10', method: 'bank_transfer', invoiceStatus: 'sent', amountDue: 42000 });
  t.match(await acctOk(t, dir, ['invoices', 'get', id]), { status: 'sent', amountPaid: 50000, amountDue: 42000 });

  const out = path.join(dir, 'out.pdf');
  const written = await acctOk(t, dir, ['invoices', 'pdf', id, '-o', out]);
  t.match(written, { id, invoiceNumber: 'INV-0001', file: out });
  const bytes = fs.readFileSync(out);
  t.equal(written.bytes, bytes.length, 'the size reported is the size written');
  t.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const layout = pdfText(bytes);
  t.match(layout, row('Invoice number', 'INV-0001'));
  t.match(layout, row('Consulting', '1.5', '£500.00', '20%', '£750.00', '£150.00'));
  t.match(layout, row('Books', '2', '£10.00', '0%', '£20.00', '£0.00'));
  t.match(layout, row('Subtotal', '£770.00'));
  t.match(layout, row('VAT', '£150.00'));
  t.match(layout, row('Total', '£920.00'));
  t.match(layout, row('Amount paid', '£500.00'));
  t.match(layout, row('Amount due', '£420.00'));

  const list = runCli(['--data', dir, 'invoices', 'list'], { env: noSmtp });
  t.equal(list.status, 0, list.stderr);
  t.match(list.stdout, row('INV-0001', 'sent'), 'the table has the invoice number and its status');
  t.match(list.stdout, 'Client One Ltd');
  t.match(list.stdout, /1 in all/);
});
