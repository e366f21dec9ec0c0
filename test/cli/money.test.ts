/**
 * One money unit on the command line (issue 12), through the CLI:
 * every amount flag takes pounds, every table prints pounds grouped by
 * thousands, --csv stays plain, --json and --body stay the API's pence, and
 * errors speak pounds. Figures are worked by hand in the comments.
 */
import { stripVTControlCharacters } from 'node:util';
import t, { type Test } from 'tap';
import { newBooks, runCliInProcess, type CliResult } from '../helpers/index.js';
import { acctOk, customerOk, noSmtp, row } from '../sales-cli/support.js';
import { renderData as render } from '../../src/cli/render.js';
import { moneyTestOf, type MoneyTest } from '../../src/cli/money-columns.js';
import { defineOperation } from '../../src/engine/operation.js';
import { pence } from '../../src/engine/schema.js';
import { z } from 'zod';

const acct = (dir: string, args: readonly string[]): Promise<CliResult> => runCliInProcess(['--data', dir, ...args], { env: noSmtp });

/**
 * An invoice (or bill) of 3 × £450.00 standard-rated, issued 2026-03-01:
 * net 3 × £450.00 = £1,350.00; VAT 20% = £270.00; total £1,620.00 = 162000p.
 */
const threeAt450 = ['--item', 'Work;3;450.00;standard', '--issue-date', '2026-03-01', '--due-date', '2026-03-31'];

async function sentInvoice(t: Test, items: readonly string[] = threeAt450): Promise<{ dir: string; id: string; contactId: string }> {
  const dir = (await newBooks(t)).dataDir;
  const contactId = await customerOk(t, dir);
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...items]);
  await acctOk(t, dir, ['invoices', 'send', id]);
  return { dir, id, contactId };
}

const transactionCount = async (t: Test, dir: string): Promise<number> => ((await acctOk(t, dir, ['transactions', 'list'])) as unknown[]).length;

t.test('invoices pay --amount 450.00 records £450.00, not £4.50', async (t) => {
  const { dir, id } = await sentInvoice(t);
  // The table answer (no --json) shows the payment in pounds.
  const paid = await acct(dir, ['invoices', 'pay', id, '--amount', '450.00', '--date', '2026-03-05']);
  t.equal(paid.status, 0, paid.stderr);
  t.match(paid.stdout, row('amount', '450.00'));
  t.match(paid.stdout, row('amountDue', '1,170.00'), '£1,620.00 - £450.00 = £1,170.00');
  // The API's pence: £450.00 = 45000p paid, £1,170.00 = 117000p due.
  t.match(await acctOk(t, dir, ['invoices', 'get', id]), { total: 162000, amountPaid: 45000, amountDue: 117000 });
  const before = await transactionCount(t, dir);
  t.equal(before, 2, 'the invoice and the payment');

  const refused = await acct(dir, ['invoices', 'pay', id, '--amount', '4.505', '--date', '2026-03-06']);
  t.equal(refused.status, 2, 'more than two decimals is a usage error');
  t.equal(refused.stdout, '');
  t.match(refused.stderr, /validation_error: --amount must be an amount in pounds such as 120\.00, not 4\.505 \(field --amount\)/);
  t.match(await acctOk(t, dir, ['invoices', 'get', id]), { amountPaid: 45000, amountDue: 117000 }, 'nothing was recorded');
  t.equal(await transactionCount(t, dir), before, 'nothing was posted');

  // £2,000.00 is more than the £1,170.00 left: refused, in pounds.
  const over = await acct(dir, ['invoices', 'pay', id, '--amount', '2,000.00', '--date', '2026-03-06']);
  t.equal(over.status, 5);
  t.match(over.stderr, 'unprocessable_entity: payment of £2,000.00 is more than the £1,170.00 due on invoice INV-0001');
  t.notMatch(over.stderr, /200000|117000/);
});

t.test('--amount takes 450, 1,234.56 and £1,234.56; --body stays pence', async (t) => {
  // 10 × £450.00 = £4,500.00 net; VAT 20% = £900.00; total £5,400.00 = 540000p.
  const { dir, id } = await sentInvoice(t, ['--item', 'Work;10;450.00;standard', '--issue-date', '2026-03-01', '--due-date', '2026-03-31']);
  const pay = (...args: string[]) => acctOk(t, dir, ['invoices', 'pay', id, '--date', '2026-03-05', ...args]);
  t.match(await pay('--amount', '1,234.56'), { amount: 123456 });
  t.match(await pay('--amount', '£1,234.56'), { amount: 123456 });
  t.match(await pay('--amount', '450'), { amount: 45000 });
  // 123456 + 123456 + 45000 = 291912p paid; 540000 - 291912 = 248088p due
  t.match(await acctOk(t, dir, ['invoices', 'get', id]), { total: 540000, amountPaid: 291912, amountDue: 248088 });
  // --body is the API's JSON: 45000 is pence, £450.00
  t.match(await acctOk(t, dir, ['invoices', 'pay', id, '--body', '{"amount":45000,"date":"2026-03-06"}']), { amount: 45000 });
  // 291912 + 45000 = 336912p paid; 248088 - 45000 = 203088p due
  t.match(await acctOk(t, dir, ['invoices', 'get', id]), { amountPaid: 336912, amountDue: 203088 });
});

t.test('bills pay --amount reads pounds too', async (t) => {
  const dir = (await newBooks(t)).dataDir;
  const supplier = (await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Paper Supplies Ltd'])).id as string;
  // 3 × £450.00 + 20% VAT = £1,620.00 = 162000p
  const bill = await acctOk(t, dir, ['bills', 'create', '--contact-id', supplier, ...threeAt450]);
  t.equal(bill.total, 162000);
  await acctOk(t, dir, ['bills', 'approve', bill.id]);
  t.match(await acctOk(t, dir, ['bills', 'pay', bill.id, '--amount', '450.00', '--date', '2026-03-05']), { amount: 45000, amountDue: 117000 });
  t.match(await acctOk(t, dir, ['bills', 'get', bill.id]), { amountPaid: 45000, amountDue: 117000 });
  const before = await transactionCount(t, dir);

  const refused = await acct(dir, ['bills', 'pay', bill.id, '--amount', '4.505', '--date', '2026-03-06']);
  t.equal(refused.status, 2);
  t.match(refused.stderr, /\(field --amount\)/);
  t.match(await acctOk(t, dir, ['bills', 'get', bill.id]), { amountPaid: 45000, amountDue: 117000 }, 'nothing was recorded');
  t.equal(await transactionCount(t, dir), before, 'nothing was posted');

  const table = await acct(dir, ['bills', 'get', bill.id]);
  t.match(table.stdout, row('total', '1,620.00'));
  t.match(table.stdout, row('amountDue', '1,170.00'));
});

t.test('tables print pounds with thousands separators; --csv plain; --json pence', async (t) => {
  const { dir, id, contactId } = await sentInvoice(t);
  await acctOk(t, dir, ['invoices', 'pay', id, '--amount', '450.00', '--date', '2026-03-05']);

  const get = await acct(dir, ['invoices', 'get', id]);
  t.equal(get.status, 0, get.stderr);
  // net £1,350.00, VAT £270.00, total £1,620.00; £450.00 paid, £1,170.00 due
  t.match(get.stdout, /^subtotal +1,350\.00 *$/m);
  t.match(get.stdout, /^vatAmount +270\.00 *$/m);
  t.match(get.stdout, /^total +1,620\.00 *$/m);
  t.match(get.stdout, /^amountPaid +450\.00 *$/m);
  t.match(get.stdout, /^amountDue +1,170\.00 *$/m);
  t.notMatch(get.stdout, /162000|117000|45000/, 'no pence in the table');

  const list = await acct(dir, ['invoices', 'list']);
  t.match(list.stdout, row('INV-0001'));
  t.match(list.stdout, row('2026-03-01', '2026-03-31', '1,620.00', '1,170.00', id));

  const csv = await acct(dir, ['invoices', 'list', '--csv']);
  t.equal(csv.status, 0, csv.stderr);
  t.match(csv.stdout, `,2026-03-01,2026-03-31,1620.00,1170.00,${id}\n`, 'CSV stays plain pounds for programs');

  const summary = await acct(dir, ['contacts', 'summary', contactId]);
  t.match(summary.stdout, /^summary\.totalInvoices +1 *$/m, 'a count stays a count');
  t.match(summary.stdout, /^summary\.totalInvoiced +1,620\.00 *$/m);
  t.match(summary.stdout, /^summary\.outstanding +1,170\.00 *$/m);

  // --json is the API's data: pence
  const json = await acct(dir, ['--json', 'invoices', 'list']);
  t.match(JSON.parse(json.stdout), [{ total: 162000, amountPaid: 45000, amountDue: 117000 }]);
});

t.test('acct post speaks pounds: its one-line echo, its --verbose table and its balance error', async (t) => {
  const dir = (await newBooks(t)).dataDir;
  // £120.00 debited, £144.00 credited: £24.00 short.
  const unbalanced = await acct(dir, ['post', '2026-03-01', 'x', '5100=120.00', '1200=-144.00']);
  t.equal(unbalanced.status, 2);
  t.match(unbalanced.stderr, 'validation_error: lines do not balance: debits £120.00, credits £144.00, difference -£24.00');
  t.notMatch(unbalanced.stderr, /12000|14400|2400/, 'no pence in the message');

  const posted = await acct(dir, ['post', '2026-03-01', 'Desk', '5100=1,234.56', '1200=-1,234.56']);
  t.equal(posted.status, 0, posted.stderr);
  t.match(posted.stdout, /^Posted txn_\w+ 2026-03-01 Desk: 1,234\.56 \(2 lines\)\n$/, 'one line, in pounds');
  const verbose = await acct(dir, ['post', '2026-03-02', 'Desk', '5100=1,234.56', '1200=-1,234.56', '--verbose']);
  t.match(verbose.stdout, /^totalDebit +1,234\.56 *$/m);
  t.match(verbose.stdout, row('5100', 'Office Expenses', '—', '1,234.56'));
  t.match(verbose.stdout, row('1200', 'Bank Account', '—', '-1,234.56'));
  t.match(await acctOk(t, dir, ['transactions', 'list']), [{ totalDebit: 123456 }, { totalDebit: 123456 }], '--json stays pence');
});

t.test("acct --help and a money flag's help say pounds", async (t) => {
  const top = await runCliInProcess(['--help']);
  t.match(top.stdout, 'Money: every amount flag and argument is in pounds');
  t.match(top.stdout, '--json output, --body');
  const pay = await runCliInProcess(['invoices', 'pay', '--help']);
  t.match(pay.stdout, row('--amount <pounds>', 'amount; in pounds; e.g. 1,250.00'));
});

/** The renderer in-process, without the colours chalk may add under the test runner. */
const renderData = (data: unknown, isMoney?: MoneyTest): string => stripVTControlCharacters(render(data, undefined, isMoney));

t.test('the generic renderer prints in pounds the fields the output schema marks pence(), never counts', async (t) => {
  // A webhook-like stats24h.total counts deliveries; an invoice-like total is money: the schema says which.
  const shown = defineOperation({
    name: 'probe.get',
    summary: 'a probe',
    access: 'public',
    method: 'GET',
    path: '/probe',
    output: z.strictObject({
      total: pence(),
      stats24h: z.strictObject({ total: z.number().int() }),
      balance: z.strictObject({ net: pence() }),
      quantity: z.number(),
      vatRate: z.number(),
      paymentTerms: z.number().int(),
      count: z.number().int(),
      amountCredited: pence(),
      unallocatedCredit: pence(),
      items: z.array(z.strictObject({ description: z.string(), quantity: z.number(), unitPrice: pence(), lineTotal: pence() })),
    }),
    run: () => Promise.reject(new Error('not run')),
  });
  const isMoney = moneyTestOf(shown);
  const out = renderData(
    { total: 162000, stats24h: { total: 3 }, balance: { net: -500 }, quantity: 1500, vatRate: 20, paymentTerms: 30, count: 1234 },
    isMoney,
  );
  t.match(out, /^total +1,620\.00 *$/m);
  t.match(out, /^stats24h\.total +3 *$/m);
  t.match(out, /^balance\.net +-5\.00 *$/m);
  t.match(out, /^quantity +1500 *$/m);
  t.match(out, /^vatRate +20 *$/m);
  t.match(out, /^paymentTerms +30 *$/m);
  t.match(out, /^count +1234 *$/m);
  // A list: items of a document, money right-aligned in pounds, counts as they are.
  const rows = renderData(
    [
      { description: 'Work', quantity: 3, unitPrice: 45000, lineTotal: 162000 },
      { description: 'Books', quantity: 2, unitPrice: 1000, lineTotal: 2000 },
    ],
    isMoney,
  );
  t.match(rows, /Work +3 +450\.00 +1,620\.00/);
  t.match(rows, /Books +2 +10\.00 +20\.00/);
  t.match(renderData({ amountCredited: 123456, unallocatedCredit: -500 }, isMoney), /amountCredited +1,234\.56[\s\S]*unallocatedCredit +-5\.00/);
  // Data that is no operation's output has no money.
  t.match(renderData({ total: 162000 }), /^total +162000 *$/m);
});
