/** Platform-wide key/value settings (the CLI's chosen organisation, the demo organisation). */
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../../store/tables.js';

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
