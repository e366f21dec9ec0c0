/**
 * End to end over HTTP: a quarter's invoice and bill, the return filed by
 * the real filing operation (POST /v1/vat/periods/2026-03/file), then
 * submitted to the HMRC stand-in; HMRC receives exactly the filed figures
 * and the filed return reads as submitted.
 *
 * Q1 2026, worked by hand: invoice 1 × £12,450.60 standard: net 1245060, VAT
 * 20% = 249012 (£2,490.12); bill 1 × £3,077.25 standard: net 307725, VAT 20%
 * = 61545 (£615.45). Box 1 £2,490.12; box 3 £2,490.12; box 4 £615.45; box 5
 * £2,490.12 − £615.45 = £1,874.67 payable; box 6 £12,450.60 → £12,451; box 7
 * £3,077.25 → £3,077.
 */
import t from 'tap';
import { movingClock, newBooks } from '../helpers/index.js';
import { accountIds, contactOk } from '../ledger-http/support.js';
import { expectError, serveWith } from '../integration/support.js';
import { startHmrcStandIn } from './hmrc-stand-in.js';
import { connectOverHttp, q1Json, quarters2026, settingsOf } from './support.js';

t.test('file a quarter through the real operation, then submit it to HMRC', async (t) => {
  const clock = movingClock('2026-07-15T10:00:00Z');
  const books = await newBooks(t, {
    clock,
    organisation: { vatScheme: 'standard', vatRegistrationDate: '2026-01-01', vatStagger: 'quarterly', vatPeriodMonth: 3 },
  });
  const standIn = await startHmrcStandIn(t, { today: '2026-07-15', obligations: quarters2026() });
  const api = await serveWith(t, books, { rateLimits: false, hmrc: settingsOf(standIn) });
  await accountIds(t, api);
  t.equal((await api.request('PUT', '/v1/organisation', { body: { vatNumber: 'GB123456782' } })).status, 200);
  await connectOverHttp(t, api);

  const customer = await contactOk(t, api);
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Supplies Ltd' });
  const invoice = await api.request('POST', '/v1/invoices', {
    body: { contactId: customer, issueDate: '2026-02-10', items: [{ description: 'Work', quantity: 1, unitPrice: 1_245_060, vatRate: 'standard' }] },
  });
  t.equal(invoice.status, 201);
  t.equal((await api.request('POST', `/v1/invoices/${invoice.body.data.id}/send`)).status, 200);
  const bill = await api.request('POST', '/v1/bills', {
    body: { contactId: supplier, issueDate: '2026-03-05', items: [{ description: 'Stock', quantity: 1, unitPrice: 307_725, vatRate: 'standard' }] },
  });
  t.equal(bill.status, 201);
  t.equal((await api.request('POST', `/v1/bills/${bill.body.data.id}/approve`)).status, 200);

  // Not filed yet: there is no return to submit.
  const listed = await api.request('GET', '/v1/vat/obligations?status=open');
  t.match(listed.body.data.obligations[0], { periodKey: '26A1', returnId: null });

  const filed = await api.request('POST', '/v1/vat/periods/2026-03/file');
  t.equal(filed.status, 201, JSON.stringify(filed.body));
  t.match(filed.body.data.boxes, { box1: 249_012, box3: 249_012, box4: 61_545, box5: 187_467, box6: 1_245_100, box7: 307_700 });
  const id = filed.body.data.id as string;

  const sent = await api.request('POST', `/v1/vat/returns/${id}/submit`);
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  t.match(sent.body.data, { id, periodKey: '26A1', netVatDue: 187_467, netVatDirection: 'payable', paymentIndicator: 'DD' });
  t.same(standIn.posted, [q1Json], 'HMRC received the filed figures, exactly');

  const view = await api.request('GET', `/v1/vat/returns/${id}`);
  t.match(view.body.data, { status: 'submitted', submittedAt: '2026-07-15T10:00:00.000Z' });
  const obligations = await api.request('GET', '/v1/vat/obligations?from=2026-01-01&to=2026-03-31');
  t.match(obligations.body.data.obligations, [{ periodKey: '26A1', status: 'fulfilled', returnId: id, submittedAt: '2026-07-15T10:00:00.000Z' }]);
  expectError(t, await api.request('POST', `/v1/vat/returns/${id}/submit`), 409, 'already_submitted');
});
