/** The organisations of a data directory, and which one the CLI uses when --org is not given. */
import { AppError } from '../errors.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { platformSetting, setPlatformSetting } from './settings.js';
import type { Store } from '../../store/store.js';

const defaultKey = 'cli.organisation';

export interface OrganisationSummary {
  readonly id: string;
  readonly name: string;
  readonly businessType: string;
  readonly createdAt: string;
}

/** All organisations, oldest first, with their (live) names. */
export async function listOrganisations(store: Store): Promise<OrganisationSummary[]> {
  const rows = await store.platform.db.selectFrom('organisations').select(['id', 'created_at']).orderBy('created_at').orderBy('id').execute();
  const out: OrganisationSummary[] = [];
  for (const r of rows) {
    const org = await loadOrganisation(store.org(r.id, 'live').db);
    out.push({ id: r.id, name: org.name, businessType: org.business_type, createdAt: r.created_at });
  }
  return out;
}

async function exists(store: Store, id: string): Promise<boolean> {
  const row = await store.platform.db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function setDefaultOrganisation(store: Store, id: string): Promise<void> {
  if (!(await exists(store, id))) throw new AppError('not_found', `organisation ${id} not found in ${store.dataDir}`);
  await store.platform.write((trx) => setPlatformSetting(trx, defaultKey, id));
}

export const defaultOrganisation = (store: Store): Promise<string | null> => platformSetting(store.platform.db, defaultKey);

/** --org ID, else the one chosen with `acct use`, else the only one. */
export async function resolveOrganisation(store: Store, flag: string | undefined): Promise<string> {
  if (flag !== undefined) {
    if (!(await exists(store, flag))) throw new AppError('not_found', `organisation ${flag} not found in ${store.dataDir}`);
    return flag;
  }
  const chosen = await defaultOrganisation(store);
  if (chosen !== null && (await exists(store, chosen))) return chosen;
  const rows = await store.platform.db.selectFrom('organisations').select('id').limit(2).execute();
  if (rows.length === 1 && rows[0]) return rows[0].id;
  if (rows.length === 0) throw new AppError('not_found', `no organisation in ${store.dataDir}: run acct init first`);
  throw new AppError('validation_error', `several organisations in ${store.dataDir}: pass --org ID, or choose one with acct use ID`, 'org');
}
