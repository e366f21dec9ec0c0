/**
 * A new organisation's primary bank account, over its 1200 Bank Account:
 * one row, written at set-up like the chart (banking/bank-accounts.ts
 * manages bank accounts from then on).
 */
import type { Kysely } from 'kysely';
import { timestamp, type Clock } from '../clock.js';
import type { OrgDb } from '../../store/tables.js';

/** The primary bank account of a new organisation: over its 1200 Bank Account. */
export async function provisionBankAccount(trx: Kysely<OrgDb>, clock: Clock): Promise<void> {
  const bank = await trx.selectFrom('accounts').select(['id', 'name']).where('code', '=', '1200').executeTakeFirstOrThrow();
  const now = timestamp(clock);
  await trx
    .insertInto('bank_accounts')
    .values({ account_id: bank.id, account_name: bank.name, is_primary: 1, is_active: 1, created_at: now, updated_at: now })
    .execute();
}
