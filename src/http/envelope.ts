/** The response envelopes: {success: true, data, meta?} and {success: false, error: {code, message, field?}}. */
import type { ServerResponse } from 'node:http';
import type { AppError } from '../engine/errors.js';
import type { FileResult, Result } from '../engine/operation.js';
import type { Outcome } from '../engine/integration/idempotency.js';

/** The body of the response to an outcome (also what an Idempotency-Key replays). */
export function envelopeOf(outcome: Outcome): unknown {
  if ('error' in outcome) return { success: false, error: outcome.error.toJSON() };
  const { data, meta } = outcome.result;
  return meta === undefined ? { success: true, data } : { success: true, data, meta };
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendSuccess(res: ServerResponse, status: number, result: Result): void {
  send(res, status, envelopeOf({ result }));
}

/** A document (an invoice PDF) as itself, named for saving. */
export function sendFile(res: ServerResponse, file: FileResult): void {
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(file.bytes.byteLength),
    'content-disposition': `inline; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
  });
  res.end(file.bytes);
}

export function sendError(res: ServerResponse, error: AppError): void {
  // After a refused oversized body the rest of it is unread: close the connection rather than parse it.
  const headers: Record<string, string> = error.code === 'payload_too_large' ? { connection: 'close' } : {};
  if (error.code === 'unauthorized') headers['www-authenticate'] = 'Bearer';
  if ('retryAfter' in error && typeof error.retryAfter === 'number') headers['retry-after'] = String(error.retryAfter);
  send(res, error.status, envelopeOf({ error }), headers);
}
