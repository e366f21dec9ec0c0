import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = alphabet[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * A new prefixed identifier (`acc_…`, `key_…`): 10 characters of creation
 * time then 16 random ones, so ids sort roughly by creation.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  let tail = '';
  for (let i = 0; i < 16; i++) tail += alphabet[randomByte() % 32];
  return `${prefix}_${encodeTime(now.getTime())}${tail}`;
}

// Random bytes drawn 4 KiB at a time: a bulk import makes millions of ids.
let pool = Buffer.alloc(0);
let next = 0;
function randomByte(): number {
  if (next >= pool.length) {
    pool = randomBytes(4096);
    next = 0;
  }
  return pool[next++] as number;
}

/** The shape every id of the given prefix must have. */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`);
}
