/**
 * The decisions a person adds to the identity graph: `link` two nodes (one
 * business: a synthetic hard key), `split` two (never merged, never a
 * conflict), `skip` a row (not imported). Node ids are the preview's.
 */
import { AppError } from '../../errors.js';
import { isLedgerNodeId } from './identity-nodes.js';

export type Resolution = { readonly link: readonly [string, string] } | { readonly split: readonly [string, string] } | { readonly skip: string };

const refuse = (message: string): never => {
  throw new AppError('validation_error', message, 'resolutions');
};

/**
 * 400 naming `resolutions` for an empty list, an unknown node, a link or
 * split of a node with itself, a skip of a contact already in the books, a
 * skipped node that is also linked, and a split of two nodes that links join.
 */
export function validateResolutions(resolutions: readonly Resolution[], nodeIds: ReadonlySet<string>): void {
  if (resolutions.length === 0) refuse('resolutions must hold at least one link, split or skip');
  const known = (id: string, at: number): void => {
    if (!nodeIds.has(id)) refuse(`resolutions[${at}] names ${JSON.stringify(id)}, which is not a node of this import`);
  };
  const linked = new Map<string, string>();
  const inLinks = new Set<string>();
  const root = (id: string): string => {
    let r = id;
    while (linked.has(r) && linked.get(r) !== r) r = linked.get(r) as string;
    return r;
  };
  resolutions.forEach((r, at) => {
    if ('skip' in r) {
      known(r.skip, at);
      if (isLedgerNodeId(r.skip)) refuse(`resolutions[${at}] skips ${r.skip}, a contact already in the books: only rows of the file can be skipped`);
      return;
    }
    const [a, b] = 'link' in r ? r.link : r.split;
    known(a, at);
    known(b, at);
    if (a === b) refuse(`resolutions[${at}] ${'link' in r ? 'links' : 'splits'} ${a} with itself`);
    if ('link' in r) {
      inLinks.add(a).add(b);
      if (root(a) !== root(b)) linked.set(root(a), root(b));
    }
  });
  resolutions.forEach((r, at) => {
    if ('skip' in r && inLinks.has(r.skip)) refuse(`resolutions[${at}] skips ${r.skip}, which a link joins to another node`);
    if ('split' in r && root(r.split[0]) === root(r.split[1])) refuse(`resolutions[${at}] splits ${r.split[0]} and ${r.split[1]}, which links join`);
  });
}
