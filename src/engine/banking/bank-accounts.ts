/**
 * Bank accounts: each ties a ledger asset account under bank control to
 * the bank's details (holder, sort code and account number, IBAN). One is
 * primary: statement imports default to it and invoice PDFs print its
 * details. Archived accounts keep their history and leave the list.
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, type Clock } from '../clock.js';
import { found } from '../lookup.js';
import { instant } from '../output.js';
import { addAccount } from '../ledger/accounts.js';
import type { AccountsTable, BankAccountsTable, OrgDb } from '../../store/tables.js';

export type BankAccountRow = Selectable<BankAccountsTable>;

export const bankAccountSchema = z.strictObject({
  id: z.number().int(),
  accountId: z.string(),
  accountCode: z.string(),
  bankName: z.string().nullable(),
  accountName: z.string(),
  holderName: z.string().nullable(),
  sortCode: z.string().nullable().describe('NN-NN-NN'),
  accountNumber: z.string().nullable().describe('8 digits'),
  iban: z.string().nullable().describe('upper case, no spaces'),
  isPrimary: z.boolean(),
  isActive: z.boolean(),
  createdAt: instant(),
  updatedAt: instant(),
});
export type BankAccount = z.output<typeof bankAccountSchema>;

export const bankAccountView = (row: BankAccountRow, accountCode: string): BankAccount => ({
  id: row.id,
  accountId: row.account_id,
  accountCode,
  bankName: row.bank_name,
  accountName: row.account_name,
  holderName: row.holder_name,
  sortCode: row.sort_code,
  accountNumber: row.account_number,
  iban: row.iban,
  isPrimary: row.is_primary === 1,
  isActive: row.is_active === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** A UK sort code, with or without dashes or spaces: six digits, kept as NN-NN-NN. */
export function normaliseSortCode(text: string): string {
  const digits = text.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(digits)) throw new AppError('validation_error', 'sortCode must be six digits, as 60-83-71', 'sortCode');
  return `${digits.slice(0, 2)}-${digits.slice(2, 4)}-${digits.slice(4)}`;
}

/** A UK account number: eight digits (spaces allowed in what is typed). */
export function normaliseAccountNumber(text: string): string {
  const digits = text.replace(/\s/g, '');
  if (!/^\d{8}$/.test(digits)) throw new AppError('validation_error', 'accountNumber must be eight digits', 'accountNumber');
  return digits;
}

/** IBAN lengths of the countries a UK business banks with most; others are checked by format and checksum alone. */
const ibanLengths: Readonly<Record<string, number>> = {
  GB: 22,
  IE: 22,
  DE: 22,
  FR: 27,
  NL: 18,
  ES: 24,
  IT: 27,
  BE: 16,
  LU: 20,
  GI: 23,
  JE: 22,
  GG: 22,
  IM: 22,
};

/** An IBAN (ISO 13616): country, check digits and the ISO 7064 mod-97 check; kept upper case without spaces. */
export function normaliseIban(text: string): string {
  const iban = text.replace(/\s/g, '').toUpperCase();
  const refuse = (why: string) => new AppError('validation_error', `iban ${why}`, 'iban');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) throw refuse('must be a country code, two check digits and up to 30 letters and digits');
  const length = ibanLengths[iban.slice(0, 2)];
  if (length !== undefined && iban.length !== length) throw refuse(`of ${iban.slice(0, 2)} must be ${length} characters, not ${iban.length}`);
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  if (remainder !== 1) throw refuse('check digits do not match (a typing mistake?)');
  return iban;
}

/** The details as typed: undefined leaves a field, null or '' clears it. */
export interface BankDetails {
  readonly bankName?: string | null;
  readonly accountName?: string;
  readonly holderName?: string | null;
  readonly sortCode?: string | null;
  readonly accountNumber?: string | null;
  readonly iban?: string | null;
}

const cleared = (v: string | null | undefined): v is null | '' => v === null || v === '';

/** The columns of `details`, validated and normalised. */
function detailColumns(details: BankDetails): Partial<BankAccountRow> {
  const text = (v: string | null | undefined) => (v === undefined ? undefined : cleared(v) ? null : v.trim());
  const checked = (v: string | null | undefined, normalise: (t: string) => string) => (v === undefined ? undefined : cleared(v) ? null : normalise(v));
  return {
    bank_name: text(details.bankName),
    account_name: details.accountName?.trim(),
    holder_name: text(details.holderName),
    sort_code: checked(details.sortCode, normaliseSortCode),
    account_number: checked(details.accountNumber, normaliseAccountNumber),
    iban: checked(details.iban, normaliseIban),
  };
}

/** A sort code and an account number go together. */
function checkPair(row: Pick<BankAccountRow, 'sort_code' | 'account_number'>): void {
  if ((row.sort_code === null) !== (row.account_number === null)) {
    const missing = row.sort_code === null ? 'sortCode' : 'accountNumber';
    throw new AppError('validation_error', `${missing} is needed with ${missing === 'sortCode' ? 'accountNumber' : 'sortCode'}`, missing);
  }
}

export async function findBankAccount(db: Kysely<OrgDb>, id: number): Promise<BankAccountRow> {
  return found(db.selectFrom('bank_accounts').selectAll().where('id', '=', id).executeTakeFirst(), 'bank account', String(id));
}

/** The bank account and its ledger account's code. */
export async function bankAccountWithCode(db: Kysely<OrgDb>, id: number): Promise<BankAccount> {
  const row = await findBankAccount(db, id);
  const account = await db.selectFrom('accounts').select('code').where('id', '=', row.account_id).executeTakeFirstOrThrow();
  return bankAccountView(row, account.code);
}

/** Active bank accounts, primary first, then by bank name and account name; archived ones too when asked. */
export async function listBankAccounts(db: Kysely<OrgDb>, includeArchived: boolean): Promise<BankAccount[]> {
  let q = db.selectFrom('bank_accounts').innerJoin('accounts', 'accounts.id', 'bank_accounts.account_id').selectAll('bank_accounts').select('accounts.code');
  if (!includeArchived) q = q.where('bank_accounts.is_active', '=', 1);
  const rows = await q
    .orderBy('bank_accounts.is_active', 'desc')
    .orderBy('bank_accounts.is_primary', 'desc')
    .orderBy('bank_accounts.bank_name')
    .orderBy('bank_accounts.account_name')
    .orderBy('bank_accounts.id')
    .execute();
  return rows.map((r) => bankAccountView(r, r.code));
}

/** The primary active bank account, if any. */
export async function primaryBankAccount(db: Kysely<OrgDb>): Promise<BankAccountRow | undefined> {
  return db.selectFrom('bank_accounts').selectAll().where('is_primary', '=', 1).where('is_active', '=', 1).executeTakeFirst();
}

/** The first free code from 1201 to 1299 for a new bank ledger account. */
async function nextBankCode(trx: Kysely<OrgDb>): Promise<string> {
  const used = new Set((await trx.selectFrom('accounts').select('code').where('code', '>=', '1201').where('code', '<=', '1299').execute()).map((r) => r.code));
  for (let code = 1201; code <= 1299; code++) if (!used.has(String(code))) return String(code);
  throw new AppError('unprocessable_entity', 'codes 1201 to 1299 are all taken: name an existing asset account with accountId');
}

/** The ledger account a new bank account uses: an active asset account not controlled by anything else, marked bank-controlled. */
async function ledgerAccountFor(trx: Kysely<OrgDb>, clock: Clock, accountId: string | undefined, accountName: string): Promise<AccountsTable> {
  if (accountId === undefined) {
    return addAccount(trx, clock, { code: await nextBankCode(trx), name: accountName, accountType: 'asset', controlType: 'bank' });
  }
  const account = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new AppError('validation_error', `accountId: no account ${accountId}`, 'accountId');
  if (account.account_type !== 'asset' || account.is_active !== 1 || account.code === '9999') {
    throw new AppError('validation_error', `accountId: ${account.code} ${account.name} is not an active asset account a bank balance can live in`, 'accountId');
  }
  if (account.control_type !== null && account.control_type !== 'bank') {
    throw new AppError('validation_error', `accountId: ${account.code} ${account.name} is the ${account.control_type} control account`, 'accountId');
  }
  const taken = await trx.selectFrom('bank_accounts').select('id').where('account_id', '=', account.id).where('is_active', '=', 1).executeTakeFirst();
  if (taken) throw new AppError('conflict', `${account.code} ${account.name} is already bank account ${taken.id}`, 'accountId');
  if (account.control_type === null) {
    await trx
      .updateTable('accounts')
      .set({ is_control_account: 1, control_type: 'bank', updated_at: timestamp(clock) })
      .where('id', '=', account.id)
      .execute();
  }
  return account;
}

export interface NewBankAccount extends BankDetails {
  readonly accountName: string;
  readonly accountId?: string;
  readonly isPrimary?: boolean;
}

/** Add a bank account over an existing asset account, or over a new one (the next free code from 1201). */
export async function addBankAccount(trx: Kysely<OrgDb>, clock: Clock, input: NewBankAccount): Promise<BankAccount> {
  const columns = detailColumns(input);
  const account = await ledgerAccountFor(trx, clock, input.accountId, input.accountName.trim());
  const now = timestamp(clock);
  const first = !(await primaryBankAccount(trx));
  const primary = input.isPrimary === true || first;
  if (primary) await trx.updateTable('bank_accounts').set({ is_primary: 0, updated_at: now }).where('is_primary', '=', 1).execute();
  const row = {
    account_id: account.id,
    bank_name: columns.bank_name ?? null,
    account_name: columns.account_name ?? account.name,
    holder_name: columns.holder_name ?? null,
    sort_code: columns.sort_code ?? null,
    account_number: columns.account_number ?? null,
    iban: columns.iban ?? null,
    is_primary: primary ? 1 : 0,
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
  checkPair(row);
  const { id } = await trx.insertInto('bank_accounts').values(row).returning('id').executeTakeFirstOrThrow();
  return bankAccountWithCode(trx, id);
}

export interface BankAccountChange extends BankDetails {
  readonly isPrimary?: true;
}

/** Change a bank account's details, or make it the primary one. */
export async function changeBankAccount(trx: Kysely<OrgDb>, clock: Clock, id: number, change: BankAccountChange): Promise<BankAccount> {
  const row = await findBankAccount(trx, id);
  if (row.is_active !== 1) throw new AppError('unprocessable_entity', `bank account ${id} is archived`);
  const columns = Object.fromEntries(Object.entries(detailColumns(change)).filter(([, v]) => v !== undefined));
  checkPair({ ...row, ...columns });
  const now = timestamp(clock);
  if (change.isPrimary === true && row.is_primary !== 1) {
    await trx.updateTable('bank_accounts').set({ is_primary: 0, updated_at: now }).where('is_primary', '=', 1).execute();
    columns.is_primary = 1;
  }
  await trx
    .updateTable('bank_accounts')
    .set({ ...columns, updated_at: now })
    .where('id', '=', id)
    .execute();
  return bankAccountWithCode(trx, id);
}

/** Archive a bank account; the primary one only when it is the last (another must be made primary first). */
export async function archiveBankAccount(trx: Kysely<OrgDb>, clock: Clock, id: number): Promise<BankAccount> {
  const row = await findBankAccount(trx, id);
  if (row.is_active !== 1) return bankAccountWithCode(trx, id);
  if (row.is_primary === 1) {
    const other = await trx.selectFrom('bank_accounts').select('id').where('is_active', '=', 1).where('id', '!=', id).executeTakeFirst();
    if (other) throw new AppError('unprocessable_entity', `bank account ${id} is the primary one: make bank account ${other.id} primary first`);
  }
  const pending = await trx.selectFrom('bank_imports').select('id').where('bank_account_id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  if (pending) throw new AppError('unprocessable_entity', `bank account ${id} has a pending import (${pending.id}): confirm or delete it first`);
  await trx
    .updateTable('bank_accounts')
    .set({ is_active: 0, is_primary: 0, updated_at: timestamp(clock) })
    .where('id', '=', id)
    .execute();
  return bankAccountWithCode(trx, id);
}
