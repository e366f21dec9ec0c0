/**
 * A draft invoice or bill changed with PUT keeps its VAT facts: the return
 * gives the same boxes as for a document never changed (exempt lines in
 * boxes 6 and 7, cash-basis VAT counted only as it is paid), and a PUT that
 * sends no items keeps the lines and their ids. Today is 2026-11-21.
 */
import t from 'tap';
import type { Api } from '../helpers/index.js';
import { contactOk, ledger } from '../ledger-http/support.js';
import { invoiceOk, item, payOk, sendOk } from './invoice-support.js';
import { approveOk, billOk, supplierOk } from './purchases-support.js';

const boxes = async (api: Api, from: string, to: string) => (await api.request('GET', `/v1/reports/vat?from=${from}&to=${to}`)).body.data.boxes;
const lineIds = (doc: { items: { id: string }[] }) => doc.items.map((i) => i.id);

t.test('PUT of a draft with its notes alone: the lines and their ids stay, and the return counts its exempt lines', async (t) => {
  const { api, acc } = await ledger(t);
  const supplier = await supplierOk(t, api);
  const customer = await contactOk(t, api);
  // Bill: 2 × 15000 standard on 5100 (net 30000, VAT 6000) + 1 × 330 exempt (net 330): net 30330, VAT 6000
  const bill = await billOk(t, api, supplier, {
    issueDate: '2026-11-12',
    items: [
      item({ description: 'Desks', quantity: 2, unitPrice: 15000, accountId: acc['5100'] }),
      item({ description: 'Postage', unitPrice: 330, vatRate: 'exempt' }),
    ],
  });
  const billPut = await api.request('PUT', `/v1/bills/${bill.id}`, { body: { notes: 'Checked against the delivery note' } });
  t.equal(billPut.status, 200);
  t.same(lineIds(billPut.body.data), lineIds(bill), 'the bill keeps its line ids');
  await approveOk(t, api, bill.id);
  // Invoice: 1 × 45000 standard (net 45000, VAT 9000) + 1 × 3000 exempt (net 3000): net 48000, VAT 9000
  const inv = await invoiceOk(t, api, customer, { items: [item({ unitPrice: 45000 }), item({ description: 'Training', unitPrice: 3000, vatRate: 'exempt' })] });
  const invPut = await api.request('PUT', `/v1/invoices/${inv.id}`, { body: { notes: 'Thank you' } });
  t.equal(invPut.status, 200);
  t.same(lineIds(invPut.body.data), lineIds(inv), 'the invoice keeps its line ids');
  await sendOk(t, api, inv.id);

  t.same(
    await boxes(api, '2026-11-01', '2026-11-30'),
    // box 6 = 45000 + 3000 exempt = £480; box 7 = 30000 + 330 exempt = £303.30, whole pounds £303; box 5 = 9000 − 6000
    { box1: 9000, box2: 0, box3: 9000, box4: 6000, box5: 3000, box6: 48000, box7: 30300, box8: 0, box9: 0 },
    'the same boxes as documents never changed',
  );
  // A credit note by line ids the client kept from the create reply still finds its line.
  const credit = await api.request('POST', '/v1/credit-notes', { body: { invoiceId: inv.id, lineIds: [inv.items[1].id], date: '2026-11-21' } });
  t.equal(credit.status, 201, JSON.stringify(credit.body?.error ?? ''));
});

t.test('cash basis: an invoice changed while a draft counts its VAT as it is paid, not on its date', async (t) => {
  const { api } = await ledger(t);
  t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { vatAccountingBasis: 'cash' } })).status, 200);
  const customer = await contactOk(t, api);
  // 1 × 10000 standard: net 10000, VAT 2000, total 12000
  const inv = await invoiceOk(t, api, customer, { issueDate: '2026-10-05', items: [item({ unitPrice: 10000 })] });
  t.equal((await api.request('PUT', `/v1/invoices/${inv.id}`, { body: { reference: 'PO-77' } })).status, 200);
  await sendOk(t, api, inv.id);
  t.same(
    await boxes(api, '2026-10-01', '2026-10-31'),
    { box1: 0, box2: 0, box3: 0, box4: 0, box5: 0, box6: 0, box7: 0, box8: 0, box9: 0 },
    'October: sent but unpaid, nothing to declare on the cash basis',
  );
  await payOk(t, api, inv.id, { amount: 6000, date: '2026-11-10' });
  t.same(
    await boxes(api, '2026-11-01', '2026-11-30'),
    // half of 12000 paid: half the VAT, 2000 × 6000 / 12000 = 1000, and half the net, 5000
    { box1: 1000, box2: 0, box3: 1000, box4: 0, box5: 1000, box6: 5000, box7: 0, box8: 0, box9: 0 },
    'November: the VAT of the half paid',
  );
});
