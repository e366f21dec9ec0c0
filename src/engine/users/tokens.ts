/**
 * Session tokens are opaque: a kind prefix (`at_` access, `rt_` refresh,
 * `tt_` the TOTP step of a login) and 32 random bytes in base64url. Only
 * their SHA-256 hashes are stored, as for API keys; a token is found by its
 * hash, so a stolen database holds no usable token.
 */
import { createHash, randomBytes } from 'node:crypto';

export type TokenKind = 'at' | 'rt' | 'tt';

const shape = /^(at|rt|tt)_[A-Za-z0-9_-]{43}$/;

export const newToken = (kind: TokenKind): string => `${kind}_${randomBytes(32).toString('base64url')}`;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Whether `token` has the form of a token of `kind`. */
export const isToken = (token: string, kind: TokenKind): boolean => shape.test(token) && token.startsWith(`${kind}_`);

/** Lifetimes, in milliseconds. */
export const accessLifetime = 15 * 60_000;
export const refreshLifetime = 7 * 86_400_000;
export const challengeLifetime = 5 * 60_000;
