/**
 * The demo organisation that `npm start` serves: created on first run with
 * a realistic profile and a few months of trading in its live books; each start issues a fresh demo key (keys are stored
 * only as hashes, so an old one cannot be shown again) and revokes the last.
 */
import { timestamp, today, type Clock } from '../clock.js';
import { seedDemoActivity } from './demo-activity.js';
import { seedDemoSales } from './demo-sales.js';
import { insertKey } from '../integration/api-keys.js';
import { scopes } from '../scopes.js';
import { createOrganisation } from '../organisation/provision.js';
import { platformSetting, setPlatformSetting } from '../site-settings.js';
import type { Store } from '../../store/store.js';

const demoKey = 'demo.organisation';
const demoKeyName = 'Demo key (npm start)';

export async function ensureDemoOrganisation(store: Store, clock: Clock): Promise<{ id: string; created: boolean }> {
  const chosen = await platformSetting(store.platform.db, demoKey);
  if (chosen !== null) {
    const org = await store.platform.db.selectFrom('organisations').select('id').where('id', '=', chosen).executeTakeFirst();
    if (org) return { id: org.id, created: false };
  }
  const { organisationId } = await createOrganisation(store, clock, {
    name: 'Hebden Bridge Joinery Ltd',
    businessType: 'limited_company',
    vatScheme: 'standard',
    fiscalYearStart: '04-01',
  });
  for (const mode of ['live', 'test'] as const) {
    await store.org(organisationId, mode).write((trx) =>
      trx
        .updateTable('organisation')
        .set({
          email: 'accounts@hebdenjoinery.example',
          phone: '01422 555 0142',
          vat_number: 'GB123456782',
          company_number: '12345678',
          address_line1: 'Unit 4, Calder Works',
          address_line2: 'Valley Road',
          city: 'Hebden Bridge',
          region: 'West Yorkshire',
          postal_code: 'HX7 8AB',
          updated_at: timestamp(clock),
        })
        .execute(),
    );
  }
  await store.org(organisationId, 'live').write(async (trx) => {
    const posting = { clock, actor: { id: 'demo', name: 'Demo data' } };
    await seedDemoActivity(trx, posting, today(clock));
    await seedDemoSales(trx, posting, today(clock));
  });
  await store.platform.write((trx) => setPlatformSetting(trx, demoKey, organisationId));
  return { id: organisationId, created: true };
}

/** A new live key for the demo, revoking the demo keys issued before it. */
export async function issueDemoKey(store: Store, clock: Clock, organisationId: string): Promise<string> {
  return store.platform.write(async (trx) => {
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: timestamp(clock) })
      .where('organisation_id', '=', organisationId)
      .where('name', '=', demoKeyName)
      .where('revoked_at', 'is', null)
      .execute();
    const created = await insertKey(trx, clock, { organisationId, mode: 'live', name: demoKeyName, scopes });
    return created.key;
  });
}
