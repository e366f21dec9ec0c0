/**
 * Making Tax Digital through the command line (the real commander program,
 * in-process): acct vat obligations, submit, hmrc-return, liabilities and
 * payments, tables in pounds and --json in pence, --hmrc-base-url choosing
 * HMRC, errors with their exit codes.
 */
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { connect, fileReturn, mtdBooks, q1, q1Json, type MtdBooks } from './support.js';

/** The CLI runs on the system clock, long after the tokens' 4 hours: it refreshes them, with the application's credentials. */
const env = (m: MtdBooks) => ({ env: { ACCT_HMRC_CLIENT_ID: m.standIn.clientId, ACCT_HMRC_CLIENT_SECRET: m.standIn.clientSecret } });
const acct = (m: MtdBooks, args: readonly string[]) => runCliInProcess(['--data', m.books.dataDir, '--hmrc-base-url', m.standIn.url, ...args], env(m));
const acctJson = (m: MtdBooks, args: readonly string[]) =>
  runCliInProcessJson(['--data', m.books.dataDir, '--hmrc-base-url', m.standIn.url, '--json', ...args], env(m));

t.test('acct vat obligations, submit and hmrc-return', async (t) => {
  const m = await mtdBooks(t, { payments: [{ amount: 1874.67, received: '2026-05-05' }] });
  await connect(m);
  await fileReturn(m.books, 'vatr_q1', { start: '2026-01-01', end: '2026-03-31' }, q1.boxes, q1.exact);

  const table = await acct(m, ['vat', 'obligations', '--from', '2026-01-01', '--to', '2026-06-30']);
  t.equal(table.status, 0, table.stderr);
  t.match(table.stdout, /26A1\s+2026-01-01\s+2026-03-31\s+2026-05-07\s+open\s+—\s+vatr_q1/);
  t.match(table.stdout, /26A2\s+2026-04-01\s+2026-06-30\s+2026-08-07\s+open/);

  const sent = await acctJson(m, ['vat', 'submit', 'vatr_q1']);
  t.equal(sent.status, 0, sent.stderr);
  t.match(sent.data, { id: 'vatr_q1', periodKey: '26A1', netVatDue: 187467, paymentIndicator: 'DD' });
  t.same(m.standIn.posted, [q1Json]);

  const again = await acct(m, ['vat', 'submit', 'vatr_q1']);
  t.equal(again.status, 4, 'a conflict exits 4');
  t.match(again.stderr, /already_submitted/);

  // Pounds in the table: £2,490.12 due on sales, £12,451 of sales.
  const view = await acct(m, ['vat', 'hmrc-return', '26A1']);
  t.equal(view.status, 0, view.stderr);
  t.match(view.stdout, /vatDueSales\s+2,490\.12/);
  t.match(view.stdout, /netVatDue\s+1,874\.67/);
  t.match(view.stdout, /totalValueSalesExVAT\s+12,451\.00/);

  const payments = await acctJson(m, ['vat', 'payments', '--from', '2026-01-01', '--to', '2026-07-15']);
  t.same(payments.data, [{ amount: 187467, received: '2026-05-05' }], 'a list under --json is an array, as every list');
  t.same(
    m.standIn.tokenRequests.map((f) => f['grant_type']),
    ['authorization_code', 'refresh_token'],
    'refreshed once, and the refreshed tokens used by the later runs',
  );
  t.same(
    m.standIn.tokenRequests.map((f) => f['grant_type']),
    ['authorization_code', 'refresh_token'],
    'refreshed once, and the refreshed tokens used by the later runs',
  );
});

t.test('errors: not connected (exit 5), a bad base URL (exit 2), HMRC down (exit 1)', async (t) => {
  const m = await mtdBooks(t);
  const unconnected = await acct(m, ['vat', 'obligations', '--status', 'open']);
  t.equal(unconnected.status, 5);
  t.match(unconnected.stderr, /hmrc_not_connected.*run acct vat connect/);

  const bad = await runCliInProcess(['--data', m.books.dataDir, '--hmrc-base-url', 'not a url', 'vat', 'connection']);
  t.equal(bad.status, 2);
  t.match(bad.stderr, /validation_error.*the HMRC base URL not a url is not a URL/);

  await connect(m);
  await m.standIn.stop();
  const down = await acct(m, ['vat', 'obligations', '--status', 'open']);
  t.equal(down.status, 1);
  t.match(down.stderr, /hmrc_unavailable.*HMRC did not answer/);
});
