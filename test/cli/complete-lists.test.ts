/**
 * Complete JSON: a list under --json prints every row, not the API's first
 * page; with --page or --limit it prints that page with the API's meta, as
 * {data, meta}; the table shows every row too, with the count.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, books } from './support.js';

t.test('every row by default, one page with its meta when asked', async (t) => {
  const { dir } = await books(t);
  // 130 journals: more than the API's largest page (100) and its default (50).
  const journal = path.join(dir, 'journal.jsonl');
  const lines = Array.from({ length: 130 }, (_, i) =>
    JSON.stringify({
      date: `2026-0${1 + (i % 9)}-10`,
      description: `Entry ${i + 1}`,
      lines: [
        { accountCode: '1200', amount: 100 + i },
        { accountCode: '4000', amount: -(100 + i) },
      ],
    }),
  );
  fs.writeFileSync(journal, `${lines.join('\n')}\n`);
  t.equal((await runCliInProcess(['--data', dir, 'import', 'journal', journal])).status, 0);

  const all = await acctJson(t, dir, ['transactions', 'list']);
  t.ok(Array.isArray(all), 'an array, as before');
  t.equal(all.length, 130, 'every row, not the first 50');
  t.equal(new Set(all.map((x: { id: string }) => x.id)).size, 130, 'each once');

  const page = await acctJson(t, dir, ['transactions', 'list', '--limit', '40', '--page', '4']);
  // 130 rows in pages of 40: page 4 holds rows 121–130, 10 of them.
  t.same(page.meta, { total: 130, page: 4, limit: 40, hasMore: false });
  t.equal(page.data.length, 10);
  const first = await acctJson(t, dir, ['transactions', 'list', '--limit', '100']);
  t.same(first.meta, { total: 130, page: 1, limit: 100, hasMore: true });

  const table = await runCliInProcess(['--data', dir, 'transactions', 'list']);
  t.equal(table.status, 0);
  t.equal(table.stdout.match(/ txn_\w+ *$/gm)?.length, 130, 'the table has every row');
  t.match(table.stdout, /130 in all, page 1 of 1\n$/);
});

t.test('one shape for every list under --json: an array, streamed as JSON.stringify would print it whole', async (t) => {
  const { dir } = await books(t);
  // 230 journals: three pages of the API's largest (100), the last part-full.
  const journal = path.join(dir, 'journal.jsonl');
  const lines = Array.from({ length: 230 }, (_, i) =>
    JSON.stringify({
      date: '2026-05-10',
      description: `Entry ${i + 1}`,
      lines: [
        { accountCode: '1200', amount: 100 },
        { accountCode: '4000', amount: -100 },
      ],
    }),
  );
  fs.writeFileSync(journal, `${lines.join('\n')}\n`);
  t.equal((await runCliInProcess(['--data', dir, 'import', 'journal', journal])).status, 0);

  const raw = await runCliInProcess(['--data', dir, '--json', 'transactions', 'list']);
  const rows = JSON.parse(raw.stdout) as { id: string; description: string }[];
  t.equal(rows.length, 230);
  t.equal(raw.stdout, `${JSON.stringify(rows, null, 2)}\n`, 'the text is the array pretty-printed, pages joined without a seam');
  t.equal(new Set(rows.map((r) => r.description)).size, 230, 'no row twice across the pages');

  const none = await runCliInProcess(['--data', dir, '--json', 'contacts', 'list']);
  t.equal(none.stdout, '[]\n', 'an empty list is []');

  // The API wraps these lists in an object; the CLI prints the list itself.
  const accounts = await acctJson(t, dir, ['accounts', 'list', '--flat', 'true']);
  t.ok(Array.isArray(accounts), 'accounts list: an array, not {accounts, meta}');
  t.ok(
    accounts.some((a: { code: string }) => a.code === '1200'),
    'holding the accounts',
  );
  t.ok(Array.isArray(await acctJson(t, dir, ['periods', 'list'])), 'periods list: an array');
  t.ok(Array.isArray(await acctJson(t, dir, ['keys', 'scopes'])), 'keys scopes: an array');
  t.ok(Array.isArray(await acctJson(t, dir, ['accounts', 'types'])), 'accounts types: an array');
  t.match(await acctJson(t, dir, ['transactions', 'get', rows[0]!.id]), { lines: [{}, {}] }, 'a record stays a record');
});
