/**
 * Filing VAT returns: only ended periods, in order, once; a filed return
 * cannot change and its VAT lines cannot be edited or deleted; the
 * settlement journal stays; corrections land in the next open return; the
 * vat.submitted event; the CLI. Today is 2026-07-20: Q1 and Q2 2026 have
 * ended, Q3 (July to September) has not.
 */
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { expectError } from '../ledger-http/support.js';
import { vatBooks } from './support.js';

const clock = '2026-07-20T10:00:00Z';
const standard = { vatScheme: 'standard', vatRegistrationDate: '2026-01-01', vatStagger: 'quarterly', vatPeriodMonth: 3 } as const;

t.test('periods are filed after they end, in order, once; an unknown period is 404', async (t) => {
  const v = await vatBooks(t, standard, clock);
  const refused = async (method: string, path: string, status: number, code: string) => {
    const r = await v.api.request(method, path);
    t.equal(r.status, status, path);
    t.equal(r.body.error?.code, code, path);
    return r.body.error?.message as string;
  };
  await v.invoice('2026-02-01', [{ unitPrice: 1_000 }]);
  t.match(await refused('POST', '/v1/vat/periods/2026-06/file', 422, 'vat_period_out_of_order'), '2026-01-01 to 2026-03-31 (2026-03) first');
  // Today is 2026-07-20: Q3 ends 2026-09-30, so it is filed from 2026-10-01.
  t.match(
    await refused('POST', '/v1/vat/periods/2026-09/file', 422, 'vat_period_not_ended'),
    'the VAT period 2026-07-01 to 2026-09-30 has not ended: file it from 2026-10-01 onwards, the day after it ends',
  );
  await refused('POST', '/v1/vat/periods/2026-02/file', 404, 'not_found');
  await refused('GET', '/v1/vat/periods/2025-12', 404, 'not_found');
  await refused('GET', '/v1/vat/periods/march', 404, 'not_found');
  t.equal((await v.api.request('GET', '/v1/vat/returns')).body.meta.total, 0, 'nothing filed by the refusals');

  const q1 = await v.file('2026-03');
  t.same([q1.boxes.box1, q1.boxes.box6], [200, 1_000], 'Q1: 1 × £10 standard, VAT £2');
  await refused('POST', '/v1/vat/periods/2026-03/file', 409, 'already_filed');
  const got = await v.api.request('GET', `/v1/vat/returns/${q1.id}`);
  t.same(got.body.data, q1, 'GET shows the filed return');
  const nil = await v.file('2026-06');
  t.same(nil.boxes, { box1: 0, box2: 0, box3: 0, box4: 0, box5: 0, box6: 0, box7: 0, box8: 0, box9: 0 }, 'a nil return');
  t.equal(nil.netVatDirection, 'nil');
  t.equal(nil.transactionId, null, 'nothing to settle, no journal');
  await refused('GET', '/v1/vat/returns/vatr_nosuchreturn', 404, 'not_found');
});

t.test('earlier periods with nothing in them need not be filed first', async (t) => {
  // Registered 2025-01-01; the books start in acct in May 2026: 1 × £100 standard, VAT £20.
  const v = await vatBooks(t, { ...standard, vatRegistrationDate: '2025-01-01' }, clock);
  await v.invoice('2026-05-01', [{ unitPrice: 10_000 }]);
  const q2 = await v.file('2026-06');
  t.same([q2.boxes.box1, q2.boxes.box5], [2_000, 2_000]);
  const periods = (await v.api.request('GET', '/v1/vat/periods')).body.data.periods as { periodKey: string; status: string }[];
  t.same(
    periods.slice(0, 3).map((p) => [p.periodKey, p.status]),
    [
      ['2026-09', 'open'],
      ['2026-06', 'filed'],
      ['2026-03', 'ended'],
    ],
  );
  t.equal(periods.at(-1)?.periodKey, '2025-03', 'the periods run from registration');
});

t.test('a filed return cannot change: its documents and journals stay, and its settlement journal too', async (t) => {
  const v = await vatBooks(t, standard, clock);
  // Invoice 1 × £500 standard: net 50000, VAT 10000; bill 1 × £100 standard: net 10000, VAT 2000.
  const invoice = await v.invoice('2026-02-01', [{ unitPrice: 50_000 }]);
  const bill = await v.bill('2026-02-02', [{ unitPrice: 10_000 }]);
  const journal = await v.journal('2026-03-03', [
    ['5100', 1_200, { vatRate: 20, vatTreatment: 'inclusive' }],
    ['1200', -1_200],
  ]);
  // box 1 10000; box 4 2000 + 200 (1200 × 20/120) = 2200; box 5 7800.
  const filed = await v.file('2026-03');
  t.same([filed.boxes.box1, filed.boxes.box4, filed.boxes.box5], [10_000, 2_200, 7_800]);
  const before = await v.api.request('GET', '/v1/reports/trial-balance?asOf=2026-12-31');
  t.equal(before.status, 200);

  const locked = async (method: string, path: string, body?: unknown) => {
    const r = await v.api.request(method, path, body === undefined ? {} : { body });
    t.equal(r.status, 422, `${method} ${path}`);
    t.equal(r.body.error?.code, 'vat_return_filed', `${method} ${path}`);
    t.match(r.body.error?.message, '2026-01-01 to 2026-03-31');
  };
  await locked('POST', `/v1/invoices/${invoice}/void`);
  await locked('POST', `/v1/bills/${bill}/void`);
  await locked('PATCH', `/v1/transactions/${journal}/status`, { status: 'draft' });
  const settlement = await v.api.request('PATCH', `/v1/transactions/${filed.transactionId}/status`, { body: { status: 'draft' } });
  t.equal(settlement.status, 422, 'the settlement journal stays posted');

  const after = await v.api.request('GET', '/v1/reports/trial-balance?asOf=2026-12-31');
  t.same(after.body.data, before.body.data, 'the books are exactly as they were');
  t.same(await v.show('2026-03'), { ...filed, fileFirst: null }, 'the filed figures stand');
});

t.test('a correction after filing lands in the next open return', async (t) => {
  const v = await vatBooks(t, standard, clock);
  await v.invoice('2026-03-10', [{ unitPrice: 10_000 }]); // VAT 2000
  await v.file('2026-03');
  // A bill of 14 March entered after Q1 was filed: 1 × £40 standard, VAT 800; and a Q2 invoice 1 × £200, VAT 4000.
  await v.bill('2026-03-14', [{ unitPrice: 4_000 }]);
  await v.invoice('2026-05-05', [{ unitPrice: 20_000 }]);
  const q2 = await v.show('2026-06');
  t.equal(q2.status, 'draft');
  t.equal(q2.id, null);
  t.same(
    [q2.boxes.box1, q2.boxes.box4, q2.boxes.box5, q2.boxes.box6, q2.boxes.box7],
    [4_000, 800, 3_200, 20_000, 4_000],
    'the late bill in Q2: box 4 800, box 7 4000',
  );
  const q1 = await v.show('2026-03');
  t.equal(q1.status, 'filed');
  t.same([q1.boxes.box1, q1.boxes.box4], [2_000, 0], 'Q1 as filed');
});

t.test('on its last day a period has not ended: it is filed from the day after, 1 January for December', async (t) => {
  const v = await vatBooks(t, { ...standard, vatStagger: 'monthly' }, '2026-12-31T23:00:00Z');
  const r = await v.api.request('POST', '/v1/vat/periods/2026-12/file');
  expectError(t, r, 422, 'vat_period_not_ended', { message: 'the VAT period 2026-12-01 to 2026-12-31 has not ended: file it from 2027-01-01 onwards' });
  t.equal((await v.api.request('POST', '/v1/vat/periods/2026-11/file')).status, 201, 'November has ended');
});

t.test('filing raises vat.submitted with the return', async (t) => {
  const v = await vatBooks(t, standard, clock);
  await v.invoice('2026-01-15', [{ unitPrice: 10_000 }]);
  const filed = await v.file('2026-03');
  const events = await v.books.store
    .org(v.books.organisationId, 'live')
    .db.selectFrom('outbox')
    .select(['event', 'payload'])
    .where('event', '=', 'vat.submitted')
    .execute();
  t.equal(events.length, 1);
  t.same(JSON.parse(events[0]!.payload), filed);
});

t.test('flat rates above 16.5% are refused; a business that left VAT has no periods after it', async (t) => {
  const v = await vatBooks(t, standard, clock);
  const r = await v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: 17 } });
  t.equal(r.status, 400);
  t.same([r.body.error.code, r.body.error.field], ['validation_error', 'vatFlatRatePercent']);
  const ok = await v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'flat_rate', vatFlatRatePercent: 16.5 } });
  t.equal(ok.status, 200, 'the limited cost trader rate');
  const off = await v.api.request('PUT', '/v1/organisation/settings', { body: { vatScheme: 'not_registered' } });
  t.equal(off.status, 200);
  // Leaving from today, 2026-07-20: the periods run to 2026-07-19, the final one's last day; none after it.
  const periods = await v.api.request('GET', '/v1/vat/periods');
  t.equal(periods.status, 200);
  t.match(periods.body.data.periods[0], { periodKey: '2026-07', from: '2026-07-01', to: '2026-07-19', status: 'ended' });
  t.equal((await v.api.request('GET', '/v1/vat/periods/2026-09')).status, 404);
});

t.test('the CLI: vat periods, vat show and vat file', async (t) => {
  const v = await vatBooks(t, standard, clock);
  await v.invoice('2026-02-01', [{ unitPrice: 12_345 }]); // VAT 12345 × 20% = 2469
  // The CLI runs on the real clock (after 31 March 2026).
  const acct = (...args: string[]) => ['--data', v.books.dataDir, ...args];
  const shown = await runCliInProcess(acct('vat', 'show', '2026-03'));
  t.equal(shown.status, 0, shown.stderr);
  t.match(shown.stdout, '24.69', 'box 1 in pounds');
  const filed = await runCliInProcessJson(acct('vat', 'file', '2026-03', '--json'));
  t.equal(filed.status, 0);
  t.match(filed.data, { status: 'filed', boxes: { box1: 2_469, box6: 12_300 } }, 'box 6: £123.45 → £123');
  const again = await runCliInProcess(acct('vat', 'file', '2026-03'));
  t.equal(again.status, 4, 'already filed: exit 4 (conflict)');
  t.match(again.stderr, 'already filed');
  const periods = await runCliInProcess(acct('vat', 'periods'));
  t.equal(periods.status, 0);
  t.match(periods.stdout, /2026-03.*filed/);
});

t.test('the CLI takes a VAT period by its quarter, YYYY-Qn: the period ending in its last month', async (t) => {
  const v = await vatBooks(t, standard, clock);
  await v.invoice('2026-02-01', [{ unitPrice: 12_345 }]); // VAT 12345 × 20% = 2469
  const acct = (...args: string[]) => ['--data', v.books.dataDir, ...args];
  // 2026-Q1 is January to March 2026: the period ending in 2026-03, as the help's example acct vat show 2026-Q1 says.
  const shown = await runCliInProcessJson(acct('--json', 'vat', 'show', '2026-Q1'));
  t.equal(shown.status, 0, shown.stderr);
  t.match(shown.data, { periodKey: '2026-03', period: { from: '2026-01-01', to: '2026-03-31' }, boxes: { box1: 2_469 } });
  const filed = await runCliInProcessJson(acct('--json', 'vat', 'file', '2026-q1'));
  t.equal(filed.status, 0, filed.stderr);
  t.match(filed.data, { periodKey: '2026-03', status: 'filed', boxes: { box1: 2_469 } });
  const bad = await runCliInProcess(acct('vat', 'show', '2026-Q5'));
  t.equal(bad.status, 3, bad.stderr);
  t.match(bad.stderr, 'not_found: no VAT period ends in 2026-Q5: periods are named by the month they end (YYYY-MM) or by the quarter (YYYY-Q1 to YYYY-Q4)');
});

t.test('a quarter in which no VAT period ends is not found, naming the months that end periods', async (t) => {
  // Periods end in February, May, August and November: none ends in March, the last month of 2026-Q1.
  const v = await vatBooks(t, { ...standard, vatPeriodMonth: 2 }, clock);
  const r = await runCliInProcess(['--data', v.books.dataDir, 'vat', 'show', '2026-Q1']);
  t.equal(r.status, 3, r.stderr);
  t.match(r.stderr, 'not_found: no VAT period ends in 2026-Q1 (its last month is 2026-03): periods end in 2026-02, 2026-05, 2026-08 and 2026-11');
  const api = await v.api.request('GET', '/v1/vat/periods/2026-Q2');
  t.equal(api.status, 404);
  t.match(api.body.error.message, 'no VAT period ends in 2026-Q2 (its last month is 2026-06)');
});

t.test('a later period shown while an earlier one waits: that period alone, and the earlier one named to file first', async (t) => {
  const v = await vatBooks(t, standard, clock);
  // Q1: invoice 1 × £100 at 20%, VAT 2000. Q2: invoice 1 × £200 at 20%, VAT 4000; bill 1 × £50 at 20%, VAT 1000.
  await v.invoice('2026-02-01', [{ unitPrice: 10_000 }]);
  await v.invoice('2026-05-05', [{ unitPrice: 20_000 }]);
  await v.bill('2026-05-06', [{ unitPrice: 5_000 }]);
  const q1First = { periodKey: '2026-03', from: '2026-01-01', to: '2026-03-31' };

  // Q2 alone: box 1 4000, box 4 1000, box 5 3000, box 6 20000, box 7 5000 (Q1's £20 is left to Q1).
  const q2 = await v.show('2026-06');
  t.same([q2.boxes.box1, q2.boxes.box4, q2.boxes.box5, q2.boxes.box6, q2.boxes.box7], [4_000, 1_000, 3_000, 20_000, 5_000]);
  t.same(q2.fileFirst, q1First, 'Q1 is to be filed first');
  const refused = await v.api.request('POST', '/v1/vat/periods/2026-06/file');
  t.equal(refused.body.error?.code, 'vat_period_out_of_order', 'as filing says');
  // Q3 (July to 20 July) holds nothing of its own; Q1 is still the one to file.
  const q3 = await v.show('2026-09');
  t.same([q3.boxes.box1, q3.boxes.box4, q3.fileFirst], [0, 0, q1First]);

  const q1 = await v.show('2026-03');
  t.same([q1.boxes.box1, q1.fileFirst], [2_000, null], 'Q1 waits for nothing');
  // The CLI says so under the boxes (it runs on the real clock, after June 2026).
  const shown = await runCliInProcess(['--data', v.books.dataDir, 'vat', 'show', '2026-06']);
  t.equal(shown.status, 0, shown.stderr);
  t.match(shown.stdout, /^ {0,2}5 .*30\.00/m, 'box 5 £30.00');
  t.match(
    shown.stdout,
    '\nFile 2026-03 (2026-01-01 to 2026-03-31) first: it holds VAT not yet filed.\nThis draft is 2026-06 alone, as filing will give it once 2026-03 is filed.\n',
  );

  await v.file('2026-03');
  const after = await v.show('2026-06');
  t.same(after.fileFirst, null, 'nothing waits once Q1 is filed');
  t.same(after.boxes, q2.boxes, 'the same figures');
  const filed = await v.file('2026-06');
  t.same(filed.boxes, q2.boxes, 'and filing gives them');
  t.same((await v.show('2026-06')).fileFirst, null, 'a filed return waits for nothing');
});
