/**
 * Soft similarity between two contacts: 0.40 × name similarity + 0.35 ×
 * same e-mail address + 0.15 × same phone + 0.10 × same postcode (the
 * product's published weights). The pairs worth scoring are found without
 * comparing every contact with every other: only contacts that share an
 * e-mail address, a phone or a postcode can reach the threshold, and in a
 * large group of those, names alike enough share enough letter pairs to be
 * found through an index of their rarest letter pairs.
 */
import { similarity } from '../../tabular/similarity.js';
import type { GraphNode } from './identity-nodes.js';

/** The score at which two contacts in different groups are a conflict to resolve. The product does not publish its threshold: 0.45 is ours (Bramble Books Ltd and Bramble Book Ltd score 0.47). */
export const similarityThreshold = 0.45;

/** Weights in ten-thousandths, so that scores are compared as integers. */
const weight = { name: 40, email: 3500, phone: 1500, postcode: 1000 } as const;
const threshold = Math.round(similarityThreshold * 10000);

export interface SimilarPair {
  readonly a: number;
  readonly b: number;
  /** 0 to 1. */
  readonly score: number;
  readonly nameSimilarity: number;
  readonly sameEmail: boolean;
  readonly samePhone: boolean;
  readonly samePostcode: boolean;
}

export function scorePair(a: GraphNode, b: GraphNode): SimilarPair {
  const nameSimilarity = a.normName === '' || b.normName === '' ? 0 : similarity(a.normName, b.normName);
  const sameEmail = a.email !== null && a.email === b.email;
  const samePhone = a.phone !== null && a.phone === b.phone;
  const samePostcode = a.postcode !== null && a.postcode === b.postcode;
  const units = weight.name * nameSimilarity + (sameEmail ? weight.email : 0) + (samePhone ? weight.phone : 0) + (samePostcode ? weight.postcode : 0);
  return { a: a.index, b: b.index, score: units / 10000, nameSimilarity, sameEmail, samePhone, samePostcode };
}

export const passes = (pair: SimilarPair): boolean => Math.round(pair.score * 10000) >= threshold;

/** The name similarity (whole percent) a pair needs to reach the threshold with `other` units from the same phone or postcode; above 100, never. */
const nameNeeded = (other: number): number => Math.ceil((threshold - other) / weight.name);

/** The most edits two names with L letters in the longer can be apart and still be `min` percent alike. */
const maxEdits = (longer: number, min: number): number => Math.floor((longer * (100 - min)) / 100);

/** A name's letter pairs, padded at both ends, each numbered by its occurrence ("aa#1", "aa#2") so that shared pairs count as a multiset. */
function letterPairs(name: string): string[] {
  const padded = `\u0002${name}\u0003`;
  const seen = new Map<string, number>();
  const pairs: string[] = [];
  for (let i = 0; i + 1 < padded.length; i++) {
    const pair = padded.slice(i, i + 2);
    const n = (seen.get(pair) ?? 0) + 1;
    seen.set(pair, n);
    pairs.push(`${pair}#${n}`);
  }
  return pairs;
}

/** The size of the common part of two sorted lists. */
function overlap(a: Int32Array, b: Int32Array): number {
  let common = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if ((a[i] as number) < (b[j] as number)) i++;
    else j++;
  }
  return common;
}

/**
 * The fewest padded letter pairs a name of `length` letters shares with any
 * name `min` percent alike. Names with L letters in the longer and at most
 * k(L) edits apart share at least L + 1 − 2k(L) pairs (the q-gram lemma);
 * the partner may be longer, with more edits allowed, so the least over
 * every partner length is taken. Above 50% it is at least 1.
 */
function fewestShared(length: number, min: number): number {
  let fewest = length + 1 - 2 * maxEdits(length, min);
  for (let longer = length + 1; longer - length <= maxEdits(longer, min); longer++) fewest = Math.min(fewest, longer + 1 - 2 * maxEdits(longer, min));
  return fewest;
}

/**
 * Pairs of named nodes, at least one a row, whose names could be `min`
 * percent alike (min above 50). A name of La letters shares at least
 * τ = fewestShared(La) of its La + 1 letter pairs with any such partner, so
 * two such names share one of the first La + 2 − τ of their pairs taken
 * rarest first (the prefix filter): only those are indexed.
 */
function nearNames(live: readonly GraphNode[], min: number, consider: (a: number, b: number) => void): void {
  const named = live.filter((n) => n.normName !== '');
  const ids = new Map<string, number>();
  const pairsOf = named.map((n) => letterPairs(n.normName).map((p) => ids.get(p) ?? (ids.set(p, ids.size), ids.size - 1)));
  const frequency = new Int32Array(ids.size);
  for (const pairs of pairsOf) for (const id of pairs) frequency[id] = (frequency[id] as number) + 1;
  const rarestFirst = (x: number, y: number): number => (frequency[x] as number) - (frequency[y] as number) || x - y;
  const sorted = pairsOf.map((pairs) => Int32Array.from(pairs).sort());
  const prefixes = pairsOf.map((pairs) => [...pairs].sort(rarestFirst).slice(0, pairs.length + 1 - fewestShared(pairs.length - 1, min)));
  const index = new Map<number, number[]>();
  prefixes.forEach((prefix, i) => {
    for (const id of prefix) {
      const list = index.get(id);
      if (list) list.push(i);
      else index.set(id, [i]);
    }
  });
  const seen = new Map<number, number>();
  named.forEach((a, i) => {
    if (a.row === null) return;
    for (const id of prefixes[i] as number[]) {
      for (const j of index.get(id) ?? []) {
        const b = named[j] as GraphNode;
        // A row pair is taken from its lower index; a row-ledger pair from the row.
        if (j === i || (b.row !== null && b.index < a.index) || seen.get(b.index) === a.index) continue;
        seen.set(b.index, a.index);
        const longer = Math.max(a.normName.length, b.normName.length);
        const edits = maxEdits(longer, min);
        if (Math.abs(a.normName.length - b.normName.length) > edits) continue;
        if (overlap(sorted[i] as Int32Array, sorted[j] as Int32Array) < longer + 1 - 2 * edits) continue;
        consider(a.index, b.index);
      }
    }
  });
}

/** The nodes of `nodes` by a key, those without one left out. */
function bucketsBy(nodes: readonly GraphNode[], key: (n: GraphNode) => string | null): GraphNode[][] {
  const buckets = new Map<string, GraphNode[]>();
  for (const n of nodes) {
    const k = key(n);
    if (k === null) continue;
    const list = buckets.get(k);
    if (list) list.push(n);
    else buckets.set(k, [n]);
  }
  return [...buckets.values()].filter((list) => list.length > 1);
}

/** A bucket this small is compared pair by pair; a larger one through the letter-pair index. */
const smallBucket = 32;

/**
 * Every pair of active nodes, at least one of them a row, that reaches the
 * threshold or has the same e-mail address, scored; each pair once, the
 * lower index first. `active` leaves out skipped rows. A name alone weighs
 * at most 0.40, below the threshold, so a pair that passes shares an
 * e-mail address, a phone or a postcode: pairs are looked for among the
 * nodes that share one, by the name similarity each needs (the same phone
 * and postcode: 50%; the phone: 75%; the postcode: 88%).
 */
export function similarPairs(nodes: readonly GraphNode[], active: (node: GraphNode) => boolean): SimilarPair[] {
  const live = nodes.filter(active);
  const scored = new Map<number, SimilarPair>();
  const tried = new Set<number>();
  const consider = (x: number, y: number): void => {
    const [a, b] = x < y ? [x, y] : [y, x];
    const key = a * nodes.length + b;
    if (tried.has(key)) return;
    tried.add(key);
    const pair = scorePair(nodes[a] as GraphNode, nodes[b] as GraphNode);
    if (passes(pair) || pair.sameEmail) scored.set(key, pair);
  };
  const isRow = (n: GraphNode): boolean => n.row !== null;
  const everyPair = (list: readonly GraphNode[]): void => {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = [list[i] as GraphNode, list[j] as GraphNode];
        if (isRow(a) || isRow(b)) consider(a.index, b.index);
      }
    }
  };
  const near = (list: readonly GraphNode[], min: number): void => {
    if (min > 100) return;
    if (min <= 50 || list.length <= smallBucket) everyPair(list);
    else nearNames(list, min, consider);
  };

  near(live, nameNeeded(0));
  for (const list of bucketsBy(live, (n) => n.email)) everyPair(list);
  for (const list of bucketsBy(live, (n) => (n.phone === null || n.postcode === null ? null : `${n.phone} ${n.postcode}`)))
    near(list, nameNeeded(weight.phone + weight.postcode));
  for (const list of bucketsBy(live, (n) => n.phone)) near(list, nameNeeded(weight.phone));
  for (const list of bucketsBy(live, (n) => n.postcode)) near(list, nameNeeded(weight.postcode));
  return [...scored.entries()].sort(([x], [y]) => x - y).map(([, pair]) => pair);
}
