/** The installation's settings (site-settings.ts): every known one with its value and default; change one, checked against its key's schema. */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { instant } from '../output.js';
import { isSiteSettingKey, readSiteSetting, siteSettings, writeSiteSetting, type SiteSettingKey } from '../site-settings.js';
import { auditedWrite } from './audit.js';
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../../store/tables.js';

const settingSchema = z.strictObject({
  key: z.string(),
  value: z.unknown().describe('the value in force: the default until an administrator sets it'),
  default: z.unknown(),
  description: z.string(),
  updatedAt: instant().nullable().describe('when an administrator last set it; null while it has its default'),
});
type Setting = z.output<typeof settingSchema>;

async function settingView(db: Kysely<PlatformDb>, key: SiteSettingKey): Promise<Setting> {
  const { value, updatedAt } = await readSiteSetting(db, key);
  const spec = siteSettings[key];
  return { key, value, default: spec.default, description: spec.description, updatedAt };
}

const keys = Object.keys(siteSettings) as SiteSettingKey[];

export const adminSettings = defineOperation({
  name: 'admin.settings',
  summary: "The installation's settings: each key's value, default and meaning",
  access: 'admin',
  method: 'GET',
  path: '/admin/settings',
  output: z.array(settingSchema),
  async run(ctx) {
    const data: Setting[] = [];
    for (const key of keys) data.push(await settingView(ctx.platform.db, key));
    return { data };
  },
});

export const updateAdminSetting = defineOperation({
  name: 'admin.update-setting',
  summary: "Set one of the installation's settings",
  description: `Keys: ${keys.join(', ')} (all true or false). An unknown key is 404; a value its key does not take is 400 on value. It holds from the next request, on every server over the data directory.`,
  access: 'admin',
  method: 'PATCH',
  path: '/admin/settings/{key}',
  params: {
    key: z
      .string()
      .min(1)
      .max(100)
      .meta({ examples: ['maintenance_mode'] }),
  },
  body: {
    // Every setting so far is a JSON scalar, and the CLI's --value is coerced only to scalars.
    value: z
      .union([z.boolean(), z.number(), z.string()])
      .describe("the new value, as the key's schema takes it (true or false for every key so far)")
      .meta({ examples: [true] }),
  },
  output: settingSchema,
  async run(ctx, input) {
    const key = input.key;
    if (!isSiteSettingKey(key)) throw new AppError('not_found', `setting ${key} not found: the settings are ${keys.join(', ')}`);
    const parsed = siteSettings[key].schema.safeParse(input.value);
    if (!parsed.success) throw new AppError('validation_error', `${key} takes ${siteSettings[key].takes}, not ${JSON.stringify(input.value)}`, 'value');
    const data = await auditedWrite(ctx, async (trx) => {
      const before = await readSiteSetting(trx, key);
      await writeSiteSetting(trx, key, parsed.data, timestamp(ctx.clock));
      return {
        result: await settingView(trx, key),
        audit: { action: 'SETTING_UPDATED', entityType: 'setting', entityId: key, details: { before: before.value, after: parsed.data } },
      };
    });
    return { data };
  },
});
