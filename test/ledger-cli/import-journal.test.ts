import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson, runCliJson } from '../helpers/index.js';

const entry = (date: string, description: string, lines: [string, number][]) =>
  JSON.stringify({ date, description, lines: lines.map(([accountCode, amount]) => ({ accountCode, amount })) });

t.test('acct import journal loads every entry through posting', async (t) => {
  const books = await newBooks(t);
  const file = path.join(books.dataDir, 'history.jsonl');
  fs.writeFileSync(
    file,
    [
      entry('2025-04-02', 'Opening capital', [
        ['1200', 500000],
        ['3000', -500000],
      ]),
      '',
      entry('2025-05-01', 'Sale', [
        ['1200', 12000],
        ['4000', -10000],
        ['2200', -2000],
      ]),
      JSON.stringify({
        date: '2025-05-02',
        description: 'Draft',
        reference: 'D1',
        status: 'draft',
        lines: [
          { accountCode: '5100', amount: 1 },
          { accountCode: '1200', amount: -1 },
        ],
      }),
    ].join('\n'),
  );
  const r = await runCliInProcessJson(['--data', books.dataDir, '--json', 'import', 'journal', file]);
  t.equal(r.status, 0, r.stderr);
  t.match(r.data, { transactions: 3, lines: 7, importId: /^dimp_/ });
  const list = (await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list', '--sort', 'date'])).data as {
    sourceType: string;
    sourceId: string;
    status: string;
  }[];
  t.same(
    list.map((x) => x.status),
    ['posted', 'posted', 'draft'],
  );
  for (const x of list) t.match(x, { sourceType: 'import', sourceId: (r.data as { importId: string }).importId });
  const bank = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '1200']);
  t.match(bank.data, { closingBalance: 512000 });
});

t.test('a journal with any refused entry imports nothing and lists every refusal with its line', async (t) => {
  const books = await newBooks(t);
  const file = path.join(books.dataDir, 'bad.jsonl');
  fs.writeFileSync(
    file,
    [
      entry('2025-05-01', 'Fine', [
        ['1200', 100],
        ['4000', -100],
      ]),
      entry('2025-05-01', 'Unbalanced', [
        ['1200', 100],
        ['4000', -90],
      ]),
      'not json',
      entry('2025-13-01', 'Bad date', [
        ['1200', 1],
        ['4000', -1],
      ]),
      entry('2025-05-01', 'Unknown code', [
        ['1200', 1],
        ['7777', -1],
      ]),
    ].join('\n'),
  );
  const r = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', file]);
  t.equal(r.status, 2);
  t.match(r.stderr, "validation_error: 4 of the journal's entries were refused, so nothing was imported:");
  t.match(r.stderr, 'line 2: lines do not balance: debits £1.00, credits £0.90, difference £0.10');
  t.match(r.stderr, 'line 3: not JSON');
  t.match(r.stderr, 'line 4: date must be a date in YYYY-MM-DD format');
  t.match(r.stderr, 'line 5: lines[1].accountCode: no account with code 7777');
  const list = await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list']);
  t.same(list.data, [], 'not even the good entry was written');
});

t.test('a journal can come on standard input, and an import raises no per-transaction events', async (t) => {
  const books = await newBooks(t);
  const lines = Array.from({ length: 2500 }, (_, i) =>
    entry('2025-06-01', `Entry ${i}`, [
      ['5100', i + 1],
      ['1200', -(i + 1)],
    ]),
  );
  const r = runCliJson(['--data', books.dataDir, '--json', 'import', 'journal', '-'], { input: lines.join('\n') });
  t.equal(r.status, 0, r.stderr);
  t.match(r.data, { transactions: 2500, lines: 5000 });
  const outbox = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  t.equal(Number(outbox.n), 0);
  const ledger = await runCliInProcessJson(['--data', books.dataDir, '--json', 'ledger', '5100']);
  // 1 + 2 + … + 2500 = 2500 × 2501 / 2
  t.match(ledger.data, { closingBalance: 3126250 });
});

t.test('a journal that cannot be read is refused as bad input, naming the file', async (t) => {
  const books = await newBooks(t);
  const missing = path.join(books.dataDir, 'nope.jsonl');
  const r = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', missing]);
  t.equal(r.status, 2, r.stderr);
  t.match(r.stderr, `validation_error: cannot read ${missing}: ENOENT`);
  t.notMatch(r.stderr, 'internal_error');
  const dir = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', books.dataDir]);
  t.equal(dir.status, 2, dir.stderr);
  t.match(dir.stderr, `validation_error: cannot read ${books.dataDir}: EISDIR`);
  t.notMatch(dir.stderr, 'internal_error');
  const batches = await runCliInProcessJson(['--data', books.dataDir, '--json', 'import', 'list']);
  t.same(batches.data, [], 'no batch recorded');
});

t.test('a journal with no transactions is refused and no empty batch is recorded', async (t) => {
  const books = await newBooks(t);
  for (const [name, text] of [
    ['empty.jsonl', ''],
    ['blank.jsonl', '\n  \n\n'],
  ] as const) {
    const file = path.join(books.dataDir, name);
    fs.writeFileSync(file, text);
    const r = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', file]);
    t.equal(r.status, 2, r.stderr);
    t.match(r.stderr, `validation_error: ${name} holds no transactions: nothing was imported`);
  }
  const batches = await runCliInProcessJson(['--data', books.dataDir, '--json', 'import', 'list']);
  t.same(batches.data, [], 'no batch recorded');
});

t.test('a journal line on 1100 or 2100 is refused as a manual one is: line and field named, nothing imported', async (t) => {
  const books = await newBooks(t);
  const apAdjustment = entry('2026-11-30', 'AP adj', [
    ['2100', -5000],
    ['5100', 5000],
  ]);
  const r = runCliJson(['--data', books.dataDir, 'import', 'journal', '-'], { input: apAdjustment });
  t.equal(r.status, 2, r.stderr);
  t.match(r.stderr, /line 1: lines\[0\]\.accountCode: 2100 Accounts Payable is the payables control account.*aged creditors would no longer agree/);
  const file = path.join(books.dataDir, 'mixed.jsonl');
  fs.writeFileSync(
    file,
    [
      entry('2026-11-01', 'Fine', [
        ['1200', 100],
        ['4000', -100],
      ]),
      entry('2026-11-02', 'AR adj', [
        ['4000', 2500],
        ['1100', -2500],
      ]),
      apAdjustment,
    ].join('\n'),
  );
  const mixed = await runCliInProcess(['--data', books.dataDir, 'import', 'journal', file]);
  t.equal(mixed.status, 2, mixed.stderr);
  t.match(mixed.stderr, /2 of the journal's entries were refused/);
  t.match(mixed.stderr, /line 2: lines\[1\]\.accountCode: 1100 Accounts Receivable is the receivables control account/);
  t.match(mixed.stderr, /line 3: lines\[0\]\.accountCode: 2100 Accounts Payable/);
  const list = await runCliInProcessJson(['--data', books.dataDir, '--json', 'transactions', 'list']);
  t.same(list.data, [], 'not even the good entry was written');
  const batches = await runCliInProcessJson(['--data', books.dataDir, '--json', 'import', 'list']);
  t.same(batches.data, [], 'no batch recorded');
});
