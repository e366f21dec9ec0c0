/**
 * The installation as a whole: counts (GET /admin/stats), a search over
 * users, organisations and bug reports (GET /admin/search), and the
 * server's caches (POST /admin/system/clear-cache).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { idOut, instant } from '../output.js';
import { userIdIn, userIdOut } from '../ids.js';
import { timestamp } from '../clock.js';
import { searchText } from '../schema.js';
import { containsText } from '../search.js';
import { siteSetting } from '../site-settings.js';
import { claimedSpots, earlyAccessSpots } from '../organisation/early-access.js';
import { bugSeverities, bugStatuses } from '../platform/bug-reports.js';
import { listOrganisations } from '../platform/organisations.js';
import { auditedWrite } from './audit.js';

/** How many of each kind GET /admin/search returns at most. */
export const searchLimit = 10;

/** `sum(case when … then 1 else 0 end)`: how many rows meet a condition, beside other counts of one query. */
const countWhere = (condition: Expression<SqlBool>) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;

const days = (n: number) => n * 86_400_000;

const byKey = <K extends string>(keys: readonly K[]) => z.strictObject(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K, z.ZodNumber>);

export const adminStats = defineOperation({
  name: 'admin.stats',
  summary: 'Counts across the installation: organisations, users, early access, bug reports, sessions, sign-ups',
  description:
    'users.locked: locked now after failed logins; sessions.activeNow: sessions not ended whose access token has not expired (used within its last 15 minutes); signups: users created in the last 7 and 30 days. Bug reports of both modes count.',
  access: 'admin',
  method: 'GET',
  path: '/admin/stats',
  output: z.strictObject({
    organisations: z.strictObject({ total: z.number().int(), closed: z.number().int() }),
    users: z.strictObject({
      total: z.number().int(),
      admins: z.number().int(),
      verified: z.number().int(),
      suspended: z.number().int(),
      locked: z.number().int(),
    }),
    earlyAccess: z.strictObject({ claimed: z.number().int(), totalSpots: z.literal(earlyAccessSpots), enabled: z.boolean() }),
    bugReports: z.strictObject({ total: z.number().int(), byStatus: byKey(bugStatuses), bySeverity: byKey(bugSeverities) }),
    sessions: z.strictObject({ activeNow: z.number().int() }),
    signups: z.strictObject({ last7Days: z.number().int(), last30Days: z.number().int() }),
  }),
  async run(ctx) {
    const db = ctx.platform.db;
    const now = ctx.clock.now().getTime();
    const nowText = timestamp(ctx.clock);
    const ago = (ms: number) => new Date(now - ms).toISOString();
    const orgs = await db
      .selectFrom('organisations')
      .select((eb) => [eb.fn.countAll<number>().as('total'), countWhere(eb('closed_at', 'is not', null)).as('closed')])
      .executeTakeFirstOrThrow();
    const users = await db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        countWhere(eb('is_admin', '=', 1)).as('admins'),
        countWhere(eb('email_verified', '=', 1)).as('verified'),
        countWhere(eb('suspended_at', 'is not', null)).as('suspended'),
        countWhere(eb('locked_until', '>', nowText)).as('locked'),
        countWhere(eb('created_at', '>=', ago(days(7)))).as('last7Days'),
        countWhere(eb('created_at', '>=', ago(days(30)))).as('last30Days'),
      ])
      .executeTakeFirstOrThrow();
    const reports = await db
      .selectFrom('bug_reports')
      .select((eb) => ['status', 'severity', eb.fn.countAll<number>().as('n')])
      .groupBy(['status', 'severity'])
      .execute();
    const byStatus = Object.fromEntries(bugStatuses.map((s) => [s, 0])) as Record<(typeof bugStatuses)[number], number>;
    const bySeverity = Object.fromEntries(bugSeverities.map((s) => [s, 0])) as Record<(typeof bugSeverities)[number], number>;
    for (const r of reports) {
      byStatus[r.status] += Number(r.n);
      bySeverity[r.severity] += Number(r.n);
    }
    const sessions = await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revoked_at', 'is', null)
      .where('access_expires_at', '>', nowText)
      .executeTakeFirstOrThrow();
    const claimed = await claimedSpots(db);
    return {
      data: {
        organisations: { total: Number(orgs.total), closed: Number(orgs.closed) },
        users: {
          total: Number(users.total),
          admins: Number(users.admins),
          verified: Number(users.verified),
          suspended: Number(users.suspended),
          locked: Number(users.locked),
        },
        earlyAccess: { claimed, totalSpots: earlyAccessSpots, enabled: await siteSetting(db, 'early_access_enabled') },
        bugReports: { total: reports.reduce((sum, r) => sum + Number(r.n), 0), byStatus, bySeverity },
        sessions: { activeNow: Number(sessions.n) },
        signups: { last7Days: Number(users.last7Days), last30Days: Number(users.last30Days) },
      },
    };
  },
});

export const adminSearch = defineOperation({
  name: 'admin.search',
  summary: 'Find users (address, name), organisations (name, id) and bug reports (title, id)',
  description: `Text of at least 2 characters, matched anywhere and ignoring case; an id matches from its start, a user's id (usr_2) in full. Up to ${searchLimit} of each kind: users by id, organisations oldest first, bug reports newest first.`,
  access: 'admin',
  method: 'GET',
  path: '/admin/search',
  query: {
    q: searchText()
      .trim()
      .min(2)
      .meta({ examples: ['acme'] }),
  },
  output: z.strictObject({
    query: z.string(),
    users: z.array(
      z.strictObject({
        id: idOut('usr'),
        email: z.string(),
        fullName: z.string(),
        organisationId: z.string(),
        isAdmin: z.boolean(),
        suspended: z.boolean(),
      }),
    ),
    organisations: z.array(z.strictObject({ id: z.string(), name: z.string(), businessType: z.string(), createdAt: instant() })),
    bugReports: z.array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        status: z.enum(bugStatuses),
        severity: z.enum(bugSeverities),
        organisationId: z.string(),
        createdAt: instant(),
      }),
    ),
  }),
  async run(ctx, input) {
    const q = input.q;
    const lower = q.toLowerCase();
    const db = ctx.platform.db;
    const users = await db
      .selectFrom('users')
      .select(['id', 'email', 'full_name', 'organisation_id', 'is_admin', 'suspended_at'])
      .where((eb) => {
        // A user's id (usr_2) finds that user, as an organisation's or a bug report's id finds it.
        const id = /^usr_/i.test(q) ? userIdIn(lower) : undefined;
        return id === undefined ? containsText(eb, ['email', 'full_name'], q) : eb.or([containsText(eb, ['email', 'full_name'], q), eb('id', '=', id)]);
      })
      .orderBy('id')
      .limit(searchLimit)
      .execute();
    // Organisation names live in each organisation's own books: read as acct uses reads them.
    const organisations = (await listOrganisations(ctx.store))
      .filter((o) => o.id.startsWith(lower) || o.name.normalize('NFC').toLocaleLowerCase('en-GB').includes(lower.normalize('NFC')))
      .slice(0, searchLimit);
    // An id matches from its start, its text literal (% and _ escaped).
    const idStart = `${lower.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const reports = await db
      .selectFrom('bug_reports')
      .select(['id', 'title', 'status', 'severity', 'organisation_id', 'created_at'])
      .where((eb) => eb.or([containsText(eb, ['title'], q), sql<SqlBool>`${sql.ref('id')} like ${idStart} escape '\\'`]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(searchLimit)
      .execute();
    return {
      data: {
        query: q,
        users: users.map((u) => ({
          id: userIdOut(u.id),
          email: u.email,
          fullName: u.full_name,
          organisationId: u.organisation_id,
          isAdmin: u.is_admin === 1,
          suspended: u.suspended_at !== null,
        })),
        organisations: organisations.map((o) => ({ id: o.id, name: o.name, businessType: o.businessType, createdAt: o.createdAt })),
        bugReports: reports.map((r) => ({
          id: r.id,
          title: r.title,
          status: r.status,
          severity: r.severity,
          organisationId: r.organisation_id,
          createdAt: r.created_at,
        })),
      },
    };
  },
});

export const clearCache = defineOperation({
  name: 'admin.clear-cache',
  summary: "Empty the server's in-memory caches (API keys, organisations' plans)",
  description:
    'Each cache is listed with how many entries it held. Nothing is lost: each is filled again from the databases as requests come. The CLI keeps no caches between commands, so there it clears nothing (and says so).',
  access: 'admin',
  method: 'POST',
  path: '/admin/system/clear-cache',
  output: z.strictObject({
    cleared: z.array(z.strictObject({ name: z.string(), description: z.string(), entries: z.number().int().describe('how many it held') })),
    note: z.string().nullable(),
  }),
  async run(ctx) {
    const data = await auditedWrite(ctx, () => {
      // Emptied inside the transaction that records it; a cache is only ever refilled from the databases, so a failed record loses nothing.
      const cleared = (ctx.caches ?? []).map((c) => ({ name: c.name, description: c.description, entries: c.clear() }));
      const note = ctx.caches
        ? null
        : "the CLI keeps no caches: each command reads the databases afresh; clear a server's with POST /v1/admin/system/clear-cache";
      return Promise.resolve({
        result: { cleared, note },
        audit: {
          action: 'CACHE_CLEARED',
          entityType: 'system',
          entityId: 'cache',
          details: { cleared: cleared.map((c) => ({ name: c.name, entries: c.entries })) },
        },
      });
    });
    return { data };
  },
});
