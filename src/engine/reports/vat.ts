/**
 * The VAT report for any dates: the nine boxes over the posted entries
 * dated from `from` to `to`, filed or not, on the accounting basis now set,
 * derived as a return's are (src/engine/vat/boxes.ts). A return as filed
 * or to file, with corrections carried into the next open return, is
 * `vat show PERIOD` (GET /vat/periods/{period}). A period with posted lines
 * still on the suspense account (9999) is incomplete (422
 * incomplete_ledger); a business not registered for VAT has no return (422).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { loadOrganisation, schemeOn } from '../organisation/organisation.js';
import { deriveBoxes } from '../vat/boxes.js';
import { descriptionsOf, discountUntil, postedEntries, refuseIncomplete, registration, vatReturnSchema as returnSchema } from '../vat/returns.js';
import { periodSchema } from './balances.js';
import type { OrgDb } from '../../store/tables.js';

export const vatReturnSchema = returnSchema
  .pick({
    scheme: true,
    basis: true,
    flatRatePercent: true,
    boxes: true,
    exact: true,
    netVatDirection: true,
    flatRateSurplus: true,
    flatRates: true,
    description: true,
  })
  .extend({ period: periodSchema });
export type VatReturn = z.output<typeof vatReturnSchema>;

export async function vatReturn(db: Kysely<OrgDb>, from: string, to: string): Promise<VatReturn> {
  // A range over a change of scheme is taken under the scheme in force on its first day; a return's period never spans one.
  const { org: last, lastDay } = await registration(db, await loadOrganisation(db));
  if (lastDay !== null && from > lastDay) {
    throw new AppError('unprocessable_entity', `the organisation's VAT registration ended on ${lastDay}, so it has no VAT to report from ${from}`, 'from');
  }
  const org = await schemeOn(db, last, from);
  await refuseIncomplete(db, from, to);
  const basis = org.vat_accounting_basis;
  const entries = await postedEntries(db, basis, from, to)
    .select(['e.date', 'e.direction', 'e.net', 'e.vat', 'e.reclaimable', 'e.capital', 'e.vat_account_id'])
    .execute();
  // No rate applies before registration: a range begun earlier has its flat rates from the registration date.
  const registered = org.vat_registration_date;
  const ratesFrom = registered !== null && registered > from && registered <= to ? registered : from;
  const d = deriveBoxes(
    entries,
    { scheme: org.vat_scheme, flatRateBp: org.vat_flat_rate_bp, discountUntil: discountUntil(org) },
    { startDate: ratesFrom, endDate: to },
  );
  const flatRatePercent = org.vat_scheme === 'flat_rate' ? (org.vat_flat_rate_bp ?? 0) / 100 : null;
  return {
    period: { from, to },
    scheme: org.vat_scheme,
    basis,
    flatRatePercent,
    boxes: d.boxes,
    exact: d.exact,
    netVatDirection: d.direction,
    flatRateSurplus: d.flatRateSurplus,
    flatRates: d.flatRates,
    description: descriptionsOf(org.vat_scheme, d.flatRates, flatRatePercent ?? 0),
  };
}
