/**
 * Complete JSON: a list under --json prints every row, not the API's first
 * page; with --page or --limit it prints that page with the API's meta, as
 * {data, meta}; the table shows every row too, with the count.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, books } from './support.js';

t.test('every row by default, one page with its meta when asked', async (t) => {
  const { dir } = await books(t);
  // 130 journals: more than the API's largest page (100) and its default (50).
  const journal = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acct-lists-')), 'j.jsonl');
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
