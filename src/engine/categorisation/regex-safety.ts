/**
 * A rule's regular expression: compiled for RE2's linear-time engine
 * (re2js), so that no pattern, however it is written, can backtrack on an
 * imported bank line (JavaScript's engine took 20 s on one 500-character
 * line for `.*.*.*X`); and read for how many literal characters it pins
 * down (its specificity, which the scorer uses). RE2 has no lookarounds or
 * backreferences: a pattern using them is refused. Patterns are written as
 * for JavaScript: its escapes (\u0041, \cA, named groups) are translated.
 */
import { RE2JS } from 're2js';

export const maxRegexLength = 200;
/**
 * RE2's time on a line grows with the program's size (counted repeats are
 * written out: `.{0,1000}` is 2,000 steps), so a program is capped: finding
 * where a 2,000-step program matches in a 500-character line takes some
 * tens of milliseconds.
 */
export const maxRegexProgram = 2000;

export interface RegexShape {
  /** Literal characters every match must contain (an optional atom's count none; of alternatives, the fewest). */
  readonly literals: number;
}

interface Frame {
  /** Literals of each alternative of this group so far. */
  readonly alternatives: number[];
}

interface Atom {
  readonly literals: number;
}

const classEscapes = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'p', 'P']);
/** The characters after \x, \u and \c that belong to the escape. */
const escapeDigits: Readonly<Record<string, number>> = { x: 2, u: 4, c: 1 };
const quantifier = /^(?:[*+?]|\{(\d+)(?:,\d*)?\})/;

/** The literal count of a pattern, read the way JavaScript reads it without the `u` flag. */
export function analyseRegex(pattern: string): RegexShape {
  const stack: Frame[] = [{ alternatives: [0] }];
  let atom: Atom | undefined;
  const top = (): Frame => stack[stack.length - 1] as Frame;
  const addLiterals = (n: number): void => {
    const alts = top().alternatives;
    alts[alts.length - 1] = (alts[alts.length - 1] as number) + n;
  };

  for (let i = 0; i < pattern.length;) {
    const c = pattern[i] as string;
    const q = quantifier.exec(pattern.slice(i));
    if (q !== null && atom !== undefined) {
      const min = q[0] === '+' ? 1 : q[0] === '*' || q[0] === '?' ? 0 : Number(q[1]);
      if (min === 0) addLiterals(-atom.literals);
      atom = undefined;
      i += q[0].length;
      if (pattern[i] === '?') i += 1; // lazy
      continue;
    }
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      const literal = next !== '' && !classEscapes.has(next) && !/[0-9]/.test(next);
      atom = { literals: literal ? 1 : 0 };
      if (literal) addLiterals(1);
      i += 2 + (escapeDigits[next] ?? 0);
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      atom = { literals: 0 };
      i = j + 1;
    } else if (c === '(') {
      stack.push({ alternatives: [0] });
      atom = undefined;
      const group = /^\(\?(?:[:=!]|<[=!]|P?<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i));
      i += group === null ? 1 : group[0].length;
    } else if (c === ')' && stack.length > 1) {
      const frame = stack.pop() as Frame;
      const literals = Math.min(...frame.alternatives);
      addLiterals(literals);
      atom = { literals };
      i += 1;
    } else if (c === '|') {
      top().alternatives.push(0);
      atom = undefined;
      i += 1;
    } else if (c === '^' || c === '$') {
      atom = undefined;
      i += 1;
    } else {
      const literal = c !== '.';
      atom = { literals: literal ? 1 : 0 };
      if (literal) addLiterals(1);
      i += 1;
    }
  }
  return { literals: Math.max(0, Math.min(...(stack[0] as Frame).alternatives)) };
}

const lookaround = /\(\?<?[=!]/;

/** \1 to \9 or \k<name> outside another escape: neither is valid in RE2, and translating would read \k as a plain k. */
function hasBackreference(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i += pattern[i] === '\\' ? 2 : 1) {
    if (pattern[i] === '\\' && /[1-9k]/.test(pattern[i + 1] ?? '')) return true;
  }
  return false;
}

/** A rule's regex compiled once: whether it matches a text, and the part it matches (leftmost, as JavaScript's would). */
export interface RuleRegex {
  readonly exec: (text: string) => string | undefined;
}

/** The pattern compiled as rules run it (case-insensitive, as all matching is, on RE2's linear-time engine), or the reason it cannot be. */
export function compileRuleRegex(pattern: string): RuleRegex | string {
  if (pattern.length > maxRegexLength) return `a regular expression is at most ${maxRegexLength} characters`;
  if (hasBackreference(pattern)) return 'backreferences (\\1, \\k<name>) are not supported: rules run on a linear-time engine (RE2)';
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    if (lookaround.test(pattern)) return 'lookaheads and lookbehinds ((?=, (?!, (?<=, (?<!) are not supported: rules run on a linear-time engine (RE2)';
    return `not a valid regular expression: ${(err as Error).message.replace(/^error parsing regexp: /, '')}`;
  }
  const size = (compiled.re2().prog as { numInst(): number }).numInst();
  if (size > maxRegexProgram)
    return `a regular expression is too large once its counted repeats are written out (${size} steps, at most ${maxRegexProgram}): use smaller counts such as {0,50}, or * and +`;
  // test() runs RE2's DFA without capturing; exec() (slower) only on a line that matches.
  return { exec: (text) => (compiled.test(text) ? (compiled.exec(text)?.[0] as string | undefined) : undefined) };
}
