/**
 * The books' HMRC tokens (table mtd_tokens, one row): stored when the user
 * connects, refreshed when the access token has expired, or when HMRC
 * answers 401 INVALID_CREDENTIALS (once), and stored again. Each refresh is
 * a short write of its own, after the call to HMRC.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../errors.js';
import { timestamp } from '../../clock.js';
import type { Ctx, OrgScope } from '../../operation.js';
import type { MtdTokensTable, OrgDb } from '../../../store/tables.js';
import { refreshGrant, type Grant } from './oauth.js';
import type { HmrcSettings } from '../../hmrc.js';
import { credentialsOf } from './settings.js';

/** An access token this close to its expiry is refreshed before use. */
const marginMs = 60_000;

export async function readTokens(db: Kysely<OrgDb>): Promise<MtdTokensTable | undefined> {
  return db.selectFrom('mtd_tokens').selectAll().where('id', '=', 1).executeTakeFirst();
}

const expiry = (ctx: Ctx, grant: Grant): string => new Date(ctx.clock.now().getTime() + grant.expiresIn * 1000).toISOString();

/** Store the tokens of a new grant, replacing any earlier connection. */
export async function saveGrant(ctx: Ctx, books: OrgScope, baseUrl: string, grant: Grant): Promise<void> {
  const now = timestamp(ctx.clock);
  const row = {
    id: 1,
    base_url: baseUrl,
    access_token: grant.accessToken,
    refresh_token: grant.refreshToken,
    scope: grant.scope,
    expires_at: expiry(ctx, grant),
    connected_at: now,
    refreshed_at: null,
  };
  await books.write((trx) =>
    trx
      .insertInto('mtd_tokens')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute(),
  );
}

const notConnected = (why: string): AppError => new AppError('hmrc_not_connected', `${why}: run acct vat connect to sign in to HMRC and grant acct access`);

/** The stored tokens, when they were issued by the HMRC of `settings`. */
async function connection(books: OrgScope, settings: HmrcSettings): Promise<MtdTokensTable> {
  const row = await readTokens(books.db);
  if (!row) throw notConnected('these books are not connected to HMRC');
  if (row.base_url !== settings.baseUrl) throw notConnected(`these books are connected to HMRC at ${row.base_url}, not ${settings.baseUrl}`);
  return row;
}

/** Refreshes in flight, by books: one at a time, as HMRC's refresh tokens are single use. */
const refreshing = new WeakMap<Kysely<OrgDb>, Promise<string>>();

async function refresh(ctx: Ctx, books: OrgScope, settings: HmrcSettings, stale: MtdTokensTable): Promise<string> {
  const grant = await refreshGrant(settings, credentialsOf(settings), stale.refresh_token);
  if (!grant) {
    // Another process (the CLI beside acct serve) may have used this refresh token first and stored what it got.
    const now = await readTokens(books.db);
    if (now && now.refresh_token !== stale.refresh_token) return now.access_token;
    throw notConnected('HMRC refused the refresh token (used, revoked, or older than 18 months)');
  }
  await books.write((trx) =>
    trx
      .updateTable('mtd_tokens')
      .set({
        access_token: grant.accessToken,
        refresh_token: grant.refreshToken,
        scope: grant.scope,
        expires_at: expiry(ctx, grant),
        refreshed_at: timestamp(ctx.clock),
      })
      .where('id', '=', 1)
      .execute(),
  );
  return grant.accessToken;
}

/**
 * A fresh access token in place of `used` (expired, or refused by HMRC):
 * refreshed and stored, unless another call already did.
 */
export function renewAccess(ctx: Ctx, books: OrgScope, settings: HmrcSettings, used: string): Promise<string> {
  const pending = refreshing.get(books.db);
  if (pending) return pending;
  const renewal = (async () => {
    const row = await connection(books, settings);
    return row.access_token === used ? refresh(ctx, books, settings, row) : row.access_token;
  })().finally(() => refreshing.delete(books.db));
  // Registered before any await, so that a second caller finds it.
  refreshing.set(books.db, renewal);
  return renewal;
}

/** An access token to call HMRC with: the stored one, refreshed first when it has expired (or is about to). */
export async function accessToken(ctx: Ctx, books: OrgScope, settings: HmrcSettings): Promise<string> {
  const row = await connection(books, settings);
  if (Date.parse(row.expires_at) - marginMs > ctx.clock.now().getTime()) return row.access_token;
  return renewAccess(ctx, books, settings, row.access_token);
}
