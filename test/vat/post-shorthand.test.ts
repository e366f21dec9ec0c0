/**
 * acct post's VAT shorthand (CODE=AMOUNT@RATE, @RATEex, @RATEinc): the
 * lines it splits a line into, and the boxes of the return they reach,
 * through the real commander program in this process.
 */
import fs from 'node:fs';
import t, { type Test } from 'tap';
import { newBooks, runCli, runCliInProcess, runCliInProcessJson, type Books } from '../helpers/index.js';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { projectFile } from '../../src/paths.js';

interface Line {
  accountCode: string;
  amount: number;
  vatRate: number | null;
  vatTreatment: string | null;
  vatAmount: number | null;
}

/** acct post, which must succeed: its lines as [code, pence, rate, treatment, VAT]. */
async function post(t: Test, books: Books, ...args: string[]): Promise<[string, number, number | null, string | null, number | null][]> {
  const r = await runCliInProcessJson(['--data', books.dataDir, '--json', 'post', ...args]);
  t.equal(r.status, 0, r.stderr);
  return (r.data as { lines: Line[] }).lines.map((l) => [l.accountCode, l.amount, l.vatRate, l.vatTreatment, l.vatAmount]);
}

async function vatShow(
  t: Test,
  books: Books,
  period: string,
): Promise<{ boxes: Record<string, number>; exact: Record<string, number>; netVatDirection: string }> {
  const r = await runCliInProcessJson(['--data', books.dataDir, '--json', 'vat', 'show', period]);
  t.equal(r.status, 0, r.stderr);
  return r.data as { boxes: Record<string, number>; exact: Record<string, number>; netVatDirection: string };
}

async function transactionCount(books: Books): Promise<number> {
  const list = await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list']);
  return (list.data as unknown[]).length;
}

const withScheme = (t: Test, organisation: Partial<NewOrganisation>) => newBooks(t, { organisation });

t.test('@20inc splits a gross purchase into net and reclaimable VAT: boxes 4 and 7', async (t) => {
  const books = await newBooks(t);
  // £144.00 including 20%: VAT = 144 × 20/120 = £24.00; net = 144 − 24 = £120.00
  t.same(await post(t, books, '2026-03-01', 'Office chairs', '5100=144.00@20inc', '1200=-144.00'), [
    ['5100', 12000, 20, 'exclusive', 2400],
    ['1200', -14400, null, null, null],
    ['2201', 2400, null, null, null],
  ]);
  const vat = await vatShow(t, books, '2026-03');
  // nothing sold; £24.00 reclaimed; box 5 = |0 − 2400| = 2400, repayable; box 7 = £120 in whole pounds
  t.same(vat.boxes, { box1: 0, box2: 0, box3: 0, box4: 2400, box5: 2400, box6: 0, box7: 12000, box8: 0, box9: 0 });
  t.same(vat.exact, { box6: 0, box7: 12000, box8: 0, box9: 0 });
  t.equal(vat.netVatDirection, 'repayable');
});

t.test('@20 (and @20ex) adds VAT to a net; sales credit 2200; boxes 1, 4, 6 and 7 together', async (t) => {
  const books = await newBooks(t);
  // £50.00 net + 20% = £10.00 VAT; the bank pays £60.00
  t.same(await post(t, books, '2026-01-10', 'Printer paper', '5100=50.00@20', '1200=-60.00'), [
    ['5100', 5000, 20, 'exclusive', 1000],
    ['1200', -6000, null, null, null],
    ['2201', 1000, null, null, null],
  ]);
  // £30.00 net + 20% = £6.00 VAT; £36.00 on the card
  t.same(await post(t, books, '2026-01-11', 'Toner', '5100=30@20ex', '2700=-36'), [
    ['5100', 3000, 20, 'exclusive', 600],
    ['2700', -3600, null, null, null],
    ['2201', 600, null, null, null],
  ]);
  // a sale of £500.00 net + 20% = £100.00 VAT: the bank receives £600.00
  t.same(await post(t, books, '2026-02-03', 'Consulting', '1200=600.00', '4000=-500.00@20'), [
    ['1200', 60000, null, null, null],
    ['4000', -50000, 20, 'exclusive', 10000],
    ['2200', -10000, null, null, null],
  ]);
  // a sale of £120.00 including 20%: VAT = 120 × 20/120 = £20.00, net £100.00
  t.same(await post(t, books, '2026-02-04', 'Workshop', '4000=-120.00@20inc', '1200=120.00'), [
    ['4000', -10000, 20, 'exclusive', 2000],
    ['1200', 12000, null, null, null],
    ['2200', -2000, null, null, null],
  ]);
  const vat = await vatShow(t, books, '2026-03');
  // box 1 = 100.00 + 20.00 = £120.00; box 4 = 10.00 + 6.00 = £16.00; box 5 = 120 − 16 = £104.00 payable
  // box 6 = 500 + 100 = £600; box 7 = 50 + 30 = £80
  t.same(vat.boxes, { box1: 12000, box2: 0, box3: 12000, box4: 1600, box5: 10400, box6: 60000, box7: 8000, box8: 0, box9: 0 });
  t.equal(vat.netVatDirection, 'payable');
});

t.test('@0 is zero-rated: a net with no VAT line, counted in box 6 or 7', async (t) => {
  const books = await newBooks(t);
  t.same(await post(t, books, '2026-03-02', 'Books', '5100=30.00@0', '1200=-30.00'), [
    ['5100', 3000, 0, 'exclusive', 0],
    ['1200', -3000, null, null, null],
  ]);
  t.same(await post(t, books, '2026-03-03', 'Export sale', '4000=-250.00@0inc', '1200=250.00'), [
    ['4000', -25000, 0, 'exclusive', 0],
    ['1200', 25000, null, null, null],
  ]);
  const vat = await vatShow(t, books, '2026-03');
  // no VAT either way; box 6 = £250, box 7 = £30
  t.same(vat.boxes, { box1: 0, box2: 0, box3: 0, box4: 0, box5: 0, box6: 25000, box7: 3000, box8: 0, box9: 0 });
  t.equal(vat.netVatDirection, 'nil');
});

t.test('an inclusive split keeps its gross when the net alone would round the VAT differently', async (t) => {
  const books = await newBooks(t);
  // £1.47 including 20%: VAT = 147 × 20/120 = 24.5p, half up 25p; net 147 − 25 = 122p
  // (20% of 122p is 24.4p, which alone would round to 24p and leave the bank a penny out)
  t.same(await post(t, books, '2026-03-04', 'Stamp', '5100=1.47@20inc', '1200=-1.47'), [
    ['5100', 122, 20, 'exclusive', 25],
    ['1200', -147, null, null, null],
    ['2201', 25, null, null, null],
  ]);
  // £10.50 including 5%: VAT = 1050 × 5/105 = 50p exactly; net £10.00
  t.same(await post(t, books, '2026-03-05', 'Child car seat', '5100=10.50@5inc', '1200=-10.50'), [
    ['5100', 1000, 5, 'exclusive', 50],
    ['1200', -1050, null, null, null],
    ['2201', 50, null, null, null],
  ]);
  const before = await vatShow(t, books, '2026-03');
  // box 4 = 25 + 50 = 75p, exactly what 2201 holds, so filing clears it; box 7 exact = 122 + 1000 = 1122p
  t.equal(before.boxes.box4, 75);
  t.equal(before.exact.box7, 1122);
  const held = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '2201']);
  t.match(held.data, { closingBalance: 75 });
  // a refund of the stamp: the same split, negated
  t.same(await post(t, books, '2026-03-06', 'Stamp refund', '5100=-1.47@20inc', '1200=1.47'), [
    ['5100', -122, 20, 'exclusive', 25],
    ['1200', 147, null, null, null],
    ['2201', -25, null, null, null],
  ]);
  const vat = await vatShow(t, books, '2026-03');
  // box 4 = 75 − 25 = 50p; box 7 exact = 1122 − 122 = 1000p = £10
  t.equal(vat.boxes.box4, 50);
  t.same(vat.exact, { box6: 0, box7: 1000, box8: 0, box9: 0 });
  t.equal(vat.boxes.box7, 1000);
});

t.test('flat rate: a purchase stays gross (its VAT is a cost), a capital purchase and a sale are split', async (t) => {
  const books = await withScheme(t, { vatScheme: 'flat_rate', vatFlatRatePercent: 16.5 });
  // £144.00 including 20%: the VAT (£24.00) stays in the cost, marked inclusive and not reclaimed
  t.same(await post(t, books, '2026-03-01', 'Office chairs', '5100=144.00@20inc', '1200=-144.00'), [
    ['5100', 14400, 20, 'inclusive', 2400],
    ['1200', -14400, null, null, null],
  ]);
  // £100.00 net + 20% = £120.00, all of it cost
  t.same(await post(t, books, '2026-03-02', 'Paper', '5100=100@20', '1200=-120'), [
    ['5100', 12000, 20, 'inclusive', 2000],
    ['1200', -12000, null, null, null],
  ]);
  // a laptop of £2,400.00 including 20% (at least £2,000): VAT = 2400 × 20/120 = £400.00 reclaimed, net £2,000.00
  t.same(await post(t, books, '2026-03-03', 'Laptop', '1020=2400.00@20inc', '1200=-2400.00'), [
    ['1020', 200000, 20, 'exclusive', 40000],
    ['1200', -240000, null, null, null],
    ['2201', 40000, null, null, null],
  ]);
  // a sale of £120.00 including 20%: the customer pays VAT at the normal rate, £20.00 to 2200
  t.same(await post(t, books, '2026-03-04', 'Workshop', '4000=-120.00@20inc', '1200=120.00'), [
    ['4000', -10000, 20, 'exclusive', 2000],
    ['1200', 12000, null, null, null],
    ['2200', -2000, null, null, null],
  ]);
  const vat = await vatShow(t, books, '2026-03');
  // box 6 = turnover including VAT: 100 + 20 = £120; box 1 = 16.5% × £120.00 = £19.80
  // box 4 = the laptop's £400.00, box 7 = its £2,000 net; the chairs and paper stay out
  // box 5 = |1980 − 40000| = 38020, repayable
  t.same(vat.boxes, { box1: 1980, box2: 0, box3: 1980, box4: 40000, box5: 38020, box6: 12000, box7: 200000, box8: 0, box9: 0 });
  t.equal(vat.netVatDirection, 'repayable');
});

t.test('not registered: a purchase is posted gross with no VAT facts; VAT on a sale is refused', async (t) => {
  const books = await withScheme(t, { vatScheme: 'not_registered' });
  // £120.00 net + 20% = £144.00, the whole of it the cost
  t.same(await post(t, books, '2026-03-01', 'Office chairs', '5100=120.00@20', '1200=-144.00'), [
    ['5100', 14400, null, null, null],
    ['1200', -14400, null, null, null],
  ]);
  t.same(await post(t, books, '2026-03-02', 'Desk', '5100=144.00@20inc', '1200=-144.00'), [
    ['5100', 14400, null, null, null],
    ['1200', -14400, null, null, null],
  ]);
  const sale = await runCliInProcess(['--data', books.dataDir, 'post', '2026-03-03', 'Workshop', '1200=120', '4000=-120@20inc']);
  t.equal(sale.status, 2);
  t.match(
    sale.stderr,
    /validation_error: 2nd CODE=AMOUNT 4000=-120@20inc: the organisation is not registered for VAT, so its sales carry no VAT; post the amount without @20inc/,
  );
  t.equal(await transactionCount(books), 2, 'the refused sale wrote nothing');
});

t.test('malformed shorthand is refused, naming the argument, and nothing is written', async (t) => {
  const books = await newBooks(t);
  const shape = (arg: string, part: string) =>
    new RegExp(
      `validation_error: 1st CODE=AMOUNT ${arg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the VAT shorthand is @RATE, @RATEex or @RATEinc with RATE a whole percentage from 0 to 100 \\(such as @20, @5inc, @0\\), not @${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    );
  const cases: [string, RegExp][] = [
    ['5100=144.00@', shape('5100=144.00@', '')],
    ['5100=144.00@20x', shape('5100=144.00@20x', '20x')],
    ['5100=144.00@20.5', shape('5100=144.00@20.5', '20.5')],
    ['5100=144.00@101', shape('5100=144.00@101', '101')],
    ['5100=144.00@-5', shape('5100=144.00@-5', '-5')],
    ['5100=144.00@20INC', shape('5100=144.00@20INC', '20INC')],
    ['5100=144.00@20inc@5', shape('5100=144.00@20inc@5', '20inc@5')],
    ['5100=@20', /validation_error: 1st CODE=AMOUNT: expected CODE=AMOUNT or CODE=AMOUNT@RATE/],
    [
      '5100=1.234@20',
      /validation_error: 1st CODE=AMOUNT 5100=1\.234@20: the amount must be an amount in pounds such as 120\.00, not 1\.234 \(field CODE=AMOUNT 1\)/,
    ],
    ['2201=144.00@20', /validation_error: 1st CODE=AMOUNT 2201=144\.00@20: VAT goes on a sale \(a revenue account\) or a purchase .*not on 2201 VAT Input/],
    ['1200=144.00@20', /validation_error: 1st CODE=AMOUNT 1200=144\.00@20: VAT goes on a sale .*not on 1200 Bank Account/],
    ['3000=144.00@20', /validation_error: 1st CODE=AMOUNT 3000=144\.00@20: VAT goes on a sale .*not on 3000 Share Capital/],
  ];
  for (const [arg, message] of cases) {
    const r = await runCliInProcess(['--data', books.dataDir, 'post', '2026-03-01', 'Bad', arg, '2700=-144.00']);
    t.equal(r.status, 2, arg);
    t.match(r.stderr, message, arg);
  }
  // a well-formed shorthand that does not balance: £120 + £24 VAT debited, £120 credited
  const short = await runCliInProcess(['--data', books.dataDir, 'post', '2026-03-01', 'Bad', '5100=120.00@20', '1200=-120.00']);
  t.equal(short.status, 2);
  t.match(short.stderr, /validation_error: lines do not balance: debits £144\.00, credits £120\.00, difference £24\.00/);
  t.equal(await transactionCount(books), 0, 'nothing was written');
});

t.test("the README's acct post example reaches boxes 4 and 7 (the real bin/acct)", async (t) => {
  const readme = fs.readFileSync(projectFile('README.md'), 'utf8');
  const line = /^npx acct post (.*?)\s*(#.*)?$/m.exec(readme);
  if (!line) throw new Error('README.md has no acct post example');
  const args = [...(line[1] ?? '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
  t.same(args, ['2026-03-01', 'Office chairs', '5100=120.00@20', '1200=-144.00'], 'the example this test works by hand');
  const books = await newBooks(t);
  const r = runCli(['--data', books.dataDir, 'post', ...args]);
  t.equal(r.status, 0, r.stderr);
  const vat = await vatShow(t, books, '2026-03');
  // £120.00 net + 20% = £24.00 VAT on 2201: box 4 = 2400p, box 7 = £120
  t.same(vat.boxes, { box1: 0, box2: 0, box3: 0, box4: 2400, box5: 2400, box6: 0, box7: 12000, box8: 0, box9: 0 });
});

t.test('a flat rate scheduled from a later period: a purchase dated before it still splits off its VAT, one after it is posted gross', async (t) => {
  const books = await withScheme(t, { vatScheme: 'standard', vatRegistrationDate: '2024-01-01', vatStagger: 'quarterly', vatPeriodMonth: 3 });
  // An entry before the change, so the change is kept as history from its day.
  t.same(await post(t, books, '2026-11-10', 'Paper', '5100=50@20', '1200=-60'), [
    ['5100', 5000, 20, 'exclusive', 1000],
    ['1200', -6000, null, null, null],
    ['2201', 1000, null, null, null],
  ]);
  const scheduled = await runCliInProcess([
    '--data',
    books.dataDir,
    'settings',
    'update',
    '--vat-scheme',
    'flat_rate',
    '--vat-flat-rate-percent',
    '12',
    '--vat-scheme-from',
    '2027-01-01',
  ]);
  t.equal(scheduled.status, 0, scheduled.stderr);
  // 1 December 2026, still standard: £10 net + 20% = £2 VAT to 2201.
  t.same(await post(t, books, '2026-12-01', 'Stationery', '5100=10@20', '1200=-12'), [
    ['5100', 1000, 20, 'exclusive', 200],
    ['1200', -1200, null, null, null],
    ['2201', 200, null, null, null],
  ]);
  // 5 January 2027, flat rate: the £12 gross is the cost, its £2 VAT inside it.
  t.same(await post(t, books, '2027-01-05', 'Stationery', '5100=10@20', '1200=-12'), [
    ['5100', 1200, 20, 'inclusive', 200],
    ['1200', -1200, null, null, null],
  ]);
});
