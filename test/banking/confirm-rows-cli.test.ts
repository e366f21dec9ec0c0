/**
 * `acct bank-imports confirm IMPORT --rows 1,3` through the commander
 * program: a comma-separated list of numbers reaches the API as numbers
 * (it was sent as text, and every call failed "rows[0] must be a number,
 * not string"); the help says the flag takes the rows' ids, which
 * `acct bank-imports get` shows in its id column.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { books, cliOn } from '../cli/support.js';
import { runCliInProcess } from '../helpers/index.js';

const statement = ['Date,Description,Amount', '01/12/2026,FIRST,-100.00', '02/12/2026,SECOND,-10.00', '03/12/2026,THIRD,-1.00', ''].join('\n');

t.test('--rows takes a comma-separated list of row ids, as numbers', async (t) => {
  const { dir } = await books(t);
  const { json } = cliOn(t, dir);
  const file = path.join(dir, 'statement.csv');
  fs.writeFileSync(file, statement);
  const up = (await json('bank-imports', 'upload', '--file', file)) as { importId: string };
  const got = (await json('bank-imports', 'get', up.importId)) as { rows: { id: number; description: string }[] };
  const ids = Object.fromEntries(got.rows.map((r) => [r.description, r.id]));

  const bad = await runCliInProcess(['--data', dir, 'bank-imports', 'confirm', up.importId, '--rows', `${ids['FIRST']},x`]);
  t.equal(bad.status, 2, 'text among the numbers is still refused');
  t.match(bad.stderr, /rows\[1\]/, 'naming the item');

  const done = (await json('bank-imports', 'confirm', up.importId, '--rows', `${ids['FIRST']},${ids['THIRD']}`)) as Record<string, number>;
  // Rows FIRST and THIRD created (−£100.00 and −£1.00), SECOND skipped: 2 + 1 = 3 rows in all.
  t.match(done, { created: 2, skipped: 1, total: 3 });
  const after = (await json('bank-imports', 'get', up.importId)) as { rows: { description: string; transactionId: string | null }[] };
  t.same(
    after.rows.map((r) => [r.description, r.transactionId !== null]),
    [
      ['FIRST', true],
      ['SECOND', false],
      ['THIRD', true],
    ],
  );
});

t.test('the help of --rows says it takes the rows’ ids, as bank-imports get shows them', async (t) => {
  const help = await runCliInProcess(['bank-imports', 'confirm', '--help']);
  t.equal(help.status, 0, help.stderr);
  // The flag's words, wrapped over lines in the help, read as one.
  const line = help.stdout.slice(help.stdout.indexOf('--rows'), help.stdout.indexOf('--duplicates')).replace(/\s+/g, ' ');
  t.match(line, /row ids/);
  t.match(line, /bank-imports get/);
  t.notMatch(line, /row numbers/);
});
