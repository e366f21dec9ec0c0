/**
 * Checking a delivery as a receiver should: the signature recomputed over
 * "<X-Service-Timestamp>.<raw body>" with the endpoint's secret and
 * compared in constant time, and the timestamp within the tolerance
 * (300 seconds advised) of the receiver's clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Verification {
  readonly valid: boolean;
  readonly reason: string;
}

export function verifyWebhook(input: {
  readonly secret: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string | Buffer;
  readonly nowSeconds: number;
  readonly toleranceSeconds: number;
}): Verification {
  if (!/^\d+$/.test(input.timestamp)) return { valid: false, reason: 'the timestamp is not a whole number of seconds' };
  const age = Math.abs(input.nowSeconds - Number(input.timestamp));
  if (input.toleranceSeconds > 0 && age > input.toleranceSeconds) {
    return { valid: false, reason: `the timestamp is ${age} s from now, more than the ${input.toleranceSeconds} s allowed` };
  }
  const expected = createHmac('sha256', input.secret).update(`${input.timestamp}.`).update(input.body).digest();
  const given = /^[0-9a-f]{64}$/.test(input.signature) ? Buffer.from(input.signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'the signature does not match' };
  return { valid: true, reason: 'the signature matches and the timestamp is recent' };
}
