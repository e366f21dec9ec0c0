/**
 * Normalising bank text before matching, so that one rule catches every
 * line from a payee however the bank decorates it: "CARD PAYMENT TO TESCO
 * STORES 4532 ON 12 MAR" and "Tesco Stores 0811" are both "TESCO STORES".
 */
import { bankPrefixes } from './bank-prefixes.js';

const prefixTokens: readonly (readonly string[])[] = bankPrefixes.map((p) => p.split(' ')).sort((a, b) => b.length - a.length);

const months = 'JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|SEPT|OCT|NOV|DEC';
const referenceDigits = /^[#*]?\d+$/;
const dateToken = new RegExp(`^(\\d{1,2}[/.-]\\d{1,2}([/.-]\\d{2,4})?|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}(${months})\\d{0,4})$`);
const monthToken = new RegExp(`^(${months})$`);
const dayToken = /^\d{1,2}$/;

/** Upper case, runs of white space (tabs, no-break spaces) made one space, trimmed: how every text field is compared. */
export function normaliseText(text: string): string {
  return text.toUpperCase().replace(/\s+/g, ' ').trim();
}

function startsWithTokens(tokens: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((word, i) => tokens[i] === word);
}

/** Drops leading bank prefixes, as long as a word is left after them. */
function stripPrefixes(tokens: string[]): string[] {
  for (;;) {
    const prefix = prefixTokens.find((p) => tokens.length > p.length && startsWithTokens(tokens, p));
    if (prefix === undefined) return tokens;
    tokens = tokens.slice(prefix.length);
  }
}

/** Words that only introduce the number or date after them: "ON 12 MAR", "REF 0811". */
const introducers = new Set(['ON', 'REF', 'REF:', 'REFERENCE']);

/**
 * Drops trailing reference numbers and dates ("4532", "#0811", "12/03/26",
 * "12MAR", "12 MAR", and an "ON" or "REF" before them), keeping at least one
 * word: a description that is only a number stays that number.
 */
function stripTrailing(tokens: string[]): string[] {
  let end = tokens.length;
  let sawNumber = false;
  for (;;) {
    const last = tokens[end - 1] ?? '';
    const before = tokens[end - 2] ?? '';
    if (end > 1 && (referenceDigits.test(last) || dateToken.test(last))) {
      end -= 1;
      sawNumber = true;
    } else if (end > 2 && monthToken.test(last) && dayToken.test(before)) {
      end -= 2;
      sawNumber = true;
    } else if (end > 1 && sawNumber && introducers.has(last)) {
      end -= 1;
      sawNumber = false;
    } else return tokens.slice(0, end);
  }
}

/**
 * A bank description as rules see it: normaliseText, then bank prefixes
 * stripped from the front and reference digits and dates from the end.
 * Idempotent, and never empty for a description with a word in it.
 */
export function normaliseDescription(text: string): string {
  const tokens = normaliseText(text).split(' ');
  return stripTrailing(stripPrefixes(tokens)).join(' ');
}
