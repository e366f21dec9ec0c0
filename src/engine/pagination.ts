/**
 * Pagination convention A (page, limit → total, page, limit, hasMore) and
 * the `sort` parameter (`-createdAt` newest first by default), shared by
 * every list operation; and paging by cursor (limit, cursor → limit,
 * hasMore, nextCursor) for the general ledger.
 */
import { z } from 'zod';
import { sql, type SelectQueryBuilder } from 'kysely';
import { AppError } from './errors.js';

export interface PageMeta {
  readonly total: number;
  readonly page: number;
  readonly limit: number;
  readonly hasMore: boolean;
}

/** Query fields for convention A; `defaultLimit` is 20 unless the spec says otherwise. */
export function pageQuery(defaultLimit = 20) {
  return {
    page: z.number().int().min(1).default(1),
    limit: z.number().int().min(1).max(100).default(defaultLimit),
  };
}

export interface Sort<F extends string> {
  readonly field: F;
  readonly direction: 'asc' | 'desc';
}

/** The `sort` query field over the given sortable fields. */
export function sortQuery<F extends string>(fields: readonly [F, ...F[]], byDefault = '-createdAt') {
  const allowed = new Set<string>(fields);
  return {
    sort: z
      .string()
      .default(byDefault)
      .refine((v) => allowed.has(v.replace(/^-/, '')), {
        message: `must be one of ${fields.join(', ')}, optionally prefixed by - for descending`,
      })
      .transform((v): Sort<F> => (v.startsWith('-') ? { field: v.slice(1) as F, direction: 'desc' } : { field: v as F, direction: 'asc' })),
  };
}

/**
 * A document number's length, to sort by before the number itself: numbers
 * as people count them, INV-9999 before INV-10000, on either store.
 */
export const numberLength = (column: string) => sql<number>`length(${sql.ref(column)})`;

/** The `meta` of a paginated list's response. */
export const pageMetaSchema = z.strictObject({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
});

export function pageMeta(total: number, page: number, limit: number): PageMeta {
  return { total, page, limit, hasMore: page * limit < total };
}

/** The offset of the first row of a page. */
export const pageOffset = (page: number, limit: number): number => (page - 1) * limit;

export interface Page<R> {
  readonly rows: R[];
  readonly meta: PageMeta;
}

/**
 * One page of a filtered list, the body every list operation shares: the
 * total of the filtered rows, then the page of them in `order` (which should
 * end with a unique column, such as id, so that pages never overlap).
 */
export async function listPage<DB, TB extends keyof DB, R>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  rows: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, R>,
  { page, limit }: { readonly page: number; readonly limit: number },
): Promise<Page<R>> {
  const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const found = await rows(filtered).limit(limit).offset(pageOffset(page, limit)).execute();
  return { rows: found, meta: pageMeta(Number((counted as { total: number }).total), page, limit) };
}

/** The `meta` of a list paged by convention B (the administrator lists): page, perPage, total, pages. */
export const perPageMetaSchema = z.strictObject({
  page: z.number().int(),
  perPage: z.number().int(),
  total: z.number().int(),
  pages: z.number().int().describe('how many pages of perPage there are (0 when there are no rows)'),
});
export type PerPageMeta = z.output<typeof perPageMetaSchema>;

/** Query fields for convention B: page, and perPage (default 50; administrator lists 20) up to `max`. */
export function perPageQuery(defaultPerPage = 50, max = 100) {
  return {
    page: z.number().int().min(1).default(1),
    perPage: z.number().int().min(1).max(max).default(defaultPerPage),
  };
}

/** One page of a filtered list by convention B: `listPage` with perPage rows a page, and B's meta. */
export async function listPerPage<DB, TB extends keyof DB, R>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  rows: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, R>,
  { page, perPage }: { readonly page: number; readonly perPage: number },
): Promise<{ readonly rows: R[]; readonly meta: PerPageMeta }> {
  const found = await listPage(filtered, rows, { page, limit: perPage });
  return { rows: found.rows, meta: perPageMeta(found.meta.total, page, perPage) };
}

export const perPageMeta = (total: number, page: number, perPage: number): PerPageMeta => ({ page, perPage, total, pages: Math.ceil(total / perPage) });

/** Whether either convention's meta has pages after this one. */
export const hasMoreAfter = (meta: PageMeta | PerPageMeta): boolean => ('hasMore' in meta ? meta.hasMore : meta.page < meta.pages);

/** The query field that sizes a page under the convention an operation's meta declares: limit (A) or perPage (B); null when it is not paged by number. */
export function pageSizeField(meta: z.ZodType | null): 'limit' | 'perPage' | null {
  if (meta === pageMetaSchema) return 'limit';
  if (meta === perPageMetaSchema) return 'perPage';
  return null;
}

/**
 * Paging by cursor, for a report too long to count or to number pages in
 * (the general ledger): `limit`, and `cursor` from the last page's meta.
 */
export function cursorQuery(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.number().int().min(1).max(maxLimit).default(defaultLimit),
    cursor: z.string().min(1).max(1000).optional().describe("the last page's meta.nextCursor, for the page after it"),
  };
}

/** The `meta` of a page asked for by cursor: nextCursor (null on the last page) asks for the next. */
export const cursorMetaSchema = z.strictObject({
  limit: z.number().int(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type CursorMeta = z.output<typeof cursorMetaSchema>;

/** A cursor: where a page ended, as opaque text (base64url of a JSON array). */
export const cursorOf = (position: readonly (string | number)[]): string => Buffer.from(JSON.stringify(position)).toString('base64url');

/** The position a cursor holds; 400 on the `field` when it is not one this API gave. */
export function cursorPosition(cursor: string, field = 'cursor'): unknown[] {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  if (!Array.isArray(position)) throw new AppError('validation_error', `${field} is not a cursor this endpoint gave: pass meta.nextCursor as it came`, field);
  return position;
}
