/** The response envelopes: {success: true, data, meta?} and {success: false, error: {code, message, field?}}. */
import type { ServerResponse } from 'node:http';
import type { AppError } from '../engine/errors.js';
import type { FileResult } from '../engine/operation.js';
import type { Outcome } from '../engine/integration/idempotency.js';

/** The body of the response to an outcome (also what an Idempotency-Key replays). */
export function envelopeOf(outcome: Outcome): unknown {
  if ('error' in outcome) return { success: false, error: outcome.error.toJSON() };
  const { data, meta } = outcome.result;
  return meta === undefined ? { success: true, data } : { success: true, data, meta };
}

/** A body up to this size goes out in one write; a larger one in pieces of it (see deliver). */
const pieceSize = 64 * 1024;

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  const size = Buffer.byteLength(text);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(size),
    ...headers,
  });
  if (size <= pieceSize) res.end(text);
  else deliver(res, Buffer.from(text));
}

/**
 * A large body written a piece at a time, the next only once the client has
 * taken the last (res.write's false and 'drain'), so that no more than a
 * piece waits in the socket's buffer; a client that stops reading is
 * dropped by the server's send timeout (server.ts), and the body with it.
 */
function deliver(res: ServerResponse, bytes: Uint8Array): void {
  let offset = 0;
  const next = (): void => {
    while (!res.destroyed) {
      const piece = bytes.subarray(offset, offset + pieceSize);
      offset += piece.byteLength;
      if (offset >= bytes.byteLength) {
        res.end(piece);
        return;
      }
      if (!res.write(piece)) {
        res.once('drain', next);
        return;
      }
    }
  };
  next();
}

/** A document (an invoice PDF) as itself, named for saving. */
export function sendFile(res: ServerResponse, file: FileResult): void {
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(file.bytes.byteLength),
    'content-disposition': `inline; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
  });
  if (file.bytes.byteLength <= pieceSize) res.end(file.bytes);
  else deliver(res, file.bytes);
}

export function sendError(res: ServerResponse, error: AppError): void {
  // An oversized body is read and dropped only up to a point (body.ts, refuse): close the connection rather than parse what may follow.
  const headers: Record<string, string> = error.code === 'payload_too_large' ? { connection: 'close' } : {};
  if (error.code === 'unauthorized') headers['www-authenticate'] = 'Bearer';
  if ('retryAfter' in error && typeof error.retryAfter === 'number') headers['retry-after'] = String(error.retryAfter);
  send(res, error.status, envelopeOf({ error }), headers);
}
