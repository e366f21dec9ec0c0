/**
 * The contact each name in an invoice or bill file belongs to: an existing
 * contact with the same normalised name, else the closest one at 85% or more
 * (Levenshtein similarity), else a new contact created on confirm.
 *
 * Two existing contacts equally close, under different names, give `create`
 * rather than a pick: posting a debt to the wrong customer's account is an
 * error nobody sees until a statement goes out, while an extra contact is in
 * plain view in the preview and can be merged, so a guess between two is not
 * made. Two existing contacts under the same name (normalised alike: two
 * customers called Jane Smith) are the same conflict: neither is taken.
 */
import { normaliseName, similarity } from '../../tabular/similarity.js';

export interface ContactCandidate {
  readonly id: string;
  readonly name: string;
}

export interface ContactMatch {
  readonly contactId: string | null;
  /** The matched contact's name; for a contact to create, the file's first spelling of it. */
  readonly contactName: string;
  readonly outcome: 'match' | 'fuzzy' | 'create';
  /** Whole percentage 0–100: 100 for a match, the similarity for fuzzy, the closest similarity (0 when none) for create. */
  readonly confidence: number;
  readonly reason: string;
}

export const fuzzyThreshold = 85;

/**
 * The key of the contact a name creates: names in one file with the same key
 * are one new contact. A name that normalises to nothing (only punctuation)
 * keys on its own trimmed lower-case text, so that it never joins another.
 */
export function createKey(name: string): string {
  const normal = normaliseName(name);
  return normal === '' ? `=${name.trim().toLowerCase()}` : normal;
}

interface Indexed {
  readonly candidate: ContactCandidate;
  readonly normal: string;
}

/** Each distinct name of `names`, keyed as the file spells it, with its match among `candidates` (in the order given). */
export function matchContacts(names: readonly string[], candidates: readonly ContactCandidate[]): Map<string, ContactMatch> {
  const indexed: Indexed[] = [];
  const exact = new Map<string, ContactCandidate[]>();
  for (const candidate of candidates) {
    const normal = normaliseName(candidate.name);
    if (normal === '') continue;
    const named = exact.get(normal);
    if (named) named.push(candidate);
    else exact.set(normal, [candidate]);
    indexed.push({ candidate, normal });
  }
  const firstSpelling = new Map<string, string>();
  for (const name of names) if (!firstSpelling.has(createKey(name))) firstSpelling.set(createKey(name), name);
  const byKey = new Map<string, ContactMatch>();
  const matches = new Map<string, ContactMatch>();
  for (const name of names) {
    if (matches.has(name)) continue;
    const key = createKey(name);
    let match = byKey.get(key);
    if (!match) {
      match = matchOne(key, firstSpelling.get(key) ?? name, exact, indexed);
      byKey.set(key, match);
    }
    matches.set(name, match);
  }
  return matches;
}

function matchOne(key: string, spelling: string, exact: ReadonlyMap<string, readonly ContactCandidate[]>, indexed: readonly Indexed[]): ContactMatch {
  const [same, twin, ...more] = exact.get(key) ?? [];
  if (same && !twin) return { contactId: same.id, contactName: same.name, outcome: 'match', confidence: 100, reason: `same name as the contact ${same.name}` };
  const create = (confidence: number, why: string): ContactMatch => ({
    contactId: null,
    contactName: spelling,
    outcome: 'create',
    confidence,
    reason: `${why}: a new contact ${spelling} is created on confirm`,
  });
  if (same && twin) {
    const others = more.length > 0 ? ` and ${more.length} more` : '';
    return create(100, `${same.name} (${same.id}) and ${twin.name} (${twin.id})${others} have this name, so neither is guessed`);
  }
  if (key.startsWith('=')) return create(0, 'the name has no letters or digits to compare');
  let best: { score: number; at: Indexed[] } = { score: -1, at: [] };
  for (const entry of indexed) {
    // The distance is at least the difference in length: a candidate that cannot reach the best so far is skipped.
    const longer = Math.max(key.length, entry.normal.length);
    const bound = Math.floor((100 * (longer - Math.abs(key.length - entry.normal.length))) / longer);
    if (bound < best.score) continue;
    const score = similarity(key, entry.normal);
    if (score > best.score) best = { score, at: [entry] };
    else if (score === best.score) best.at.push(entry);
  }
  const [top, second] = best.at;
  if (!top) return create(0, 'no existing contacts to compare with');
  if (best.score < fuzzyThreshold)
    return create(best.score, `the closest contact, ${top.candidate.name}, is only ${best.score}% alike (${fuzzyThreshold}% needed)`);
  if (second) {
    return create(best.score, `${top.candidate.name} and ${second.candidate.name} are equally close (${best.score}%), so neither is guessed`);
  }
  return {
    contactId: top.candidate.id,
    contactName: top.candidate.name,
    outcome: 'fuzzy',
    confidence: best.score,
    reason: `${best.score}% alike to the contact ${top.candidate.name}`,
  };
}
