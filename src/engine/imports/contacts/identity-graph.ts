/**
 * The identity graph's links, strongest first: a person's links; the same
 * VAT or company number; an exact duplicate (the same normalised name and
 * no detail that differs); the same company mail domain. The last two are
 * weak: between groups whose VAT or company numbers contradict they are
 * refused and become a conflict instead, and a domain never joins two groups
 * that each hold a contact in the books. Then soft similarity between
 * groups still apart flags conflicts, and so does the same e-mail address in
 * two groups, since the books allow one contact per address.
 */
import { IdentityGroups, type Refusal } from './identity-groups.js';
import type { GraphNode } from './identity-nodes.js';
import type { Resolution } from './resolutions.js';
import { similarPairs } from './similar-pairs.js';

export type EvidenceType = 'VAT_NUMBER' | 'COMPANY_NUMBER' | 'EMAIL_DOMAIN' | 'EXACT' | 'SIMILAR' | 'LINK' | 'SPLIT' | 'SKIP' | 'SEVERAL_CONTACTS';

/** What the graph found, by node index. */
export interface Finding {
  readonly type: EvidenceType;
  readonly nodes: readonly number[];
  readonly confidence: number;
  readonly reason: string;
}

/** Two nodes that may be one business, in groups that stay apart until a person decides. */
export interface ConflictEdge extends Finding {
  readonly a: number;
  readonly b: number;
}

export interface Graph {
  readonly groups: IdentityGroups;
  readonly skipped: ReadonlySet<number>;
  /** Why each node joined its group (the first link that joined it), or null. */
  readonly joinReason: readonly (string | null)[];
  /** Findings of links that joined groups, and of resolutions. */
  readonly findings: readonly Finding[];
  readonly conflicts: readonly ConflictEdge[];
}

/** How sure each kind of link is, as a percentage. */
export const confidenceOf = { LINK: 100, VAT_NUMBER: 100, COMPANY_NUMBER: 100, EXACT: 95, EMAIL_DOMAIN: 90, SPLIT: 100, SKIP: 100, refused: 50 } as const;

type HardType = 'VAT_NUMBER' | 'COMPANY_NUMBER' | 'EMAIL_DOMAIN';

const hardKinds: readonly { type: HardType; key: (n: GraphNode) => string | null; what: string }[] = [
  { type: 'VAT_NUMBER', key: (n) => n.vat, what: 'the same VAT number' },
  { type: 'COMPANY_NUMBER', key: (n) => n.crn, what: 'the same company number' },
  { type: 'EMAIL_DOMAIN', key: (n) => n.domain, what: 'the same company e-mail domain' },
];

/** No detail present on both sides differs. */
function sameDetails(a: GraphNode, b: GraphNode): boolean {
  const agree = (x: string | null, y: string | null): boolean => x === null || y === null || x === y;
  return agree(a.email, b.email) && agree(a.phone, b.phone) && agree(a.postcode, b.postcode) && agree(a.vat, b.vat) && agree(a.crn, b.crn);
}

function bucketsOf(nodes: readonly GraphNode[], key: (n: GraphNode) => string | null): Map<string, GraphNode[]> {
  const buckets = new Map<string, GraphNode[]>();
  for (const n of nodes) {
    const k = key(n);
    if (k === null || k === '') continue;
    const list = buckets.get(k);
    if (list) list.push(n);
    else buckets.set(k, [n]);
  }
  return buckets;
}

/** A row node and the ledger node of the contact the same row went to in an earlier import. */
export type Remembered = readonly [row: string, ledger: string];

/** The words of a normalised name that can say which business it is ("and" cannot). */
function wordsOf(normName: string): Set<string> {
  return new Set(normName.split(' ').filter((w) => w.length > 1 && w !== 'and'));
}

export function buildGraph(nodes: readonly GraphNode[], resolutions: readonly Resolution[], remembered: readonly Remembered[] = []): Graph {
  const indexOf = new Map(nodes.map((n) => [n.node.id, n.index]));
  const skipped = new Set<number>();
  const links: [number, number, string][] = [];
  const splits: [number, number][] = [];
  const findings: Finding[] = [];
  // Resolutions naming nodes that are gone (a contact deleted since) are left out; validateResolutions refused the others.
  for (const r of resolutions) {
    if ('skip' in r) {
      const at = indexOf.get(r.skip);
      if (at === undefined || nodes[at]?.row === null) continue;
      skipped.add(at);
      findings.push({ type: 'SKIP', nodes: [at], confidence: confidenceOf.SKIP, reason: `${r.skip} is skipped by a resolution` });
      continue;
    }
    const [a, b] = ('link' in r ? r.link : r.split).map((id) => indexOf.get(id));
    if (a === undefined || b === undefined || a === b) continue;
    const [x, y] = a < b ? [a, b] : [b, a];
    if ('link' in r) links.push([x, y, 'linked by a resolution']);
    else splits.push([x, y]);
  }
  for (const [row, ledger] of remembered) {
    const [a, b] = [indexOf.get(row), indexOf.get(ledger)];
    if (a !== undefined && b !== undefined) links.push([a, b, 'imported before into the same contact']);
  }
  const active = nodes.filter((n) => !skipped.has(n.index));
  const groups = new IdentityGroups(nodes, splits);
  const joinReason: (string | null)[] = nodes.map(() => null);
  const conflicts: ConflictEdge[] = [];
  const idOf = (i: number): string => (nodes[i] as GraphNode).node.id;
  const join = (a: number, b: number, reason: string): boolean => {
    if (!groups.union(a, b)) return false;
    joinReason[a] ??= `${reason} as ${idOf(b)}`;
    joinReason[b] ??= `${reason} as ${idOf(a)}`;
    return true;
  };
  const refused = (a: number, b: number, type: EvidenceType, reason: string): void => {
    const [na, nb] = [groups.numbers(a), groups.numbers(b)];
    const numbers =
      na.vats.length > 0 && nb.vats.length > 0
        ? `VAT numbers ${na.vats.join(', ')} / ${nb.vats.join(', ')}`
        : `company numbers ${na.crns.join(', ')} / ${nb.crns.join(', ')}`;
    conflicts.push({ a, b, type, nodes: [a, b], confidence: confidenceOf.refused, reason: `${reason}, but the ${numbers} differ: not merged` });
  };

  for (const [a, b, why] of links) {
    if (skipped.has(a) || skipped.has(b)) continue;
    const key = `link:${idOf(a)}~${idOf(b)}`;
    (nodes[a] as GraphNode).node.hardKeys.push(key);
    (nodes[b] as GraphNode).node.hardKeys.push(key);
    join(a, b, why);
    findings.push({ type: 'LINK', nodes: [a, b], confidence: confidenceOf.LINK, reason: `${idOf(a)} and ${idOf(b)} are ${why}` });
  }
  for (const [a, b] of splits) {
    findings.push({ type: 'SPLIT', nodes: [a, b], confidence: confidenceOf.SPLIT, reason: `${idOf(a)} and ${idOf(b)} are kept apart by a resolution` });
  }

  /** Each node of a bucket joins the first group of the bucket that will have it. */
  const joinBucket = (bucket: readonly GraphNode[], type: HardType, what: string, weak: boolean): void => {
    const anchors: number[] = [];
    for (const { index: n } of bucket) {
      let placed = false;
      for (const anchor of anchors) {
        if (groups.find(anchor) === groups.find(n)) placed = true;
        else {
          const refusal: Refusal | null = groups.refusal(n, anchor, weak);
          if (refusal === null) placed = join(n, anchor, what);
          else if (refusal === 'contradiction') refused(n, anchor, type, what);
        }
        if (placed) break;
      }
      if (!placed) anchors.push(n);
    }
  };

  const hardBuckets = hardKinds.map((kind) => ({ ...kind, buckets: bucketsOf(active, kind.key) }));
  for (const kind of hardBuckets.filter((k) => k.type !== 'EMAIL_DOMAIN')) {
    for (const [key, bucket] of kind.buckets) joinBucket(bucket, kind.type, `${kind.what} ${key}`, false);
  }

  const exactJoined = new Set<number>();
  for (const bucket of bucketsOf(active, (n) => n.normName).values()) {
    for (let j = 1; j < bucket.length; j++) {
      for (let i = 0; i < j; i++) {
        const [a, b] = [bucket[i] as GraphNode, bucket[j] as GraphNode];
        if (!sameDetails(a, b)) continue;
        const what = `the same name "${b.normName}" and no detail that differs`;
        if (groups.find(a.index) === groups.find(b.index)) {
          exactJoined.add(a.index).add(b.index);
          continue;
        }
        const refusal = groups.refusal(a.index, b.index, true);
        if (refusal === 'contradiction') refused(b.index, a.index, 'EXACT', what);
        if (refusal === null && join(b.index, a.index, what)) exactJoined.add(a.index).add(b.index);
      }
    }
  }

  const contactsOf = (a: GraphNode): GraphNode[] => nodes.filter((m) => m.ledger !== null && groups.find(m.index) === groups.find(a.index));
  /** Of several contacts in the books a row could join, the one with its e-mail address, else the one with its name, else null. */
  const choose = (n: GraphNode, anchors: readonly GraphNode[]): GraphNode | null => {
    for (const same of [(m: GraphNode) => n.email !== null && m.email === n.email, (m: GraphNode) => m.normName === n.normName]) {
      const found = anchors.filter((a) => contactsOf(a).some(same));
      if (found.length > 0) return found.length === 1 ? (found[0] as GraphNode) : null;
    }
    return null;
  };
  /**
   * The same company mail domain joins no two groups that each hold a contact in the books (merging contacts is not an
   * import's business), so those are placed first, each its own group, and a row that has its contact already (by a
   * number, a link, an exact duplicate) keeps it. A row without one joins the domain's one contact, or of several the one
   * it matches exactly (e-mail address, then name); several and none matched is a conflict for a person. Rows left
   * without a contact join each other. The domain alone never joins names that share no word (Smith Builders and Jones
   * Plumbing on a provider's domain not in the list): that is a conflict, one a row.
   */
  const joinDomain = (bucket: readonly GraphNode[], key: string): void => {
    const what = `the same company e-mail domain ${key}`;
    const anchors: GraphNode[] = [];
    // The words of the names of each anchor's group (its nodes in the bucket and its contacts in the books).
    const words = new Map<number, Set<string>>();
    const order = (b: GraphNode): number => (b.row === null ? 0 : groups.holdsContact(b.index) ? 1 : 2);
    for (const n of [...bucket].sort((x, y) => order(x) - order(y))) {
      const own = wordsOf(n.normName);
      const anchored = anchors.find((a) => groups.find(a.index) === groups.find(n.index));
      if (anchored !== undefined) {
        for (const w of own) words.get(anchored.index)?.add(w);
        continue;
      }
      const open: GraphNode[] = [];
      let unlike: GraphNode | null = null;
      for (const anchor of anchors) {
        const refusal = groups.refusal(n.index, anchor.index, true);
        if (refusal === 'contradiction') refused(n.index, anchor.index, 'EMAIL_DOMAIN', what);
        if (refusal !== null) continue;
        const theirs = words.get(anchor.index) as Set<string>;
        if ([...own].some((w) => theirs.has(w))) open.push(anchor);
        else unlike ??= anchor;
      }
      let into: GraphNode | null = null;
      const withContact = open.filter((a) => groups.holdsContact(a.index));
      if (!groups.holdsContact(n.index) && withContact.length > 0) {
        into = withContact.length === 1 ? (withContact[0] as GraphNode) : choose(n, withContact);
        for (const a of into === null ? withContact : []) {
          conflicts.push({
            a: n.index,
            b: a.index,
            type: 'EMAIL_DOMAIN',
            nodes: [n.index, a.index],
            confidence: confidenceOf.refused,
            reason: `${idOf(n.index)} has ${what} as ${withContact.length} contacts in the books (${withContact.flatMap((c) => contactsOf(c).map((m) => idOf(m.index))).join(', ')}) and is not one of them by e-mail address or name: not merged`,
          });
        }
        unlike = null;
      }
      if (into === null && !groups.holdsContact(n.index)) into = open.find((a) => !groups.holdsContact(a.index)) ?? null;
      if (into !== null && join(n.index, into.index, what)) {
        for (const w of own) words.get(into.index)?.add(w);
        continue;
      }
      if (unlike !== null && !groups.holdsContact(n.index)) {
        const [mine, theirs] = [n.node.name, (nodes[unlike.index] as GraphNode).node.name];
        conflicts.push({
          a: n.index,
          b: unlike.index,
          type: 'EMAIL_DOMAIN',
          nodes: [n.index, unlike.index],
          confidence: confidenceOf.refused,
          reason: `${what}, but the names ${JSON.stringify(mine)} / ${JSON.stringify(theirs)} share no word: not merged`,
        });
      }
      anchors.push(n);
      words.set(n.index, new Set([...own, ...contactsOf(n).flatMap((m) => [...wordsOf(m.normName)])]));
    }
  };
  const domains = hardBuckets.find((k) => k.type === 'EMAIL_DOMAIN');
  for (const [key, bucket] of domains?.buckets ?? []) joinDomain(bucket, key);

  // Findings of what joined: the nodes sharing a key that ended in one group.
  const hasRow = (list: readonly number[]): boolean => list.some((i) => nodes[i]?.row !== null);
  const byGroup = (bucket: readonly GraphNode[]): number[][] => {
    const parts = new Map<number, number[]>();
    for (const { index } of bucket) {
      const root = groups.find(index);
      const part = parts.get(root);
      if (part) part.push(index);
      else parts.set(root, [index]);
    }
    return [...parts.values()].filter((p) => p.length > 1 && hasRow(p));
  };
  for (const kind of hardBuckets) {
    for (const [key, bucket] of kind.buckets) {
      for (const part of byGroup(bucket)) findings.push({ type: kind.type, nodes: part, confidence: confidenceOf[kind.type], reason: `${kind.what} ${key}` });
    }
  }
  for (const bucket of bucketsOf(
    active.filter((n) => exactJoined.has(n.index)),
    (n) => n.normName,
  ).values()) {
    for (const part of byGroup(bucket)) {
      findings.push({
        type: 'EXACT',
        nodes: part,
        confidence: confidenceOf.EXACT,
        reason: `the same name "${(nodes[part[0] as number] as GraphNode).node.name}" and no detail that differs`,
      });
    }
  }

  for (const pair of similarPairs(nodes, (n) => !skipped.has(n.index))) {
    if (groups.find(pair.a) === groups.find(pair.b) || groups.refusal(pair.a, pair.b, false) === 'split') continue;
    const parts = [
      `names ${pair.nameSimilarity}% alike`,
      ...(pair.sameEmail ? ['the same e-mail address'] : []),
      ...(pair.samePhone ? ['the same phone'] : []),
      ...(pair.samePostcode ? ['the same postcode'] : []),
    ];
    const onlyOne = pair.sameEmail ? `; one e-mail address (${(nodes[pair.a] as GraphNode).email ?? ''}) belongs to one contact only` : '';
    conflicts.push({
      a: pair.a,
      b: pair.b,
      type: 'SIMILAR',
      nodes: [pair.a, pair.b],
      confidence: Math.round(pair.score * 100),
      reason: `${idOf(pair.a)} and ${idOf(pair.b)} are alike (score ${pair.score.toFixed(2)}: ${parts.join(', ')})${onlyOne}`,
    });
  }
  return { groups, skipped, joinReason, findings, conflicts };
}
