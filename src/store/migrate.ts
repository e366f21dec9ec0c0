/**
 * Forward-only SQL migrations: numbered files in migrations/<set>/, applied
 * in order on open. The applied count is the database's user_version, read
 * and advanced inside one IMMEDIATE transaction so that two processes
 * opening the same file cannot both apply a step.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { projectFile } from '../paths.js';

export type MigrationSet = 'platform' | 'org';

interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const root = projectFile('migrations/');
const loaded = new Map<MigrationSet, readonly Migration[]>();

const names = new Map<MigrationSet, readonly string[]>();

/** The migration files of a set, in order, checked to be numbered 1, 2, 3 … without gaps. */
function migrationNames(set: MigrationSet): readonly string[] {
  const cached = names.get(set);
  if (cached) return cached;
  const list = fs
    .readdirSync(fileURLToPath(new URL(`${set}/`, root)))
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  list.forEach((f, i) => {
    if (Number(f.slice(0, 4)) !== i + 1) throw new Error(`migrations/${set}: expected version ${i + 1}, found ${f}`);
  });
  names.set(set, list);
  return list;
}

export function migrationsOf(set: MigrationSet): readonly Migration[] {
  const cached = loaded.get(set);
  if (cached) return cached;
  const dir = fileURLToPath(new URL(`${set}/`, root));
  const list = migrationNames(set).map((f, i) => ({ version: i + 1, name: f, sql: fs.readFileSync(`${dir}${f}`, 'utf8') }));
  loaded.set(set, list);
  return list;
}

export function migrate(db: Database.Database, set: MigrationSet): void {
  // Books already at the latest version (every open but the first after an upgrade) need only the file names.
  const latest = migrationNames(set).length;
  const current = (): number => db.pragma('user_version', { simple: true }) as number;
  if (current() === latest) return;
  const list = migrationsOf(set);
  db.exec('begin immediate');
  try {
    const from = current();
    if (from > latest) {
      throw new Error(`${db.name} is at schema version ${from}, newer than this acct knows (${latest}); upgrade acct`);
    }
    for (const m of list.slice(from)) db.exec(m.sql);
    db.pragma(`user_version = ${latest}`);
    db.exec('commit');
  } catch (e) {
    if (db.inTransaction) db.exec('rollback');
    throw e;
  }
}
