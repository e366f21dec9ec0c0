/** Reading the organisation row of a dataset, and the names shared by its profile and settings. */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { OrgDb, OrganisationTable } from '../../store/tables.js';

export const businessTypes = ['sole_trader', 'limited_company'] as const;
export type BusinessType = (typeof businessTypes)[number];

export const vatSchemes = ['not_registered', 'standard', 'flat_rate'] as const;
export type VatScheme = (typeof vatSchemes)[number];

export type OrganisationRow = OrganisationTable;

export async function loadOrganisation(db: Kysely<OrgDb>): Promise<OrganisationRow> {
  const row = await db.selectFrom('organisation').selectAll().executeTakeFirst();
  if (!row) throw new AppError('internal_error', 'organisation database has no organisation row');
  return row;
}
