/**
 * What the request log keeps of a request's headers and bodies: secrets
 * replaced by `[redacted]`, and bodies cut to `bodyCap` characters. The JSON
 * is written only as far as the cap, so a large body costs the log no more
 * than its first 16 KiB (a successful GET's answer is not kept at all: app.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';

export const bodyCap = 16_384;
export const redacted = '[redacted]';

/** Headers that carry credentials, and any X-…-Secret or X-…-Token. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'stripe-signature', 'x-api-key']);
const secretHeader = (name: string): boolean => secretHeaders.has(name) || /-(secret|token)$/.test(name);

/** Body fields holding secrets: an API key shown once, a webhook secret, a password, a token. */
const secretField = (name: string): boolean => /^(key|apikey)$|secret$|token$|password$/i.test(name);

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    kept[name] = secretHeader(name) ? redacted : Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

export interface Kept {
  readonly text: string;
  readonly truncated: boolean;
}

class Full extends Error {}

/** Nesting kept at most: deeper (a body built to be deep) is cut there, as a long one is, not walked into the stack's end. */
const maxDepth = 64;

/**
 * `value` as JSON.stringify writes it, with the values of secret fields (and
 * of the fields named in `secrets`) redacted, cut to `cap` characters.
 */
export function keptJson(value: unknown, secrets: readonly string[] = [], cap = bodyCap): Kept {
  const parts: string[] = [];
  let size = 0;
  const put = (s: string): void => {
    parts.push(s);
    size += s.length;
    if (size > cap) throw new Full();
  };
  const walk = (v: unknown, inArray: boolean, depth = 0): void => {
    if (depth > maxDepth) throw new Full();
    if (v !== null && typeof v === 'object' && 'toJSON' in v && typeof v.toJSON === 'function') v = (v.toJSON as () => unknown)();
    if (v === null || typeof v !== 'object') {
      put(JSON.stringify(v) ?? (inArray ? 'null' : ''));
      return;
    }
    if (Array.isArray(v)) {
      put('[');
      v.forEach((item, i) => {
        if (i > 0) put(',');
        walk(item, true, depth + 1);
      });
      put(']');
      return;
    }
    put('{');
    let first = true;
    for (const [name, item] of Object.entries(v)) {
      if (item === undefined || typeof item === 'function') continue;
      put(`${first ? '' : ','}${JSON.stringify(name)}:`);
      first = false;
      if (secretField(name) || secrets.includes(name)) put(JSON.stringify(item === null ? null : redacted));
      else walk(item, false, depth + 1);
    }
    put('}');
  };
  try {
    walk(value, false);
    return { text: parts.join(''), truncated: false };
  } catch (e) {
    if (!(e instanceof Full)) throw e;
    return { text: parts.join('').slice(0, cap), truncated: true };
  }
}
