/**
 * The groups of the identity graph (union-find): the nodes each key or
 * decision says are one business. A group keeps the VAT and company numbers
 * of its nodes so that a weak link (a mail domain, an exact name) between
 * two groups whose numbers contradict is refused, and splits keep two
 * groups apart whatever links them.
 */
import type { GraphNode } from './identity-nodes.js';

export type Refusal = 'split' | 'contradiction';

export class IdentityGroups {
  private readonly parent: number[];
  private readonly vats: Set<string>[];
  private readonly crns: Set<string>[];
  /** The contacts in the books each group holds (at its root). */
  private readonly contacts: number[];
  private readonly splits: readonly (readonly [number, number])[];

  constructor(nodes: readonly GraphNode[], splits: readonly (readonly [number, number])[]) {
    this.parent = nodes.map((n) => n.index);
    this.vats = nodes.map((n) => new Set(n.vat ? [n.vat] : []));
    this.crns = nodes.map((n) => new Set(n.crn ? [n.crn] : []));
    this.contacts = nodes.map((n) => (n.ledger === null ? 0 : 1));
    this.splits = splits;
  }

  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r] as number;
    for (let n = i; n !== r;) {
      const next = this.parent[n] as number;
      this.parent[n] = r;
      n = next;
    }
    return r;
  }

  /** Why the groups of a and b must stay apart, or null. */
  refusal(a: number, b: number, weak: boolean): Refusal | null {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra === rb) return null;
    if (this.splits.some(([x, y]) => (this.find(x) === ra && this.find(y) === rb) || (this.find(x) === rb && this.find(y) === ra))) return 'split';
    if (weak && (differ(this.vats[ra] as Set<string>, this.vats[rb] as Set<string>) || differ(this.crns[ra] as Set<string>, this.crns[rb] as Set<string>))) {
      return 'contradiction';
    }
    return null;
  }

  /** Join the groups of a and b (the lower root stays): true when they were apart. */
  union(a: number, b: number): boolean {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra === rb) return false;
    const [keep, gone] = ra < rb ? [ra, rb] : [rb, ra];
    this.parent[gone] = keep;
    for (const v of this.vats[gone] as Set<string>) this.vats[keep]?.add(v);
    for (const c of this.crns[gone] as Set<string>) this.crns[keep]?.add(c);
    this.contacts[keep] = (this.contacts[keep] as number) + (this.contacts[gone] as number);
    return true;
  }

  /** Whether i's group holds a contact in the books. */
  holdsContact(i: number): boolean {
    return (this.contacts[this.find(i)] as number) > 0;
  }

  /** The VAT and company numbers of a's group that contradict b's, for the reason of a refusal. */
  numbers(i: number): { vats: string[]; crns: string[] } {
    const r = this.find(i);
    return { vats: [...(this.vats[r] as Set<string>)], crns: [...(this.crns[r] as Set<string>)] };
  }
}

/** Both have numbers and none in common. */
function differ(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  for (const v of a) if (b.has(v)) return false;
  return true;
}
