/**
 * A query's rows read in chunks, for work that goes through every row of a
 * large result (an account's ledger, an export): the rows of a chunk are
 * handled in a plain loop, with one await a chunk rather than one a row as
 * kysely's stream() gives them. Portable: the dialect's driver decides how
 * a chunk is read (the SQLite store steps its statement; a server database
 * would use a cursor).
 */
import type { Compilable, Kysely } from 'kysely';

export async function* chunksOf<DB, R>(db: Kysely<DB>, query: Compilable<R>, size = 1000): AsyncGenerator<readonly R[]> {
  const compiled = query.compile();
  for await (const result of db.getExecutor().stream<R>(compiled, size)) yield result.rows;
}
