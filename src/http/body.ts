/** Reading a JSON request body under a size limit. */
import type { IncomingMessage } from 'node:http';
import { AppError } from '../engine/errors.js';

/** 1 MiB: ample for any JSON request of the API; CSV uploads will declare their own. */
export const defaultBodyLimit = 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The decoded body, or undefined when the request has none. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const tooLarge = () => new AppError('payload_too_large', `the request body exceeds the limit of ${limit} bytes`);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(chunks));
  } catch {
    throw new AppError('validation_error', 'the request body is not valid UTF-8');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AppError('validation_error', `malformed JSON body: ${(e as Error).message}`);
  }
}
