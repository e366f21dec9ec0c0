/**
 * TOTP (RFC 6238): HMAC-SHA-1 over the count of 30-second steps since the
 * epoch, dynamically truncated (RFC 4226 §5.3). A code is accepted for the
 * step before, of and after now (±1 step, for clock drift), and only for a
 * step later than the last one accepted for the user, so that no code is
 * accepted twice.
 */
import { createHmac, randomBytes } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const stepSeconds = 30;

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of text.toUpperCase().replace(/=+$/, '')) {
    const digit = alphabet.indexOf(c);
    if (digit < 0) throw new Error(`not base32: ${c}`);
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), in base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

export const stepOf = (ms: number): number => Math.floor(ms / 1000 / stepSeconds);

/** The code of a step (RFC 4226 HOTP with SHA-1). */
export function hotp(secret: Uint8Array, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The code at an instant (ms since the epoch). */
export const totpAt = (secret: Uint8Array, ms: number, digits = 6): string => hotp(secret, stepOf(ms), digits);

/**
 * The step `code` belongs to, within one step of `ms` and after `lastStep`;
 * null when it matches none of them.
 */
export function acceptedStep(secretBase32: string, code: string, ms: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const secret = base32Decode(secretBase32);
  const now = stepOf(ms);
  for (const step of [now - 1, now, now + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    if (hotp(secret, step) === code) return step;
  }
  return null;
}

export function otpauthUri(secretBase32: string, account: string): string {
  const label = encodeURIComponent(`acct:${account}`);
  return `otpauth://totp/${label}?secret=${secretBase32}&issuer=acct&algorithm=SHA1&digits=6&period=${stepSeconds}`;
}
