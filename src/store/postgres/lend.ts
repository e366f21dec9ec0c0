/**
 * Connections lent by a pg pool, safe to hold while the server ends them.
 * pg-pool hears a connection's errors only while it is idle in the pool:
 * one lent out that the server ends (a restart, pg_terminate_backend) emits
 * an 'error' nobody hears, and the process exits. Here every lent
 * connection has a listener from the moment it is lent (the server's
 * farewell can come in the same packet as a new connection's
 * ReadyForQuery, before whoever asked for it runs): the query under way
 * fails (503, see driver-errors.ts), and the connection goes back with its
 * error, so that the pool drops it.
 */
import type pg from 'pg';
import { markDatabaseSocketError } from '../driver-errors.js';

/** The first error of each lent connection that had one. */
const lostBy = new WeakMap<pg.PoolClient, Error>();

/** Listen for errors on each connection the pool lends, until it is given back. */
export function guardLentConnections(pool: pg.Pool): void {
  const listeners = new WeakMap<pg.PoolClient, (e: Error) => void>();
  // Both events are emitted synchronously: on lending before the pool's own listener is removed, on return after it is put back.
  pool.on('acquire', (client) => {
    lostBy.delete(client);
    const onError = (e: Error) => {
      if (!lostBy.has(client)) lostBy.set(client, e);
      markDatabaseSocketError(e);
    };
    listeners.set(client, onError);
    client.on('error', onError);
  });
  pool.on('release', (_e, client) => {
    const onError = listeners.get(client);
    if (onError) client.off('error', onError);
    listeners.delete(client);
  });
}

/** A connection from a guarded pool, given back with the error it met, if any. */
export async function lend(pool: pg.Pool): Promise<pg.PoolClient> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    markDatabaseSocketError(e);
    throw e;
  }
  // pg-pool gives each lending a release of its own: this one is replaced at the next.
  const release = client.release.bind(client);
  client.release = (e?: Error | boolean) => release(e ?? lostBy.get(client));
  return client;
}
