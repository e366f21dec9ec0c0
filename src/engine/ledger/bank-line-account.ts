/**
 * The accounts the other side of a bank line may not go to, wherever it is
 * chosen (categorising a line, confirming an import, a rule): the bank
 * line's own account, which would post the money in and out of it at once
 * (Dr 1200 / Cr 1200) and lose it; and the receivables and payables control
 * accounts, which invoices and bills keep: money posted there straight from
 * the bank belongs to no document, so aged debtors and creditors would no
 * longer agree with 1100 and 2100. Suspense (9999) is refused by each
 * caller in its own words, since it is where uncategorised lines wait.
 */
import type { Kysely } from 'kysely';
import type { AccountsTable, OrgDb } from '../../store/tables.js';

type Named = Pick<AccountsTable, 'id' | 'code' | 'name' | 'control_type'>;

/** Why `account` cannot take a bank line of `bankAccountIds` (its own ledger accounts), or null when it can. */
export function bankLineRefusal(account: Named, bankAccountIds: readonly string[]): string | null {
  const named = `${account.code} ${account.name}`;
  if (bankAccountIds.includes(account.id)) return `${named} is the bank line’s own account: the money would go in and out of it at once and vanish`;
  if (account.control_type === 'receivables') return `${named} is the receivables control account, kept by invoices: record the payment on the invoice instead`;
  if (account.control_type === 'payables') return `${named} is the payables control account, kept by bills: record the payment on the bill instead`;
  return null;
}

/** Which of `accountIds` (an entry's lines' accounts) are bank accounts. */
export async function bankAccountsAmong(db: Kysely<OrgDb>, accountIds: readonly string[]): Promise<Set<string>> {
  const banks = await db.selectFrom('accounts').select('id').where('control_type', '=', 'bank').where('id', 'in', accountIds).execute();
  return new Set(banks.map((b) => b.id));
}
