/** The VAT registration number HMRC knows the organisation by, from its profile's VAT number. */
import type { Kysely } from 'kysely';
import { AppError } from '../../errors.js';
import { loadOrganisation } from '../../organisation/organisation.js';
import type { OrgDb } from '../../../store/tables.js';

/**
 * The organisation's VAT number as HMRC's paths take it: spaces and a GB
 * prefix dropped (GB 123 4567 89 is 123456789). Its form is HMRC's to
 * judge (VRN_INVALID); a missing number is 422 here.
 */
export async function vrnOf(db: Kysely<OrgDb>): Promise<string> {
  const org = await loadOrganisation(db);
  const vrn = (org.vat_number ?? '').replace(/\s+/g, '').replace(/^GB/i, '');
  if (vrn === '') {
    throw new AppError(
      'unprocessable_entity',
      'the organisation has no VAT number: set it with acct organisation update --vat-number 123456789 (PUT /v1/organisation)',
    );
  }
  return vrn;
}
