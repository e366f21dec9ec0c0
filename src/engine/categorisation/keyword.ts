/**
 * The keyword categorise-row makes a `contains` rule from: the distinctive
 * leading words of a normalised description, which name the payee, without
 * the company suffixes and reference numbers that follow it.
 */
import { normaliseDescription } from './normalise.js';

/** Words after a payee's name that do not tell payees apart: the keyword stops at one. */
const generic = new Set(['LTD', 'LIMITED', 'PLC', 'LLP', 'INC', 'CO', 'COM', 'UK', 'GB', 'GBR', 'GBP', '-']);
/** Words inside a name ("MARKS AND SPENCER"): kept between words, not counted. */
const connectors = new Set(['&', 'AND', 'OF', 'THE']);
const maxWords = 2;

const stops = (word: string): boolean => generic.has(word) || /^[#*]?\d+$/.test(word);

/** "CARD PAYMENT TO BRITISH GAS SERVICES LTD 0811" → "BRITISH GAS"; "EE LIMITED" → "EE"; "THE WORKS 0412" → "THE WORKS"; "MARKS & SPENCER PLC" → "MARKS & SPENCER"; "AMZN MKTP UK*AB12CD" → "AMZN MKTP". */
export function extractKeyword(description: string): string {
  const words = normaliseDescription(description).split(' ');
  const whole = words.join(' ');
  const start = words.findIndex((w) => !stops(w));
  if (start < 0) return whole;
  const keyword: string[] = [];
  let counted = 0;
  for (const word of words.slice(start)) {
    if (counted === maxWords || stops(word)) break;
    // A card line's "AMAZON.CO.UK*AB12CD": the part after the star is an order reference.
    const star = word.indexOf('*');
    if (star > 0 && /\d/.test(word.slice(star))) {
      keyword.push(word.slice(0, star));
      break;
    }
    keyword.push(word);
    if (!connectors.has(word)) counted += 1;
  }
  while (connectors.has(keyword.at(-1) ?? '')) keyword.pop();
  return keyword.length === 0 ? whole : keyword.join(' ');
}
