/** The organisations of a data directory, and which one the CLI uses when --org is not given. */
import { AppError } from '../errors.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { pickOne } from '../references.js';
import { platformSetting, setPlatformSetting } from '../site-settings.js';
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

/** The shortest id prefix that names an organisation. */
const shortestIdPrefix = 4;

/**
 * The organisation `text` names: its id, its name (ignoring case) or the
 * start of it, or the start of its id (at least four characters), as
 * `git` takes a short hash; several is a 400 listing them.
 */
export async function organisationNamed(store: Store, text: string, field = 'org'): Promise<string> {
  if (await exists(store, text)) return text;
  const all = await listOrganisations(store);
  const byId = text.length >= shortestIdPrefix ? all.filter((o) => o.id.startsWith(text.toLowerCase())) : [];
  if (byId.length === 1) return (byId[0] as OrganisationSummary).id;
  try {
    return pickOne(
      all.map((o) => ({ id: o.id, key: o.name, label: o.name })),
      text,
      'organisation',
      field,
    );
  } catch (e) {
    if (e instanceof AppError && e.code === 'not_found') throw new AppError('not_found', `organisation ${text} not found in ${store.dataDir}`);
    throw e;
  }
}

/** --org (an id, a name, or the start of either), else the one chosen with `acct use`, else the only one. */
export async function resolveOrganisation(store: Store, flag: string | undefined): Promise<string> {
  if (flag !== undefined) return organisationNamed(store, flag);
  const chosen = await defaultOrganisation(store);
  if (chosen !== null && (await exists(store, chosen))) return chosen;
  const rows = await store.platform.db.selectFrom('organisations').select('id').limit(2).execute();
  if (rows.length === 1 && rows[0]) return rows[0].id;
  if (rows.length === 0) throw new AppError('not_found', `no organisation in ${store.dataDir}: run acct init first`);
  throw new AppError('validation_error', `several organisations in ${store.dataDir}: pass --org ID, or choose one with acct use ID`, 'org');
}

/** The organisation commands work on without --org (the one chosen with acct use, else the only one), or null when none is or several are. */
export async function organisationInUse(store: Store): Promise<string | null> {
  try {
    return await resolveOrganisation(store, undefined);
  } catch (e) {
    if (e instanceof AppError && (e.code === 'not_found' || e.code === 'validation_error')) return null;
    throw e;
  }
}
