/**
 * acct report aged-debtors / aged-creditors / dashboard through the CLI
 * (in-process). The CLI runs on the real clock, so the
 * aged reports are asked for at a fixed past date with --as-of-date, and the
 * dashboard's data sits at fixed past dates or on dates taken from today.
 */
import t, { type Test } from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { acctOk, noSmtp } from '../sales-cli/support.js';

const company = ['--name', 'Acme Widgets Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard', '--fiscal-year-start', '04-01'];

const acct = async (t: Test, dir: string, args: readonly string[]) => {
  const r = await runCliInProcess(['--data', dir, ...args], { env: noSmtp });
  t.equal(r.status, 0, `acct ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

const contact = async (t: Test, dir: string, type: string, name: string): Promise<string> =>
  (await acctOk(t, dir, ['contacts', 'create', '--contact-type', type, '--name', name])).id as string;

/** `acct invoices create` then, unless a draft is wanted, `acct invoices send`; the invoice id. */
async function invoice(t: Test, dir: string, contactId: string, issueDate: string, dueDate: string, items: string[], send = true): Promise<string> {
  const created = await acctOk(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    contactId,
    '--issue-date',
    issueDate,
    '--due-date',
    dueDate,
    ...items.flatMap((i) => ['--item', i]),
  ]);
  // Sent, or overdue when already past its due date on the real clock (the reply says what a read would).
  if (send) t.match((await acctOk(t, dir, ['invoices', 'send', created.id])).status, /^(sent|overdue)$/, `${created.invoiceNumber} sent`);
  return created.id as string;
}

/**
 * Alpha owes INV-0001 (£120.00, due 2026-10-31, £20.00 paid on 2026-11-05)
 * and INV-0002 (2 × £250.00 + VAT = £600.00, due 2026-12-01); Beta owes
 * INV-0003 (3 × £10.50 zero-rated = £31.50, due 2026-07-31) and has a draft.
 * Paper Supplies is owed a bill of £50.00 + VAT = £60.00 due 2026-09-15, and
 * has a draft bill.
 */
async function agedBooks(t: Test): Promise<string> {
  const dir = t.testdir();
  await init(t, dir, company);
  const beta = await contact(t, dir, 'customer', 'Beta Services Ltd');
  const alpha = await contact(t, dir, 'customer', 'Alpha Trading Ltd');
  const first = await invoice(t, dir, alpha, '2026-10-01', '2026-10-31', ['Consulting;1;100.00;standard']);
  await acctOk(t, dir, ['invoices', 'pay', first, '--amount', '20.00', '--date', '2026-11-05']);
  await invoice(t, dir, alpha, '2026-11-01', '2026-12-01', ['Design;2;250.00;standard']);
  await invoice(t, dir, beta, '2026-07-01', '2026-07-31', ['Books;3;10.50;zero']);
  await invoice(t, dir, beta, '2026-07-01', '2026-07-31', ['Not sent;1;999.00;zero'], false);
  const supplier = await contact(t, dir, 'supplier', 'Paper Supplies Ltd');
  const bill = async (item: string) =>
    (await acctOk(t, dir, ['bills', 'create', '--contact-id', supplier, '--issue-date', '2026-09-01', '--due-date', '2026-09-15', '--item', item]))
      .id as string;
  await acctOk(t, dir, ['bills', 'approve', await bill('Paper;1;50.00;standard')]);
  await bill('Ink;1;70.00;standard');
  return dir;
}

t.test('acct report aged-debtors and aged-creditors: table, --csv and --json', async (t) => {
  const dir = await agedBooks(t);
  // At 2026-11-21: INV-0001 is 21 days overdue (1-30) with £100.00 left; INV-0002 is current;
  // INV-0003 is 31 (Aug) + 30 + 31 + 21 = 113 days overdue: 90+. The draft is not shown.
  t.equal(
    await acct(t, dir, ['report', 'aged-debtors', '--as-of-date', '2026-11-21']),
    [
      'Aged Debtors at 2026-11-21',
      'contact            current    1-30  31-60  61-90    90+   total',
      'Alpha Trading Ltd   600.00  100.00   0.00   0.00   0.00  700.00',
      'Beta Services Ltd     0.00    0.00   0.00   0.00  31.50   31.50',
      'Total               600.00  100.00   0.00   0.00  31.50  731.50',
      '',
    ].join('\n'),
  );
  t.equal(
    await acct(t, dir, ['report', 'aged-debtors', '--as-of-date', '2026-11-21', '--csv']),
    [
      'contact,current,1-30,31-60,61-90,90+,total',
      'Alpha Trading Ltd,600.00,100.00,0.00,0.00,0.00,700.00',
      'Beta Services Ltd,0.00,0.00,0.00,0.00,31.50,31.50',
      'Total,600.00,100.00,0.00,0.00,31.50,731.50',
      '',
    ].join('\n'),
  );
  // On 2026-11-01: INV-0001 one day overdue and nothing paid yet; INV-0002 issued that day, current;
  // INV-0003 31 (Aug) + 30 + 31 + 1 = 93 days: 90+.
  t.equal(
    await acct(t, dir, ['report', 'aged-debtors', '--as-of-date', '2026-11-01', '--csv']),
    [
      'contact,current,1-30,31-60,61-90,90+,total',
      'Alpha Trading Ltd,600.00,120.00,0.00,0.00,0.00,720.00',
      'Beta Services Ltd,0.00,0.00,0.00,0.00,31.50,31.50',
      'Total,600.00,120.00,0.00,0.00,31.50,751.50',
      '',
    ].join('\n'),
  );

  const data = await acctOk(t, dir, ['report', 'aged-debtors', '--as-of-date', '2026-11-21']);
  t.match(data, {
    reportDate: '2026-11-21',
    reportTitle: 'Aged Debtors',
    contacts: [
      {
        contactName: 'Alpha Trading Ltd',
        invoices: [
          {
            invoiceNumber: 'INV-0001',
            issueDate: '2026-10-01',
            dueDate: '2026-10-31',
            total: 12_000,
            amountPaid: 2_000,
            outstanding: 10_000,
            daysOverdue: 21,
            agingBucket: '1-30',
          },
          {
            invoiceNumber: 'INV-0002',
            issueDate: '2026-11-01',
            dueDate: '2026-12-01',
            total: 60_000,
            amountPaid: 0,
            outstanding: 60_000,
            daysOverdue: 0,
            agingBucket: 'current',
          },
        ],
        current: 60_000,
        days1to30: 10_000,
        total: 70_000,
      },
      {
        contactName: 'Beta Services Ltd',
        invoices: [{ invoiceNumber: 'INV-0003', total: 3_150, outstanding: 3_150, daysOverdue: 113, agingBucket: '90+' }],
        days90plus: 3_150,
        total: 3_150,
      },
    ],
    totals: { current: 60_000, days1to30: 10_000, days31to60: 0, days61to90: 0, days90plus: 3_150, total: 73_150 },
    summary: { totalContacts: 2, totalInvoices: 3 },
  });
  t.equal(data.contacts.length, 2);

  // The bill: 15 + 31 + 21 = 67 days past 2026-09-15: 61-90. The draft bill is not shown.
  t.equal(
    await acct(t, dir, ['report', 'aged-creditors', '--as-of-date', '2026-11-21']),
    [
      'Aged Creditors at 2026-11-21',
      'contact             current  1-30  31-60  61-90   90+  total',
      'Paper Supplies Ltd     0.00  0.00   0.00  60.00  0.00  60.00',
      'Total                  0.00  0.00   0.00  60.00  0.00  60.00',
      '',
    ].join('\n'),
  );
  // Before the bill was issued: only the Total row.
  t.equal(
    await acct(t, dir, ['report', 'aged-creditors', '--as-of-date', '2026-08-31', '--csv']),
    ['contact,current,1-30,31-60,61-90,90+,total', 'Total,0.00,0.00,0.00,0.00,0.00,0.00', ''].join('\n'),
  );

  const bad = await runCliInProcess(['--data', dir, 'report', 'aged-debtors', '--as-of-date', '2026-02-30'], { env: noSmtp });
  t.equal(bad.status, 2, 'a bad date is a usage error');
  t.equal(bad.stdout, '');
  t.equal(bad.stderr, 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field --as-of-date)\n');
});

/** Today in the UK, as the CLI's clock takes it. */
const ukToday = (): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

t.test('acct report dashboard prints its table', async (t) => {
  const dir = t.testdir();
  await init(t, dir, company);
  const today = ukToday();
  const [year, monthDay] = [Number(today.slice(0, 4)), today.slice(5)];
  const fyStart = `${monthDay >= '04-01' ? year : year - 1}-04-01`;
  const yearAgo = `${year - 1}-${monthDay === '02-29' ? '02-28' : monthDay}`;

  // Long ago (before both periods): £120.00 invoiced and £50.00 of it paid, £20.00 invoiced zero-rated
  // and unpaid, both long overdue; a £60.00 bill long past due; a draft invoice.
  const client = await contact(t, dir, 'customer', 'Client One Ltd');
  const first = await invoice(t, dir, client, '2020-01-10', '2020-02-09', ['Consulting;1;100.00;standard']);
  await acctOk(t, dir, ['invoices', 'pay', first, '--amount', '50.00', '--date', '2020-01-20']);
  await invoice(t, dir, client, '2020-03-01', '2020-03-31', ['Books;2;10.00;zero']);
  await invoice(t, dir, client, '2020-03-01', '2020-03-31', ['Draft;1;500.00;standard'], false);
  const supplier = await contact(t, dir, 'supplier', 'Paper Supplies Ltd');
  const bill = await acctOk(t, dir, [
    'bills',
    'create',
    '--contact-id',
    supplier,
    '--issue-date',
    '2020-01-05',
    '--due-date',
    '2020-02-04',
    '--item',
    'Paper;1;50.00;standard',
  ]);
  await acctOk(t, dir, ['bills', 'approve', bill.id]);
  // Sales of £300.00 today and of £200.00 a year ago today, in the two periods compared.
  await acct(t, dir, ['post', today, 'Cash sale', '1200=300', '4000=-300']);
  await acct(t, dir, ['post', yearAgo, 'Cash sale', '1200=200', '4000=-200']);

  t.equal(
    await acct(t, dir, ['report', 'dashboard']),
    [
      `Dashboard ${fyStart} to ${today}`,
      'measure                      amount  a year earlier  change %',
      'Bank balance                 550.00', // 50.00 + 300.00 + 200.00
      'Accounts receivable           90.00', // 70.00 + 20.00
      'Accounts payable              60.00',
      'Revenue                      300.00          200.00  50', // (300 − 200) / 200
      'Expenses                       0.00            0.00', // change: none, the year before is 0
      'Net profit                   300.00          200.00  50',
      'Overdue invoices (2)          90.00',
      'Bills due in 30 days (0)       0.00',
      'VAT to set aside (standard)   10.00', // 20.00 charged − 10.00 reclaimable
      '',
    ].join('\n'),
  );
  const csv = await acct(t, dir, ['report', 'dashboard', '--csv']);
  t.match(csv, /^measure,amount,a year earlier,change %\nBank balance,550\.00,,\n/);
  t.match(csv, /\nRevenue,300\.00,200\.00,50\n/);
  t.match(await acctOk(t, dir, ['report', 'dashboard']), {
    currentPeriod: { from: fyStart, to: today },
    bankBalance: 55_000,
    accountsReceivable: 9_000,
    accountsPayable: 6_000,
    revenue: { current: 30_000, prior: 20_000, change: 50 },
    expenses: { current: 0, prior: 0, change: null },
    overdueInvoices: { count: 2, total: 9_000 },
    upcomingBills: { count: 0, total: 0 },
    taxSetAside: { vatScheme: 'standard', vat: 1_000 },
  });
});
