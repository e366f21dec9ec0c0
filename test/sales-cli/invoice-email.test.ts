/**
 * `acct invoices send --send-email` through the CLI (in-process): refused
 * without an SMTP server, delivered over --smtp or $ACCT_SMTP_URL to a real
 * SMTP server in this process, and a refused delivery leaves a draft.
 */
import t from 'tap';
import { runCliAsync, runCliInProcess } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { acctOk, attachments, customerOk, mailText, noSmtp, parseMail, pdfText, row, startDroppingSmtp, startSmtp, twoItems } from './support.js';

t.test('invoices send --send-email without an SMTP server: exit 5, still a draft', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems]);
  const r = await runCliInProcess(['--data', dir, 'invoices', 'send', id, '--send-email'], { env: noSmtp });
  t.equal(r.status, 5, 'unprocessable_entity (422) is exit status 5');
  t.equal(r.stdout, '');
  t.match(r.stderr, /unprocessable_entity: .*SMTP/);
  t.equal((await acctOk(t, dir, ['invoices', 'get', id])).status, 'draft', 'still a draft');
});

t.test('invoices send --send-email with --smtp delivers the PDF', async (t) => {
  const smtp = await startSmtp(t);
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  // Due far ahead: the CLI runs on the real clock, and a due date past today would make the invoice overdue, not sent.
  const dates = ['--issue-date', '2026-11-01', '--due-date', '2099-12-01'];
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems, ...dates]);
  const r = await runCliInProcess(['--data', dir, '--json', '--smtp', smtp.url(), 'invoices', 'send', id, '--send-email'], { env: noSmtp });
  t.equal(r.status, 0, r.stderr);
  t.match(JSON.parse(r.stdout), { id, invoiceNumber: 'INV-0001', status: 'sent', emailed: true });
  t.equal(smtp.messages.length, 1, 'the message arrived');
  const message = smtp.messages[0]!;
  t.same(message.rcptTo, ['jo@client.test']);
  t.equal(message.mailFrom, 'acct@localhost', 'no from parameter and no organisation e-mail: acct@localhost');
  const mail = parseMail(message.raw);
  t.equal(mail.headers['subject'], 'Invoice INV-0001 from Acme Widgets Ltd');
  t.match(mailText(mail), 'invoice INV-0001 for £920.00, due on 2099-12-01');
  const files = attachments(mail);
  t.same(
    files.map((f) => [f.contentType, f.filename]),
    [['application/pdf', 'INV-0001.pdf']],
  );
  t.match(pdfText(files[0]!.bytes), row('Total', '£920.00'));
  t.equal((await acctOk(t, dir, ['invoices', 'get', id])).status, 'sent');
});

t.test('$ACCT_SMTP_URL configures the CLI as --smtp does', async (t) => {
  const smtp = await startSmtp(t);
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems]);
  const r = await runCliInProcess(['--data', dir, '--json', 'invoices', 'send', id, '--send-email'], {
    env: { ACCT_SMTP_URL: smtp.url({ from: 'invoices@acme.test' }) },
  });
  t.equal(r.status, 0, r.stderr);
  t.equal(smtp.messages.length, 1);
  t.equal(smtp.messages[0]?.mailFrom, 'invoices@acme.test');
});

t.test('invoices send --send-email when the SMTP server refuses: exit 1 (503), still a draft', async (t) => {
  const smtp = await startSmtp(t, { refuse: 'mailbox unavailable' });
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems]);
  const r = await runCliInProcess(['--data', dir, '--smtp', smtp.url(), 'invoices', 'send', id, '--send-email'], { env: noSmtp });
  t.equal(r.status, 1, 'service_unavailable is exit status 1');
  t.match(r.stderr, /service_unavailable: the invoice could not be e-mailed: .*mailbox unavailable/);
  t.equal((await acctOk(t, dir, ['invoices', 'get', id])).status, 'draft');
});

t.test('invoices send --send-email when the SMTP server drops the connection: exit 1 (503), still a draft, nothing posted', async (t) => {
  const url = await startDroppingSmtp(t);
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const { id, transactionId } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems]);
  const r = await runCliInProcess(['--data', dir, '--smtp', url, 'invoices', 'send', id, '--send-email'], { env: noSmtp });
  t.equal(r.status, 1, 'service_unavailable is exit status 1');
  t.match(r.stderr, /service_unavailable: the invoice could not be e-mailed: .*still a draft/);
  t.equal((await acctOk(t, dir, ['invoices', 'get', id])).status, 'draft');
  t.equal((await acctOk(t, dir, ['transactions', 'get', transactionId])).status, 'draft', 'its entries are not posted');
});

t.test('while the SMTP server hangs, another acct process writes to the books at once; then it refuses: exit 1, a draft', async (t) => {
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const smtp = await startSmtp(t, {
    refuse: 'mailbox unavailable',
    hold: () => {
      arrived();
      return held;
    },
  });
  const dir = t.testdir();
  await init(t, dir);
  const contactId = await customerOk(t, dir);
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, ...twoItems]);
  let settled = false;
  const sending = runCliAsync(['--data', dir, '--smtp', smtp.url(), 'invoices', 'send', id, '--send-email'], { env: noSmtp }).finally(() => (settled = true));
  await reached;
  // Another process takes the write lock of the same books while the first waits on SMTP.
  const other = await runCliAsync(['--data', dir, '--json', 'contacts', 'create', '--contact-type', 'supplier', '--name', 'Paper Supplies Ltd'], {
    env: noSmtp,
  });
  t.equal(other.status, 0, other.stderr);
  t.equal(settled, false, 'the send is still waiting for the SMTP server');
  release();
  const r = await sending;
  t.equal(r.status, 1);
  t.match(r.stderr, /service_unavailable: .*mailbox unavailable/);
  t.equal((await acctOk(t, dir, ['invoices', 'get', id])).status, 'draft');
  t.equal((await acctOk(t, dir, ['contacts', 'list', '--type', 'supplier'])).length, 1, 'the supplier written meanwhile is kept');
});

t.test('a draft made before registering is refused before it is e-mailed: no message goes, still a draft', async (t) => {
  const smtp = await startSmtp(t);
  const dir = t.testdir();
  await init(t, dir, ['--name', 'Sam Jones Design', '--business-type', 'sole_trader', '--vat-scheme', 'not_registered']);
  const contactId = await customerOk(t, dir);
  // 1 × £500.00 with no rate, dated 2026-11-05; the business then registers from 2026-11-01.
  const { id } = await acctOk(t, dir, ['invoices', 'create', '--contact-id', contactId, '--item', 'Logo design;1;500.00', '--issue-date', '2026-11-05']);
  await acctOk(t, dir, ['settings', 'update', '--vat-scheme', 'standard', '--vat-registration-date', '2026-11-01']);
  const r = await runCliInProcess(['--data', dir, '--smtp', smtp.url(), 'invoices', 'send', id, '--send-email'], { env: noSmtp });
  t.equal(r.status, 5, 'unprocessable_entity (422) is exit status 5');
  t.match(
    r.stderr,
    /unprocessable_entity: invoice INV-0001 is dated 2026-11-05 and the organisation registered for VAT on 2026-11-01, but items\[0\]\.vatRate states no VAT rate/,
  );
  t.equal(smtp.messages.length, 0, 'nothing was e-mailed');
  t.match(await acctOk(t, dir, ['invoices', 'get', id]), { status: 'draft', total: 50_000, vatAmount: 0 });
});
