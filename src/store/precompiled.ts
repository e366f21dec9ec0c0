/**
 * Queries compiled once, for the hot reads. kysely builds a query's tree
 * and compiles it to SQL on every call, which for a small read costs more
 * than SQLite takes to answer it. A precompiled query is built the first
 * time with placeholders for its arguments; every call then binds its
 * arguments to the same SQL (and so to the same prepared statement, see
 * sqlite.ts). The SQL is kept once for the process per dialect (SQLite's
 * `?` and PostgreSQL's `$1` differ): one compilation serves every handle
 * of a store.
 *
 * `build` must depend on nothing but its arguments, and use each of them
 * only as a value bound to the query: not to choose the query's shape, nor
 * as a list (`in` makes one parameter per element). An argument that does
 * not reach the parameters is refused when the query is first compiled, a
 * list whenever it is given.
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/** Stands for argument `index` while the query is built. */
class Placeholder {
  constructor(readonly index: number) {}
}

interface Plan {
  readonly sql: string;
  /** The compiled parameters: placeholders for the arguments, the rest constants of the query. */
  readonly parameters: readonly unknown[];
}

export interface Precompiled<DB, A extends readonly unknown[], R> {
  /** Every row. */
  all(db: Kysely<DB>, ...args: A): Promise<R[]>;
  /** The first row, if any. */
  first(db: Kysely<DB>, ...args: A): Promise<R | undefined>;
}

export function precompiled<DB, A extends readonly unknown[], R>(build: (db: Kysely<DB>, ...args: A) => Compilable<R>): Precompiled<DB, A, R> {
  /** Per dialect, by its adapter's class. */
  const plans = new Map<unknown, Plan>();
  const planFor = (db: Kysely<DB>, count: number): Plan => {
    const dialect = db.getExecutor().adapter.constructor;
    const kept = plans.get(dialect);
    if (kept) return kept;
    const placeholders = Array.from({ length: count }, (_, i) => new Placeholder(i));
    const compiled = build(db, ...(placeholders as unknown as A)).compile();
    for (const p of placeholders) {
      if (!compiled.parameters.includes(p)) throw new Error(`precompiled query: argument ${p.index} is not a parameter of ${compiled.sql}`);
    }
    const plan = { sql: compiled.sql, parameters: compiled.parameters };
    plans.set(dialect, plan);
    return plan;
  };
  const all = async (db: Kysely<DB>, ...args: A): Promise<R[]> => {
    const { sql, parameters } = planFor(db, args.length);
    // A list would have been compiled as one parameter, where kysely makes one per element: `in (?)` binding an array.
    for (const arg of args) if (Array.isArray(arg)) throw new Error(`precompiled query: a list cannot be an argument of ${sql}`);
    const bound = parameters.map((p) => (p instanceof Placeholder ? args[p.index] : p));
    const result = await db.executeQuery(CompiledQuery.raw(sql, bound));
    return result.rows as R[];
  };
  return {
    all,
    first: async (db, ...args) => (await all(db, ...args))[0],
  };
}
