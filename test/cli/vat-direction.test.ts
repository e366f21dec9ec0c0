/**
 * Box 5 says which way the money goes (to pay HMRC, or to reclaim from
 * it) in a cell of its own, in acct report vat (table and CSV) and acct vat
 * show, where narrowing the table to a terminal cannot cut it; the figure
 * itself stays positive, as HMRC's form has it.
 */
import t, { type Test } from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { renderTable } from '../../src/cli/presenters/index.js';
import { vatPresenters } from '../../src/cli/presenters/vat.js';
import { vatPeriodReturnOp } from '../../src/engine/vat/vat-ops.js';
import { books } from './support.js';

async function ok(t: Test, dir: string, ...args: string[]): Promise<string> {
  const r = await runCliInProcess(['--data', dir, ...args]);
  t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The line of a table or CSV for box 5. */
const box5 = (text: string): string => text.split('\n').find((l) => /^(5\s|5,)/.test(l)) ?? '';

t.test('a refund reads "to reclaim", a payment "to pay", in the table and the CSV of acct report vat', async (t) => {
  const { dir } = await books(t);
  // Chairs £120.00 + 20% = £144.00 paid: box 4 = £24.00 reclaimed, nothing sold; box 5 = |0 − 24.00| = £24.00 repayable.
  await ok(t, dir, 'post', '2026-03-01', 'Office chairs', '5100=120.00@20', '1200=-144.00');
  const table = await ok(t, dir, 'report', 'vat', '--from', '2026-Q1');
  t.match(box5(table), /24\.00\s+to reclaim/, `box 5 of the table: ${box5(table)}`);
  const csv = await ok(t, dir, 'report', 'vat', '--from', '2026-Q1', '--csv');
  t.match(csv.split('\n')[0], /^box,description,amount,direction/, 'the CSV has a direction column');
  t.match(box5(csv), /,24\.00,to reclaim$/, `box 5 of the CSV: ${box5(csv)}`);

  // A sale of £500.00 + 20% = £600.00 in Q2: box 1 = £100.00, box 4 = 0; box 5 = £100.00 payable.
  await ok(t, dir, 'post', '2026-04-10', 'Consulting', '4000=-500.00@20', '1200=600.00');
  const q2 = await ok(t, dir, 'report', 'vat', '--from', '2026-Q2', '--csv');
  t.match(box5(q2), /,100\.00,to pay$/, `box 5 payable: ${box5(q2)}`);
});

t.test('acct vat show keeps the direction when the table is narrowed to 80 columns', async (t) => {
  const { dir } = await books(t);
  // As above: £24.00 reclaimed, box 5 = £24.00 repayable.
  await ok(t, dir, 'post', '2026-03-01', 'Office chairs', '5100=120.00@20', '1200=-144.00');
  const shown = await runCliInProcessJson(['--data', dir, '--json', 'vat', 'show', '2026-03']);
  t.equal(shown.status, 0, shown.stderr);
  const presenter = vatPresenters.find((p) => p.operation === vatPeriodReturnOp.name);
  if (!presenter) throw new Error('no presenter of vat show');
  const narrow = renderTable(presenter.present(shown.data), 80);
  t.match(box5(narrow), /24\.00\s+to reclaim/, `box 5 at 80 columns: ${box5(narrow)}`);
  // The title and the notes under the table wrap as prose; the table's own lines are narrowed. Colour codes are not width.
  const plain = narrow.replace(/\x1b\[[0-9;]*m/g, '');
  const tableLines = plain.split('\n').filter((l) => /^(box|\d) {2}/.test(l));
  t.equal(tableLines.length, 10, 'the header and nine boxes');
  t.same(
    tableLines.filter((l) => l.length > 80),
    [],
    'every line of the table fits 80 columns',
  );
  const csv = await ok(t, dir, 'vat', 'show', '2026-03', '--csv');
  t.match(box5(csv), /,24\.00,to reclaim(,|$)/, `box 5 of vat show's CSV: ${box5(csv)}`);
});
