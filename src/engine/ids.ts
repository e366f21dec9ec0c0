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
 * time then 16 random ones, so ids sort by creation. Ids made in the same
 * millisecond count up from the first one's random part, so they sort in
 * the order they were made (the outbox delivers events in that order).
 */
export function newId(prefix: string, now: Date = new Date()): string {
  const ms = now.getTime();
  if (ms === lastMs) increment(lastTail);
  else {
    lastMs = ms;
    // The top digit starts below 16, so counting up cannot overflow in practice.
    lastTail = Array.from({ length: 16 }, (_, i) => randomByte() % (i === 0 ? 16 : 32));
  }
  let tail = '';
  for (const digit of lastTail) tail += alphabet[digit];
  return `${prefix}_${encodeTime(ms)}${tail}`;
}

let lastMs = -1;
let lastTail: number[] = [];

function increment(digits: number[]): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    const next = (digits[i] as number) + 1;
    if (next < 32) {
      digits[i] = next;
      return;
    }
    digits[i] = 0;
  }
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
