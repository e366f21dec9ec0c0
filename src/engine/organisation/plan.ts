/** The plan an organisation's rate limits follow: its business type (a trial counts as the plan it points to). */
import type { Store } from '../../store/store.js';
import { loadOrganisation, type BusinessType } from './organisation.js';

export type Plan = BusinessType;

/** The plan of an organisation, from its live books (live and test keys share one limit). */
export async function planOf(store: Store, organisationId: string): Promise<Plan> {
  return (await loadOrganisation(store.org(organisationId, 'live').db)).business_type;
}
