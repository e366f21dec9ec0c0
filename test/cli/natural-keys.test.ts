/**
 * References by what people know: wherever a generated command takes an id
 * it also takes the natural key (an account code or name, a contact's name
 * exact then by a unique start, an invoice, bill or quote number), through
 * the commander program; an ambiguous name lists the candidates, an unknown
 * one is a 404, and neither writes anything. --org and acct use take an
 * organisation's name or the start of its id.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, books, init } from './support.js';

const customer = (name: string) => ['contacts', 'create', '--contact-type', 'customer', '--name', name];

t.test('a contact by name, an invoice by number, an account by code, wherever an id goes', async (t) => {
  const { dir } = await books(t);
  const acme = await acctJson(t, dir, customer('Acme Trading Ltd'));
  await acctJson(t, dir, customer('Acme Holdings Ltd'));
  const bramble = await acctJson(t, dir, customer('Bramble Books'));

  // The exact name, then a unique start, either case.
  const invoice = await acctJson(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    'acme trading ltd',
    '--issue-date',
    '2026-11-01',
    '--item',
    'Consulting;1;100.00;standard;4100',
  ]);
  t.equal(invoice.contactId, acme.id, 'the exact name, ignoring case');
  t.equal(invoice.invoiceNumber, 'INV-0001');
  // The line's account given by its code: 4100 is the account the item posts to.
  const sales4100 = await acctJson(t, dir, ['accounts', 'get', '4100']);
  t.equal(sales4100.code, '4100', 'accounts get takes a code');
  t.equal(invoice.items[0].accountId, sales4100.id, '--item "…;standard;4100" takes the account code');
  const second = await acctJson(t, dir, ['invoices', 'create', '--contact-id', 'Bram', '--issue-date', '2026-11-02', '--item', 'Books;2;10.00;zero']);
  t.equal(second.contactId, bramble.id, 'a unique start of the name');

  t.equal((await acctJson(t, dir, ['invoices', 'get', 'INV-0002'])).id, second.id, 'invoices get takes the number');
  t.equal((await acctJson(t, dir, ['invoices', 'get', 'inv-0001'])).id, invoice.id, 'in either case');
  t.equal((await acctJson(t, dir, ['contacts', 'get', 'Acme Holdings'])).name, 'Acme Holdings Ltd');
  t.equal((await acctJson(t, dir, ['invoices', 'get', invoice.id])).id, invoice.id, 'an id still works');
  t.equal((await acctJson(t, dir, ['accounts', 'get', 'Sales'])).code, '4000', "an account's exact name");
});

t.test('an ambiguous name lists the candidates; an unknown one is 404; neither writes', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, customer('Acme Trading Ltd'));
  await acctJson(t, dir, customer('Acme Holdings Ltd'));
  const before = await acctJson(t, dir, ['invoices', 'list']);

  const ambiguous = await runCliInProcess(['--data', dir, 'invoices', 'create', '--contact-id', 'Acme', '--item', 'Consulting;1;100.00;standard']);
  t.equal(ambiguous.status, 2, 'a usage error');
  t.match(ambiguous.stderr, /validation_error: "Acme" matches 2 contacts: Acme Holdings Ltd, customer \(cont_\w+\); Acme Trading Ltd, customer \(cont_\w+\)/);
  t.match(ambiguous.stderr, /\(field --contact-id\)/, 'the flag the person typed');

  const unknown = await runCliInProcess(['--data', dir, '--json', 'invoices', 'get', 'INV-0099']);
  t.equal(unknown.status, 3);
  t.same(JSON.parse(unknown.stderr), { error: { code: 'not_found', message: 'no invoice "INV-0099"' } }, 'a 404 carries no field, as in the API');

  const badAccount = await runCliInProcess([
    '--data',
    dir,
    'invoices',
    'create',
    '--contact-id',
    'Acme Trading',
    '--item',
    'Consulting;1;100.00;standard;4321',
  ]);
  t.equal(badAccount.status, 3);
  t.match(badAccount.stderr, /not_found: no account "4321" \(field --item 1 account\)/);
  t.same(await acctJson(t, dir, ['invoices', 'list']), before, 'nothing was written');
});

t.test('a bill by its number, told apart by supplier when two share it', async (t) => {
  const { dir } = await books(t);
  const kestrel = await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Kestrel Print Ltd']);
  const avon = await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Avon Gorge Couriers']);
  const one = await acctJson(t, dir, ['bills', 'create', '--contact-id', 'Kestrel', '--bill-number', 'KP-5510', '--item', 'Cards;1;160.00;standard;5000']);
  t.equal(one.contactId, kestrel.id);
  t.equal((await acctJson(t, dir, ['bills', 'get', 'KP-5510'])).id, one.id);
  await acctJson(t, dir, ['bills', 'create', '--contact-id', avon.id, '--bill-number', 'KP-5510', '--item', 'Courier;1;45.00;standard']);
  const two = await runCliInProcess(['--data', dir, 'bills', 'get', 'KP-5510']);
  t.equal(two.status, 2);
  t.match(two.stderr, /"KP-5510" matches 2 bills: KP-5510 of (Kestrel Print Ltd|Avon Gorge Couriers) \(bill_\w+\); KP-5510 of/);
});

t.test('an organisation by name or the start of its id, for --org and acct use', async (t) => {
  const dir = t.testdir();
  const first = await init(t, dir, ['--name', 'First Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  await init(t, dir, ['--name', 'Second Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  t.equal((await acctJson(t, dir, ['--org', 'first ltd', 'organisation', 'get'])).id, first.organisationId, '--org takes the name');
  t.equal((await acctJson(t, dir, ['--org', first.organisationId.slice(0, 8), 'organisation', 'get'])).name, 'First Ltd', 'or the start of the id');
  const used = await runCliInProcess(['--data', dir, 'use', 'First']);
  t.equal(used.stdout, `Using First Ltd (${first.organisationId})\n`);
  const none = await runCliInProcess(['--data', dir, '--org', 'Third', 'organisation', 'get']);
  t.equal(none.status, 3);
  t.match(none.stderr, /not_found: organisation Third not found in /);
  await init(t, dir, ['--name', 'Firth Ltd', '--business-type', 'sole_trader', '--vat-scheme', 'not_registered']);
  const ambiguous = await runCliInProcess(['--data', dir, '--org', 'Fir', 'organisation', 'get']);
  t.equal(ambiguous.status, 2);
  t.match(ambiguous.stderr, /"Fir" matches 2 organisations: First Ltd \([0-9a-f-]+\); Firth Ltd \([0-9a-f-]+\).*\(field org\)/);
});

t.test('a quote and a credit note by their numbers, through convert, credit, allocate and refund', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, customer('Bramble Books'));
  const quote = await acctJson(t, dir, ['quotes', 'create', '--contact-id', 'Bramble', '--issue-date', '2026-11-01', '--item', 'Shelving;1;100.00;standard']);
  t.equal(quote.quoteNumber, 'QT-0001');
  t.equal((await acctJson(t, dir, ['quotes', 'get', 'qt-0001'])).id, quote.id, 'quotes get takes the number, in either case');
  await acctJson(t, dir, ['quotes', 'status', 'QT-0001', '--status', 'sent']);
  await acctJson(t, dir, ['quotes', 'status', 'QT-0001', '--status', 'accepted']);
  const converted = await acctJson(t, dir, ['quotes', 'convert', 'QT-0001']);
  t.equal(converted.quoteId, quote.id, 'quotes convert takes the number');
  t.equal(converted.invoiceNumber, 'INV-0001');
  await acctJson(t, dir, ['invoices', 'send', 'INV-0001']);
  const second = await acctJson(t, dir, ['invoices', 'create', '--contact-id', 'Bramble', '--issue-date', '2026-11-02', '--item', 'Brackets;1;50.00;standard']);
  await acctJson(t, dir, ['invoices', 'send', second.invoiceNumber]);

  // £100.00 + 20% VAT = £120.00 on INV-0001; a credit of £60.00 against it leaves £60.00 due.
  const credit = await acctJson(t, dir, ['credit-notes', 'create', '--invoice-id', 'INV-0001', '--amount', '60.00', '--reason', 'Returned']);
  t.equal(credit.invoiceId, converted.invoiceId, '--invoice-id takes the invoice number');
  t.equal((await acctJson(t, dir, ['credit-notes', 'get', credit.creditNoteNumber.toLowerCase()])).id, credit.id, 'credit-notes get takes the number');
  const unknown = await runCliInProcess(['--data', dir, 'credit-notes', 'get', 'CN-0099']);
  t.equal(unknown.status, 3);
  t.match(unknown.stderr, /not_found: no credit note "CN-0099"/);
});

t.test('a bank account by its ledger account code, as bank reconcile takes it', async (t) => {
  const { dir } = await books(t);
  const byCode = await acctJson(t, dir, ['bank-accounts', 'get', '1200']);
  t.match(byCode, { id: 1, accountCode: '1200' }, 'bank-accounts get 1200: the primary bank account, over 1200 Bank Account');
  t.match(await acctJson(t, dir, ['bank-accounts', 'get', '1']), { id: 1 }, 'the id still works');
  const open = await acctJson(t, dir, ['bank-accounts', 'unreconciled', '1200', '--as-of', '2026-11-30']);
  t.match(open, { lines: [] }, 'bank-accounts unreconciled 1200');
  const none = await runCliInProcess(['--data', dir, 'bank-accounts', 'get', '1210']);
  t.equal(none.status, 3, 'a code with no bank account over it is not found');
  t.match(none.stderr, /not_found/);
});

t.test('a bank account by its name or its ledger account’s id, in bank import and bank reconcile as in the generated commands', async (t) => {
  const { dir } = await books(t);
  const monzo = await acctJson(t, dir, ['bank-accounts', 'create', '--account-name', 'Monzo Business']);
  t.match(monzo, { id: 2, accountCode: '1201' });
  const file = path.join(dir, 'monzo.csv');
  fs.writeFileSync(file, ['Date,Description,Amount', '01/12/2026,COFFEE,-3.50', '02/12/2026,TEA,-1.25', ''].join('\n'));

  // The name exactly, either case; then the ledger account's id: each reaches bank account 2, not the primary one.
  const byName = await acctJson(t, dir, ['bank', 'import', file, '--account', 'monzo business', '--dry-run']);
  t.equal(byName.preview.bankAccountId, 2, '--account by name');
  const byStart = await acctJson(t, dir, ['bank', 'import', file, '--account', 'Monzo', '--dry-run']);
  t.equal(byStart.preview.bankAccountId, 2, '--account by the start of its name');
  const byLedgerId = await acctJson(t, dir, ['bank', 'import', file, '--account', monzo.accountId]);
  t.equal(byLedgerId.preview.bankAccountId, 2, '--account by its ledger account’s id');
  t.match(await acctJson(t, dir, ['bank-accounts', 'get', 'Monzo']), { id: 2 }, 'the generated commands take the name too');

  // £3.50 + £1.25 out of Monzo: the statement's balance is 0 − 3.50 − 1.25 = −£4.75.
  const done = await acctJson(t, dir, ['bank', 'reconcile', 'Monzo', '--statement-balance', '-4.75', '--as-of', '2026-12-31']);
  t.match(done, { bankAccountId: 2, reconciledBalance: -475 });

  const none = await runCliInProcess(['--data', dir, 'bank', 'reconcile', '5100', '--statement-balance', '0', '--as-of', '2026-12-31']);
  t.equal(none.status, 3, 'an account that is no bank account is not found');
  t.match(none.stderr, /<account>/, 'named as typed: the argument');
  t.notMatch(none.stderr, /field account\)/);
  const flag = await runCliInProcess(['--data', dir, 'bank', 'import', file, '--account', 'Barclays']);
  t.equal(flag.status, 3);
  t.match(flag.stderr, /--account/);
});

t.test("--item takes an account's name as its last field, as it takes a code", async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, customer('Bob Ltd'));
  const otherIncome = await acctJson(t, dir, ['accounts', 'get', 'Other Income']);
  const invoice = await acctJson(t, dir, ['invoices', 'create', '--contact-id', 'Bob Ltd', '--item', 'Consulting;1;100.00;standard;Other Income']);
  t.equal(invoice.items[0].accountId, otherIncome.id, 'the line posts to the account named');
  t.equal(invoice.items[0].unitPrice, 10000, '£100.00 is 10000p: the fields did not shift');
  t.equal(invoice.items[0].vatRate, 20, 'the standard rate');
  const unknown = await runCliInProcess([
    '--data',
    dir,
    'invoices',
    'create',
    '--contact-id',
    'Bob Ltd',
    '--item',
    'Consulting;1;100.00;standard;No Such Account',
  ]);
  t.equal(unknown.status, 3);
  t.match(unknown.stderr, /not_found: no account "No Such Account" \(field --item 1 account\)/, 'an unknown name is named as the account');
});

t.test('a name or code nearly right gets "did you mean", as misspelt commands and flags do', async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, customer('Bramble Books'));
  const before = await acctJson(t, dir, ['invoices', 'list']);
  const refused = async (...args: string[]): Promise<string> => {
    const r = await runCliInProcess(['--data', dir, ...args]);
    t.equal(r.status, 3, r.stderr);
    return r.stderr;
  };
  // Two letters swapped count one slip, as commander counts them.
  t.equal(await refused('accounts', 'get', 'Bank Chagres'), 'error not_found: no account "Bank Chagres"; did you mean "Bank Charges" (5800)? (field <id>)\n');
  t.equal(
    await refused('invoices', 'create', '--contact-id', 'Bramble', '--item', 'Consulting;1;100.00;standard;Other Incme'),
    'error not_found: no account "Other Incme"; did you mean "Other Income" (4100)? (field --item 1 account)\n',
  );
  // A code one digit off: every code one slip away (5800, 5850 and 5910 from 5810).
  t.match(
    await refused('accounts', 'get', '5810'),
    /no account "5810"; did you mean "Bank Charges" \(5800\) or "Interest Paid" \(5850\) or "Advertising and Marketing" \(5910\)\?/,
  );
  t.equal(
    await refused('invoices', 'create', '--contact-id', 'Bramble Boks', '--item', 'Consulting;1;100.00;standard'),
    'error not_found: no contact "Bramble Boks"; did you mean "Bramble Books"? (field --contact-id)\n',
  );
  t.equal(await refused('accounts', 'get', 'Nothing Like It'), 'error not_found: no account "Nothing Like It" (field <id>)\n', 'nothing near: no suggestion');
  t.same(await acctJson(t, dir, ['invoices', 'list']), before, 'nothing was written');
});

t.test('a customer and a supplier with one name: an invoice takes the customer, a bill the supplier; two of a kind name their types', async (t) => {
  const { dir } = await books(t);
  const customerBob = await acctJson(t, dir, customer('Bob Ltd'));
  const supplierBob = await acctJson(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Bob Ltd']);
  const invoice = await acctJson(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    'Bob Ltd',
    '--issue-date',
    '2026-11-01',
    '--item',
    'Consulting;1;100.00;standard',
  ]);
  t.equal(invoice.contactId, customerBob.id, 'an invoice: the customer');
  const quote = await acctJson(t, dir, ['quotes', 'create', '--contact-id', 'bob ltd', '--issue-date', '2026-11-01', '--item', 'Consulting;1;100.00;standard']);
  t.equal(quote.contactId, customerBob.id, 'a quote: the customer');
  const bill = await acctJson(t, dir, ['bills', 'create', '--contact-id', 'Bob Ltd', '--issue-date', '2026-11-01', '--item', 'Paper;1;10.00;standard']);
  t.equal(bill.contactId, supplierBob.id, 'a bill: the supplier');

  await acctJson(t, dir, customer('Bob Ltd'));
  const before = await acctJson(t, dir, ['invoices', 'list']);
  const two = await runCliInProcess(['--data', dir, 'invoices', 'create', '--contact-id', 'Bob Ltd', '--item', 'Consulting;1;100.00;standard']);
  t.equal(two.status, 2);
  t.match(
    two.stderr,
    /"Bob Ltd" matches 3 contacts: Bob Ltd, (customer|supplier) \(cont_\w+\); Bob Ltd, (customer|supplier) \(cont_\w+\); Bob Ltd, (customer|supplier) \(cont_\w+\);/,
  );
  t.equal(two.stderr.match(/Bob Ltd, supplier/g)?.length, 1, 'the supplier named as one');
  t.equal(two.stderr.match(/Bob Ltd, customer/g)?.length, 2, 'the customers named as such');
  t.match(two.stderr, /give the id/, 'the names are the same: only the id tells them apart');
  t.notMatch(two.stderr, /give more of it/);
  t.same(await acctJson(t, dir, ['invoices', 'list']), before, 'nothing was written');
});

t.test("credit notes and quotes numbered in the invoices' series: each number names one document, found by the command of its kind", async (t) => {
  const { dir } = await books(t);
  await acctJson(t, dir, customer('Bramble Books'));
  const invoice = await acctJson(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    'Bramble',
    '--issue-date',
    '2026-11-01',
    '--item',
    'Shelving;1;100.00;standard',
  ]);
  t.equal(invoice.invoiceNumber, 'INV-0001');
  await acctJson(t, dir, ['invoices', 'send', 'INV-0001']);
  await acctJson(t, dir, [
    'settings',
    'update',
    '--credit-note-prefix',
    'INV-',
    '--credit-note-next-number',
    '1',
    '--quote-prefix',
    'INV-',
    '--quote-next-number',
    '1',
  ]);

  // £100.00 + 20% VAT = £120.00 on INV-0001; £1.00 credited. INV-0001 is the invoice's, so the credit note is INV-0002.
  const credit = await acctJson(t, dir, ['credit-notes', 'create', '--invoice-id', 'INV-0001', '--amount', '1.00']);
  t.equal(credit.invoiceId, invoice.id, '--invoice-id INV-0001 is the invoice');
  t.equal(credit.creditNoteNumber, 'INV-0002', 'the invoice’s number is skipped');
  // INV-0001 and INV-0002 taken: the quote is INV-0003.
  const quote = await acctJson(t, dir, ['quotes', 'create', '--contact-id', 'Bramble', '--issue-date', '2026-11-01', '--item', 'Brackets;1;50.00;standard']);
  t.equal(quote.quoteNumber, 'INV-0003');

  t.equal((await acctJson(t, dir, ['invoices', 'get', 'INV-0001'])).id, invoice.id);
  t.equal((await acctJson(t, dir, ['credit-notes', 'get', 'inv-0002'])).id, credit.id);
  t.equal((await acctJson(t, dir, ['quotes', 'get', 'INV-0003'])).id, quote.id);
  // A number another kind of document carries is no document of this kind.
  const notAnInvoice = await runCliInProcess(['--data', dir, 'invoices', 'get', 'INV-0002']);
  t.equal(notAnInvoice.status, 3);
  t.match(notAnInvoice.stderr, /not_found: no invoice "INV-0002"/);
  const notACredit = await runCliInProcess(['--data', dir, 'credit-notes', 'get', 'INV-0001']);
  t.equal(notACredit.status, 3);
  t.match(notACredit.stderr, /not_found: no credit note "INV-0001"/);
});
