/**
 * Comparing names as people type them in different products: a normalised
 * form for exact matching, and Levenshtein similarity for near matches.
 * "Acme Ltd", "ACME Limited" and "acme, ltd." normalise to "acme"; "Smith &
 * Sons" and "Smith and Sons" to "smith and sons".
 */

const legalSuffixes = /\s+(?:ltd|limited|plc|llp|llc|inc|co|company|uk)$/;

/** A name as compared: lower case, & as "and", letters and digits in single-spaced words, no leading "the", no legal suffix. */
export function normaliseName(name: string): string {
  let n = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^the\s+/, '');
  // "Acme UK Ltd" → "acme": suffixes may stack; a name that is only a suffix stays.
  for (let stripped = n.replace(legalSuffixes, ''); stripped !== n && stripped !== ''; stripped = n.replace(legalSuffixes, '')) n = stripped;
  return n;
}

/** The Levenshtein distance between two strings (insertions, deletions and substitutions of UTF-16 units). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

/** Similarity of two normalised names as a whole percentage: 100 × (1 − distance ÷ the longer length), rounded down. */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 100;
  return Math.floor((100 * (longer - levenshtein(a, b))) / longer);
}
