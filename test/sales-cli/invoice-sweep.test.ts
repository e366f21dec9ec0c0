/** `acct invoices sweep` through the CLI: sent invoices past their due date (by the real clock) become overdue. */
import t, { type Test } from 'tap';
import { init } from '../cli/support.js';
import { acctOk, customerOk, sentPastDueOk, twoItems } from './support.js';

/** A supplier's bill of £120.00 (£100.00 + VAT), approved, due 2026-01-31: long past due. */
async function approvedPastDueBillOk(t: Test, dir: string): Promise<{ id: string }> {
  const supplier = (await acctOk(t, dir, ['contacts', 'create', '--contact-type', 'supplier', '--name', 'Clay Supplies'])).id as string;
  const bill = await acctOk(t, dir, [
    'bills',
    'create',
    '--contact-id',
    supplier,
    '--item',
    'Clay;1;100.00;standard',
    '--issue-date',
    '2026-01-01',
    '--due-date',
    '2026-01-31',
  ]);
  await acctOk(t, dir, ['bills', 'approve', bill.id]);
  return bill;
}

t.test('invoices sweep marks sent invoices past their due date overdue, and only those', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const late = await sentPastDueOk(t, dir, contactId);
  const draftLate = await acctOk(t, dir, [
    'invoices',
    'create',
    '--contact-id',
    contactId,
    ...twoItems,
    '--issue-date',
    '2026-01-01',
    '--due-date',
    '2026-01-31',
  ]);
  const notDue = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, '--due-date', '2099-12-31']);
  await acctOk(t, dir, ['invoices', 'send', notDue.id]);

  const swept = await acctOk(t, dir, ['invoices', 'sweep']);
  t.same(swept.overdueInvoices, [late.invoiceNumber], 'one invoice became overdue');
  t.same(swept.overdueBills, []);
  t.equal((await acctOk(t, dir, ['invoices', 'get', late.id])).status, 'overdue');
  t.equal((await acctOk(t, dir, ['invoices', 'get', draftLate.id])).status, 'draft', 'a draft is never overdue');
  t.equal((await acctOk(t, dir, ['invoices', 'get', notDue.id])).status, 'sent', 'not yet due');
  t.same((await acctOk(t, dir, ['invoices', 'sweep'])).overdueInvoices, [], 'a second sweep moves nothing');
});

t.test('invoices and bills list and get answer by the due date with no sweep run (the CLI alone)', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const late = await sentPastDueOk(t, dir, contactId);
  const notDue = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, '--due-date', '2099-12-31']);
  await acctOk(t, dir, ['invoices', 'send', notDue.id]);
  const lateBill = await approvedPastDueBillOk(t, dir);

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  t.same(ids(await acctOk(t, dir, ['invoices', 'list', '--status', 'overdue'])), [late.id], 'past its due date: overdue');
  t.same(ids(await acctOk(t, dir, ['invoices', 'list', '--status', 'sent'])), [notDue.id], 'not yet due: sent');
  t.equal((await acctOk(t, dir, ['invoices', 'get', late.id])).status, 'overdue');
  t.same(ids(await acctOk(t, dir, ['bills', 'list', '--status', 'overdue'])), [lateBill.id], 'a bill past its due date: overdue');
  t.same((await acctOk(t, dir, ['invoices', 'sweep'])).overdueInvoices, [], 'the reads moved them: the sweep finds nothing left');
});

t.test('invoices get and bills get of one past its due date answer overdue with no sweep run', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const late = await sentPastDueOk(t, dir, contactId);
  t.equal((await acctOk(t, dir, ['invoices', 'get', late.invoiceNumber])).status, 'overdue', 'read by its number');
  const bill = await approvedPastDueBillOk(t, dir);
  t.equal((await acctOk(t, dir, ['bills', 'get', bill.id])).status, 'overdue');
});
