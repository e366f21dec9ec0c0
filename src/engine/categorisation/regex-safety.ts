/**
 * Reading a rule's regular expression before trusting it: how many literal
 * characters it pins down (its specificity) and whether its shape can
 * backtrack catastrophically. JavaScript's engine backtracks, and a rule
 * runs on every imported bank line, so shapes that go exponential
 * (a repeated group holding a quantifier or an alternation: `(a+)+`,
 * `(a|aa)*`, `(a?){20}`), backreferences, and more than a few unbounded
 * quantifiers (`.*.*.*.*` is polynomial of that degree) are refused.
 */

export const maxRegexLength = 200;
export const maxUnboundedQuantifiers = 3;
/** A bounded quantifier above this counts as unbounded: `.{0,5000}` backtracks like `.*`. */
const largeBound = 100;

export interface RegexShape {
  /** Literal characters every match must contain (an optional atom's count none; of alternatives, the fewest). */
  readonly literals: number;
  /** Why the pattern is unsafe, or undefined. */
  readonly hazard: string | undefined;
}

interface Frame {
  /** Literals of each alternative of this group so far. */
  readonly alternatives: number[];
  /** A quantifier or alternation inside: repeating this group is exponential. */
  ambiguous: boolean;
}

interface Atom {
  readonly literals: number;
  readonly ambiguous: boolean;
}

const classEscapes = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'p', 'P']);
/** The characters after \x, \u and \c that belong to the escape. */
const escapeDigits: Readonly<Record<string, number>> = { x: 2, u: 4, c: 1 };
const quantifier = /^(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})/;

/** The literal count and hazard of a pattern, read the way JavaScript reads it without the `u` flag. */
export function analyseRegex(pattern: string): RegexShape {
  const stack: Frame[] = [{ alternatives: [0], ambiguous: false }];
  let atom: Atom | undefined;
  let unbounded = 0;
  let hazard: string | undefined;
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
      const max = q[0] === '?' ? 1 : q[0] === '*' || q[0] === '+' || (q[2] === ',' && q[3] === '') ? Infinity : Number(q[3] ?? q[1]);
      if (max > 1 && atom.ambiguous) hazard ??= 'a repeated group holds a quantifier or an alternation (nested quantifiers backtrack catastrophically)';
      if (max > largeBound) unbounded += 1;
      if (min === 0) addLiterals(-atom.literals);
      if (min !== max) top().ambiguous = true;
      atom = undefined;
      i += q[0].length;
      if (pattern[i] === '?') i += 1; // lazy
      continue;
    }
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) hazard ??= 'backreferences are not allowed';
      const literal = next !== '' && !classEscapes.has(next) && !/[0-9]/.test(next);
      atom = { literals: literal ? 1 : 0, ambiguous: false };
      if (literal) addLiterals(1);
      i += 2 + (escapeDigits[next] ?? 0);
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      atom = { literals: 0, ambiguous: false };
      i = j + 1;
    } else if (c === '(') {
      stack.push({ alternatives: [0], ambiguous: false });
      atom = undefined;
      const group = /^\(\?(?:[:=!]|<[=!]|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i));
      i += group === null ? 1 : group[0].length;
    } else if (c === ')' && stack.length > 1) {
      const frame = stack.pop() as Frame;
      const literals = Math.min(...frame.alternatives);
      const ambiguous = frame.ambiguous || frame.alternatives.length > 1;
      if (ambiguous) top().ambiguous = true;
      addLiterals(literals);
      atom = { literals, ambiguous };
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
      atom = { literals: literal ? 1 : 0, ambiguous: false };
      if (literal) addLiterals(1);
      i += 1;
    }
  }
  if (unbounded > maxUnboundedQuantifiers) hazard ??= `more than ${maxUnboundedQuantifiers} unbounded quantifiers (*, + or {n,})`;
  return { literals: Math.max(0, Math.min(...(stack[0] as Frame).alternatives)), hazard };
}

/** The pattern compiled as rules run it (case-insensitive, as all matching is), or the reason it cannot be. */
export function compileRuleRegex(pattern: string): RegExp | string {
  if (pattern.length > maxRegexLength) return `a regular expression is at most ${maxRegexLength} characters`;
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, 'i');
  } catch (err) {
    return `not a valid regular expression: ${(err as Error).message}`;
  }
  const { hazard } = analyseRegex(pattern);
  return hazard ?? compiled;
}
