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

/**
 * A user's id as the API shows it: `usr_` and the platform database's
 * integer key in decimal (`usr_2`). The key stays an integer inside; ids
 * are never given twice (platform migration 0007), so `usr_5` names one
 * user for good, deleted or not.
 */
export const userIdOut = (id: number): string => `usr_${id}`;

/** The integer key of a user id as sent: `usr_2`, or the bare `2` clients sent before; undefined when it is neither. */
export function userIdIn(text: string): number | undefined {
  const digits = /^(?:usr_)?([1-9][0-9]{0,14})$/.exec(text)?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * Who made a record, as the API shows it (createdBy, undoneBy, reportedBy):
 * an API key's id, `cli`, `system`… as kept, but a user's session as
 * `usr_<id>`, also for records kept before as `user_<id>`.
 */
export const actorIdOut = (id: string): string => id.replace(/^user_(?=[0-9]+$)/, 'usr_');
