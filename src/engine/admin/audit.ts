/**
 * The audit log of administrator changes: every mutating administrator
 * operation appends one row, in the same transaction as its change, so a
 * change and its record commit together or not at all. The table refuses
 * UPDATE and DELETE (migration 0004's triggers); nothing here offers either.
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { idOut, instant } from '../output.js';
import { userIdOut } from '../ids.js';
import type { Administrator, Ctx } from '../operation.js';
import type { AuditLogTable, PlatformDb } from '../../store/tables.js';

/** The administrator calling (checked already by access `admin`). */
export function adminOf(ctx: Ctx): Administrator {
  const admin = ctx.principal?.admin;
  if (!admin) throw new AppError('insufficient_scope', 'administrator endpoints need the session of a user with administrator status');
  return admin;
}

export interface AuditEntry {
  /** SCREAMING_SNAKE, as the published names are: USER_SUSPENDED, SETTING_UPDATED… */
  readonly action: string;
  readonly entityType: 'user' | 'organisation' | 'bug_report' | 'setting' | 'system' | 'webhook_delivery' | 'subscription';
  readonly entityId: string | number;
  /** What changed (before and after), beside the request, which is added. */
  readonly details?: Record<string, unknown>;
}

/** An administrator's optional reason for a change, kept in the audit log. */
export const auditReason = (example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe('kept in the audit log')
    .meta({ examples: [example] });

/** Append one record of an administrator's change, inside the transaction that makes it. */
export async function appendAudit(trx: Kysely<PlatformDb>, ctx: Ctx, entry: AuditEntry): Promise<void> {
  const admin = adminOf(ctx);
  const request = ctx.request ?? null;
  await trx
    .insertInto('audit_log')
    .values({
      admin_id: admin.userId,
      admin_email: admin.email,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: String(entry.entityId),
      details: JSON.stringify({ request: request && { method: request.method, path: request.path }, ...entry.details }),
      ip_address: request?.ipAddress ?? null,
      user_agent: request?.userAgent ?? null,
      created_at: timestamp(ctx.clock),
    })
    .execute();
}

/**
 * Refuse (403) a caller who is no longer an active administrator, read in
 * the write transaction: the session was checked as the request came in,
 * and another administrator's change may have committed since (two
 * demoting each other at once). Platform writes are serialised (SQLite's
 * write lock, PostgreSQL's advisory lock on the schema), so what is read
 * here stays true until the commit. The local operator (no user id) is
 * always one.
 */
async function refuseFormerAdmin(trx: Kysely<PlatformDb>, admin: Administrator): Promise<void> {
  if (admin.userId === null) return;
  const row = await trx.selectFrom('users').select(['is_admin', 'suspended_at']).where('id', '=', admin.userId).executeTakeFirst();
  if (!row || row.is_admin !== 1 || row.suspended_at !== null)
    throw new AppError('insufficient_scope', 'you are no longer an active administrator: another administrator changed your account');
}

/** Make an administrator's change and its audit record in one platform transaction; the change returns the entry. */
export async function auditedWrite<T>(ctx: Ctx, change: (trx: Kysely<PlatformDb>) => Promise<{ readonly result: T; readonly audit: AuditEntry }>): Promise<T> {
  const admin = adminOf(ctx);
  return ctx.platform.write(async (trx) => {
    await refuseFormerAdmin(trx, admin);
    const { result, audit } = await change(trx);
    await appendAudit(trx, ctx, audit);
    return result;
  });
}

export const auditEntrySchema = z.strictObject({
  id: z.number().int(),
  adminId: idOut('usr').nullable().describe('the administrator (usr_…); null: the local operator, through the CLI'),
  adminEmail: z.string(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().describe('a user as usr_…, an organisation by its UUID, a bug report as bug_…, a setting by its key'),
  details: z.record(z.string(), z.unknown()).describe('the request (method, path) and what changed'),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: instant(),
});

export const auditEntryView = (row: Selectable<AuditLogTable>): z.output<typeof auditEntrySchema> => ({
  id: row.id,
  adminId: row.admin_id === null ? null : userIdOut(row.admin_id),
  adminEmail: row.admin_email,
  action: row.action,
  entityType: row.entity_type,
  // Kept as the integer key, shown as the API names a user.
  entityId: row.entity_type === 'user' && /^[0-9]+$/.test(row.entity_id) ? userIdOut(Number(row.entity_id)) : row.entity_id,
  details: JSON.parse(row.details) as Record<string, unknown>,
  ipAddress: row.ip_address,
  userAgent: row.user_agent,
  createdAt: row.created_at,
});
