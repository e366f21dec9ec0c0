/**
 * Password hashing: scrypt at OWASP's minimum parameters (N = 2^17, r = 8,
 * p = 1), a 16-byte random salt, a 64-byte key. The parameters are stored
 * with the hash (`scrypt$17$8$1$salt$hash`, base64), so that they can be
 * raised later without locking anyone out.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const logN = 17;
const r = 8;
const p = 1;
const keyLength = 64;

function derive(password: string, salt: Buffer, options: { logN: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** options.logN;
  // scrypt needs 128·N·r bytes (128 MiB here); Node's default ceiling is 32 MiB.
  const scryptOptions: ScryptOptions = { N, r: options.r, p: options.p, maxmem: 256 * N * options.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { logN, r, p });
  return ['scrypt', logN, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches the stored hash, compared in constant time. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { logN: Number(n), r: Number(rr), p: Number(pp) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash no password matches: checked against for an unknown user, so that the answer takes as long as for a known one. */
export const decoyHash = `scrypt$${logN}$${r}$${p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(keyLength).toString('base64')}`;
