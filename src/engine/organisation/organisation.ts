/** Reading the organisation row of a dataset, and the names shared by its profile and settings. */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { OrgDb, OrganisationTable } from '../../store/tables.js';

export const businessTypes = ['sole_trader', 'limited_company'] as const;
export type BusinessType = (typeof businessTypes)[number];

export const vatSchemes = ['not_registered', 'standard', 'flat_rate'] as const;
export type VatScheme = (typeof vatSchemes)[number];

export type OrganisationRow = OrganisationTable;

/**
 * `org` with the VAT scheme (and flat rate) in force on `date`: a change
 * between standard and flat rate takes effect from a VAT period's start
 * (vat/schemes.ts keeps the history); the row holds the latest scheme.
 */
export async function schemeOn<O extends OrganisationRow>(db: Kysely<OrgDb>, org: O, date: string): Promise<O> {
  if (org.vat_scheme === 'not_registered') return org;
  const row = await db.selectFrom('vat_schemes').selectAll().where('from_date', '<=', date).orderBy('from_date', 'desc').limit(1).executeTakeFirst();
  return row ? { ...org, vat_scheme: row.scheme, vat_flat_rate_bp: row.flat_rate_bp } : org;
}

export async function loadOrganisation(db: Kysely<OrgDb>): Promise<OrganisationRow> {
  const row = await db.selectFrom('organisation').selectAll().executeTakeFirst();
  if (!row) throw new AppError('internal_error', 'organisation database has no organisation row');
  return row;
}
