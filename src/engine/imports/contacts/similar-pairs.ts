/**
 * Soft similarity between two contacts: 0.40 × name similarity + 0.35 ×
 * same e-mail address + 0.15 × same phone + 0.10 × same postcode (the
 * product's published weights). The pairs worth scoring are found without
 * comparing every contact with every other: a pair below the name
 * similarity the threshold needs can only pass with the same e-mail address,
 * and names that similar share enough letter pairs (the q-gram lemma) to be
 * found through an index of letter pairs.
 */
import { similarity } from '../../tabular/similarity.js';
import type { GraphNode } from './identity-nodes.js';

/** The score at which two contacts in different groups are a conflict to resolve. The product does not publish its threshold: 0.50 is ours. */
export const similarityThreshold = 0.5;

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

/** The name similarity (whole percent) a pair without the same e-mail address needs to reach the threshold. */
const minNameSimilarity = Math.ceil((threshold - weight.phone - weight.postcode) / weight.name);

/** The most edits two names with L letters in the longer can be apart and still be minNameSimilarity alike. */
const maxEdits = (longer: number): number => Math.floor((longer * (100 - minNameSimilarity)) / 100);

function letterPairs(name: string): Map<string, number> {
  const padded = `\u0002${name}\u0003`;
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < padded.length; i++) {
    const pair = padded.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  return pairs;
}

/**
 * Every pair of active nodes, at least one of them a row, that could reach the
 * threshold or has the same e-mail address, scored; each pair once, the
 * lower index first. `active` leaves out skipped rows.
 */
export function similarPairs(nodes: readonly GraphNode[], active: (node: GraphNode) => boolean): SimilarPair[] {
  const live = nodes.filter(active);
  const candidates = new Map<number, Set<number>>();
  const consider = (x: number, y: number): void => {
    const [a, b] = x < y ? [x, y] : [y, x];
    let set = candidates.get(a);
    if (!set) candidates.set(a, (set = new Set()));
    set.add(b);
  };
  const isRow = (n: GraphNode): boolean => n.row !== null;

  if (minNameSimilarity <= 50) {
    // Two edits per letter pair: below 51% the lemma guarantees no shared pair, so every pair is scored.
    for (const a of live) for (const b of live) if (a.index < b.index && (isRow(a) || isRow(b))) consider(a.index, b.index);
  } else {
    const index = new Map<string, { node: GraphNode; count: number }[]>();
    const pairsOf = new Map<number, Map<string, number>>();
    for (const n of live) {
      if (n.normName === '') continue;
      const pairs = letterPairs(n.normName);
      pairsOf.set(n.index, pairs);
      for (const [pair, count] of pairs) {
        let postings = index.get(pair);
        if (!postings) index.set(pair, (postings = []));
        postings.push({ node: n, count });
      }
    }
    for (const a of live) {
      const pairs = pairsOf.get(a.index);
      if (!isRow(a) || !pairs) continue;
      const shared = new Map<number, number>();
      for (const [pair, count] of pairs) {
        for (const { node: b, count: other } of index.get(pair) ?? []) {
          // A row pair is counted from its lower index; a row-ledger pair from the row.
          if (b.index === a.index || (isRow(b) && b.index < a.index)) continue;
          shared.set(b.index, (shared.get(b.index) ?? 0) + Math.min(count, other));
        }
      }
      for (const [b, common] of shared) {
        const other = nodes[b] as GraphNode;
        const longer = Math.max(a.normName.length, other.normName.length);
        const edits = maxEdits(longer);
        if (Math.abs(a.normName.length - other.normName.length) > edits || common < longer + 1 - 2 * edits) continue;
        consider(a.index, b);
      }
    }
  }

  const byEmail = new Map<string, GraphNode[]>();
  for (const n of live) {
    if (n.email === null) continue;
    const list = byEmail.get(n.email);
    if (list) list.push(n);
    else byEmail.set(n.email, [n]);
  }
  for (const list of byEmail.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = [list[i] as GraphNode, list[j] as GraphNode];
        if (isRow(a) || isRow(b)) consider(a.index, b.index);
      }
    }
  }

  const scored: SimilarPair[] = [];
  for (const a of [...candidates.keys()].sort((x, y) => x - y)) {
    for (const b of [...(candidates.get(a) as Set<number>)].sort((x, y) => x - y)) {
      const pair = scorePair(nodes[a] as GraphNode, nodes[b] as GraphNode);
      if (passes(pair) || pair.sameEmail) scored.push(pair);
    }
  }
  return scored;
}
