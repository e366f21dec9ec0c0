/**
 * Work done and then undone: what an operation would do, after every check
 * it makes, with nothing written. The work runs inside a savepoint of the
 * open transaction and is rolled back to it, so nothing stays whether the
 * transaction is the operation's own or one it joins (an Idempotency-Key's,
 * which commits what its operation leaves). An error is thrown as the work
 * would throw it.
 */
import { sql, type Kysely } from 'kysely';

export async function undone<DB, T>(trx: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  await sql`savepoint undone`.execute(trx);
  try {
    return await work(trx);
  } finally {
    await sql`rollback to savepoint undone`.execute(trx);
    await sql`release savepoint undone`.execute(trx);
  }
}
