/** The one find-or-404 of the engine: a lookup that finds nothing is 404 not_found naming what was looked for. */
import { notFound } from './errors.js';

/** The row `lookup` found, or 404 "<what> <id> not found". */
export async function found<T>(lookup: Promise<T | undefined>, what: string, id: string): Promise<T> {
  const row = await lookup;
  if (row === undefined) throw notFound(what, id);
  return row;
}
