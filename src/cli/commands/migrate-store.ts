/**
 * `acct migrate-store --from sqlite:DIR --to postgres://…`: copy every
 * organisation's books and the platform from a data directory's SQLite
 * files into PostgreSQL, then prove the copy per organisation and mode:
 * every table's row count on both sides, and the trial balance read from
 * each store by the same engine code, to the penny.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { trialBalance } from '../../engine/reports/statements.js';
import { lastYear } from '../../engine/dates.js';
import { sterling } from '../../engine/money.js';
import { modes, orgFile, platformFile, type Mode } from '../../store/data-dir.js';
import { derived } from '../../store/postgres/copy.js';
import { PostgresStore } from '../../store/postgres/postgres-store.js';
import { isPostgresUrl, redactedUrl } from '../../store/postgres/url.js';
import { SqliteStore } from '../../store/sqlite-store.js';
import { reportError, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';

interface Flags {
  readonly from: string;
  readonly to: string;
}

/** Every posting: the last day of the last year the books accept (a year past 9999 is no date, and broke the fiscal year's arithmetic). */
const allTime = `${lastYear}-12-31`;

export interface BooksProof {
  readonly organisationId: string;
  readonly name: string;
  readonly mode: Mode;
  readonly tables: number;
  readonly rows: number;
  /** Tables whose counts differ, as "table: source → target". */
  readonly countMismatches: readonly string[];
  readonly trialBalance: { readonly debit: number; readonly credit: number; readonly accounts: number };
  readonly trialBalanceEqual: boolean;
}

function sourceDir(from: string): string {
  const dir = path.resolve(from.startsWith('sqlite:') ? from.slice('sqlite:'.length) : from);
  if (!fs.existsSync(platformFile(dir))) throw new AppError('not_found', `no organisation in ${dir}: --from must name a data directory (sqlite:DIR)`, 'from');
  return dir;
}

export async function migrateStore(flags: Flags, say: (line: string) => void): Promise<{ platformRows: number; books: BooksProof[] }> {
  const dir = sourceDir(flags.from);
  if (!isPostgresUrl(flags.to)) throw new AppError('validation_error', `--to must be a postgres:// URL, not ${flags.to}`, 'to');
  const source = SqliteStore.open(dir);
  try {
    const target = await PostgresStore.open(dir, flags.to, { create: true });
    try {
      const already = await target.platform.db.selectFrom('organisations').select('id').limit(1).execute();
      if (already.length > 0)
        throw new AppError('conflict', `${redactedUrl(flags.to)} already holds organisations: migrate into an empty database or schema`, 'to');
      const organisations = await source.platform.db.selectFrom('organisations').select('id').orderBy('created_at').orderBy('id').execute();
      const books: BooksProof[] = [];
      // The books first and the platform last: a copy stopped half-way leaves no organisation listed, so it can be run again.
      for (const { id } of organisations) {
        for (const mode of modes) {
          const counts = await target.copyFromSqlite(orgFile(dir, id, mode), { orgId: id, mode });
          const [before, after] = await Promise.all([trialBalance(source.org(id, mode).db, allTime), trialBalance(target.org(id, mode).db, allTime)]);
          const { name } = await target.org(id, mode).db.selectFrom('organisation').select('name').executeTakeFirstOrThrow();
          // The derived tables are rebuilt from the copied rows (a day whose lines all left keeps a row of zeros in SQLite only): the trial balance proves them.
          const copied = counts.filter((c) => !derived.has(c.table));
          const proof: BooksProof = {
            organisationId: id,
            name,
            mode,
            tables: copied.length,
            rows: copied.reduce((n, c) => n + c.target, 0),
            countMismatches: copied.filter((c) => c.source !== c.target).map((c) => `${c.table}: ${c.source} → ${c.target}`),
            trialBalance: { debit: after.totals.debit, credit: after.totals.credit, accounts: after.accounts.length },
            trialBalanceEqual: JSON.stringify(before) === JSON.stringify(after),
          };
          books.push(proof);
          const ok = proof.countMismatches.length === 0 && proof.trialBalanceEqual;
          say(
            `${ok ? 'ok ' : 'NOT'} ${name} (${mode}): ${proof.rows.toLocaleString('en-GB')} rows in ${proof.tables} tables; ` +
              `trial balance ${sterling(proof.trialBalance.debit)} Dr = ${sterling(proof.trialBalance.credit)} Cr over ${proof.trialBalance.accounts} accounts` +
              (proof.trialBalanceEqual ? ', the same in both stores' : ', DIFFERENT from the SQLite books') +
              (proof.countMismatches.length > 0 ? `; counts differ: ${proof.countMismatches.join(', ')}` : ''),
          );
        }
      }
      const platform = await target.copyFromSqlite(platformFile(dir), 'platform');
      const platformMismatches = platform.filter((c) => c.source !== c.target).map((c) => `${c.table}: ${c.source} → ${c.target}`);
      const platformRows = platform.reduce((n, c) => n + c.target, 0);
      say(`${platformMismatches.length === 0 ? 'ok ' : 'NOT'} platform: ${platformRows.toLocaleString('en-GB')} rows in ${platform.length} tables`);
      const failed = books.filter((b) => b.countMismatches.length > 0 || !b.trialBalanceEqual);
      if (failed.length > 0 || platformMismatches.length > 0) {
        throw new AppError(
          'balance_mismatch',
          `the copy differs from the SQLite books: ${[...failed.map((b) => `${b.name} (${b.mode})`), ...(platformMismatches.length > 0 ? ['platform'] : [])].join(', ')}`,
        );
      }
      return { platformRows, books };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

export function addMigrateStore(program: Command): void {
  const doc = handWritten.migrateStore;
  program
    .command('migrate-store')
    .description(doc.summary)
    .requiredOption(
      '--from <sqlite:dir>',
      'the data directory whose SQLite files are copied, as sqlite:DIR (its secret.key opens the sealed secrets, so keep it with the copy)',
    )
    .requiredOption('--to <url>', 'the PostgreSQL database to copy into, as postgres://user:pass@host:port/db?schema=acct (empty of organisations)')
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: Flags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      try {
        const result = await migrateStore(flags, (line) => {
          if (!globals.json) process.stdout.write(`${line}\n`);
        });
        if (globals.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else {
          const dir = sourceDir(flags.from);
          process.stdout.write(
            `\n${result.books.length / 2} organisation(s) copied and proved. Serve them with:\n  acct --data ${dir} --database '${redactedUrl(flags.to)}' serve\n`,
          );
        }
      } catch (e) {
        reportError(e, globals.json === true);
      }
    });
}
