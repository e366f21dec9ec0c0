/** Helpers shared by the cash-basis VAT tests (not a test file itself): books served over real HTTP, documents, payments, returns. */
import type { Test } from 'tap';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { newBooks, serveBooks, type Api, type Books, type Reply } from '../helpers/index.js';
import { accountIds, balanceOf, contactOk } from '../ledger-http/support.js';
import { item, payOk } from '../sales-http/invoice-support.js';
import { approveOk, billOk, payBillOk } from '../sales-http/purchases-support.js';

export { item };

export interface CashBooks {
  readonly books: Books;
  readonly api: Api;
  readonly acc: Readonly<Record<string, string>>;
  readonly customer: string;
  readonly supplier: string;
}

/**
 * A VAT-registered limited company on the cash basis unless told otherwise,
 * registered 2026-01-01, quarterly periods ending March, June, September and
 * December; the clock stands after the periods the tests file.
 */
export async function cashBooks(t: Test, organisation: Partial<NewOrganisation> = {}, clock = '2026-07-10T09:00:00Z'): Promise<CashBooks> {
  const books = await newBooks(t, {
    clock,
    organisation: { vatScheme: 'standard', vatAccountingBasis: 'cash', vatRegistrationDate: '2026-01-01', ...organisation },
  });
  const api = await serveBooks(t, books);
  const acc = await accountIds(t, api);
  const customer = await contactOk(t, api, { name: 'Harbour Cafe Ltd' });
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Paper Supplies Ltd' });
  return { books, api, acc, customer, supplier };
}

/** An invoice to the customer of the items given, issued (sent) on `date`; the invoice as created. */
export async function invoiceSent(t: Test, c: CashBooks, items: Record<string, unknown>[], date: string): Promise<Reply['body']> {
  const r = await c.api.request('POST', '/v1/invoices', { body: { contactId: c.customer, items, issueDate: date, dueDate: date } });
  t.equal(r.status, 201, `invoice created: ${JSON.stringify(r.body?.error ?? '')}`);
  const sent = await c.api.request('POST', `/v1/invoices/${r.body.data.id}/send`, { body: {} });
  t.equal(sent.status, 200, `invoice sent: ${JSON.stringify(sent.body?.error ?? '')}`);
  return r.body.data;
}

/** A bill from the supplier of the items given, approved, dated `date`; the bill as created. */
export async function billApproved(t: Test, c: CashBooks, items: Record<string, unknown>[], date: string): Promise<Reply['body']> {
  const bill = await billOk(t, c.api, c.supplier, { items, issueDate: date, dueDate: date });
  await approveOk(t, c.api, bill.id);
  return bill;
}

/** A payment received against an invoice; the payment. */
export const received = (t: Test, c: CashBooks, invoiceId: string, amount: number, date: string): Promise<Reply['body']> =>
  payOk(t, c.api, invoiceId, { amount, date });

/** A payment made against a bill; the payment. */
export const paid = (t: Test, c: CashBooks, billId: string, amount: number, date: string): Promise<Reply['body']> =>
  payBillOk(t, c.api, billId, { amount, date });

/** POST /v1/vat/periods/{key}/file, which must succeed; the filed return. */
export async function fileOk(t: Test, c: CashBooks, key: string): Promise<Reply['body']> {
  const r = await c.api.request('POST', `/v1/vat/periods/${key}/file`);
  t.equal(r.status, 201, `VAT return ${key} filed: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** GET /v1/vat/periods/{key}: the filed return or the draft. */
export async function returnOf(t: Test, c: CashBooks, key: string): Promise<Reply['body']> {
  const r = await c.api.request('GET', `/v1/vat/periods/${key}`);
  t.equal(r.status, 200, `VAT return ${key} shown: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** PUT /v1/organisation/settings {vatAccountingBasis}. */
export async function setBasis(t: Test, c: CashBooks, basis: 'accrual' | 'cash'): Promise<void> {
  const r = await c.api.request('PUT', '/v1/organisation/settings', { body: { vatAccountingBasis: basis } });
  t.equal(r.status, 200, `basis set to ${basis}: ${JSON.stringify(r.body?.error ?? '')}`);
}

/** An account's net balance (debit − credit) by code, over all dates. */
export const netOf = async (c: CashBooks, code: string): Promise<number> => (await balanceOf(c.api, c.acc[code]!)).net;
