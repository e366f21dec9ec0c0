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
 * The scheme in force on `date`, from the latest scheme (the organisation's)
 * and the history of changes (vat_schemes, latest first). Leaving VAT is
 * dated (a not_registered change, from the first day not registered);
 * books that left before it was (not_registered with no such change in the
 * history) are not registered on any day, as they were treated then.
 */
export function schemeInForce(latest: VatScheme, history: readonly { readonly from: string; readonly scheme: VatScheme }[], date: string): VatScheme {
  if (latest === 'not_registered' && !history.some((h) => h.scheme === 'not_registered')) return latest;
  return history.find((h) => h.from <= date)?.scheme ?? latest;
}

/**
 * `org` with the VAT scheme (and flat rate) in force on `date`: a change
 * between standard and flat rate takes effect from a VAT period's start,
 * leaving VAT from its own day (vat/schemes.ts keeps the history); the row
 * holds the latest scheme.
 */
export async function schemeOn<O extends OrganisationRow>(db: Kysely<OrgDb>, org: O, date: string): Promise<O> {
  const history = await db.selectFrom('vat_schemes').selectAll().orderBy('from_date', 'desc').execute();
  const scheme = schemeInForce(
    org.vat_scheme,
    history.map((h) => ({ from: h.from_date, scheme: h.scheme })),
    date,
  );
  const row = history.find((h) => h.from_date <= date);
  if (scheme === org.vat_scheme && (row === undefined || row.flat_rate_bp === org.vat_flat_rate_bp)) return org;
  return { ...org, vat_scheme: scheme, vat_flat_rate_bp: row?.flat_rate_bp ?? null };
}

/** The first day the organisation is not registered for VAT, when its leaving is dated (not_registered, or scheduled); else null. */
export async function deregisteredFrom(db: Kysely<OrgDb>, org: OrganisationRow): Promise<string | null> {
  const last = await db.selectFrom('vat_schemes').select(['from_date', 'scheme']).orderBy('from_date', 'desc').limit(1).executeTakeFirst();
  return org.vat_scheme === 'not_registered' && last?.scheme === 'not_registered' ? last.from_date : null;
}

export async function loadOrganisation(db: Kysely<OrgDb>): Promise<OrganisationRow> {
  const row = await db.selectFrom('organisation').selectAll().executeTakeFirst();
  if (!row) throw new AppError('internal_error', 'organisation database has no organisation row');
  return row;
}
