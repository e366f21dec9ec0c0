/**
 * Reading a request body under a size limit: JSON (UTF-8), or an uploaded
 * file as the raw body or multipart/form-data (UTF-8, else Windows-1252:
 * tabular/file-text.ts).
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { z } from 'zod';
import { AppError } from '../engine/errors.js';
import { coerceText } from '../engine/input.js';
import { fileText } from '../engine/tabular/file-text.js';

/** 1 MiB: ample for any JSON request of the API; CSV uploads will declare their own. */
export const defaultBodyLimit = 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 10 MiB: an uploaded bank statement (years of a busy account's lines). */
export const maxUploadBytes = 10 * 1024 * 1024;

const tooLarge = (limit: number) => new AppError('payload_too_large', `the request body exceeds the limit of ${limit} bytes`);

/** How much more of a refused body is read and dropped, and for how long, so that its client hears the 413 (64 MiB, 15 s). */
const drainBytes = 64 * 1024 * 1024;
const drainMs = 15_000;

/**
 * On a request sent with Expect: 100-continue, how to tell its client to
 * send the body (server.ts sets it, for node no longer says so by itself):
 * called only once the body is to be read and its declared size is within
 * the limit. Without it (node has already said 100 Continue) nothing is due.
 */
export const askForBody = Symbol('askForBody');
type Request = IncomingMessage & { [askForBody]?: () => void };

/**
 * The request's body is to be read, up to `limit` bytes: refused at once if
 * its declared Content-Length is over (null otherwise), and its client,
 * if it waits for 100 Continue, asked for it.
 */
function begin(req: Request, limit: number): Promise<never> | null {
  const declared = Number(req.headers['content-length'] ?? 0);
  const ask = req[askForBody];
  delete req[askForBody];
  if (declared > limit) return ask ? Promise.reject(tooLarge(limit)) : refuse(req, limit);
  ask?.();
  return null;
}

/**
 * 413 for a body past `limit`; but only once the rest has been read and
 * dropped: answered (with Connection:
 * close) while its client is still sending, the connection would be reset
 * under the client before it read the answer. A client that sends more
 * than drainBytes, or for longer than drainMs, has its answer at that
 * point, and the connection closed after it. (A client still waiting for
 * 100 Continue is answered at once: it sends nothing more.)
 */
function refuse(req: IncomingMessage, limit: number): Promise<never> {
  const error = tooLarge(limit);
  if (req.complete || req.destroyed) return Promise.reject(error);
  return new Promise((_resolve, reject) => {
    let dropped = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('error', done);
      req.off('close', done);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > drainBytes) done();
    };
    const timer = setTimeout(done, drainMs);
    req.on('data', onData);
    req.on('end', done);
    req.on('error', done);
    req.on('close', done);
    req.resume();
  });
}

/**
 * The body's bytes; 413 past `limit` (by Content-Length at once, else as it
 * arrives), once the rest has been read and dropped (see refuse).
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const refused = begin(req, limit);
  if (refused) return refused;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      refuse(req, limit).catch(reject);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (e: Error) => {
      stop();
      reject(e);
    };
    // A client gone before the end: node's 'aborted' error, as the stream's iterator gave it.
    const onClose = () => {
      stop();
      if (!req.complete) reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** The body as UTF-8 text. */
async function readText(req: IncomingMessage, limit: number): Promise<string> {
  return decode(await readBytes(req, limit), 'the request body');
}

function decode(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('validation_error', `${what} is not valid UTF-8`);
  }
}

/**
 * The decoded body, or undefined when the request has none. A body (one
 * that is more than blanks) must be sent as JSON: refused unless
 * jsonMediaType says its Content-Type is, before its bytes are decoded.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const bytes = await readBytes(req, limit);
  if (blank(bytes)) return undefined;
  refuseNonJson(req);
  return parseJson(decode(bytes, 'the request body'));
}

/** application/json, or a type of it (application/merge-patch+json); lower case, without parameters. */
const jsonType = (type: string): boolean => type === 'application/json' || /^application\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);

/** No body, or only JSON's blanks (space, tab, CR, LF): nothing to read, whatever the Content-Type says. */
const blank = (bytes: Buffer): boolean => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);

/**
 * Whether a Content-Type says JSON as the API reads it: application/json or
 * any application/*+json (application/merge-patch+json), with no charset
 * or charset=utf-8, in any case; other parameters are let be. A request
 * with no Content-Type at all is read as JSON too.
 */
export function jsonMediaType(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  const [type = '', ...parameters] = header.split(';').map((p) => p.trim().toLowerCase());
  if (!jsonType(type)) return false;
  return parameters.every((p) => {
    const [name = '', value = ''] = p.split('=').map((x) => x.trim());
    return name !== 'charset' || value.replace(/^"(.*)"$/, '$1') === 'utf-8';
  });
}

function refuseNonJson(req: IncomingMessage): void {
  if (jsonMediaType(req.headers['content-type'])) return;
  throw new AppError(
    'validation_error',
    `the request body must be sent as Content-Type: application/json (charset=utf-8 if a charset is given), not ${req.headers['content-type']}`,
    'Content-Type',
  );
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw new AppError('validation_error', `malformed JSON body: ${(e as Error).message}`);
  }
  refuseLoneSurrogates(value);
  return value;
}

/**
 * JSON may escape half of a UTF-16 pair (\ud800) alone: no character, and
 * stored it would read back as U+FFFD. Refused where it stands, named by
 * its path (items[0].description), as any other invalid value is.
 */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function refuseLoneSurrogates(body: unknown): void {
  // A stack, not recursion: JSON.parse takes nesting deeper than the call stack would. Each entry keeps
  // its parent's and its own key, and a path is spelled only for a refusal (spelled for every value, a
  // deeply nested body would take memory in the square of its depth).
  const steps: { readonly parent: number; readonly key: string | number }[] = [];
  const pathOf = (at: number): string => {
    let path = '';
    for (let i = at; i >= 0; i = steps[i]!.parent) {
      const { key } = steps[i]!;
      path = `${typeof key === 'number' ? `[${key}]` : key}${path === '' || path.startsWith('[') ? '' : '.'}${path}`;
    }
    return path;
  };
  const stack: [unknown, number][] = [[body, -1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, at] = next;
    if (typeof value === 'string') {
      if (loneSurrogate.test(value)) {
        const path = pathOf(at);
        throw new AppError('validation_error', `${path || 'the body'} holds half of a UTF-16 surrogate pair, which is no character`, path || undefined);
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, key) => stack.push([v, steps.push({ parent: at, key }) - 1]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (loneSurrogate.test(key)) throw new AppError('validation_error', 'a field name holds half of a UTF-16 surrogate pair, which is no character');
        stack.push([v, steps.push({ parent: at, key }) - 1]);
      }
    }
  }
}

/** The body of a signed payload (an operation's `signed`), unparsed, with the header that signs it. */
export async function readSignedBody(req: IncomingMessage, limit: number, header: string): Promise<{ payload: string; signature?: string }> {
  const payload = await readText(req, limit);
  const signature = req.headers[header.toLowerCase()];
  const value = Array.isArray(signature) ? signature[0] : signature;
  return value === undefined || value === '' ? { payload } : { payload, signature: value };
}

export interface UploadSpec {
  readonly field: string;
  readonly filename: string;
}

const mediaType = (req: IncomingMessage): string => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** An upload's body that is JSON (none declared, application/json, application/*+json), whatever its charset: readJsonBody reads or refuses it. */
const jsonLike = (type: string): boolean => type === '' || jsonType(type);

/**
 * The body of an operation that takes a file (`upload`): JSON as usual;
 * multipart/form-data with the file in the part named upload.field and the
 * other fields as parts; or any other media type (text/csv, OFX, an
 * octet stream) as the file itself, the other fields from the query string.
 * Text fields are coerced to their schema's types, as query fields are.
 */
export async function readUploadBody(
  req: IncomingMessage & { query?: Record<string, unknown> },
  limit: number,
  upload: UploadSpec,
  schema: z.ZodObject,
): Promise<unknown> {
  const type = mediaType(req);
  if (jsonLike(type)) return readJsonBody(req, limit);
  if (type === 'multipart/form-data') return readMultipart(req, limit, upload, schema);
  const taken = new Set(uploadQueryFields(req, upload, schema));
  const fields = Object.fromEntries(Object.entries(req.query ?? {}).filter(([k]) => taken.has(k)));
  return { ...coerceFields(schema, fields), [upload.field]: fileText(await readBytes(req, limit)) };
}

/** The query fields an upload sent as the raw body takes as its other body fields (none when the body is JSON or multipart). */
export function uploadQueryFields(req: IncomingMessage & { query?: Record<string, unknown> }, upload: UploadSpec, schema: z.ZodObject): string[] {
  const type = mediaType(req);
  if (jsonLike(type) || type === 'multipart/form-data') return [];
  return Object.keys(req.query ?? {}).filter((k) => k in schema.shape && k !== upload.field);
}

/** Text fields coerced by schema; a field holding a JSON object (a columnMapping) parsed. */
function coerceFields(schema: z.ZodObject, fields: Record<string, unknown>): Record<string, unknown> {
  const parsed = Object.fromEntries(
    Object.entries(fields).map(([k, v]) => {
      if (typeof v !== 'string' || !v.trim().startsWith('{')) return [k, v];
      try {
        return [k, JSON.parse(v) as unknown];
      } catch {
        return [k, v];
      }
    }),
  );
  return coerceText(schema, parsed);
}

function readMultipart(req: IncomingMessage, limit: number, upload: UploadSpec, schema: z.ZodObject): Promise<unknown> {
  const refused = begin(req, limit);
  if (refused) return refused;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: limit, files: 1, fields: 50, fieldSize: 64 * 1024 } });
    } catch (e) {
      reject(new AppError('validation_error', `malformed multipart body: ${(e as Error).message}`));
      return;
    }
    const fields: Record<string, unknown> = {};
    let file: Promise<{ text: string; name: string }> | undefined;
    let failed = false;
    const fail = (e: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      if (e.code === 'payload_too_large') refuse(req, limit).catch(reject);
      else {
        req.resume();
        reject(e);
      }
    };
    parser.on('field', (name, value) => {
      if (name !== upload.field) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== upload.field) {
        stream.resume();
        return;
      }
      file = new Promise<{ text: string; name: string }>((done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => fail(tooLarge(limit)));
        stream.on('end', () => done({ text: failed ? '' : fileText(Buffer.concat(chunks)), name: info.filename ?? '' }));
      });
      file.catch((e: unknown) => fail(e as AppError));
    });
    parser.on('error', (e: Error) => fail(new AppError('validation_error', `malformed multipart body: ${e.message}`)));
    parser.on('close', () => {
      if (failed) return;
      if (!file) {
        fail(new AppError('validation_error', `the multipart body has no file part named ${upload.field}`, upload.field));
        return;
      }
      file.then(
        ({ text, name }) => {
          if (failed) return;
          const body = coerceFields(schema, fields);
          resolve({ ...body, [upload.field]: text, ...(body[upload.filename] === undefined && name ? { [upload.filename]: name } : {}) });
        },
        (e: unknown) => fail(e as AppError),
      );
    });
    req.pipe(parser);
  });
}
