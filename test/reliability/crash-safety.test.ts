/**
 * A journal import killed with SIGKILL at random (seeded) moments leaves a
 * sound database holding either the whole file and its batch record or
 * none of it, and a ledger whose posted lines sum to 0.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { acctCommand, anotherStore, childEnv, newBooks, type Books } from '../helpers/index.js';
import { orgFile } from '../../src/store/data-dir.js';

const entries = 3000;
const runs = 20;
/** Replay a failure with the seed the test prints: ACCT_CRASH_SEED=… npx tap test/reliability/crash-safety.test.ts */
const seed = Number(process.env['ACCT_CRASH_SEED'] ?? 20261121);

function journal(): string {
  const out: string[] = [];
  for (let i = 0; i < entries; i++) {
    const net = 5 * (200 + ((i * 7919) % 10_000)); // a multiple of 5, so the 20% VAT is whole pence
    out.push(
      JSON.stringify({
        date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-15`,
        description: `Sale ${i}`,
        lines: [
          { accountCode: '1200', amount: net + net / 5 },
          { accountCode: '4000', amount: -net },
          { accountCode: '2200', amount: -net / 5 },
        ],
      }),
    );
  }
  return `${out.join('\n')}\n`;
}

function importProcess(dataDir: string, file: string) {
  const [cmd, argv] = acctCommand(['--data', dataDir, 'import', 'journal', file]);
  const child = spawn(cmd, argv, { env: childEnv(), stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return { child, exited };
}

/** mulberry32, so the kill moments are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface State {
  /** SQLite's integrity_check; PostgreSQL has none to run (its recovery replays the log). */
  readonly integrity?: string;
  readonly transactions: number;
  readonly lines: number;
  readonly sum: number;
  readonly batches: number;
}

/** The live books as another process would find them: the SQLite file opened afresh, or a new connection to PostgreSQL. */
async function inspect(t: Test, books: Books): Promise<State> {
  if (books.store.kind === 'sqlite') return inspectFile(orgFile(books.dataDir, books.organisationId, 'live'));
  const db = (await anotherStore(t, books.dataDir)).org(books.organisationId, 'live').db;
  const count = async (table: 'transactions' | 'lines' | 'import_batches') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const posted = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('s'))
    .where('posted', '=', 1)
    .executeTakeFirstOrThrow();
  return { transactions: await count('transactions'), lines: await count('lines'), sum: Number(posted.s), batches: await count('import_batches') };
}

function inspectFile(file: string): State {
  const db = new Database(file, { readonly: true });
  try {
    return {
      integrity: String(db.pragma('integrity_check', { simple: true })),
      transactions: (db.prepare('select count(*) as n from transactions').get() as { n: number }).n,
      lines: (db.prepare('select count(*) as n from lines').get() as { n: number }).n,
      sum: (db.prepare('select coalesce(sum(amount), 0) as s from lines where posted = 1').get() as { s: number }).s,
      batches: (db.prepare('select count(*) as n from import_batches').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

t.test('an import killed at any moment is wholly there or not at all', async (t) => {
  const text = journal();
  // How long a whole import takes here, to spread the kills over it.
  const calibration = await newBooks(t);
  const file = path.join(calibration.dataDir, 'journal.jsonl');
  fs.writeFileSync(file, text);
  const started = Date.now();
  const whole = importProcess(calibration.dataDir, file);
  t.equal(await whole.exited, 0, 'an import left alone finishes');
  const duration = Date.now() - started;
  t.match(await inspect(t, calibration), {
    ...(calibration.store.kind === 'sqlite' ? { integrity: 'ok' } : {}),
    transactions: entries,
    lines: entries * 3,
    sum: 0,
    batches: 1,
  });

  const random = seeded(seed);
  t.comment(
    `seed ${seed} (replay: ACCT_CRASH_SEED=${seed}); ${runs} runs of a ${entries}-transaction import, killed between 5% and 105% of its ${duration} ms`,
  );
  const outcomes = { none: 0, whole: 0 };
  for (let run = 0; run < runs; run++) {
    await t.test(`run ${run + 1}`, async (t) => {
      const books = await newBooks(t);
      const copy = path.join(books.dataDir, 'journal.jsonl');
      fs.writeFileSync(copy, text);
      const { child, exited } = importProcess(books.dataDir, copy);
      const after = Math.round(duration * (0.05 + random()));
      const timer = setTimeout(() => child.kill('SIGKILL'), after);
      await exited;
      clearTimeout(timer);
      const state = await inspect(t, books);
      if (books.store.kind === 'sqlite') t.equal(state.integrity, 'ok', `integrity after a kill at ${after} ms`);
      t.ok(state.transactions === 0 || state.transactions === entries, `all or nothing: ${state.transactions} transactions`);
      t.equal(state.lines, state.transactions * 3, 'no transaction without its lines');
      t.equal(state.sum, 0, 'the trial balance sums to 0');
      t.equal(state.batches, state.transactions === 0 ? 0 : 1, 'the batch record commits with its transactions');
      outcomes[state.transactions === 0 ? 'none' : 'whole']++;
    });
  }
  t.comment(`killed before commit ${outcomes.none} times, after ${outcomes.whole} times`);
});
