/**
 * `acct bank` says one of a thing in the singular: a statement of one row
 * was "1 rows", "Created 1 transactions", "1 rows in all"; a skipped
 * duplicate "skipped 1 duplicates"; accept, match --all and reconcile said
 * "1 line(s)". Through the commander program, on a one-row statement that
 * pays invoice INV-1042 (£100.00 + 20% VAT £20.00 = £120.00).
 */
import t from 'tap';
import { cliOn, init } from '../cli/support.js';

const one = 'Date,Description,Amount\n10/03/2024,ACME WIDGETS LTD INV-1042,120.00\n';
const two = 'Date,Description,Amount\n10/03/2024,ACME WIDGETS LTD INV-1042,120.00\n11/03/2024,PRET A MANGER,-4.35\n';

t.test('one row, one transaction, one duplicate, one line: each in the singular', async (t) => {
  const dir = t.testdir({ 'one.csv': one, 'two.csv': two });
  await init(t, dir);
  const { ok } = cliOn(t, dir);
  await ok('settings', 'update', '--invoice-next-number', '1042');
  await ok('contacts', 'create', '--contact-type', 'customer', '--name', 'Acme Widgets Ltd');
  await ok('invoices', 'create', '--contact-id', 'Acme', '--issue-date', '2024-02-20', '--due-date', '2024-03-21', '--item', 'Design work;1;100.00;standard');
  await ok('invoices', 'send', 'INV-1042');

  const dry = await ok('bank', 'import', `${dir}/one.csv`, '--match', '--dry-run');
  t.match(dry, 'one.csv: 1 row (SIGNED_SINGLE, DD/MM/YYYY), 2024-03-10 to 2024-03-10');
  t.match(dry, 'Would create 1 (1 paying an invoice or bill), skip 0 duplicates, reject 0: nothing imported (--dry-run)');

  const paid = await ok('bank', 'import', `${dir}/one.csv`, '--match');
  t.match(
    paid,
    'Created 1 transaction (0 categorised by rules, 0 on suspense 9999; 1 paid invoice or bill, 0 matched to entries already in the books), skipped 0 duplicates, rejected 0: 1 row in all',
  );

  // The £120.00 row again is a duplicate; PRET A MANGER −£4.35 is new, on suspense: 1 + 1 = 2 rows.
  const again = await ok('bank', 'import', `${dir}/two.csv`);
  t.match(again, 'two.csv: 2 rows');
  t.match(again, 'Created 1 transaction (0 categorised by rules, 1 on suspense 9999), skipped 1 duplicate, rejected 0: 2 rows in all');

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
  t.match(await ok('bank', 'accept', '--dry-run'), 'Would categorise 1 line; 0 left on suspense');
  t.match(await ok('bank', 'match', '--all', '--dry-run'), 'Would match 0 lines');
  t.match(await ok('bank', 'accept'), 'Categorised 1 line; 0 left on suspense');

  // The account's two lines: +£120.00 received, −£4.35 Pret; one of them on the statement so far, £120.00.
  const lines = JSON.parse(await ok('--json', 'transactions', 'list')) as { id: string; description: string }[];
  const pret = lines.find((l) => l.description === 'PRET A MANGER')!;
  const part = await ok('bank', 'reconcile', '1200', '--statement-balance', '120.00', '--as-of', '2024-03-31', '--exclude', pret.id);
  t.match(part, '1 line to mark, 120.00');
  t.match(part, 'Reconciled 1 line: the balance at 2024-03-31 is 120.00, as the statement says');
});
