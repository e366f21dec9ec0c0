/**
 * Translation of driver failures into AppErrors, by the driver's error
 * code. Engine code checks its own rules first; this is the net under them.
 */
import { SqliteError } from 'better-sqlite3';
import type pg from 'pg';
import { AppError } from '../engine/errors.js';

/**
 * pg's error class, once the PostgreSQL store is loaded (it says so): a run
 * over SQLite files never loads pg, whose modules were a tenth of a short
 * command's start-up.
 */
let PostgresError: typeof pg.DatabaseError | undefined;

export function recognisePostgresErrors(errorClass: typeof pg.DatabaseError): void {
  PostgresError = errorClass;
}

/** Socket errors the PostgreSQL store saw on its own connections to the database (see markDatabaseSocketError). */
const databaseSocketErrors = new WeakSet<object>();

/**
 * Say that a socket error (ECONNRESET on a read, say) was a connection to
 * the database failing: the same error from a request's own socket is its
 * client hanging up, which is not the database being away.
 */
export function markDatabaseSocketError(e: unknown): void {
  if (typeof e === 'object' && e !== null && typeof (e as NodeJS.ErrnoException).syscall === 'string') databaseSocketErrors.add(e);
}

/** pg's own words for a connection the server ended under it (a shutdown, a restart), and for a query on such a connection. */
const lostConnectionMessages = new Set(['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable']);

/**
 * The database busy past its wait (SQLite's 10 s busy timeout, a PostgreSQL
 * lock or serialization failure): 503, to be retried after a moment (sent
 * as Retry-After: 1 s; the lock is usually a short write held long).
 */
const busy = (e: unknown) => new AppError('service_unavailable', 'the database is busy; retry the request', undefined, { cause: e, retryAfter: 1 });

export function appErrorOf(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof SqliteError) {
    switch (e.code) {
      case 'SQLITE_CONSTRAINT_UNIQUE':
      case 'SQLITE_CONSTRAINT_PRIMARYKEY':
        return new AppError('duplicate_entry', 'a record with the same unique value already exists', undefined, { cause: e });
      case 'SQLITE_CONSTRAINT_FOREIGNKEY':
        return new AppError('validation_error', 'a referenced record does not exist', undefined, { cause: e });
      case 'SQLITE_BUSY':
      case 'SQLITE_BUSY_SNAPSHOT':
      case 'SQLITE_LOCKED':
        return busy(e);
    }
  }
  const postgres = PostgresError !== undefined && e instanceof PostgresError ? e : undefined;
  if (postgres !== undefined) {
    switch (postgres.code) {
      case '23505': // unique_violation
        return new AppError('duplicate_entry', 'a record with the same unique value already exists', undefined, { cause: e });
      case '23503': // foreign_key_violation
        return new AppError('validation_error', 'a referenced record does not exist', undefined, { cause: e });
      case '40001': // serialization_failure
      case '40P01': // deadlock_detected
      case '55P03': // lock_not_available
      case '57P01': // admin_shutdown
      case '57P02': // crash_shutdown
      case '57P03': // cannot_connect_now
      case '53300': // too_many_connections
        return busy(e);
    }
  }
  if (postgres !== undefined && /^(08|28|3D)/.test(postgres.code ?? '')) {
    // The server refused the connection (no such database, a wrong password): its words.
    return new AppError('service_unavailable', `the database refused the connection: ${postgres.message}`, undefined, { cause: e });
  }
  if (e instanceof Error && lostConnectionMessages.has(e.message)) {
    return new AppError('service_unavailable', `the connection to the database was lost; retry the request (${e.message})`, undefined, { cause: e });
  }
  // A connection to the database that could not be made, or that failed: not a request's own socket (a client that hung up is ECONNRESET too).
  const { code, syscall } = (e ?? {}) as NodeJS.ErrnoException;
  if (
    (syscall === 'connect' || syscall === 'getaddrinfo' || (typeof e === 'object' && e !== null && databaseSocketErrors.has(e))) &&
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EAI_AGAIN'].includes(code ?? '')
  ) {
    return new AppError('service_unavailable', `the database cannot be reached: ${(e as Error).message}`, undefined, { cause: e });
  }
  return new AppError('internal_error', 'unexpected failure', undefined, { cause: e });
}
