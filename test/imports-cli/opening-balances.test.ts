/**
 * The opening balance and invoice import commands one by one (acct
 * opening-balances, invoice-imports), through the commander program: an
 * import voided once a credit note raised on it was voided, each void made
 * twice (409 already_voided, exit 4), and a trial balance's title date read
 * or, when it cannot be, a cutover asked for.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { cliOn, init } from '../cli/support.js';

t.test('a voided credit note does not stop the invoice import and then the opening balance being voided; voiding again is exit 4', async (t) => {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'X', '--business-type', 'limited_company', '--vat-scheme', 'standard']);
  const { acct, ok, json } = cliOn(t, dir);
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  // Trade Debtors 100,000.00 Dr = Retained Earnings 100,000.00 Cr; clearing mode puts the debtors on 1198.
  const tb = file('tb.csv', 'Account,Debit,Credit\nTrade Debtors,"100,000.00",\nRetained Earnings,,"100,000.00"\n');
  const balance = await json('opening-balances', 'upload', '--file', tb, '--cutover-date', '2025-03-31', '--clearing-mode', 'clearing');
  const balanceId = (balance as { importId: string }).importId;
  await ok('opening-balances', 'confirm', balanceId);
  // H-1 owes 100,000.00: it clears 1198 to nothing.
  const inv = file('inv.csv', 'Contact,Invoice Number,Date,Due Date,Total,Amount Paid\nCN Test Ltd,H-1,15/03/2025,15/04/2025,"100,000.00",0\n');
  const imported = await json('invoice-imports', 'upload', '--file', inv);
  const importId = (imported as { importId: string; canConfirm: boolean }).importId;
  await ok('invoice-imports', 'confirm', importId);
  const note = (await json('credit-notes', 'create', '--invoice-id', 'H-1', '--amount', '10')) as { id: string; total: number };
  t.equal(note.total, 1000, '£10.00 credited');
  await ok('credit-notes', 'void', note.id);

  // Was: exit 5, "invoice H-1 has credit recorded since the migration", though the void credit note settles nothing.
  const voided = await acct('invoice-imports', 'void', importId);
  t.equal(voided.status, 0, voided.stderr);
  // 1198 holds the opening 100,000.00 Dr again.
  const tbAt = async () =>
    ((await json('report', 'trial-balance', '--as-of', '2025-03-31')) as { accounts: { code: string; debit: number; credit: number }[] }).accounts.map((a) => [
      a.code,
      a.debit - a.credit,
    ]);
  t.same(await tbAt(), [
    ['1198', 10000000],
    ['3100', -10000000],
  ]);
  const again = await acct('invoice-imports', 'void', importId);
  // Was: exit 3, not_found "(it is voided)".
  t.equal(again.status, 4, 'a conflict: exit 4');
  t.match(again.stderr, new RegExp(`already_voided: invoice import ${importId} is already void`));

  t.equal((await acct('opening-balances', 'void', balanceId)).status, 0);
  t.same(await tbAt(), [], 'the reversal leaves nothing at the cutover');
  const balanceAgain = await acct('opening-balances', 'void', balanceId);
  t.equal(balanceAgain.status, 4);
  t.match(balanceAgain.stderr, new RegExp(`already_voided: opening balance import ${balanceId} is already void`));
});

t.test('a title "As at 31 Mar 26" is the cutover; one whose date cannot be read blocks confirm until a cutover is given', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const { acct, ok, json } = cliOn(t, dir);
  // Bank Account 10.00 Dr = Sales 10.00 Cr.
  const titled = (name: string, title: string) => {
    fs.writeFileSync(path.join(dir, name), `Trial Balance\n${title}\n\nAccount,Debit,Credit\nBank Account,10.00,\nSales,,10.00\n`);
    return path.join(dir, name);
  };
  type Preview = { importId: string; asAt: string | null; cutoverDate: string; canConfirm: boolean; blockers: string[] };
  const read = (await json('opening-balances', 'upload', '--file', titled('tt.csv', 'As at 31 Mar 26'))) as Preview;
  // Was: asAt null, cutoverDate the end of last month, no blocker.
  t.same([read.asAt, read.cutoverDate, read.blockers], ['2026-03-31', '2026-03-31', []]);
  await ok('opening-balances', 'delete', read.importId);

  const unread = (await json('opening-balances', 'upload', '--file', titled('end.csv', 'As at the end of March 2026'))) as Preview;
  t.same([unread.asAt, unread.canConfirm], [null, false]);
  t.match(unread.blockers, [/the title says "As at the end of March 2026" but its date cannot be read/]);
  const refused = await acct('opening-balances', 'confirm', unread.importId);
  t.equal(refused.status, 5, 'unprocessable: exit 5');
  t.match(refused.stderr, /cannot be read/);
  const accounts = async () => ((await json('report', 'trial-balance', '--as-of', '2026-03-31')) as { accounts: { code: string; debit: number }[] }).accounts;
  t.same(await accounts(), [], 'nothing posted');
  const fixed = (await json('opening-balances', 'map', unread.importId, '--cutover-date', '2026-03-31')) as Preview;
  t.same([fixed.cutoverDate, fixed.canConfirm], ['2026-03-31', true]);
  await ok('opening-balances', 'confirm', unread.importId);
  // Bank Account 10.00 Dr at 31 March 2026.
  t.equal((await accounts()).find((a) => a.code === '1200')?.debit, 1000);
});
