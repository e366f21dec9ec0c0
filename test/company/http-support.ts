/**
 * Helpers of the company tests over HTTP (not a test file itself): books
 * of a limited company on a real port, today 3 December 2026; directors,
 * loan movements and journals by account code, the trial balance of one
 * account and the count of transactions.
 */
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';

export async function company(t: Test) {
  const books = await newBooks(t, { clock: '2026-12-03T10:00:00Z' });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const director = async (body: Record<string, unknown>) => {
    const r = await api.request('POST', '/v1/directors', { body });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
    return r.body.data.id as string;
  };
  const movement = async (directorId: string, date: string, amountPence: number, loanType = 'loan_to_director') => {
    const r = await api.request('POST', '/v1/director-loans', { body: { directorId, date, description: 'Loan', amountPence, loanType } });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  };
  const journal = async (date: string, description: string, lines: [string, number][]) => {
    const r = await api.request('POST', '/v1/transactions', {
      body: { date, description, lines: lines.map(([code, amount]) => ({ accountId: id(code), amount })) },
    });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  };
  return { api, id, director, movement, journal };
}

export async function transactionCount(api: Api): Promise<number> {
  return (await api.request('GET', '/v1/transactions?limit=1')).body.meta.total as number;
}

/** An account's trial balance at asOf: debit less credit. */
export async function trialBalance(api: Api, asOf: string, code: string): Promise<number> {
  const tb = (await api.request('GET', `/v1/reports/trial-balance?asOf=${asOf}`)).body.data;
  const row = (tb.accounts as { code: string; debit: number; credit: number }[]).find((a) => a.code === code);
  return row === undefined ? 0 : row.debit - row.credit;
}
