/**
 * Transparency, public: every live bug report's title, severity, state and
 * dates, and counts of them, so that anyone can see what is wrong and how
 * fast it is mended. Descriptions, organisations, pages, browsers and API
 * context never leave through here: each answer is built from the public
 * columns only.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { idOut, instant } from '../output.js';
import { listPage, pageMetaSchema, pageQuery } from '../pagination.js';
import { bugSeverities, bugStatuses } from './bug-reports.js';

/** The columns of a bug report that are public. */
const publicColumns = ['id', 'title', 'severity', 'status', 'created_at', 'resolved_at'] as const;

const entrySchema = z.strictObject({
  id: idOut('bug'),
  title: z.string(),
  severity: z.enum(bugSeverities),
  status: z.enum(bugStatuses),
  createdAt: instant(),
  resolvedAt: instant().nullable(),
});

export const transparencyEntries = defineOperation({
  name: 'transparency.entries',
  summary: 'Public list of reported bugs: titles, severities, states and dates, newest first',
  description: 'Reports made with test keys are not listed. Descriptions and who reported them are never shown.',
  access: 'public',
  method: 'GET',
  path: '/transparency/entries',
  query: {
    status: z.enum(bugStatuses).optional(),
    ...pageQuery(20),
  },
  output: z.array(entrySchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    let q = ctx.platform.db.selectFrom('bug_reports').where('mode', '=', 'live');
    if (input.status) q = q.where('status', '=', input.status);
    const { rows, meta } = await listPage(q, (q) => q.select(publicColumns).orderBy('created_at', 'desc').orderBy('id', 'desc'), input);
    return {
      data: rows.map((r) => ({ id: r.id, title: r.title, severity: r.severity, status: r.status, createdAt: r.created_at, resolvedAt: r.resolved_at })),
      meta,
    };
  },
});

const countsOf = <K extends string>(keys: readonly K[]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, z.number().int().min(0)])) as Record<K, z.ZodNumber>);

/** The median of numbers (null for none): the middle one, or the mean of the middle two. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const transparencyStats = defineOperation({
  name: 'transparency.stats',
  summary: 'Public counts of reported bugs by state and severity, and the median time to resolve one',
  description:
    'medianResolutionHours is over reports in state resolved (not wont_fix or duplicate), from report to resolution, to 0.1 h; null while none is resolved. Reports made with test keys are not counted.',
  access: 'public',
  method: 'GET',
  path: '/transparency/stats',
  output: z.strictObject({
    total: z.number().int().min(0),
    byStatus: countsOf(bugStatuses),
    bySeverity: countsOf(bugSeverities),
    medianResolutionHours: z.number().min(0).nullable(),
  }),
  async run(ctx) {
    const rows = await ctx.platform.db
      .selectFrom('bug_reports')
      .select(['severity', 'status', 'created_at', 'resolved_at'])
      .where('mode', '=', 'live')
      .execute();
    const byStatus = Object.fromEntries(bugStatuses.map((s) => [s, 0])) as Record<(typeof bugStatuses)[number], number>;
    const bySeverity = Object.fromEntries(bugSeverities.map((s) => [s, 0])) as Record<(typeof bugSeverities)[number], number>;
    const hours: number[] = [];
    for (const r of rows) {
      byStatus[r.status] += 1;
      bySeverity[r.severity] += 1;
      if (r.status === 'resolved' && r.resolved_at !== null) hours.push((Date.parse(r.resolved_at) - Date.parse(r.created_at)) / 3_600_000);
    }
    const middle = median(hours);
    return { data: { total: rows.length, byStatus, bySeverity, medianResolutionHours: middle === null ? null : Math.round(middle * 10) / 10 } };
  },
});
