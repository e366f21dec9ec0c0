/**
 * A sole trader's bill paid with the owner's own money, and an invoice paid
 * into the owner's own account: the payment names an equity account of the
 * owner's (3000 Owner's Capital, 3200 Drawings) instead of a bank account,
 * as FreeAgent records "paid by the owner" as capital introduced. Manual
 * journals may not touch 2100, so without this the bill could never be
 * settled. A company's payments stay bank-only (a director's money is a
 * loan-account movement), and 3100 Retained Earnings is never taken.
 * Today is 2026-11-21 (the clock of ledger()). Figures worked by hand.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { accountIds, balanceOf, contactOk, expectError } from '../ledger-http/support.js';
import { approveOk, billOk, payBill, supplierOk } from './purchases-support.js';
import { invoiceOk, sendOk } from './invoice-support.js';

async function soleTrader(t: Parameters<typeof newBooks>[0]) {
  const books = await newBooks(t, {
    clock: '2026-11-21T10:00:00Z',
    organisation: { name: 'Jo Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' },
  });
  const api = await serveBooks(t, books);
  return { books, api, acc: await accountIds(t, api) };
}

t.test('a sole trader’s bill paid personally: 2100 cleared against 3000 Owner’s Capital, the bill paid, the bank untouched', async (t) => {
  const { api, acc } = await soleTrader(t);
  const supplier = await supplierOk(t, api);
  // 1 × £100.00 + the supplier's 20% VAT = £120.00; not registered, the whole £120.00 is the expense.
  const bill = await billOk(t, api, supplier, {
    issueDate: '2026-11-01',
    items: [{ description: 'Copper pipe', quantity: 1, unitPrice: 10_000, vatRate: 'standard' }],
  });
  await approveOk(t, api, bill.id);
  const paid = await payBill(api, bill.id, { amount: 12_000, date: '2026-11-02', method: 'other', accountId: acc['3000'] });
  t.equal(paid.status, 201, JSON.stringify(paid.body.error ?? ''));
  t.equal((await api.request('GET', `/v1/bills/${bill.id}`)).body.data.status, 'paid');
  // 2100: −120.00 at approval, +120.00 paid: nil. 3000: credited £120.00 (capital introduced). 1200 untouched.
  t.equal((await balanceOf(api, acc['2100']!)).net, 0);
  t.equal((await balanceOf(api, acc['3000']!)).net, -12_000);
  t.equal((await balanceOf(api, acc['1200']!)).net, 0);
});

t.test('a sole trader’s invoice paid into the owner’s own account goes to 3200 Drawings', async (t) => {
  const { api, acc } = await soleTrader(t);
  const customer = await contactOk(t, api);
  const invoice = await invoiceOk(t, api, customer, { issueDate: '2026-11-01', items: [{ description: 'Boiler service', quantity: 1, unitPrice: 8_000 }] });
  await sendOk(t, api, invoice.id);
  const paid = await api.request('POST', `/v1/invoices/${invoice.id}/payments`, { body: { amount: 8_000, date: '2026-11-03', accountId: acc['3200'] } });
  t.equal(paid.status, 201, JSON.stringify(paid.body.error ?? ''));
  // 1100: +80.00 sent, −80.00 paid: nil; 3200 Drawings debited £80.00: the owner took the customer's money.
  t.equal((await balanceOf(api, acc['1100']!)).net, 0);
  t.equal((await balanceOf(api, acc['3200']!)).net, 8_000);
});

t.test('refused: 3100 Retained Earnings, a non-bank non-equity account, and any equity account for a company', async (t) => {
  const { api, acc } = await soleTrader(t);
  const supplier = await supplierOk(t, api);
  const bill = await billOk(t, api, supplier, {
    issueDate: '2026-11-01',
    items: [{ description: 'Pipe', quantity: 1, unitPrice: 10_000, vatRate: 'standard' }],
  });
  await approveOk(t, api, bill.id);
  for (const code of ['3100', '4000']) {
    expectError(t, await payBill(api, bill.id, { amount: 12_000, date: '2026-11-02', accountId: acc[code] }), 400, 'validation_error', { field: 'accountId' });
  }
  t.equal((await api.request('GET', `/v1/bills/${bill.id}`)).body.data.amountPaid, 0, 'nothing paid');

  const company = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const capi = await serveBooks(t, company);
  const cacc = await accountIds(t, capi);
  const csupplier = await supplierOk(t, capi);
  const cbill = await billOk(t, capi, csupplier, { issueDate: '2026-11-01' });
  await approveOk(t, capi, cbill.id);
  expectError(t, await payBill(capi, cbill.id, { amount: 12_000, date: '2026-11-02', accountId: cacc['3000'] }), 400, 'validation_error', {
    field: 'accountId',
    message: /not a bank account/,
  });
});
