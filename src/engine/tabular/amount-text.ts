/**
 * Amounts as banks and accounting exports print them, read exactly into pence: "1,234.56",
 * "-12.50", "£12.50", "(12.50)", "12.50 DR", "12.50 CR", "12.50-", "+3.00".
 * The decimal itself is read by parsePounds, never through a float.
 */
import { parsePounds } from '../money.js';

const wrappers: readonly { readonly pattern: RegExp; readonly negative: boolean }[] = [
  { pattern: /^\((.*)\)$/, negative: true },
  { pattern: /^(.*?)\s*DR$/i, negative: true },
  { pattern: /^(.*?)\s*CR$/i, negative: false },
  { pattern: /^(.*\d)\s*-$/, negative: true },
  { pattern: /^-\s*(.*)$/, negative: true },
  { pattern: /^\+\s*(.*)$/, negative: false },
];

/** Pence, money in positive, or null when the text is not one amount (two signs, letters, three significant decimals …). */
export function parseAmountText(text: string): number | null {
  let rest = text.replace(/£|GBP/gi, '').trim();
  let negative: boolean | null = null;
  for (const { pattern, negative: isNegative } of wrappers) {
    const m = pattern.exec(rest);
    if (!m) continue;
    // A second sign marker ("-12.50 DR", "(-5.00)") says two things; refuse rather than guess.
    if (negative !== null) return null;
    negative = isNegative;
    rest = (m[1] ?? '').replace(/£/g, '').trim();
  }
  if (!/^\d/.test(rest)) return null;
  // "12.500" is exact pence; "12.505" is not, and is refused rather than rounded.
  rest = rest.replace(/^([\d,]*\.\d\d)0+$/, '$1');
  let pence: number;
  try {
    pence = parsePounds(rest, 'amount');
  } catch {
    return null;
  }
  return negative === true && pence !== 0 ? -pence : pence;
}
