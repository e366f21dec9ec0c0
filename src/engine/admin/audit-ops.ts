/** GET /admin/audit-log: the administrators' changes, newest first (pagination B). */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { listPerPage, perPageMetaSchema, perPageQuery } from '../pagination.js';
import { userIdIn } from '../ids.js';
import { userIdParam } from '../schema.js';
import { auditEntrySchema, auditEntryView } from './audit.js';

/** Administrator lists default to 20 a page (the spec). */
export const adminPage = () => perPageQuery(20);

export const auditLog = defineOperation({
  name: 'admin.audit-log',
  summary: "The administrators' changes, newest first",
  description: 'One entry per administrator mutation: who, what, to which entity, the request, the IP address and user agent. The log is append-only.',
  access: 'admin',
  method: 'GET',
  path: '/admin/audit-log',
  query: {
    action: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ examples: ['USER_SUSPENDED'] }),
    entityType: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .meta({ examples: ['user'] }),
    entityId: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('as entries show it: a user as usr_2')
      .meta({ examples: ['usr_2'] }),
    adminId: userIdParam('the administrator, as entries show it (usr_…; the bare integer is taken too)').optional(),
    ...adminPage(),
  },
  output: z.array(auditEntrySchema),
  meta: perPageMetaSchema,
  async run(ctx, input) {
    let q = ctx.platform.db.selectFrom('audit_log');
    if (input.action) q = q.where('action', '=', input.action);
    if (input.entityType) q = q.where('entity_type', '=', input.entityType);
    if (input.entityId) {
      // A user's entries are kept under the integer key (usr_2 is kept as 2).
      const user = /^usr_/.test(input.entityId) ? userIdIn(input.entityId) : undefined;
      q = user === undefined ? q.where('entity_id', '=', input.entityId) : q.where('entity_type', '=', 'user').where('entity_id', '=', String(user));
    }
    if (input.adminId) q = q.where('admin_id', '=', input.adminId);
    const { rows, meta } = await listPerPage(q, (q) => q.selectAll().orderBy('id', 'desc'), input);
    return { data: rows.map(auditEntryView), meta };
  },
});
