/** Helpers shared by the ledger HTTP tests (not a test file itself). */
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api, type Books, type Reply } from '../helpers/index.js';
import type { Clock } from '../../src/engine/clock.js';

export { expectError, createKey } from '../http/support.js';

/** 21 November 2026: FY 2025/26 (2025-04-01..2026-03-31) has ended and can be closed. */
export const clock = '2026-11-21T10:00:00Z';

export interface Ledger {
  readonly books: Books;
  readonly api: Api;
  /** Account ids of the provisioned chart, by code. */
  readonly acc: Readonly<Record<string, string>>;
}

/** A fresh organisation (limited company, UK chart) served over real HTTP, with its account ids by code. */
export async function ledger(t: Test, options: { clock?: Clock | string } = {}): Promise<Ledger> {
  const books = await newBooks(t, { clock: options.clock ?? clock });
  const api = await serveBooks(t, books);
  const acc = await accountIds(t, api);
  return { books, api, acc };
}

/** Account ids by code, read through GET /v1/accounts?flat=true. */
export async function accountIds(t: Test, api: Api, key?: string): Promise<Record<string, string>> {
  const r = await api.request('GET', '/v1/accounts?flat=true', key === undefined ? {} : { key });
  t.equal(r.status, 200, 'chart listed');
  const out: Record<string, string> = {};
  for (const a of r.body.data.accounts as { id: string; code: string }[]) out[a.code] = a.id;
  return out;
}

export interface LineBody {
  accountId: string;
  amount: number;
  [field: string]: unknown;
}

/** POST /v1/transactions. */
export function post(api: Api, body: { date?: string; description?: string; lines: LineBody[]; [field: string]: unknown }, key?: string): Promise<Reply> {
  return api.request('POST', '/v1/transactions', {
    body: { date: '2026-02-05', description: 'Test transaction', ...body },
    ...(key === undefined ? {} : { key }),
  });
}

/** POST a transaction that must succeed; its id. */
export async function postOk(t: Test, api: Api, body: Parameters<typeof post>[1]): Promise<string> {
  const r = await post(api, body);
  t.equal(r.status, 201, `created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.id as string;
}

/** The number of transactions GET /v1/transactions reports (meta.total). */
export async function transactionTotal(api: Api, query = ''): Promise<number> {
  const r = await api.request('GET', `/v1/transactions${query}`);
  if (r.status !== 200) throw new Error(`GET /v1/transactions${query} gave ${r.status}`);
  return r.body.meta.total as number;
}

/** The rows of the live outbox, oldest first. */
export async function outbox(books: Books): Promise<{ event: string; payload: { id?: string; status?: string } }[]> {
  const rows = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('outbox')
    .select(['event', 'payload', 'created_at', 'id'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ event: r.event, payload: JSON.parse(r.payload) as { id?: string; status?: string } }));
}

/** How many rows the live lines table holds (optionally for one transaction). */
export async function lineCount(books: Books, transactionId?: string): Promise<number> {
  let q = books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('lines')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  if (transactionId !== undefined) q = q.where('transaction_id', '=', transactionId);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** GET /v1/accounts/{id}/balance data.balance (debit, credit, net), over all dates unless a query is given. */
export async function balanceOf(api: Api, accountId: string, query = ''): Promise<{ debit: number; credit: number; net: number }> {
  const r = await api.request('GET', `/v1/accounts/${accountId}/balance${query}`);
  if (r.status !== 200) throw new Error(`balance of ${accountId} gave ${r.status}`);
  return r.body.data.balance;
}

/**
 * File the VAT returns of these periods (YYYY-MM, the month each ends), in order: a year holding VAT not yet on a
 * filed return cannot be closed. Filing moves each return's VAT to 2202 VAT Liability on the period's last day.
 */
export async function fileVat(t: Test, api: Api, ...periods: string[]): Promise<void> {
  for (const period of periods) {
    const r = await api.request('POST', `/v1/vat/periods/${period}/file`);
    t.equal(r.status, 201, `VAT return ${period} filed: ${JSON.stringify(r.body?.error ?? '')}`);
  }
}

/** Close FY 2025/26 (2025-04-01..2026-03-31). */
export async function closeFy2025(t: Test, api: Api): Promise<void> {
  const r = await api.request('POST', '/v1/reports/periods/period_20250401/close');
  t.equal(r.status, 200, 'FY 2025/26 closed');
}

/** POST /v1/contacts (a customer unless said otherwise); its id. */
export async function contactOk(t: Test, api: Api, body: Record<string, unknown> = {}): Promise<string> {
  const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Client One Ltd', ...body } });
  t.equal(r.status, 201, `contact created: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data.id as string;
}
