/** Shared by the import and migration tests: books served over HTTP, account ids by code, and a tally of what the books hold. */
import fs from 'node:fs';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Books } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';
import type { NewOrganisation } from '../../src/engine/organisation/provision.js';

export const fixture = (path: string) => fs.readFileSync(projectFile(`fixtures/migrations/${path}`), 'utf8');

export async function world(t: Test, organisation: Partial<NewOrganisation> = {}) {
  const books = await newBooks(t, { clock: '2026-11-24T10:00:00Z', organisation });
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
