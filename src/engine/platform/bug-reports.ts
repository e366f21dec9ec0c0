/**
 * Bug reports: submitted with any API key of an organisation, kept in the
 * platform database, listed and read back by that organisation only (and in
 * the key's mode: a test key's reports are the sandbox's). A report starts
 * `open`; its title and state are public on the transparency endpoints,
 * nothing else of it is.
 */
import { z } from 'zod';
import { defineOperation, holdsAllScopes, orgOf, type Ctx, type Principal } from '../operation.js';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { idOf } from '../schema.js';
import { idOut, instant } from '../output.js';
import { listPage, pageMetaSchema, pageQuery } from '../pagination.js';
import { entryView, requestLogEntry } from '../integration/request-log.js';
import type { BugReportsTable } from '../../store/tables.js';

export const bugSeverities = ['critical', 'high', 'medium', 'low'] as const;
export const bugStatuses = ['open', 'acknowledged', 'investigating', 'resolved', 'wont_fix', 'duplicate'] as const;
/** The states that end a report: entering one sets resolvedAt. */
export const closedBugStatuses: readonly (typeof bugStatuses)[number][] = ['resolved', 'wont_fix', 'duplicate'];
/** How many of the organisation's latest requests includeApiContext attaches. */
export const apiContextEntries = 5;

const browserInfo = z.strictObject({
  language: z.string().max(100).optional(),
  platform: z.string().max(100).optional(),
  theme: z.enum(['light', 'dark']).optional(),
  userAgent: z.string().max(500).optional(),
  viewport: z.strictObject({ width: z.number().int().min(0), height: z.number().int().min(0) }).optional(),
});

export const reportSchema = z.strictObject({
  id: idOut('bug'),
  title: z.string(),
  description: z.string(),
  severity: z.enum(bugSeverities),
  status: z.enum(bugStatuses),
  pageUrl: z.string().nullable(),
  browserInfo: browserInfo.nullable(),
  apiContext: z
    .array(requestLogEntry)
    .nullable()
    .describe("the organisation's latest requests when the report was made (includeApiContext); shown only to a key holding all scopes, else null"),
  createdAt: instant(),
  updatedAt: instant(),
  resolvedAt: instant().nullable(),
});
type Report = z.output<typeof reportSchema>;

function reportView(row: BugReportsTable, principal: Principal | null): Report {
  // The request log is read only with all scopes; its entries inside a report are no different.
  return reportFields(row, principal !== null && holdsAllScopes(principal));
}

/** A report as its organisation sees it, with its API context or (not to be shown) without. */
export function reportFields(row: BugReportsTable, showContext: boolean): Report {
  const context = row.api_context !== null && showContext ? (JSON.parse(row.api_context) as Report['apiContext']) : null;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    severity: row.severity,
    status: row.status,
    pageUrl: row.page_url,
    browserInfo: row.browser_info === null ? null : (JSON.parse(row.browser_info) as Report['browserInfo']),
    apiContext: context,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    resolvedAt: row.resolved_at,
  };
}

/** The caller's organisation and mode: reports are theirs alone. */
function owner(ctx: Ctx): { readonly organisationId: string; readonly mode: 'live' | 'test' } {
  const p = ctx.principal;
  if (!p) throw new AppError('unauthorized', 'an API key is required');
  return { organisationId: p.organisationId, mode: p.mode };
}

/** The latest requests made against the caller's books, as the request log lists them. */
async function apiContextOf(ctx: Ctx): Promise<z.output<typeof requestLogEntry>[]> {
  const rows = await orgOf(ctx).db.selectFrom('request_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(apiContextEntries).execute();
  return rows.map(entryView);
}

export const submitBugReport = defineOperation({
  name: 'bug-reports.submit',
  summary: 'Report a bug; it starts open, and its title (only) is shown on the public transparency list',
  description: `Severity: critical (data integrity at risk), high (wrong behaviour with a workaround), medium (unexpected behaviour), low (cosmetic). includeApiContext attaches the organisation's last ${apiContextEntries} logged API requests (it needs a key holding all scopes, as the request log does). browserInfo is taken in the JSON body (--body).`,
  access: 'any-key',
  method: 'POST',
  path: '/bug-reports',
  status: 201,
  body: {
    title: z
      .string()
      .trim()
      .min(5)
      .max(200)
      .describe('public on the transparency list')
      .meta({ examples: ['VAT return box 6 is empty'] }),
    description: z
      .string()
      .trim()
      .min(1)
      .max(5000)
      .describe('private to the organisation and the operators')
      .meta({ examples: ['After importing March, box 6 shows £0.00'] }),
    severity: z.enum(bugSeverities).default('medium'),
    pageUrl: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe('where the bug showed')
      .meta({ examples: ['https://app.example.com/vat/returns'] }),
    browserInfo: browserInfo.optional(),
    includeApiContext: z.boolean().default(false),
  },
  output: reportSchema,
  async run(ctx, input) {
    const { organisationId, mode } = owner(ctx);
    if (input.includeApiContext && !holdsAllScopes(ctx.principal as Principal)) {
      throw new AppError('insufficient_scope', 'includeApiContext attaches the request log, which needs a key holding all scopes');
    }
    const context = input.includeApiContext ? await apiContextOf(ctx) : null;
    const now = timestamp(ctx.clock);
    const row: BugReportsTable = {
      id: newId('bug', ctx.clock.now()),
      organisation_id: organisationId,
      mode,
      title: input.title,
      description: input.description,
      severity: input.severity,
      status: 'open',
      page_url: input.pageUrl ?? null,
      browser_info: input.browserInfo === undefined ? null : JSON.stringify(input.browserInfo),
      api_context: context === null ? null : JSON.stringify(context),
      admin_notes: null,
      reported_by: (ctx.principal as Principal).actor.id,
      created_at: now,
      updated_at: now,
      resolved_at: null,
    };
    await ctx.platform.write((trx) => trx.insertInto('bug_reports').values(row).execute());
    return { data: reportView(row, ctx.principal) };
  },
});

export const listBugReports = defineOperation({
  name: 'bug-reports.list',
  summary: "The organisation's bug reports, newest first",
  access: 'any-key',
  method: 'GET',
  path: '/bug-reports',
  query: {
    status: z.enum(bugStatuses).optional(),
    severity: z.enum(bugSeverities).optional(),
    ...pageQuery(20),
  },
  output: z.array(reportSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const { organisationId, mode } = owner(ctx);
    let q = ctx.platform.db.selectFrom('bug_reports').where('organisation_id', '=', organisationId).where('mode', '=', mode);
    if (input.status) q = q.where('status', '=', input.status);
    if (input.severity) q = q.where('severity', '=', input.severity);
    const { rows, meta } = await listPage(q, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), input);
    return { data: rows.map((r) => reportView(r, ctx.principal)), meta };
  },
});

export const getBugReport = defineOperation({
  name: 'bug-reports.get',
  summary: 'One bug report of the organisation',
  access: 'any-key',
  method: 'GET',
  path: '/bug-reports/{id}',
  params: { id: idOf('bug') },
  output: reportSchema,
  async run(ctx, input) {
    const { organisationId, mode } = owner(ctx);
    const row = await found(
      ctx.platform.db
        .selectFrom('bug_reports')
        .selectAll()
        .where('id', '=', input.id)
        .where('organisation_id', '=', organisationId)
        .where('mode', '=', mode)
        .executeTakeFirst(),
      'bug report',
      input.id,
    );
    return { data: reportView(row, ctx.principal) };
  },
});
