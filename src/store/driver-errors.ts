/**
 * Translation of driver failures into AppErrors, by the driver's error
 * code. Engine code checks its own rules first; this is the net under them.
 */
import { SqliteError } from 'better-sqlite3';
import { AppError } from '../engine/errors.js';

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
        return new AppError('service_unavailable', 'the database is busy; retry the request', undefined, { cause: e });
    }
  }
  return new AppError('internal_error', 'unexpected failure', undefined, { cause: e });
}
