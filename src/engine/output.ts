/**
 * Building blocks of output schemas: what responses hold. An operation's
 * `output` is built from these and zod's own types, with `z.strictObject`
 * for records, so that a handler returning a field its schema lacks fails
 * the contract check of the tests. Money is `pence()` (from schema.ts),
 * which also tells the CLI's tables to print pounds.
 */
import { z } from 'zod';

/** An ISO 8601 UTC instant, as `timestamp(clock)` writes it (2026-04-01T09:30:00.000Z). */
export const instant = () => z.iso.datetime();

/** A YYYY-MM-DD calendar date. */
export const day = () => z.iso.date();

/** An id with its prefix (`inv_…`). */
export const idOut = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_`));

/** A list's records: `data` of a paginated list (its `meta` is pageMetaSchema). */
export const listOf = <T extends z.ZodType>(record: T) => z.array(record);
