/** Shared by the import and migration tests: books served over HTTP, account ids by code, and a tally of what the books hold. */
import fs from 'node:fs';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Books } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';

export const fixture = (path: string) => fs.readFileSync(projectFile(`fixtures/migrations/${path}`), 'utf8');

/** Books served over HTTP; the clock is 24 November 2026 unless given (the document imports read overdue against it). */
export async function world(t: Test, organisation: Partial<NewOrganisation> = {}, clock = '2026-11-24T10:00:00Z') {
  const books = await newBooks(t, { clock, organisation });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => {
    const found = accounts.find((a) => a.code === code);
    if (!found) throw new Error(`no account ${code}`);
    return found.id;
  };
  return { books, api, id };
}

const tables = [
  'transactions',
  'lines',
  'data_imports',
  'data_import_rows',
  'contacts',
  'invoices',
  'document_items',
  'payments',
  'migrations',
  'accounts',
  'outbox',
  'idempotency_keys',
  'import_batches',
] as const;

/** How many rows each table of the books holds: equal before and after a refused request when nothing was written. */
export async function tally(books: Books): Promise<Record<(typeof tables)[number], number>> {
  const db = books.store.org(books.organisationId, 'live').db;
  const out = {} as Record<(typeof tables)[number], number>;
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

/** The trial balance at a date as code → pence (debit − credit), accounts with a balance only. */
export async function trialBalanceAt(api: Awaited<ReturnType<typeof world>>['api'], asOf: string): Promise<Record<string, number>> {
  const r = await api.request('GET', `/v1/reports/trial-balance?asOf=${asOf}`);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const out: Record<string, number> = {};
  for (const a of r.body.data.accounts as { code: string; debit: number; credit: number }[]) out[a.code] = a.debit - a.credit;
  return out;
}

export interface ContactOut {
  id: string;
  name: string;
  contactType: string;
  email: string | null;
  phone: string | null;
  addressLine1: string | null;
  city: string | null;
  postalCode: string | null;
  vatNumber: string | null;
  companyNumber: string | null;
  paymentTerms: number | null;
}

/** Every active contact (GET /v1/contacts, up to 100) by name; throws when two share a name, so a duplicate cannot hide. */
export async function contactsByName(api: Awaited<ReturnType<typeof world>>['api']): Promise<Map<string, ContactOut>> {
  const r = await api.request('GET', '/v1/contacts?limit=100');
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const out = new Map<string, ContactOut>();
  for (const c of r.body.data as ContactOut[]) {
    if (out.has(c.name)) throw new Error(`two contacts named ${c.name}`);
    out.set(c.name, c);
  }
  return out;
}
