/**
 * The Idempotency-Key header of POST, PUT, PATCH and DELETE. What a key
 * means (reserving it, storing the first response, replaying it) is the
 * engine's: src/engine/integration/idempotency.ts.
 */
import { AppError } from '../engine/errors.js';

export const idempotencyHeader = 'idempotency-key';
export const maxKeyLength = 255;

/** The key of a request, or undefined; longer than 255 characters is 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key === '' || key.length > maxKeyLength) {
    throw new AppError('validation_error', `Idempotency-Key must be 1 to ${maxKeyLength} characters`, 'Idempotency-Key');
  }
  return key;
}
