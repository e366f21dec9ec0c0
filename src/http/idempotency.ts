/**
 * The Idempotency-Key header of POST, PUT, PATCH and DELETE. What a key
 * means (reserving it, storing the first response, replaying it) is the
 * engine's: src/engine/integration/idempotency.ts.
 */
import { AppError } from '../engine/errors.js';
import type { Operation } from '../engine/operation.js';

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

/**
 * The path a key is recorded against: the operation's route under /v1 with
 * its decoded parameters put back, so every spelling the router accepts
 * (/api/v1, any letter case, a trailing slash, percent-encoding) is one
 * request and a retry through another replays instead of meeting a 409.
 */
export function idempotencyPath(op: Pick<Operation, 'path'>, params: Readonly<Record<string, string | undefined>>): string {
  return `/v1${op.path.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(params[name] ?? ''))}`;
}
