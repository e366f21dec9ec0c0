/**
 * More than a page of the inbox (500 lines) on the command line: a
 * statement of 505 corner-shop lines, oldest, that no rule knows, then
 * three Pret lines a rule knows and Acme's £1,200.00 paying INV-1042.
 * `acct bank accept` and `acct bank match --all` read every page before
 * they act, so the lines after the 500th are reached: before, each read
 * only the oldest 500 and found nothing to do.
 */
import t from 'tap';
import { cliOn, init } from '../cli/support.js';

/** A Starling statement: 505 × −£1.00, 3 × −£4.35, then +£1,200.00, from an opening balance of £1,000.00. */
function statement(): string {
  const rows: string[] = [];
  let balance = 100_000;
  const row = (date: string, who: string, reference: string, pence: number) => {
    balance += pence;
    const pounds = (p: number) => (p / 100).toFixed(2);
    rows.push(`${date},${who},${reference},CONTACTLESS,${pounds(pence)},${pounds(balance)},GENERAL,`);
  };
  for (let i = 0; i < 505; i++) {
    const day = new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 10)));
    const [y, m, d] = day.toISOString().slice(0, 10).split('-');
    row(`${d}/${m}/${y}`, `Corner Shop ${i + 1}`, '', -100);
  }
  for (const d of ['05', '06', '07']) row(`${d}/03/2024`, 'Pret A Manger', '', -435);
  row('10/03/2024', 'Acme Widgets Ltd', 'INV-1042', 120_000);
  return ['Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes', ...rows].join('\n') + '\n';
}

t.test('acct bank accept and acct bank match --all reach the lines after the first 500', async (t) => {
  const dir = t.testdir({ 'statement.csv': statement() });
  await init(t, dir);
  const { ok, json } = cliOn(t, dir);
  await ok('settings', 'update', '--invoice-next-number', '1042');
  await ok('contacts', 'create', '--contact-type', 'customer', '--name', 'Acme Widgets Ltd');
  // £1,000.00 + 20% VAT £200.00 = £1,200.00, the statement's last line.
  await ok('invoices', 'create', '--contact-id', 'Acme', '--issue-date', '2024-02-20', '--due-date', '2024-03-21', '--item', 'Design work;1;1000.00;standard');
  await ok('invoices', 'send', 'INV-1042');
  // 505 + 3 + 1 = 509 rows, all on suspense (no rule knows them yet).
  t.match(await ok('bank', 'import', `${dir}/statement.csv`), 'Created 509 transactions (0 categorised by rules, 509 on suspense 9999)');
  await ok(
    'categorisation-rules',
    'create',
    '--name',
    'Pret',
    '--field',
    'description',
    '--operator',
    'contains',
    '--value',
    'Pret a Manger',
    '--target-account-id',
    '5100',
  );

  t.match(await ok('bank', 'accept', '--dry-run'), 'Would categorise 3 lines; 506 left on suspense', 'the three Pret lines, 506th to 508th');
  t.match(await ok('bank', 'accept'), 'Categorised 3 lines; 506 left on suspense');
  const dry = await ok('bank', 'match', '--all', '--dry-run');
  t.match(dry, /Acme Widgets Ltd\s+1,200\.00\s+invoice INV-1042/);
  t.match(dry, 'Would match 1 line');
  t.match(await ok('bank', 'match', '--all'), 'Matched 1 line');
  t.match(await json('invoices', 'get', 'INV-1042'), { status: 'paid', amountDue: 0 });

  // The inbox pages: 505 corner-shop lines left; every one without --page or --limit, else one page with its meta.
  t.equal(((await json('bank', 'inbox')) as unknown[]).length, 505);
  const first = (await json('bank', 'inbox', '--limit', '500')) as { data: unknown[]; meta: unknown };
  t.same([first.data.length, first.meta], [500, { total: 505, page: 1, limit: 500, hasMore: true }]);
  const second = (await json('bank', 'inbox', '--limit', '500', '--page', '2')) as { data: { description: string }[]; meta: unknown };
  t.same(
    second.data.map((l) => l.description),
    ['Corner Shop 501', 'Corner Shop 502', 'Corner Shop 503', 'Corner Shop 504', 'Corner Shop 505'],
  );
  t.same(second.meta, { total: 505, page: 2, limit: 500, hasMore: false });
});
