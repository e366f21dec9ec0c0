/**
 * vat.submit and vat.obligations in-process against the HMRC stand-in:
 * the period key found by the return's dates, the exact JSON HMRC
 * receives, the receipt kept on the return, and every refusal (ours and
 * HMRC's) a clear 4xx that leaves the return unsubmitted.
 */
import t from 'tap';
import { AppError } from '../../src/engine/errors.js';
import { updateOrganisation } from '../../src/engine/organisation/organisation-ops.js';
import { obligationsOp } from '../../src/engine/vat/mtd/mtd-ops.js';
import { submitReturnOp } from '../../src/engine/vat/mtd/submit-op.js';
import { connect, fileReturn, mtdBooks, q1, q1Json, returnRow } from './support.js';

const q1Period = { start: '2026-01-01', end: '2026-03-31' };

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(e instanceof AppError)) throw new Error(`expected an AppError, got ${String(e)}`);
  return e;
}

t.test('submit a filed return: HMRC gets the nine boxes in pounds, the receipt is kept', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);

  const before = await m.run(obligationsOp, { query: { from: '2026-01-01', to: '2026-12-31' } });
  t.same(
    (before['obligations'] as { periodKey: string; returnId: string | null; status: string }[]).map((o) => [o.periodKey, o.status, o.returnId]),
    [
      ['26A1', 'open', 'vatr_q1'],
      ['26A2', 'open', null],
      ['26A3', 'open', null],
    ],
    "HMRC's obligations, the filed return beside its period",
  );

  m.clock.advance(60_000);
  const sent = await m.run(submitReturnOp, { params: { id: 'vatr_q1' } });
  // £2,490.12 − £615.45 = £1,874.67 payable: HMRC's receipt carries a charge reference and DD.
  t.match(sent, {
    id: 'vatr_q1',
    periodStart: '2026-01-01',
    periodEnd: '2026-03-31',
    periodKey: '26A1',
    netVatDue: 187467,
    netVatDirection: 'payable',
    submittedAt: '2026-07-15T10:01:00.000Z',
    processingDate: '2026-07-15T09:30:00.000Z',
    formBundleNumber: '256660290001',
    paymentIndicator: 'DD',
    chargeRefNumber: 'XQ000000000001',
  });
  t.match(sent['receiptId'], /^[0-9a-f-]{36}$/);
  t.equal(m.standIn.posted.length, 1, 'one POST /returns');
  t.equal(m.standIn.posted[0], q1Json, 'the exact JSON HMRC received');

  const row = await returnRow(m.books, 'vatr_q1');
  t.equal(row.submitted_at, '2026-07-15T10:01:00.000Z');
  t.match(JSON.parse(row.submission ?? 'null'), {
    periodKey: '26A1',
    formBundleNumber: '256660290001',
    paymentIndicator: 'DD',
    chargeRefNumber: 'XQ000000000001',
  });

  const after = await m.run(obligationsOp, { query: { status: 'fulfilled', from: '2026-01-01', to: '2026-12-31' } });
  t.match(after['obligations'], [
    { periodKey: '26A1', status: 'fulfilled', received: '2026-07-15', returnId: 'vatr_q1', submittedAt: '2026-07-15T10:01:00.000Z' },
  ]);

  // Our own refusal: the return was sent; HMRC is not asked again.
  const calls = m.standIn.calls.length;
  const again = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q1' } }));
  t.equal(again.code, 'already_submitted');
  t.equal(again.status, 409);
  t.match(again.message, /submitted to HMRC at 2026-07-15T10:01:00.000Z \(period key 26A1, form bundle 256660290001\)/);
  t.equal(m.standIn.calls.length, calls, 'no call to HMRC');
});

t.test('a repayment: netVatDue is the size of box 5, never negative; HMRC answers BANK', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  // Box 1 £120.00; box 4 £500.50: box 5 = |£120.00 − £500.50| = £380.50 repayable. Box 7 £2,502 (exact £2,502.50).
  await fileReturn(
    m.books,
    'vatr_q2',
    { start: '2026-04-01', end: '2026-06-30' },
    { box1: 12000, box2: 0, box3: 12000, box4: 50050, box5: 38050, box6: 60000, box7: 250200, box8: 0, box9: 0, net_vat_direction: 'repayable' },
    { box6: 60000, box7: 250250, box8: 0, box9: 0 },
  );
  const sent = await m.run(submitReturnOp, { params: { id: 'vatr_q2' } });
  t.match(sent, { periodKey: '26A2', netVatDue: 38050, netVatDirection: 'repayable', paymentIndicator: 'BANK', chargeRefNumber: null });
  t.equal(
    m.standIn.posted[0],
    '{"periodKey":"26A2","vatDueSales":120,"vatDueAcquisitions":0,"totalVatDue":120,"vatReclaimedCurrPeriod":500.5,"netVatDue":380.5,' +
      '"totalValueSalesExVAT":600,"totalValuePurchasesExVAT":2502,"totalValueGoodsSuppliedExVAT":0,"totalAcquisitionsExVAT":0,"finalised":true}',
  );
});

t.test("HMRC's 403 DUPLICATE_SUBMISSION (a return sent by other software) is 409 duplicate_submission; nothing kept", async (t) => {
  const other = {
    periodKey: '26A1',
    vatDueSales: 1,
    vatDueAcquisitions: 0,
    totalVatDue: 1,
    vatReclaimedCurrPeriod: 0,
    netVatDue: 1,
    totalValueSalesExVAT: 5,
    totalValuePurchasesExVAT: 0,
    totalValueGoodsSuppliedExVAT: 0,
    totalAcquisitionsExVAT: 0,
  };
  const m = await mtdBooks(t, { held: { '26A1': other } });
  await connect(m);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
  const e = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q1' } }));
  t.equal(e.code, 'duplicate_submission');
  t.equal(e.status, 409);
  t.match(e.message, /HMRC refused the submission of period 26A1: it already holds a VAT return for the period \(DUPLICATE_SUBMISSION/);
  t.equal(m.standIn.posted.length, 1, 'HMRC was asked, and said no');
  t.equal((await returnRow(m.books, 'vatr_q1')).submitted_at, null, 'the return is not marked submitted');
});

t.test('an invalid VAT number: HMRC 400 VRN_INVALID is 422 hmrc_rejected naming it', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
  // The API now refuses such a number; one stored before it checked them still reaches HMRC, which is the judge.
  await m.books.store.org(m.books.organisationId, 'live').db.updateTable('organisation').set({ vat_number: 'GB12345678' }).execute();
  const e = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q1' } }));
  t.equal(e.code, 'hmrc_rejected');
  t.equal(e.status, 422);
  t.equal(e.message, 'HMRC refused the request for VAT obligations: VRN_INVALID (The provided VRN is invalid)');
  t.equal(m.standIn.posted.length, 0, 'nothing was submitted');

  await m.run(updateOrganisation, { body: { vatNumber: null } });
  const none = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q1' } }));
  t.equal(none.code, 'unprocessable_entity');
  t.match(none.message, /no VAT number/);

  // A well-formed number that is not the signed-in user's: HMRC's 403 CLIENT_OR_AGENT_NOT_AUTHORISED.
  await m.run(updateOrganisation, { body: { vatNumber: '987654353' } });
  const foreign = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q1' } }));
  t.equal(foreign.code, 'hmrc_rejected');
  t.match(foreign.message, /CLIENT_OR_AGENT_NOT_AUTHORISED/);
});

t.test('a period HMRC says has not ended: 403 TAX_PERIOD_NOT_ENDED is 422 hmrc_rejected', async (t) => {
  // HMRC's today is 2026-06-15, before the end of Q2 (2026-06-30).
  const m = await mtdBooks(t, { today: '2026-06-15' });
  await connect(m);
  await fileReturn(
    m.books,
    'vatr_q2',
    { start: '2026-04-01', end: '2026-06-30' },
    { box1: 2000, box2: 0, box3: 2000, box4: 0, box5: 2000, box6: 10000, box7: 0, box8: 0, box9: 0, net_vat_direction: 'payable' },
    { box6: 10000, box7: 0, box8: 0, box9: 0 },
  );
  const e = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q2' } }));
  t.equal(e.code, 'hmrc_rejected');
  t.equal(
    e.message,
    'HMRC refused the submission of period 26A2: TAX_PERIOD_NOT_ENDED (The remote endpoint has indicated that the submission is for a tax period that has not ended)',
  );
  t.equal((await returnRow(m.books, 'vatr_q2')).submitted_at, null);
});

t.test('no HMRC obligation with the return’s dates is 422 no_obligation, before any POST', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  // A monthly period, where HMRC has the trader on quarters.
  await fileReturn(
    m.books,
    'vatr_jan',
    { start: '2026-01-01', end: '2026-01-31' },
    { box1: 2000, box2: 0, box3: 2000, box4: 0, box5: 2000, box6: 10000, box7: 0, box8: 0, box9: 0, net_vat_direction: 'payable' },
    { box6: 10000, box7: 0, box8: 0, box9: 0 },
  );
  const e = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_jan' } }));
  t.equal(e.code, 'no_obligation');
  t.match(e.message, /HMRC has no VAT obligation from 2026-01-01 to 2026-01-31 for VAT number 123456782/);
  t.equal(m.standIn.posted.length, 0);
});

t.test('an unknown return is 404; not connected, or no credentials, is a clear 422', async (t) => {
  const m = await mtdBooks(t);
  t.equal((await refusal(m.run(submitReturnOp, { params: { id: 'vatr_nope' } }))).code, 'not_found');
  t.equal((await refusal(m.run(submitReturnOp, { params: { id: 'nope' } }))).code, 'invalid_id');

  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
  const unconnected = await refusal(m.run(submitReturnOp, { params: { id: 'vatr_q1' } }));
  t.equal(unconnected.code, 'hmrc_not_connected');
  t.match(unconnected.message, /not connected to HMRC: run acct vat connect/);

  const noCredentials = await refusal(
    obligationsOp.run({ ...m.ctx(), hmrc: { baseUrl: m.standIn.url, clientId: null, clientSecret: null } }, { status: 'open' }),
  );
  t.equal(noCredentials.code, 'hmrc_not_connected', 'reading needs tokens, not credentials');
  t.equal(m.standIn.calls.length, 0, 'HMRC was never called');
});

t.test('obligations: from and to go together, are required unless status is open, and in order', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  for (const [query, field] of [
    [{ from: '2026-01-01' }, 'to'],
    [{}, 'from'],
    [{ status: 'fulfilled' }, 'from'],
    [{ from: '2026-02-01', to: '2026-01-01' }, 'from'],
  ] as const) {
    const e = await refusal(m.run(obligationsOp, { query }));
    t.match({ code: e.code, field: e.field }, { code: 'validation_error', field }, JSON.stringify(query));
  }
  const open = await m.run(obligationsOp, { query: { status: 'open' } });
  t.equal((open['obligations'] as unknown[]).length, 3, 'status open alone is enough');
  t.same(m.standIn.calls, ['GET /organisations/vat/123456782/obligations?status=O']);
  // HMRC's 404 NOT_FOUND for a range without obligations is an empty list.
  t.same(await m.run(obligationsOp, { query: { from: '2025-01-01', to: '2025-06-30' } }), { obligations: [] });
  // HMRC's rate limit is ours: 429 rate_limited.
  m.standIn.failNext(429, { code: 'MESSAGE_THROTTLED_OUT', message: 'The request for the API is throttled as you have exceeded your quota.' });
  const throttled = await refusal(m.run(obligationsOp, { query: { status: 'open' } }));
  t.match({ code: throttled.code, status: throttled.status }, { code: 'rate_limited', status: 429 });
  t.match(throttled.message, /HMRC's rate limit refused the request for VAT obligations: MESSAGE_THROTTLED_OUT/);
});
