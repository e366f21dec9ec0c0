/**
 * What invoice and credit note PDFs print of the primary bank account (the
 * one banking/bank-accounts.ts marks primary), read here so that sales
 * documents need nothing of banking's.
 */
import type { Kysely } from 'kysely';
import type { PdfBankDetails } from '../../pdf/invoice-data.js';
import type { OrgDb } from '../../store/tables.js';

/** The primary bank account's details: nothing until it has a sort code and account number or an IBAN. */
export async function pdfBankDetails(db: Kysely<OrgDb>, organisationName: string): Promise<PdfBankDetails | undefined> {
  const row = await db
    .selectFrom('bank_accounts')
    .select(['holder_name', 'bank_name', 'sort_code', 'account_number', 'iban'])
    .where('is_primary', '=', 1)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  if (!row || ((row.sort_code === null || row.account_number === null) && row.iban === null)) return undefined;
  return {
    accountName: row.holder_name ?? organisationName,
    bankName: row.bank_name,
    sortCode: row.sort_code,
    accountNumber: row.account_number,
    iban: row.iban,
  };
}
