/**
 * Journal imports as batches, through the CLI (standard input through the real bin/acct): each import is
 * recorded, the same content twice is refused (duplicate_import, exit 4)
 * unless --allow-duplicate, import list shows the batches, and import undo
 * removes a whole batch unless one of its transactions is reconciled or in
 * a closed period.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, runCli, runCliInProcess, runCliInProcessJson, runCliJson, type Books } from '../helpers/index.js';

const entry = (date: string, description: string, lines: [string, number][], status?: 'draft') =>
  JSON.stringify({ date, description, ...(status ? { status } : {}), lines: lines.map(([accountCode, amount]) => ({ accountCode, amount })) });

/**
 * Three entries in FY 2025/26, 7 lines; total debit 500000 + 12000 + 2500 = 514500p (£5,145.00).
 * Trial balance of the journal alone: 1200 Dr 500000 + 12000 − 2500 = 509500; 3000 Cr 500000;
 * 4000 Cr 10000; 2200 Cr 2000; 5100 Dr 2500 (totals 512000 each side).
 */
const journal = [
  entry('2025-04-02', 'Opening capital', [
    ['1200', 500000],
    ['3000', -500000],
  ]),
  entry('2025-05-01', 'Sale', [
    ['1200', 12000],
    ['4000', -10000],
    ['2200', -2000],
  ]),
  entry('2025-06-15', 'Stationery', [
    ['5100', 2500],
    ['1200', -2500],
  ]),
];

function writeJournal(books: Books, name: string, text: string): string {
  const file = path.join(books.dataDir, name);
  fs.writeFileSync(file, text);
  return file;
}

interface Batch {
  id: string;
  source: string;
  contentHash: string;
  status: string;
  transactionCount: number;
  lineCount: number;
  totalDebit: number;
  firstDate: string | null;
  lastDate: string | null;
  createdAt: string;
  createdBy: string;
  createdByName: string;
  undoneAt: string | null;
}

function acct(books: Books, ...args: string[]) {
  return runCliInProcessJson(['--data', books.dataDir, '--json', ...args]);
}

/** The trial balance as code → [debit, credit], with its totals. */
async function trialBalance(t: Test, books: Books): Promise<{ accounts: Record<string, [number, number]>; totals: [number, number] }> {
  // At the end of FY 2025/26, the entries' year (a later year would carry 4000 and 5100 in 3100).
  const r = await acct(books, 'report', 'trial-balance', '--as-of', '2026-03-31');
  t.equal(r.status, 0, r.stderr);
  const data = r.data as { accounts: { code: string; debit: number; credit: number }[]; totals: { debit: number; credit: number } };
  return {
    accounts: Object.fromEntries(data.accounts.map((a) => [a.code, [a.debit, a.credit]])),
    totals: [data.totals.debit, data.totals.credit],
  };
}

async function transactionIds(t: Test, books: Books): Promise<{ id: string; sourceId: string | null }[]> {
  // Every transaction: without --limit the list is read whole.
  const r = await acct(books, 'transactions', 'list');
  t.equal(r.status, 0, r.stderr);
  return r.data as { id: string; sourceId: string | null }[];
}

async function importOk(t: Test, books: Books, file: string, ...flags: string[]): Promise<string> {
  const r = await acct(books, 'import', 'journal', file, ...flags);
  t.equal(r.status, 0, r.stderr);
  return (r.data as { importId: string }).importId;
}

t.test('an import records its batch: source, content hash, counts, total debit, dates, who and when', async (t) => {
  const books = await newBooks(t);
  const file = writeJournal(books, 'history.jsonl', journal.join('\n') + '\n');
  const id = await importOk(t, books, file);
  const got = await acct(books, 'import', 'get', id);
  t.equal(got.status, 0, got.stderr);
  t.match(got.data, {
    id,
    source: 'history.jsonl',
    contentHash: /^[0-9a-f]{64}$/,
    status: 'imported',
    transactionCount: 3,
    lineCount: 7,
    totalDebit: 514500,
    firstDate: '2025-04-02',
    lastDate: '2025-06-15',
    createdAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    createdBy: 'cli',
    undoneAt: null,
    undoneBy: null,
  });
  t.type((got.data as Batch).createdByName, 'string');

  const list = await acct(books, 'import', 'list');
  t.equal(list.status, 0, list.stderr);
  t.same(
    (list.data as Batch[]).map((b) => [b.id, b.transactionCount, b.lineCount, b.totalDebit, b.status]),
    [[id, 3, 7, 514500, 'imported']],
    '--json: the batch with its counts, total debit in pence',
  );

  const table = await runCliInProcess(['--data', books.dataDir, 'import', 'list']);
  t.equal(table.status, 0, table.stderr);
  const row = table.stdout.split('\n').find((l) => l.startsWith(id));
  t.ok(row, 'the table has a row for the batch');
  // 514500p = £5,145.00 in the total debit column; 3 transactions.
  t.match(row, new RegExp(`^${id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+history\\.jsonl\\s+3\\s+5,?145\\.00\\s+imported\\s*$`));
  t.match(table.stdout, /imported at \(UTC\)\s+source\s+transactions\s+total debit\s+status/);
});

t.test('the same content imported again is refused (409 duplicate_import, exit 4), CRLF or not; --allow-duplicate imports it once more', async (t) => {
  const books = await newBooks(t);
  const file = writeJournal(books, 'history.jsonl', journal.join('\n') + '\n');
  const first = await importOk(t, books, file);
  const once = {
    accounts: { '1200': [509500, 0], '2200': [0, 2000], '3000': [0, 500000], '4000': [0, 10000], '5100': [2500, 0] },
    totals: [512000, 512000],
  };
  t.same(await trialBalance(t, books), once, 'the journal once');

  const again = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', file]);
  t.equal(again.status, 4, 'exit 4');
  t.match(again.stderr, 'duplicate_import');
  t.match(again.stderr, first, 'the message names the earlier batch');
  t.match(again.stderr, /imported as \S+ at \d{4}-\d\d-\d\dT/, 'and when it was imported');
  t.equal((await transactionIds(t, books)).length, 3, 'still 3 transactions');
  t.same(await trialBalance(t, books), once, 'the trial balance is unchanged');

  // The same entries with CRLF endings, a blank line in between and no final newline.
  const crlf = writeJournal(books, 'history-windows.jsonl', `${journal[0]}\r\n\r\n${journal[1]}\r\n${journal[2]}`);
  const windows = await runCliInProcessJson(['--data', books.dataDir, '--json', 'import', 'journal', crlf]);
  t.equal(windows.status, 4, 'CRLF endings are the same content');
  t.match(windows.stderr, /"code":\s*"duplicate_import"/);
  const piped = runCli(['--data', books.dataDir, 'import', 'journal', '-'], { input: journal.join('\n') });
  t.equal(piped.status, 4, 'so is the same content on standard input');
  t.equal((await transactionIds(t, books)).length, 3);
  t.same(
    ((await acct(books, 'import', 'list')).data as Batch[]).map((b) => b.id),
    [first],
    'a refused import records no batch',
  );

  const second = await importOk(t, books, crlf, '--allow-duplicate');
  t.not(second, first);
  t.equal((await transactionIds(t, books)).length, 6, '3 more transactions');
  // Everything doubled: 1200 Dr 2 × 509500 = 1019000; 3000 Cr 2 × 500000 = 1000000; 4000 Cr 2 × 10000 = 20000;
  // 2200 Cr 2 × 2000 = 4000; 5100 Dr 2 × 2500 = 5000; totals 2 × 512000 = 1024000.
  t.same(await trialBalance(t, books), {
    accounts: { '1200': [1019000, 0], '2200': [0, 4000], '3000': [0, 1000000], '4000': [0, 20000], '5100': [5000, 0] },
    totals: [1024000, 1024000],
  });
  const batches = (await acct(books, 'import', 'list')).data as Batch[];
  t.same(
    batches.map((b) => [b.id, b.source, b.totalDebit]),
    [
      [second, 'history-windows.jsonl', 514500],
      [first, 'history.jsonl', 514500],
    ],
    'newest first',
  );
  t.equal(batches[0]!.contentHash, batches[1]!.contentHash, 'one content, one hash');
});

t.test('an undone import: the trial balance is back to before it, its transactions are gone, the batch shows undone, and the file imports again', async (t) => {
  const books = await newBooks(t);
  const posted = await runCliInProcess(['--data', books.dataDir, 'post', '2025-04-10', 'Float', '1200=100.00', '3000=-100.00']);
  t.equal(posted.status, 0, posted.stderr);
  // Before: 1200 Dr 10000, 3000 Cr 10000.
  const before = { accounts: { '1200': [10000, 0], '3000': [0, 10000] }, totals: [10000, 10000] };
  t.same(await trialBalance(t, books), before);

  const file = writeJournal(books, 'history.jsonl', journal.join('\n'));
  const id = await importOk(t, books, file);
  // With the journal: 1200 Dr 10000 + 509500 = 519500; 3000 Cr 10000 + 500000 = 510000; totals 512000 + 10000 = 522000.
  t.same(await trialBalance(t, books), {
    accounts: { '1200': [519500, 0], '2200': [0, 2000], '3000': [0, 510000], '4000': [0, 10000], '5100': [2500, 0] },
    totals: [522000, 522000],
  });

  const undo = await acct(books, 'import', 'undo', id);
  t.equal(undo.status, 0, undo.stderr);
  t.match(undo.data, { id, status: 'undone', transactionsRemoved: 3, undoneAt: /^\d{4}-/, undoneBy: 'cli' });
  t.same(await trialBalance(t, books), before, 'the trial balance is what it was before the import');
  const left = await transactionIds(t, books);
  t.equal(left.length, 1, 'only the manual transaction is left');
  t.equal(left[0]!.sourceId, null);

  const list = (await acct(books, 'import', 'list')).data as Batch[];
  t.match(list, [{ id, status: 'undone', transactionCount: 3, undoneAt: /^\d{4}-/ }], 'the batch stays on record, undone');
  const table = await runCliInProcess(['--data', books.dataDir, 'import', 'list']);
  t.match(table.stdout, new RegExp(`${id}.*undone \\d{4}-\\d\\d-\\d\\d`));
  t.same(
    ((await acct(books, 'import', 'list', '--status', 'imported')).data as Batch[]).map((b) => b.id),
    [],
    '--status imported leaves it out',
  );

  const twice = await runCliInProcess(['--data', books.dataDir, 'import', 'undo', id]);
  t.equal(twice.status, 4, 'undoing it again is a conflict');
  t.match(twice.stderr, 'already_voided');

  const again = await importOk(t, books, file);
  t.not(again, id);
  t.same((await trialBalance(t, books)).totals, [522000, 522000], 'an undone batch is no duplicate: the file imports again');
});

t.test('undo is refused, and nothing removed, when one transaction is reconciled or dated in a closed period', async (t) => {
  const books = await newBooks(t);
  const file = writeJournal(books, 'history.jsonl', journal.join('\n'));
  const id = await importOk(t, books, file);
  const sale = ((await acct(books, 'transactions', 'list', '--search', 'Sale')).data as { id: string }[])[0]!.id;
  t.equal((await acct(books, 'transactions', 'reconcile', sale, '--reconciled', 'true')).status, 0);
  const once = await trialBalance(t, books);

  const reconciled = await runCliInProcess(['--data', books.dataDir, 'import', 'undo', id]);
  t.equal(reconciled.status, 4, '409 already_reconciled exits 4');
  t.match(reconciled.stderr, 'already_reconciled');
  t.match(reconciled.stderr, sale, 'the message names the reconciled transaction');
  t.equal((await transactionIds(t, books)).length, 3, 'nothing removed');
  t.same(await trialBalance(t, books), once);
  t.match((await acct(books, 'import', 'get', id)).data, { status: 'imported', undoneAt: null });

  t.equal((await acct(books, 'transactions', 'reconcile', sale, '--reconciled', 'false')).status, 0);
  // FY 2025/26 (1 April 2025 to 31 March 2026) has ended by the time these tests run; all three entries are in it.
  const close = await acct(books, 'periods', 'close', 'period_20250401');
  t.equal(close.status, 0, close.stderr);
  const closed = await runCliInProcess(['--data', books.dataDir, 'import', 'undo', id]);
  t.equal(closed.status, 5, '422 exits 5');
  t.match(closed.stderr, 'unprocessable_entity');
  t.match(closed.stderr, /transaction txn_\w+ of import dimp_\w+: 2025-04-02 falls in FY 2025\/26, which is closed/);
  t.equal((await transactionIds(t, books)).length, 3, 'nothing removed');
  t.same(await trialBalance(t, books), once);
  t.match((await acct(books, 'import', 'get', id)).data, { status: 'imported', undoneAt: null });
});

t.test('imported transactions are journals: reverted to draft, edited and deleted like manual ones; undo takes what is left', async (t) => {
  const books = await newBooks(t);
  const file = writeJournal(books, 'history.jsonl', journal.join('\n'));
  const id = await importOk(t, books, file);
  const stationery = ((await acct(books, 'transactions', 'list', '--search', 'Stationery')).data as { id: string }[])[0]!.id;
  const sale = ((await acct(books, 'transactions', 'list', '--search', 'Sale')).data as { id: string }[])[0]!.id;

  const posted = await runCliInProcess(['--data', books.dataDir, 'transactions', 'delete', stationery]);
  t.equal(posted.status, 5, 'a posted import is not deleted: revert it to draft first, as a manual one');
  t.match(posted.stderr, 'revert it to draft first');

  t.match((await acct(books, 'transactions', 'status', stationery, '--status', 'draft')).data, { id: stationery, status: 'draft' });
  t.equal((await acct(books, 'transactions', 'delete', stationery)).status, 0, 'a draft import is deleted');

  t.match((await acct(books, 'transactions', 'status', sale, '--status', 'draft')).data, { status: 'draft' });
  const body = JSON.stringify({ description: 'Sale, corrected', status: 'posted' });
  t.equal((await acct(books, 'transactions', 'update', sale, '--body', body)).status, 0, 'a draft import is edited and posted again');
  const edited = (await acct(books, 'transactions', 'get', sale)).data;
  t.match(edited, { description: 'Sale, corrected', status: 'posted', sourceType: 'import', sourceId: id }, 'it keeps its import');

  // Left: capital (1200 Dr 500000, 3000 Cr 500000) and the sale (1200 Dr 12000, 4000 Cr 10000, 2200 Cr 2000).
  t.same(await trialBalance(t, books), {
    accounts: { '1200': [512000, 0], '2200': [0, 2000], '3000': [0, 500000], '4000': [0, 10000] },
    totals: [512000, 512000],
  });
  const undo = await acct(books, 'import', 'undo', id);
  t.match(undo.data, { status: 'undone', transactionCount: 3, transactionsRemoved: 2 }, 'the edited one goes too; the deleted one was gone');
  t.same(await trialBalance(t, books), { accounts: {}, totals: [0, 0] });
});

t.test('an empty journal, on standard input too, is refused and records no batch', async (t) => {
  const books = await newBooks(t);
  for (const input of ['\n\n', '']) {
    const r = runCliJson(['--data', books.dataDir, '--json', 'import', 'journal', '-'], { input });
    t.equal(r.status, 2, r.stderr);
    t.match(r.stderr, 'standard input holds no transactions: nothing was imported');
  }
  t.same((await acct(books, 'import', 'list')).data, []);
});

t.test('acct import --help lists journal, list, get and undo; acct import journal --help tells of batches', async (t) => {
  const help = await runCliInProcess(['import', '--help']);
  t.equal(help.status, 0);
  for (const cmd of ['journal', 'list', 'get', 'undo']) t.match(help.stdout, new RegExp(`^  ${cmd}\\b`, 'm'), cmd);
  const journalHelp = await runCliInProcess(['import', 'journal', '--help']);
  t.match(journalHelp.stdout, '--allow-duplicate');
  t.match(journalHelp.stdout, 'duplicate_import');
  t.match(journalHelp.stdout, 'import undo');
});
