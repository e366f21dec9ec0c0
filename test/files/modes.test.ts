/**
 * The data directory is its owner's alone: the directories acct creates
 * are 0700, every database and its -wal and -shm files 0600, under any
 * umask; files left 0644 by an older acct are tightened when opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { operations } from '../../src/engine/registry.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Ctx } from '../../src/engine/operation.js';
import { scopes } from '../../src/engine/scopes.js';
import { orgDir, orgFile, platformFile } from '../../src/store/data-dir.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { defaultOrganisation, fixedClock } from '../helpers/index.js';

const clock = fixedClock('2026-11-21T10:00:00Z');
const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;
const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

/** The umask at its loosest, so that only the modes acct asks for count. */
function looseUmask(t: Test): void {
  const saved = process.umask(0);
  t.teardown(() => process.umask(saved));
}

/** A store in a data directory it creates, with one organisation and a contact written to its live books. */
async function written(t: Test, dataDir: string): Promise<{ store: SqliteStore; organisationId: string }> {
  const store = SqliteStore.open(dataDir);
  t.teardown(() => store.close());
  const { organisationId } = await createOrganisation(store, clock, defaultOrganisation);
  const ctx: Ctx = {
    clock,
    store,
    platform: store.platform,
    principal: { organisationId, mode: 'live', scopes, keyId: null, actor: { id: 'cli', name: 'test' } },
  };
  const op = operations.find((o) => o.name === 'contacts.create');
  if (!op) throw new Error('no contacts.create');
  await op.run(ctx, parseOperationInput(op, { params: {}, query: {}, body: { contactType: 'customer', name: 'Bright Ltd' } }));
  return { store, organisationId };
}

const withJournals = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

t.test('a new data directory: directories 0700, databases and their -wal and -shm 0600', async (t) => {
  looseUmask(t);
  const dataDir = path.join(t.testdir(), 'acct-data');
  const { organisationId } = await written(t, dataDir);
  for (const dir of [dataDir, path.join(dataDir, 'orgs'), orgDir(dataDir, organisationId)]) {
    t.equal(octal(modeOf(dir)), '0700', `${path.relative(dataDir, dir) || 'the data directory'} is 0700`);
  }
  const files = [platformFile(dataDir), orgFile(dataDir, organisationId, 'live'), orgFile(dataDir, organisationId, 'test')].flatMap(withJournals);
  for (const file of files) {
    t.ok(fs.existsSync(file), `${path.basename(file)} exists while the books are open`);
    t.equal(octal(modeOf(file)), '0600', `${path.relative(dataDir, file)} is 0600`);
  }
});

t.test('files an older acct left 0644 are made 0600 when opened', async (t) => {
  const dataDir = path.join(t.testdir(), 'acct-data');
  const first = await written(t, dataDir);
  await first.store.close();
  const live = orgFile(dataDir, first.organisationId, 'live');
  // Another connection keeps the -wal and -shm files in being, as a running older acct would.
  const older = new Database(live);
  t.teardown(() => older.close());
  older.prepare('select count(*) from contacts').get();
  const loose = [platformFile(dataDir), ...withJournals(live)];
  for (const file of loose) fs.chmodSync(file, 0o644);

  const store = SqliteStore.open(dataDir);
  t.teardown(() => store.close());
  store.org(first.organisationId, 'live');
  for (const file of loose) t.equal(octal(modeOf(file)), '0600', `${path.relative(dataDir, file)} is 0600 again`);
});
