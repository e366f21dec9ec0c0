/**
 * The rate limits' counts kept in the platform database, for several
 * acct serve processes over one PostgreSQL database (platform migration
 * 0006): each request is counted in a transaction that holds its bucket's
 * row locked (ON CONFLICT DO UPDATE locks it), so two processes counting
 * one bucket take turns, and buckets do not wait on each other.
 */
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../../store/tables.js';

/** A request counted (or not, its window being full), the requests in the window, and the time of the oldest (from which a slot frees). */
export interface Count {
  readonly counted: boolean;
  readonly count: number;
  readonly oldest: number;
}

/**
 * Count a request at `nowMs` against `bucket`, which allows `limit` in any
 * `windowMs`; when the window is full nothing is counted.
 */
export async function countRequest(db: Kysely<PlatformDb>, bucket: string, limit: number, nowMs: number, windowMs: number): Promise<Count> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('rate_limit_buckets')
      .values({ bucket })
      .onConflict((oc) => oc.column('bucket').doUpdateSet({ bucket }))
      .execute();
    await trx
      .deleteFrom('rate_limit_hits')
      .where('bucket', '=', bucket)
      .where('at', '<=', nowMs - windowMs)
      .execute();
    const counted = await trx
      .selectFrom('rate_limit_hits')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('at').as('oldest')])
      .where('bucket', '=', bucket)
      .executeTakeFirstOrThrow();
    const count = Number(counted.n);
    if (count >= limit) return { counted: false, count, oldest: Number(counted.oldest) };
    await trx.insertInto('rate_limit_hits').values({ bucket, at: nowMs }).execute();
    return { counted: true, count: count + 1, oldest: count === 0 ? nowMs : Number(counted.oldest) };
  });
}
