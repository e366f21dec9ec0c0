/**
 * The administrators' view of bug reports: every organisation's, in both
 * modes, with the organisation, the reporter and the private notes; their
 * status changed by the rules of the report's states (any status may be
 * set; entering a closed one sets resolvedAt and e-mails the reporter,
 * reopening clears it); deleted one by one or in bulk, all or nothing.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation, type Ctx } from '../operation.js';
import { AppError } from '../errors.js';
import { found } from '../lookup.js';
import { timestamp } from '../clock.js';
import { idOf, searchText } from '../schema.js';
import { actorIdOut, userIdIn } from '../ids.js';
import { sendMail } from '../mail.js';
import { containsText } from '../search.js';
import { listPerPage, perPageMetaSchema, perPageQuery } from '../pagination.js';
import { bugSeverities, bugStatuses, closedBugStatuses, reportFields, reportSchema } from '../platform/bug-reports.js';
import { appendAudit, auditedWrite } from './audit.js';
import type { BugReportsTable, PlatformDb } from '../../store/tables.js';

/** The most reports a bulk delete takes. */
export const maxBulkDelete = 100;

export const adminReportSchema = reportSchema.extend({
  organisationId: z.string(),
  mode: z.enum(['live', 'test']).describe("the mode of the key that submitted it: test reports are an organisation's sandbox"),
  reportedBy: z.string().describe('who submitted it: the user (usr_…) for a user session, else the API key id'),
  adminNotes: z.string().nullable().describe('private to the administrators'),
});
type AdminReport = z.output<typeof adminReportSchema>;

const adminReportView = (row: BugReportsTable): AdminReport => ({
  ...reportFields(row, true),
  organisationId: row.organisation_id,
  mode: row.mode,
  reportedBy: actorIdOut(row.reported_by),
  adminNotes: row.admin_notes,
});

const reportById = (db: Kysely<PlatformDb>, id: string): Promise<BugReportsTable> =>
  found(db.selectFrom('bug_reports').selectAll().where('id', '=', id).executeTakeFirst(), 'bug report', id);

const isClosed = (status: BugReportsTable['status']): boolean => closedBugStatuses.includes(status);

export const adminBugReports = defineOperation({
  name: 'admin.bug-reports',
  summary: "Every organisation's bug reports, newest first, with their private notes",
  description:
    'Filters: status, severity, organisationId, mode, and search (text in the title, ignoring case). Pagination B: perPage 20 by default, at most 50.',
  access: 'admin',
  method: 'GET',
  path: '/admin/bug-reports',
  query: {
    status: z.enum(bugStatuses).optional(),
    severity: z.enum(bugSeverities).optional(),
    organisationId: z
      .uuid()
      .optional()
      .meta({ examples: ['0b6c8f0e-6f4e-4d0a-9a57-5f1e2d3c4b5a'] }),
    mode: z.enum(['live', 'test']).optional(),
    search: searchText()
      .optional()
      .meta({ examples: ['VAT'] }),
    ...perPageQuery(20, 100),
  },
  output: z.array(adminReportSchema),
  meta: perPageMetaSchema,
  async run(ctx, input) {
    let q = ctx.platform.db.selectFrom('bug_reports');
    if (input.status) q = q.where('status', '=', input.status);
    if (input.severity) q = q.where('severity', '=', input.severity);
    if (input.organisationId) q = q.where('organisation_id', '=', input.organisationId);
    if (input.mode) q = q.where('mode', '=', input.mode);
    const search = input.search?.trim();
    if (search) q = q.where((eb) => containsText(eb, ['title'], search));
    const { rows, meta } = await listPerPage(q, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), input);
    return { data: rows.map(adminReportView), meta };
  },
});

export const adminBugReport = defineOperation({
  name: 'admin.bug-report',
  summary: 'One bug report of any organisation, with its private notes',
  access: 'admin',
  method: 'GET',
  path: '/admin/bug-reports/{id}',
  params: { id: idOf('bug') },
  output: adminReportSchema,
  async run(ctx, input) {
    return { data: adminReportView(await reportById(ctx.platform.db, input.id)) };
  },
});

/** The fields a PATCH may change, as the audit log records them before and after. */
const changeable = (r: BugReportsTable) => ({ status: r.status, severity: r.severity, adminNotes: r.admin_notes, resolvedAt: r.resolved_at });

export const updateAdminBugReport = defineOperation({
  name: 'admin.update-bug-report',
  summary: "Change a bug report's status, severity or private notes",
  description:
    'Any status may be set. Entering resolved, wont_fix or duplicate from an open state sets resolvedAt and e-mails the reporter (when the server has SMTP and the reporter is a user; a failed e-mail is logged, and the change stands); reopening clears resolvedAt. adminNotes null or empty clears them.',
  access: 'admin',
  method: 'PATCH',
  path: '/admin/bug-reports/{id}',
  params: { id: idOf('bug') },
  body: {
    status: z.enum(bugStatuses).optional(),
    severity: z.enum(bugSeverities).optional(),
    adminNotes: z
      .string()
      .trim()
      .max(5000)
      .meta({ examples: ['"Fixed in 0.2.1"'] })
      .nullable()
      .optional()
      .transform((v) => (v === '' ? null : v)),
  },
  output: adminReportSchema,
  async run(ctx, input) {
    if (input.status === undefined && input.severity === undefined && input.adminNotes === undefined) {
      throw new AppError('validation_error', 'nothing to change: send status, severity or adminNotes');
    }
    const { before, after } = await auditedWrite(ctx, async (trx) => {
      const before = await reportById(trx, input.id);
      const status = input.status ?? before.status;
      const resolvedAt = !isClosed(status) ? null : isClosed(before.status) ? before.resolved_at : timestamp(ctx.clock);
      const after: BugReportsTable = {
        ...before,
        status,
        severity: input.severity ?? before.severity,
        admin_notes: input.adminNotes === undefined ? before.admin_notes : input.adminNotes,
        resolved_at: resolvedAt,
        updated_at: timestamp(ctx.clock),
      };
      await trx
        .updateTable('bug_reports')
        .set({ status: after.status, severity: after.severity, admin_notes: after.admin_notes, resolved_at: after.resolved_at, updated_at: after.updated_at })
        .where('id', '=', before.id)
        .execute();
      return {
        result: { before, after },
        audit: {
          action: 'BUG_REPORT_UPDATED',
          entityType: 'bug_report',
          entityId: before.id,
          details: { before: changeable(before), after: changeable(after) },
        },
      };
    });
    if (isClosed(after.status) && !isClosed(before.status)) await tellReporter(ctx, after);
    return { data: adminReportView(after) };
  },
});

/** How the e-mail to a reporter words each closed state. */
const outcomes: Partial<Record<BugReportsTable['status'], string>> = {
  resolved: 'resolved',
  wont_fix: 'closed: it will not be fixed',
  duplicate: 'closed as a duplicate of another report',
};

/** E-mail the reporter that their report is closed, when there is a mailer and the reporter is a user; a failure is logged only. */
async function tellReporter(ctx: Ctx, report: BugReportsTable): Promise<void> {
  const userId = userIdIn(actorIdOut(report.reported_by));
  if (!ctx.mailer || userId === undefined) return;
  const user = await ctx.platform.db.selectFrom('users').select(['email', 'full_name']).where('id', '=', Number(userId)).executeTakeFirst();
  if (!user) return;
  const outcome = outcomes[report.status] ?? report.status;
  try {
    await sendMail(ctx.mailer, {
      to: user.email,
      fromName: 'acct',
      subject: `Your bug report: ${report.title}`,
      text: `Hello ${user.full_name},\n\nYour bug report "${report.title}" (${report.id}) is ${outcome}.\n\nThank you for reporting it.\n`,
      attachments: [],
    });
  } catch (e) {
    const failure = new AppError('service_unavailable', `the e-mail to the reporter of bug report ${report.id} failed: ${(e as Error).message}`, undefined, {
      cause: e,
    });
    if (ctx.logFailure) ctx.logFailure(failure);
    else console.error(`warning: ${failure.message}`);
  }
}

const deletedSchema = z.strictObject({ id: z.string(), deleted: z.literal(true) });

/** What the audit log keeps of a deleted report. */
const deletedDetails = (r: BugReportsTable) => ({
  report: { title: r.title, organisationId: r.organisation_id, mode: r.mode, status: r.status, severity: r.severity, createdAt: r.created_at },
});

export const deleteAdminBugReport = defineOperation({
  name: 'admin.delete-bug-report',
  summary: 'Delete a bug report of any organisation',
  description: "It goes from the organisation's list and from the public transparency list; the audit log keeps its title, organisation, status and severity.",
  access: 'admin',
  method: 'DELETE',
  path: '/admin/bug-reports/{id}',
  params: { id: idOf('bug') },
  output: deletedSchema,
  async run(ctx, input) {
    const data = await auditedWrite(ctx, async (trx) => {
      const report = await reportById(trx, input.id);
      await trx.deleteFrom('bug_reports').where('id', '=', report.id).execute();
      return {
        result: { id: report.id, deleted: true as const },
        audit: { action: 'BUG_REPORT_DELETED', entityType: 'bug_report', entityId: report.id, details: deletedDetails(report) },
      };
    });
    return { data };
  },
});

export const deleteAdminBugReports = defineOperation({
  name: 'admin.delete-bug-reports',
  summary: `Delete up to ${maxBulkDelete} bug reports at once, all or none`,
  description: `An id that names no report is 404 and deletes nothing; an id given twice counts once. The audit log gets one BUG_REPORT_DELETED entry per report, as a single delete writes.`,
  access: 'admin',
  method: 'DELETE',
  path: '/admin/bug-reports',
  body: {
    ids: z.array(idOf('bug')).min(1).max(maxBulkDelete),
  },
  output: z.strictObject({ ids: z.array(z.string()), deleted: z.number().int() }),
  async run(ctx, input) {
    const ids = [...new Set(input.ids)];
    const data = await ctx.platform.write(async (trx) => {
      const rows = await trx.selectFrom('bug_reports').selectAll().where('id', 'in', ids).execute();
      const missing = ids.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length > 0) throw new AppError('not_found', `bug report ${missing.join(', ')} not found: nothing was deleted`);
      await trx.deleteFrom('bug_reports').where('id', 'in', ids).execute();
      // One entry per report, in the same transaction: the log of each report shows its deletion, and a bulk delete reads as the single ones do.
      for (const r of rows) {
        await appendAudit(trx, ctx, {
          action: 'BUG_REPORT_DELETED',
          entityType: 'bug_report',
          entityId: r.id,
          details: { ...deletedDetails(r), bulk: { count: ids.length } },
        });
      }
      return { ids, deleted: ids.length };
    });
    return { data };
  },
});
