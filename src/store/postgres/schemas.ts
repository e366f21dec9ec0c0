/**
 * A schema's migrations on PostgreSQL: the version applied is kept in the
 * schema's acct_schema_version table, read and advanced under an advisory
 * lock on the schema's name, so that two processes opening the same schema
 * cannot both apply a step. After the migrations, the objects only this
 * store needs (see storeObjects) are made again, and whenever their
 * definition has changed since they were made (the mark on fold()).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { foldFunction } from '../fold.js';
import { lend } from './lend.js';
import { migrationsOf, type MigrationSet } from '../migrate.js';
import { AppError } from '../../engine/errors.js';

export type SchemaSet = MigrationSet;

/** A name quoted as a PostgreSQL identifier. */
export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export async function schemaExists(pool: pg.Pool, schema: string): Promise<boolean> {
  const { rows } = await pool.query<{ found: number }>('select count(*) as found from pg_namespace where nspname = $1', [schema]);
  return (rows[0]?.found ?? 0) > 0;
}

/**
 * fold(text), which search compares with (SQLite's store registers the
 * same in JavaScript; both from ../fold.ts), and in an organisation's books the triggers that
 * NOTIFY the store's channel of work for the background tasks, as SQLite's
 * TEMP triggers announce it.
 */
function storeObjects(set: SchemaSet): string {
  const fold = foldFunction;
  const notify = `CREATE OR REPLACE FUNCTION acct_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('acct', TG_TABLE_SCHEMA || ' ' || TG_ARGV[0]);
  RETURN NULL;
END $$;`;
  if (set === 'org') {
    return `${fold}
${notify}
DROP TRIGGER IF EXISTS acct_event_added ON outbox;
CREATE TRIGGER acct_event_added AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION acct_notify('webhooks');
DROP TRIGGER IF EXISTS acct_endpoint_active ON webhook_endpoints;
CREATE TRIGGER acct_endpoint_active AFTER UPDATE OF is_active ON webhook_endpoints FOR EACH ROW WHEN (NEW.is_active = 1)
  EXECUTE FUNCTION acct_notify('webhooks');
DROP TRIGGER IF EXISTS acct_delivery_requeued ON webhook_deliveries;
CREATE TRIGGER acct_delivery_requeued AFTER UPDATE OF status ON webhook_deliveries
  FOR EACH ROW WHEN (NEW.status = 'pending' AND OLD.status <> 'pending') EXECUTE FUNCTION acct_notify('webhooks');
DROP TRIGGER IF EXISTS acct_document_issued ON invoices;
CREATE TRIGGER acct_document_issued AFTER INSERT ON invoices FOR EACH ROW WHEN (NEW.status IN ('sent', 'approved'))
  EXECUTE FUNCTION acct_notify('issued');
DROP TRIGGER IF EXISTS acct_document_reissued ON invoices;
CREATE TRIGGER acct_document_reissued AFTER UPDATE OF status, due_date ON invoices FOR EACH ROW WHEN (NEW.status IN ('sent', 'approved'))
  EXECUTE FUNCTION acct_notify('issued');`;
  }
  return fold;
}

/**
 * Which definition of the store objects a schema has: a digest of their
 * SQL, kept as the comment on its fold(), so that a schema made by an
 * earlier acct gets them again though no migration is due.
 */
const markOf = (set: SchemaSet): string => `acct ${createHash('sha256').update(storeObjects(set)).digest('hex').slice(0, 16)}`;

/** The store objects with their mark. */
const markedObjects = (set: SchemaSet): string => `${storeObjects(set)}
COMMENT ON FUNCTION fold(text) IS '${markOf(set)}';`;

/**
 * Bring a schema to the latest version of its set: created first if
 * `create`; false when it is not there and not to be created.
 */
export async function ensureSchema(pool: pg.Pool, schema: string, set: SchemaSet, create: boolean): Promise<boolean> {
  const list = migrationsOf(set, 'postgres');
  const latest = list.length;
  const client = await lend(pool);
  try {
    // Most opens find the schema there and current: one query, no lock.
    const found = await versionOf(client, schema);
    if (found?.version === latest && found.mark === markOf(set)) return true;
    if (found === undefined && !create) return false;
    await client.query('begin');
    try {
      await client.query('select pg_advisory_xact_lock(hashtextextended($1, 1))', [schema]);
      if (create) await client.query(`create schema if not exists ${quoted(schema)}`);
      else if ((await versionOf(client, schema)) === undefined) {
        await client.query('rollback');
        return false;
      }
      await client.query(`set local search_path to ${quoted(schema)}`);
      await client.query('create table if not exists acct_schema_version (version bigint not null)');
      const { rows } = await client.query<{ version: string }>('select version from acct_schema_version');
      const from = rows.length === 0 ? 0 : Number(rows[0]!.version);
      if (from > latest)
        throw new AppError('service_unavailable', `schema ${schema} is at version ${from}, newer than this acct knows (${latest}); upgrade acct`);
      for (const m of list.slice(from)) await client.query(m.sql);
      const now = await versionOf(client, schema);
      if (from < latest || now?.mark !== markOf(set)) await client.query(markedObjects(set));
      if (from < latest) {
        await client.query('delete from acct_schema_version');
        await client.query('insert into acct_schema_version (version) values ($1)', [latest]);
      }
      await client.query('commit');
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    }
    return true;
  } finally {
    client.release();
  }
}

/** The version a schema is at and the mark on its store objects; undefined when it (or its version table) is not there. */
async function versionOf(client: pg.PoolClient, schema: string): Promise<{ version: number; mark: string | null } | undefined> {
  const table = await client.query('select 1 from pg_tables where schemaname = $1 and tablename = $2', [schema, 'acct_schema_version']);
  if (table.rowCount === 0) return undefined;
  const { rows } = await client.query<{ version: number; mark: string | null }>(
    `select v.version, (select obj_description(p.oid, 'pg_proc') from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = $1 and p.proname = 'fold') as mark
     from (select max(version) as version from ${quoted(schema)}.acct_schema_version) v`,
    [schema],
  );
  return { version: Number(rows[0]?.version ?? 0), mark: rows[0]?.mark ?? null };
}
