/** `acct invoices sweep` through the CLI: sent invoices past their due date (by the real clock) become overdue. */
import t from 'tap';
import { init } from '../cli/support.js';
import { acctOk, customerOk, sentPastDueOk, twoItems } from './support.js';

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
