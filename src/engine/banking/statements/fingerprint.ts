/**
 * A layout's fingerprint: the same for every export of one bank's layout
 * whatever the rows, so that a correction the user made once can be found
 * again. Header cells are compared as normalised names (case, spacing and
 * currency labels aside); a file without a header is known by its width.
 */
import { createHash } from 'node:crypto';
import { normaliseHeaderCell } from './column-roles.js';

export function layoutFingerprint(header: readonly string[] | null, width: number): string {
  const basis = header === null ? `headerless:${width}` : `header:${header.map(normaliseHeaderCell).join('\u001f')}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}

export function ofxFingerprint(kind: 'BANK' | 'CREDITCARD'): string {
  return createHash('sha256').update(`ofx:${kind}`).digest('hex').slice(0, 16);
}
