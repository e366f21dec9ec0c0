/**
 * Manual journals keep off the receivables (1100) and payables (2100)
 * control accounts, which invoices, bills, payments and credit notes keep:
 * a journal line there belongs to no document, so the aged reports would
 * no longer total to the control account. POST, PUT of a draft and posting
 * a draft are refused with 400 on lines[i].accountId, and nothing is
 * written; a document's own entries and other accounts still post.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { createTransaction } from '../../src/engine/ledger/posting.js';
import { runCliInProcessJson, type Books } from '../helpers/index.js';
import { expectError, ledger, lineCount, post, postOk, transactionTotal, type Ledger } from './support.js';

/** A journal of £50.00 between `code` (debit 5000 pence) and 4000 Sales (credit). */
const journal = (acc: Ledger['acc'], code: string, status: 'draft' | 'posted' = 'posted') => ({
  date: '2026-11-13',
  description: 'AR journal',
  status,
  lines: [
    { accountId: acc[code]!, amount: 5000 },
    { accountId: acc['4000']!, amount: -5000 },
  ],
});

/** The trial balance's debit and credit of an account at 2026-11-21 (0 when it has no row). */
async function trialRow(api: Ledger['api'], code: string): Promise<{ debit: number; credit: number }> {
  const r = await api.request('GET', '/v1/reports/trial-balance?asOf=2026-11-21');
  if (r.status !== 200) throw new Error(`trial balance gave ${r.status}`);
  const row = (r.body.data.accounts as { code: string; debit: number; credit: number }[]).find((a) => a.code === code);
  return { debit: row?.debit ?? 0, credit: row?.credit ?? 0 };
}

/** A draft journal (manual, or imported) as the books may hold it from before the rule: written by posting in-process, past the journal checks. */
async function legacyJournal(books: Books, acc: Ledger['acc'], code: string, sourceType: 'manual' | 'import' = 'manual'): Promise<string> {
  const view = await books.store
    .org(books.organisationId, 'live')
    .write((trx) =>
      createTransaction(
        trx,
        { clock: books.clock, actor: { id: 'usr_test', name: 'Test' } },
        { ...journal(acc, code, 'draft'), sourceType, sourceId: sourceType === 'import' ? 'dimp_01kaz3v0xk7q2m9d4c8f6h1j5n' : null },
      ),
    );
  return view.id;
}

const why = (code: string, kept: string) =>
  new RegExp(
    `lines\\[0\\]\\.accountId: ${code} .* is the ${kept} control account.*aged ${kept === 'receivables' ? 'debtors' : 'creditors'} would no longer agree.*record an? ${kept === 'receivables' ? 'invoice' : 'bill'}`,
  );

t.test('POST /transactions refuses a line on 1100 or 2100 (posted or draft): 400 on lines[i].accountId, nothing written', async (t) => {
  const { books, api, acc } = await ledger(t);
  for (const [code, kept] of [
    ['1100', 'receivables'],
    ['2100', 'payables'],
  ] as const) {
    for (const status of ['posted', 'draft'] as const) {
      const r = await post(api, journal(acc, code, status));
      expectError(t, r, 400, 'validation_error', { field: 'lines[0].accountId', message: why(code, kept) });
      t.match(r.body.error.message, /credit note/, 'names the routes that do post there');
    }
  }
  // The line's index is the one sent: the control account second.
  const second = await post(api, {
    date: '2026-11-13',
    description: 'AP journal',
    lines: [
      { accountId: acc['5000']!, amount: 5000 },
      { accountId: acc['2100']!, amount: -5000 },
    ],
  });
  expectError(t, second, 400, 'validation_error', { field: 'lines[1].accountId' });
  t.equal(await transactionTotal(api), 0, 'no transaction written');
  t.equal(await lineCount(books), 0, 'no line written');
  t.same(await trialRow(api, '1100'), { debit: 0, credit: 0 }, '1100 untouched');
  const aged = await api.request('GET', '/v1/reports/aged-debtors?asOfDate=2026-11-21');
  t.equal(aged.status, 200);
  t.equal(aged.body.data.totals.total, 0, 'aged debtors total 0, as 1100');

  // Other asset and liability accounts still take journals: 1150 debit 5000, 4000 credit 5000.
  await postOk(t, api, journal(acc, '1150'));
  t.same(await trialRow(api, '1150'), { debit: 5000, credit: 0 });
});

t.test('PUT of a draft refuses lines on 1100 or 2100; the draft stays as it was', async (t) => {
  const { books, api, acc } = await ledger(t);
  const id = await postOk(t, api, journal(acc, '1150', 'draft'));
  const before = (await api.request('GET', `/v1/transactions/${id}`)).body.data;
  for (const [code, kept] of [
    ['1100', 'receivables'],
    ['2100', 'payables'],
  ] as const) {
    const r = await api.request('PUT', `/v1/transactions/${id}`, { body: { lines: journal(acc, code).lines } });
    expectError(t, r, 400, 'validation_error', { field: 'lines[0].accountId', message: why(code, kept) });
    const posting = await api.request('PUT', `/v1/transactions/${id}`, { body: { status: 'posted', lines: journal(acc, code).lines } });
    expectError(t, posting, 400, 'validation_error', { field: 'lines[0].accountId' });
  }
  const after = (await api.request('GET', `/v1/transactions/${id}`)).body.data;
  t.same(after, before, 'the draft, its lines and its status unchanged');
  t.equal(await lineCount(books, id), 2);
});

t.test('posting a draft journal on 1100 or 2100 (made before the rule) is refused; it may be corrected or deleted', async (t) => {
  const { books, api, acc } = await ledger(t);
  for (const [code, kept] of [
    ['1100', 'receivables'],
    ['2100', 'payables'],
  ] as const) {
    const id = await legacyJournal(books, acc, code);
    const r = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } });
    expectError(t, r, 400, 'validation_error', { field: 'lines[0].accountId', message: why(code, kept) });
    const put = await api.request('PUT', `/v1/transactions/${id}`, { body: { status: 'posted' } });
    expectError(t, put, 400, 'validation_error', { field: 'lines[0].accountId' });
    const view = await api.request('GET', `/v1/transactions/${id}`);
    t.equal(view.body.data.status, 'draft', 'still a draft');
    t.same(await trialRow(api, code), { debit: 0, credit: 0 }, `${code} untouched`);
    // Moving the line to another account lets it post: 1150 debit 5000.
    const fixed = await api.request('PUT', `/v1/transactions/${id}`, { body: { status: 'posted', lines: journal(acc, '1150').lines } });
    t.equal(fixed.status, 200, JSON.stringify(fixed.body?.error ?? ''));
  }
  t.same(await trialRow(api, '1150'), { debit: 10000, credit: 0 }, 'both corrected journals: 5000 + 5000');
  const stray = await legacyJournal(books, acc, '1100');
  t.equal((await api.request('DELETE', `/v1/transactions/${stray}`)).status, 200, 'a draft on 1100 may still be deleted');
});

t.test('an imported draft journal keeps off 1100 and 2100 too: PUT of its lines and posting it are refused; it may be deleted', async (t) => {
  const { books, api, acc } = await ledger(t);
  const file = path.join(books.dataDir, 'drafts.jsonl');
  const line = (accountCode: string, amount: number) => ({ accountCode, amount });
  fs.writeFileSync(
    file,
    JSON.stringify({ date: '2026-11-13', description: 'Imported draft', status: 'draft', lines: [line('1150', 5000), line('4000', -5000)] }),
  );
  const imported = await runCliInProcessJson(['--data', books.dataDir, '--org', books.organisationId, '--json', 'import', 'journal', file]);
  t.equal(imported.status, 0, imported.stderr);
  const id = (await api.request('GET', '/v1/transactions')).body.data[0].id as string;
  for (const [code, kept] of [
    ['1100', 'receivables'],
    ['2100', 'payables'],
  ] as const) {
    const r = await api.request('PUT', `/v1/transactions/${id}`, { body: { lines: journal(acc, code).lines } });
    expectError(t, r, 400, 'validation_error', { field: 'lines[0].accountId', message: why(code, kept) });
    const legacy = await legacyJournal(books, acc, code, 'import');
    const posting = await api.request('PATCH', `/v1/transactions/${legacy}/status`, { body: { status: 'posted' } });
    expectError(t, posting, 400, 'validation_error', { field: 'lines[0].accountId', message: why(code, kept) });
    const put = await api.request('PUT', `/v1/transactions/${legacy}`, { body: { status: 'posted' } });
    expectError(t, put, 400, 'validation_error', { field: 'lines[0].accountId' });
    t.same(await trialRow(api, code), { debit: 0, credit: 0 }, `${code} untouched`);
    t.equal((await api.request('DELETE', `/v1/transactions/${legacy}`)).status, 200, `an imported draft on ${code} may still be deleted`);
  }
  t.equal(await lineCount(books, id), 2, 'the imported draft keeps its two lines');
  const posted = await api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: 'posted' } });
  t.equal(posted.status, 200, 'posted on its own accounts');
  t.same(await trialRow(api, '1150'), { debit: 5000, credit: 0 });
});

t.test("a document's entries still post to 1100: an invoice of £50.00 shows in 1100 and aged debtors alike", async (t: Test) => {
  const { api, acc } = await ledger(t);
  const customer = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Client One Ltd' } });
  t.equal(customer.status, 201);
  const invoice = await api.request('POST', '/v1/invoices', {
    body: {
      contactId: customer.body.data.id,
      issueDate: '2026-11-13',
      items: [{ description: 'Work', quantity: 1, unitPrice: 5000, vatRate: 'zero', accountId: acc['4000'] }],
    },
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body?.error ?? ''));
  const sent = await api.request('POST', `/v1/invoices/${invoice.body.data.id}/send`, { body: {} });
  t.equal(sent.status, 200, JSON.stringify(sent.body?.error ?? ''));
  // £50.00 net at 0% VAT: 1100 debit 5000, aged debtors 5000.
  t.same(await trialRow(api, '1100'), { debit: 5000, credit: 0 });
  const aged = await api.request('GET', '/v1/reports/aged-debtors?asOfDate=2026-11-21');
  t.equal(aged.body.data.totals.total, 5000);
});
