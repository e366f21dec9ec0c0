/** Books for the VAT tests over HTTP: documents, journals, and the returns of VAT periods. */
import type { Test } from 'tap';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';
import { newBooks, serveBooks, type Api, type Books } from '../helpers/index.js';
import { accountIds, balanceOf, contactOk } from '../ledger-http/support.js';

export interface Item {
  readonly description?: string;
  readonly quantity?: number;
  readonly unitPrice: number;
  readonly vatRate?: 'standard' | 'reduced' | 'zero' | 'exempt';
  readonly account?: string;
}

export interface VatBooks {
  readonly books: Books;
  readonly api: Api;
  readonly acc: Record<string, string>;
  /** An invoice issued (sent) on `date`; its id. */
  invoice(date: string, items: readonly Item[]): Promise<string>;
  /** A bill approved on `date`; its id. */
  bill(date: string, items: readonly Item[]): Promise<string>;
  /** A posted manual transaction: [account code, pence, VAT facts?]; its id. */
  journal(date: string, lines: readonly [string, number, { vatRate: number; vatTreatment: 'inclusive' | 'exclusive' }?][]): Promise<string>;
  /** The return of a period (GET /v1/vat/periods/{key}): 200 expected. */
  show(key: string): Promise<Record<string, unknown> & { boxes: Record<string, number>; exact: Record<string, number> }>;
  /** File a period (201 expected); the filed return. */
  file(key: string): Promise<Record<string, unknown> & { id: string; boxes: Record<string, number>; transactionId: string | null }>;
  /** An account's net balance (debit positive), by code. */
  balance(code: string): Promise<number>;
}

export async function vatBooks(t: Test, organisation: Partial<NewOrganisation>, clock: string): Promise<VatBooks> {
  const books = await newBooks(t, { clock, organisation });
  const api = await serveBooks(t, books);
  const acc = await accountIds(t, api);
  const customer = await contactOk(t, api);
  const supplier = await contactOk(t, api, { contactType: 'supplier', name: 'Supplies Ltd' });
  const items = (list: readonly Item[]) =>
    list.map((i) => ({
      description: i.description ?? 'Work',
      quantity: i.quantity ?? 1,
      unitPrice: i.unitPrice,
      vatRate: i.vatRate ?? 'standard',
      ...(i.account === undefined ? {} : { accountId: acc[i.account] }),
    }));
  const ok = (r: { status: number; body: { data?: unknown; error?: unknown } }, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body.error)}`);
    return r.body.data as Record<string, unknown> & { id: string };
  };
  return {
    books,
    api,
    acc,
    async invoice(date, list) {
      const r = ok(await api.request('POST', '/v1/invoices', { body: { contactId: customer, issueDate: date, items: items(list) } }), 201, 'invoice');
      ok(await api.request('POST', `/v1/invoices/${r.id}/send`), 200, 'send');
      return r.id;
    },
    async bill(date, list) {
      const r = ok(await api.request('POST', '/v1/bills', { body: { contactId: supplier, issueDate: date, items: items(list) } }), 201, 'bill');
      ok(await api.request('POST', `/v1/bills/${r.id}/approve`), 200, 'approve');
      return r.id;
    },
    async journal(date, lines) {
      const r = await api.request('POST', '/v1/transactions', {
        body: { date, description: `Journal ${date}`, status: 'posted', lines: lines.map(([code, amount, vat]) => ({ accountId: acc[code], amount, ...vat })) },
      });
      return ok(r, 201, 'journal').id;
    },
    async show(key) {
      return ok(await api.request('GET', `/v1/vat/periods/${key}`), 200, `show ${key}`) as never;
    },
    async file(key) {
      return ok(await api.request('POST', `/v1/vat/periods/${key}/file`), 201, `file ${key}`) as never;
    },
    async balance(code) {
      return (await balanceOf(api, acc[code]!)).net;
    },
  };
}
