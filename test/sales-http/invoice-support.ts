/** Helpers shared by the invoice HTTP tests (not a test file itself). */
import type { Test } from 'tap';
import type { Api, Books, Reply } from '../helpers/index.js';
import { outbox, transactionTotal } from '../ledger-http/support.js';

export interface ItemBody {
  description?: string;
  quantity?: unknown;
  unitPrice?: unknown;
  vatRate?: unknown;
  [field: string]: unknown;
}

/** One line item as clients send it: 1 × £100.00 at the standard rate unless said otherwise. */
export const item = (over: ItemBody = {}): ItemBody => ({ description: 'Consulting', quantity: 1, unitPrice: 10000, vatRate: 'standard', ...over });

/** POST /v1/invoices for the contact, 1 × £100.00 standard unless the body says otherwise. */
export function createInvoice(api: Api, contactId: string | undefined, body: Record<string, unknown> = {}, key?: string): Promise<Reply> {
  return api.request('POST', '/v1/invoices', {
    body: { ...(contactId === undefined ? {} : { contactId }), items: [item()], ...body },
    ...(key === undefined ? {} : { key }),
  });
}

/** POST /v1/invoices that must succeed; the invoice as created. */
export async function invoiceOk(t: Test, api: Api, contactId: string, body: Record<string, unknown> = {}): Promise<Reply['body']> {
  const r = await createInvoice(api, contactId, body);
  t.equal(r.status, 201, `invoice created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** POST /v1/invoices/{id}/send that must succeed. */
export async function sendOk(t: Test, api: Api, id: string): Promise<void> {
  const r = await api.request('POST', `/v1/invoices/${id}/send`, { body: {} });
  t.equal(r.status, 200, `invoice sent: ${JSON.stringify(r.body?.error ?? '')}`);
}

/** POST /v1/invoices/{id}/payments. */
export function pay(api: Api, id: string, body: Record<string, unknown>, key?: string): Promise<Reply> {
  return api.request('POST', `/v1/invoices/${id}/payments`, {
    body: { date: '2026-11-21', method: 'bank_transfer', ...body },
    ...(key === undefined ? {} : { key }),
  });
}

/** A payment that must succeed; its response data. */
export async function payOk(t: Test, api: Api, id: string, body: Record<string, unknown>): Promise<Reply['body']> {
  const r = await pay(api, id, body);
  t.equal(r.status, 201, `payment recorded: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/** GET /v1/invoices/{id} that must succeed; the invoice. */
export async function getInvoice(t: Test, api: Api, id: string): Promise<Reply['body']> {
  const r = await api.request('GET', `/v1/invoices/${id}`);
  t.equal(r.status, 200, `invoice ${id} readable`);
  return r.body.data;
}

/** How many invoices GET /v1/invoices reports (meta.total). */
export async function invoiceTotal(api: Api, query = ''): Promise<number> {
  const r = await api.request('GET', `/v1/invoices${query}`);
  if (r.status !== 200) throw new Error(`GET /v1/invoices${query} gave ${r.status}`);
  return r.body.meta.total as number;
}

export interface InvoiceSummary {
  readonly id: string;
  readonly invoiceNumber: string;
  readonly status: string;
  readonly total: number;
  readonly amountDue: number;
}

/** Every invoice, through GET /v1/invoices?limit=100, page by page. */
export async function allInvoices(api: Api): Promise<InvoiceSummary[]> {
  const out: InvoiceSummary[] = [];
  for (let page = 1; ; page++) {
    const r = await api.request('GET', `/v1/invoices?limit=100&page=${page}`);
    if (r.status !== 200) throw new Error(`GET /v1/invoices page ${page} gave ${r.status}`);
    out.push(...(r.body.data as InvoiceSummary[]));
    if (!r.body.meta.hasMore) return out;
  }
}

/**
 * The invoice and payment events of the live outbox in the order they were
 * written (by id, which counts up within a process: the tests’ clock stands still, so created_at ties), with
 * the transaction events left out.
 */
export async function salesEvents(books: Books): Promise<{ event: string; payload: Record<string, unknown> }[]> {
  const rows = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('outbox')
    .select(['event', 'payload'])
    .where((eb) => eb.or([eb('event', 'like', 'invoice.%'), eb('event', 'like', 'payment.%')]))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ event: r.event, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

/** What a refused request must leave as it was: invoices, transactions and outbox rows. */
export async function counts(api: Api, books: Books): Promise<{ invoices: number; transactions: number; outbox: number }> {
  return { invoices: await invoiceTotal(api), transactions: await transactionTotal(api), outbox: (await outbox(books)).length };
}
