/** `acct invoices sweep` through the real bin/acct: sent invoices past their due date (by the real clock) become overdue. */
import t from 'tap';
import { init } from '../cli/support.js';
import { acctOk, customerOk, sentPastDueOk, twoItems } from './support.js';

t.test('invoices sweep marks sent invoices past their due date overdue, and only those', async (t) => {
  const dir = t.testdir();
  init(t, dir);
  const contactId = customerOk(t, dir);
  const late = sentPastDueOk(t, dir, contactId);
  const draftLate = acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, '--issue-date', '2026-01-01', '--due-date', '2026-01-31']);
  const notDue = acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, '--due-date', '2099-12-31']);
  acctOk(t, dir, ['invoices', 'send', notDue.id]);

  const swept = acctOk(t, dir, ['invoices', 'sweep']);
  t.same(swept.overdueInvoices, [late.invoiceNumber], 'one invoice became overdue');
  t.same(swept.overdueBills, []);
  t.equal(acctOk(t, dir, ['invoices', 'get', late.id]).status, 'overdue');
  t.equal(acctOk(t, dir, ['invoices', 'get', draftLate.id]).status, 'draft', 'a draft is never overdue');
  t.equal(acctOk(t, dir, ['invoices', 'get', notDue.id]).status, 'sent', 'not yet due');
  t.same(acctOk(t, dir, ['invoices', 'sweep']).overdueInvoices, [], 'a second sweep moves nothing');
});
