/**
 * The installation's switches an administrator sets (PATCH
 * /admin/settings/{key}): each known key with its value's schema, its
 * default and what it does. They are read by provisioning (early access),
 * registration and the HTTP adapter (maintenance mode), which sit in
 * different areas, so they live here at the top of the engine.
 *
 * Values are kept as JSON in platform_settings under `admin.<key>`, beside
 * the other keys of that table (the CLI's chosen organisation, the demo
 * organisation, the MTD device id), with the time they were set:
 * {"value": …, "updatedAt": "…"}. A key never set has its default.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { PlatformDb } from '../store/tables.js';
import type { DbHandle } from '../store/store.js';

interface SiteSetting<T> {
  readonly schema: z.ZodType<T>;
  readonly default: T;
  readonly description: string;
  /** The values it takes, in words, for a refusal's message. */
  readonly takes: string;
}

const boolean = (byDefault: boolean, description: string): SiteSetting<boolean> => ({
  schema: z.boolean(),
  default: byDefault,
  description,
  takes: 'true or false',
});

export const siteSettings = {
  early_access_enabled: boolean(
    true,
    'When false, a new organisation gets the ordinary 30-day trial even while early-access spots remain (true: 90 days while fewer than 50 organisations have a verified signup).',
  ),
  registration_enabled: boolean(true, 'When false, POST /registration/register is refused (403 registration_disabled); acct init still creates organisations.'),
  maintenance_mode: boolean(
    false,
    'When true, every request that would change something is refused with 503 service_unavailable and Retry-After, unless an administrator makes it or it logs in or out; reads still work.',
  ),
} as const satisfies Record<string, SiteSetting<unknown>>;

export type SiteSettingKey = keyof typeof siteSettings;
export type SiteSettingValue<K extends SiteSettingKey> = z.output<(typeof siteSettings)[K]['schema']>;

export const isSiteSettingKey = (key: string): key is SiteSettingKey => Object.hasOwn(siteSettings, key);

/** The platform_settings key a setting is stored under. */
export const storageKey = (key: SiteSettingKey): string => `admin.${key}`;

export interface StoredSetting<T> {
  readonly value: T;
  /** When an administrator last set it; null while it has its default. */
  readonly updatedAt: string | null;
}

/** A platform_settings value as stored; null when the key was never set. */
export async function platformSetting(db: Kysely<PlatformDb>, key: string): Promise<string | null> {
  const row = await db.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function setPlatformSetting(trx: Kysely<PlatformDb>, key: string, value: string): Promise<void> {
  await trx
    .insertInto('platform_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** A setting's value and when it was set; its default when never set (or when what is stored no longer fits its schema). */
export async function readSiteSetting<K extends SiteSettingKey>(db: Kysely<PlatformDb>, key: K): Promise<StoredSetting<SiteSettingValue<K>>> {
  const text = await platformSetting(db, storageKey(key));
  const spec = siteSettings[key] as SiteSetting<SiteSettingValue<K>>;
  if (text === null) return { value: spec.default, updatedAt: null };
  const stored = JSON.parse(text) as { value?: unknown; updatedAt?: string };
  const parsed = spec.schema.safeParse(stored.value);
  return parsed.success ? { value: parsed.data, updatedAt: stored.updatedAt ?? null } : { value: spec.default, updatedAt: null };
}

/** A setting's value (its default when never set). */
export const siteSetting = async <K extends SiteSettingKey>(db: Kysely<PlatformDb>, key: K): Promise<SiteSettingValue<K>> =>
  (await readSiteSetting(db, key)).value;

/** Store a setting's value, already checked against its schema. */
export async function writeSiteSetting(trx: Kysely<PlatformDb>, key: SiteSettingKey, value: unknown, updatedAt: string): Promise<void> {
  await setPlatformSetting(trx, storageKey(key), JSON.stringify({ value, updatedAt }));
}

/**
 * One setting as a server checks it on every request: read again only when
 * the platform database may have changed (its change stamp), so a change by
 * another process (acct admin update-setting) holds from the next request,
 * and a check costs no query while nothing changes.
 */
export class WatchedSetting<K extends SiteSettingKey> {
  readonly #platform: DbHandle<PlatformDb>;
  readonly #key: K;
  #stamp = '';
  #value: SiteSettingValue<K> | undefined;

  constructor(platform: DbHandle<PlatformDb>, key: K) {
    this.#platform = platform;
    this.#key = key;
  }

  async value(): Promise<SiteSettingValue<K>> {
    const stamp = this.#platform.changeStamp();
    if (stamp !== this.#stamp || this.#value === undefined) {
      this.#value = await siteSetting(this.#platform.db, this.#key);
      this.#stamp = stamp;
    }
    return this.#value;
  }
}
