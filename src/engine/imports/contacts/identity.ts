/**
 * The merge preview of a contact import: which rows create a contact, which
 * merge into one (in the books, or created from an earlier row), which are
 * conflicts a person must resolve and which are skipped. Every valid row
 * has exactly one decision: creates + merges + conflicts + skips =
 * validContacts. The preview lists at most 50 groups (the product's limit),
 * conflicts first so that those to resolve are always shown; stats and
 * decisions cover every row.
 */
import { buildGraph, type ConflictEdge, type EvidenceType, type Finding, type Remembered } from './identity-graph.js';
import { graphNodes, type GraphNode, type IdentityNode, type LedgerContact } from './identity-nodes.js';
import type { Resolution } from './resolutions.js';
import type { ContactRow } from './read-contacts.js';

export { validateResolutions, type Resolution } from './resolutions.js';
export { similarityThreshold } from './similar-pairs.js';
export type { IdentityNode, LedgerContact } from './identity-nodes.js';
export type { EvidenceType, Remembered } from './identity-graph.js';

/** The most groups a preview lists. */
export const previewGroupLimit = 50;

export interface Outcome {
  readonly type: 'CREATE' | 'MERGE' | 'CONFLICT';
  readonly nodeIds: string[];
  /** MERGE: the contact in the books the rows merge into. */
  readonly contactId: string | null;
}

export interface Evidence {
  readonly type: EvidenceType;
  readonly nodeIds: string[];
  /** 0 to 100. */
  readonly confidence: number;
  readonly reason: string;
}

export interface RowDecision {
  readonly rowIndex: number;
  readonly action: 'create' | 'merge' | 'skip' | 'conflict';
  /** Merge into this contact in the books. */
  readonly contactId: string | null;
  /** Merge into the contact created from this row. */
  readonly groupLeader: number | null;
  /** False when another contact or group has the row's e-mail address: the books allow one contact per address, so it is left out. */
  readonly useEmail: boolean;
  readonly reason: string;
}

export interface IdentityPreview {
  readonly nodes: IdentityNode[];
  readonly outcomes: Outcome[];
  /** Groups before the limit: outcomes.length < totalGroups when the preview is cut. */
  readonly totalGroups: number;
  readonly evidence: Evidence[];
  readonly stats: { creates: number; merges: number; conflicts: number; skips: number; totalRows: number; validContacts: number };
  /** One per valid row, in file order. */
  readonly decisions: RowDecision[];
}

interface Group {
  readonly root: number;
  readonly members: GraphNode[];
  readonly rows: GraphNode[];
  readonly ledger: GraphNode[];
}

/** The earliest created contact of a group (the lower id on a tie). */
function target(ledger: readonly GraphNode[]): GraphNode {
  const when = (n: GraphNode): string => `${n.ledger?.createdAt ?? ''}\u0000${n.ledger?.id ?? ''}`;
  return ledger.reduce((best, n) => (when(n) < when(best) ? n : best));
}

/**
 * The preview of importing `rows` into books holding `ledger`, with the
 * resolutions made so far. `totalRows` is the file's data rows, rejected
 * ones included (ContactFile.totalRows). `remembered` links rows to the
 * contacts the same rows went to in earlier imports, so that importing a
 * file again merges every row where it went the first time, whatever was
 * resolved then.
 */
export function resolveIdentities(
  rows: readonly ContactRow[],
  ledger: readonly LedgerContact[],
  resolutions: readonly Resolution[],
  totalRows: number = rows.length,
  remembered: readonly Remembered[] = [],
): IdentityPreview {
  const nodes = graphNodes(rows, ledger);
  const graph = buildGraph(nodes, resolutions, remembered);
  const { groups, skipped } = graph;
  const idOf = (i: number): string => (nodes[i] as GraphNode).node.id;

  const byRoot = new Map<number, Group>();
  for (const n of nodes) {
    if (skipped.has(n.index)) continue;
    const root = groups.find(n.index);
    let group = byRoot.get(root);
    if (!group) byRoot.set(root, (group = { root, members: [], rows: [], ledger: [] }));
    group.members.push(n);
    (n.row === null ? group.ledger : group.rows).push(n);
  }

  // Conflicts join groups into components. A conflict between two groups without rows is not the import's to resolve, nor one
  // between two groups that each hold a contact in the books: their rows merge into their own contacts either way.
  const componentOf = new Map<number, number>();
  const component = (root: number): number => {
    let r = root;
    while (componentOf.has(r) && componentOf.get(r) !== r) r = componentOf.get(r) as number;
    return r;
  };
  const conflicts: ConflictEdge[] = [];
  for (const edge of graph.conflicts) {
    const [ra, rb] = [groups.find(edge.a), groups.find(edge.b)];
    const [ga, gb] = [byRoot.get(ra), byRoot.get(rb)];
    if (ra === rb || ((ga?.rows.length ?? 0) === 0 && (gb?.rows.length ?? 0) === 0)) continue;
    if ((ga?.ledger.length ?? 0) > 0 && (gb?.ledger.length ?? 0) > 0) continue;
    // A split between the two groups made after the link was refused: the person has said they are two businesses.
    if (groups.refusal(edge.a, edge.b, false) === 'split') continue;
    conflicts.push(edge);
    const [ca, cb] = [component(ra), component(rb)];
    componentOf.set(ca, ca);
    if (ca !== cb) componentOf.set(Math.max(ca, cb), Math.min(ca, cb));
  }
  const conflictOfRoot = new Map<number, ConflictEdge>();
  for (const edge of conflicts) {
    for (const root of [groups.find(edge.a), groups.find(edge.b)]) if (!conflictOfRoot.has(root)) conflictOfRoot.set(root, edge);
  }

  // One contact per e-mail address: the group of the contact in the books that has it, else the first row's group.
  const emailOwner = new Map<string, number>();
  for (const n of [...nodes.filter((n) => n.ledger !== null), ...nodes.filter((n) => n.row !== null && !skipped.has(n.index))]) {
    if (n.email !== null && !emailOwner.has(n.email)) emailOwner.set(n.email, groups.find(n.index));
  }

  type Listed = { outcome: Outcome; firstRow: number; rank: number };
  const listed = new Map<number, Listed>();
  const decisions: RowDecision[] = [];
  const findings: Finding[] = [...graph.findings];
  for (const group of [...byRoot.values()].filter((g) => g.rows.length > 0)) {
    const firstRow = group.rows[0] as GraphNode;
    if (conflictOfRoot.has(group.root)) {
      const key = component(group.root);
      const entry = listed.get(key) ?? { outcome: { type: 'CONFLICT', nodeIds: [], contactId: null }, firstRow: firstRow.index, rank: 0 };
      listed.set(key, { ...entry, firstRow: Math.min(entry.firstRow, firstRow.index) });
      continue;
    }
    if (group.ledger.length > 0) {
      const into = target(group.ledger);
      listed.set(group.root, {
        outcome: { type: 'MERGE', nodeIds: group.members.map((n) => n.node.id), contactId: into.ledger?.id ?? null },
        firstRow: firstRow.index,
        rank: 1,
      });
      if (group.ledger.length > 1) {
        findings.push({
          type: 'SEVERAL_CONTACTS',
          nodes: group.ledger.map((n) => n.index),
          confidence: 100,
          reason: `${group.ledger.length} contacts in the books are this one business (${group.ledger.map((n) => n.ledger?.id ?? '').join(', ')}): the rows merge into ${into.ledger?.id ?? ''}, created first`,
        });
      }
    } else {
      listed.set(group.root, { outcome: { type: 'CREATE', nodeIds: group.members.map((n) => n.node.id), contactId: null }, firstRow: firstRow.index, rank: 2 });
    }
  }
  // A conflict lists every node of its groups, those without rows too.
  for (const group of byRoot.values()) {
    if (!conflictOfRoot.has(group.root)) continue;
    listed.get(component(group.root))?.outcome.nodeIds.push(...group.members.map((n) => n.node.id));
  }
  const position = new Map(nodes.map((n) => [n.node.id, n.index]));
  for (const entry of listed.values())
    if (entry.outcome.type === 'CONFLICT') entry.outcome.nodeIds.sort((x, y) => (position.get(x) ?? 0) - (position.get(y) ?? 0));

  for (const n of nodes) {
    if (n.row === null) continue;
    const row = n.row;
    const root = groups.find(n.index);
    const useEmail = row.email !== null && emailOwner.get(row.email) === root;
    const base = { rowIndex: row.rowIndex, useEmail };
    if (skipped.has(n.index)) {
      decisions.push({ ...base, action: 'skip', contactId: null, groupLeader: null, reason: 'skipped by a resolution' });
      continue;
    }
    const group = byRoot.get(root) as Group;
    const conflict = conflictOfRoot.get(root);
    const joined = graph.joinReason[n.index];
    if (conflict) {
      decisions.push({
        ...base,
        action: 'conflict',
        contactId: null,
        groupLeader: null,
        reason: `a conflict to resolve with link, split or skip: ${conflict.reason}`,
      });
    } else if (group.ledger.length > 0) {
      const into = target(group.ledger);
      decisions.push({
        ...base,
        action: 'merge',
        contactId: into.ledger?.id ?? null,
        groupLeader: null,
        reason: `merges into ${into.ledger?.id ?? ''} (${into.node.name}): ${joined ?? ''}`,
      });
    } else if (group.rows[0] === n) {
      const others = group.rows.slice(1).map((r) => r.row?.rowIndex);
      const also = others.length === 0 ? '' : `; row${others.length > 1 ? 's' : ''} ${others.join(', ')} merge${others.length > 1 ? '' : 's'} into it`;
      decisions.push({ ...base, action: 'create', contactId: null, groupLeader: null, reason: `creates a new contact${also}` });
    } else {
      const leader = (group.rows[0] as GraphNode).row as ContactRow;
      decisions.push({
        ...base,
        action: 'merge',
        contactId: null,
        groupLeader: leader.rowIndex,
        reason: `merges into the contact created from row ${leader.rowIndex} (line ${leader.line}): ${joined ?? ''}`,
      });
    }
  }

  const ordered = [...listed.values()].sort((x, y) => x.rank - y.rank || x.firstRow - y.firstRow);
  const outcomes = ordered.slice(0, previewGroupLimit).map((e) => e.outcome);
  const shown = new Set(outcomes.flatMap((o) => o.nodeIds));
  const fromResolution = new Set<EvidenceType>(['LINK', 'SPLIT', 'SKIP']);
  const evidence = [...findings, ...conflicts]
    .filter((f) => fromResolution.has(f.type) || f.nodes.some((i) => shown.has(idOf(i))))
    .map((f) => ({ type: f.type, nodeIds: f.nodes.map(idOf), confidence: f.confidence, reason: f.reason }));
  const count = (action: RowDecision['action']): number => decisions.filter((d) => d.action === action).length;
  return {
    nodes: nodes.map((n) => n.node),
    outcomes,
    totalGroups: ordered.length,
    evidence,
    stats: { creates: count('create'), merges: count('merge'), conflicts: count('conflict'), skips: count('skip'), totalRows, validContacts: rows.length },
    decisions,
  };
}
