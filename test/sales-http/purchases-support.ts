/** Helpers shared by the bill HTTP tests (not a test file itself). */
import type { Test } from 'tap';
import type { Api, Reply } from '../helpers/index.js';
import { balanceOf, contactOk } from '../ledger-http/support.js';
import { item } from './invoice-support.js';

export { item };

/** A supplier contact; its id. */
export function supplierOk(t: Test, api: Api, body: Record<string, unknown> = {}): Promise<string> {
  return contactOk(t, api, { contactType: 'supplier', name: 'Paper Supplies Ltd', ...body });
}

/** POST /v1/bills for the contact, 1 × £100.00 standard on the default account unless the body says otherwise. */
export function createBill(api: Api, contactId: string | undefined, body: Record<string, unknown> = {}, key?: string): Promise<Reply> {
  return api.request('POST', '/v1/bills', {
    body: { ...(contactId === undefined ? {} : { contactId }), items: [item({ description: 'Supplies' })], ...body },
    ...(key === undefined ? {} : { key }),
  });
}

/** POST /v1/bills that must succeed; the bill as created. */
export async function billOk(t: Test, api: Api, contactId: string, body: Record<string, unknown> = {}): Promise<Reply['body']> {
  const r = await createBill(api, contactId, body);
  t.equal(r.status, 201, `bill created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** POST /v1/bills/{id}/approve that must succeed. */
export async function approveOk(t: Test, api: Api, id: string): Promise<Reply['body']> {
  const r = await api.request('POST', `/v1/bills/${id}/approve`);
  t.equal(r.status, 200, `bill approved: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** POST /v1/bills/{id}/payments. */
export function payBill(api: Api, id: string, body: Record<string, unknown>, key?: string): Promise<Reply> {
  return api.request('POST', `/v1/bills/${id}/payments`, { body: { date: '2026-11-21', ...body }, ...(key === undefined ? {} : { key }) });
}

/** A bill payment that must succeed; its response data. */
export async function payBillOk(t: Test, api: Api, id: string, body: Record<string, unknown>): Promise<Reply['body']> {
  const r = await payBill(api, id, body);
  t.equal(r.status, 201, `payment recorded: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** GET /v1/bills/{id} that must succeed; the bill. */
export async function getBill(t: Test, api: Api, id: string): Promise<Reply['body']> {
  const r = await api.request('GET', `/v1/bills/${id}`);
  t.equal(r.status, 200, `bill ${id} readable`);
  return r.body.data;
}

/** A transaction's status and lines as [account code, amount] (debits positive). */
export async function entries(t: Test, api: Api, transactionId: string): Promise<{ status: string; lines: [string, number][] }> {
  const r = await api.request('GET', `/v1/transactions/${transactionId}`);
  t.equal(r.status, 200, `transaction ${transactionId} readable`);
  return { status: r.body.data.status, lines: r.body.data.lines.map((l: { accountCode: string; amount: number }) => [l.accountCode, l.amount]) };
}

/** The net balances of the given account codes. */
export async function nets(api: Api, acc: Readonly<Record<string, string>>, codes: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const code of codes) out[code] = (await balanceOf(api, acc[code]!)).net;
  return out;
}
