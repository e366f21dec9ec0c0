/**
 * Migrations: the one workflow object per organisation that gathers the
 * four imports of a move from other software (contacts, opening balances,
 * outstanding invoices, outstanding bills), checks the gates, executes them
 * in one transaction and keeps the reconciliation proof. Its status is
 * worked out from what is attached and confirmed:
 *   setup → files_attached → preview_ready → ready_to_execute → (executing) → completed,
 * and abandoned from any state before completed. Executing runs inside one
 * write, so it is never seen half done: it completes, or it fails with 422
 * and the books are as they were. The operations are in migration-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import { day, idOut, instant } from '../output.js';
import { loadOrganisation } from '../organisation/organisation.js';
import type { Posting } from '../ledger/posting.js';
import { trialBalance } from '../reports/statements.js';
import { readTrialBalance } from './balances/read-trial-balance.js';
import { readDocuments } from './documents/read-documents.js';
import { mapAccounts, type ChartAccount } from './balances/map-accounts.js';
import { cutoverError } from './balances/cutover.js';
import { confirmContacts } from './contact-imports.js';
import { activeOpeningBalance, confirmBalances, roundingAccount, workBalance, type BalanceOptions } from './opening-balances.js';
import { confirmDocuments, documentPreview, uploadDocuments } from './document-imports.js';
import { findImport, importRecordView, optionsOf, pounds, poundsText } from './import-records.js';
import type { DataImportKind, DataImportsTable, MigrationProvider, MigrationsTable, OrgDb } from '../../store/tables.js';

export const providers = ['freeagent', 'xero', 'quickbooks', 'other'] as const satisfies readonly MigrationProvider[];
export const slots = ['contacts', 'balances', 'invoices', 'bills'] as const satisfies readonly DataImportKind[];
export const migrationStatuses = ['setup', 'files_attached', 'preview_ready', 'ready_to_execute', 'executing', 'completed', 'abandoned'] as const;
type MigrationStatus = (typeof migrationStatuses)[number];

export const providerConfigs: Record<MigrationProvider, { label: string; requiredImports: DataImportKind[]; optionalImports: DataImportKind[] }> = {
  freeagent: { label: 'FreeAgent', requiredImports: ['balances'], optionalImports: ['contacts', 'invoices', 'bills'] },
  xero: { label: 'Xero', requiredImports: ['balances'], optionalImports: ['contacts', 'invoices', 'bills'] },
  quickbooks: { label: 'QuickBooks', requiredImports: ['balances'], optionalImports: ['contacts', 'invoices', 'bills'] },
  other: { label: 'Other software', requiredImports: ['balances'], optionalImports: ['contacts', 'invoices', 'bills'] },
};

const slotColumn = (slot: DataImportKind) => `${slot}_import_id` as const;

const gateSchema = z.strictObject({ code: z.string(), message: z.string(), passed: z.boolean() });
export type Gate = z.output<typeof gateSchema>;

const accountProof = z.strictObject({
  code: z.string(),
  name: z.string(),
  expected: poundsText().describe('the source trial balance, debit − credit'),
  actual: poundsText().describe('the books at the cutover, debit − credit'),
  difference: poundsText(),
});

export const reconciliationSchema = z.strictObject({
  cutoverDate: day(),
  totalDebits: poundsText(),
  totalCredits: poundsText(),
  net: poundsText(),
  receivablesClearing: poundsText().describe('1198 at the end: 0.00'),
  payablesClearing: poundsText().describe('2198 at the end: 0.00'),
  sourceTotalDebit: poundsText(),
  sourceTotalCredit: poundsText(),
  matchesSource: z.boolean().describe('every account equals the source trial balance to the penny'),
  accounts: z.array(accountProof).describe('every account of either trial balance'),
});
export type Reconciliation = z.output<typeof reconciliationSchema>;

const slotSummary = z
  .strictObject({
    importId: idOut('dimp'),
    status: z.string(),
    totalRows: z.number().int(),
    createdCount: z.number().int(),
    skippedCount: z.number().int(),
  })
  .nullable();

export const migrationSchema = z.strictObject({
  id: idOut('mig'),
  provider: z.enum(providers),
  providerLabel: z.string(),
  status: z.enum(migrationStatuses),
  cutoverDate: day(),
  contactsImportId: idOut('dimp').nullable(),
  balancesImportId: idOut('dimp').nullable(),
  invoicesImportId: idOut('dimp').nullable(),
  billsImportId: idOut('dimp').nullable(),
  deferred: z.array(z.enum(['invoices', 'bills'])).describe('files of a provider upload waiting for the opening balance to be confirmed'),
  warnings: z.array(z.string()),
  createdAt: instant(),
  completedAt: instant().nullable(),
  abandonedAt: instant().nullable(),
  reconciliation: reconciliationSchema.nullable(),
});
export type MigrationView = z.output<typeof migrationSchema>;

export const migrationDetailSchema = migrationSchema.extend({
  imports: z.strictObject({ contacts: slotSummary, balances: slotSummary, invoices: slotSummary, bills: slotSummary }),
  providerConfig: z.strictObject({ label: z.string(), requiredImports: z.array(z.string()), optionalImports: z.array(z.string()) }),
  gates: z.array(gateSchema),
});
export type MigrationDetail = z.output<typeof migrationDetailSchema>;

interface Deferred {
  readonly invoices?: string;
  readonly bills?: string;
  readonly source: string;
}

const deferredOf = (row: MigrationsTable): Deferred | null => (row.deferred_json ? (JSON.parse(row.deferred_json) as Deferred) : null);

export async function findMigration(db: Kysely<OrgDb>, id: string): Promise<MigrationsTable> {
  const row = await db.selectFrom('migrations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `migration ${id} not found`);
  return row;
}

async function openMigration(db: Kysely<OrgDb>): Promise<MigrationsTable | undefined> {
  return db.selectFrom('migrations').selectAll().where('state', '=', 'open').executeTakeFirst();
}

async function attached(db: Kysely<OrgDb>, row: MigrationsTable): Promise<Partial<Record<DataImportKind, DataImportsTable>>> {
  const out: Partial<Record<DataImportKind, DataImportsTable>> = {};
  for (const slot of slots) {
    const id = row[slotColumn(slot)];
    if (id) out[slot] = await findImport(db, slot, id);
  }
  return out;
}

/** The gates a migration must pass before it executes, each with what it found. */
export async function gatesOf(db: Kysely<OrgDb>, row: MigrationsTable): Promise<Gate[]> {
  const imports = await attached(db, row);
  const gates: Gate[] = [];
  const gate = (code: string, passed: boolean, message: string) => gates.push({ code, passed, message });
  const organisation = await loadOrganisation(db);
  const cash = organisation.vat_accounting_basis === 'cash' && organisation.vat_scheme !== 'not_registered';
  gate('NOT_CASH_VAT', !cash, cash ? 'the organisation is on the cash VAT basis, which migrations do not support' : 'the VAT basis is not cash');
  const balances = imports.balances;
  if (!balances) {
    gate('BALANCES_ATTACHED', false, 'attach an opening balance import (a trial balance at the cutover)');
    return gates;
  }
  gate('BALANCES_ATTACHED', true, `opening balance ${balances.id} is attached`);
  const options = optionsOf<BalanceOptions>(balances);
  gate(
    'CUTOVER_MATCHES',
    options.cutoverDate === row.cutover_date,
    options.cutoverDate === row.cutover_date
      ? `the opening balance is at the cutover, ${row.cutover_date}`
      : `the opening balance is at ${options.cutoverDate}, not the migration's cutover ${row.cutover_date}`,
  );
  let receivablesOpening = 0;
  let payablesOpening = 0;
  if (balances.status === 'completed') {
    gate('TRIAL_BALANCE_BALANCED', true, `opening balance ${balances.id} is confirmed`);
    gate('ACCOUNTS_MAPPED', true, 'every row was mapped when it was confirmed');
    receivablesOpening = await ledgerNet(db, '1198');
    payablesOpening = await ledgerNet(db, '2198');
  } else if (balances.status === 'pending') {
    const worked = await workBalance(db, balances);
    gate(
      'TRIAL_BALANCE_BALANCED',
      worked.proof.balanced,
      worked.proof.balanced
        ? `debits ${pounds(worked.proof.totalDebit)} = credits ${pounds(worked.proof.totalCredit)}${worked.proof.roundingInjected ? ` after ${pounds(worked.proof.roundingAmount)} rounding` : ''}`
        : `debits ${pounds(worked.proof.totalDebit)}, credits ${pounds(worked.proof.totalCredit)}: out by ${pounds(worked.proof.delta)}`,
    );
    const unmapped = worked.mappings.filter((m) => m.target === null).length;
    gate(
      'ACCOUNTS_MAPPED',
      unmapped === 0 && worked.file.errors.length === 0,
      unmapped === 0 && worked.file.errors.length === 0
        ? 'every row has an account'
        : `${unmapped} row(s) have no account and ${worked.file.errors.length} cannot be read`,
    );
    const accounts = await db.selectFrom('accounts').select(['id', 'code']).where('code', 'in', ['1198', '2198']).execute();
    const idOf = (code: string) => accounts.find((a) => a.code === code)?.id;
    receivablesOpening = (await ledgerNet(db, '1198')) + worked.entries.filter((e) => e.accountId === idOf('1198')).reduce((s, e) => s + e.amount, 0);
    payablesOpening = (await ledgerNet(db, '2198')) + worked.entries.filter((e) => e.accountId === idOf('2198')).reduce((s, e) => s + e.amount, 0);
  } else {
    gate('BALANCES_ATTACHED', false, `opening balance ${balances.id} is ${balances.status}`);
  }
  const contacts = imports.contacts;
  if (contacts) {
    const conflicts = contacts.status === 'processing';
    gate('CONTACT_CONFLICTS_RESOLVED', !conflicts, conflicts ? `contact import ${contacts.id} has identity conflicts to resolve` : 'no contact conflicts wait');
  }
  const deferred = deferredOf(row);
  for (const [slot, clearingAt, code, opening] of [
    ['invoices', '1198', 'RECEIVABLES_CLEARED', receivablesOpening],
    ['bills', '2198', 'PAYABLES_CLEARED', payablesOpening],
  ] as const) {
    const documents = imports[slot];
    if (!documents) {
      const held = deferred?.[slot];
      if (held === undefined) {
        gate(
          code,
          opening === 0,
          opening === 0 ? `${clearingAt} stands at 0.00` : `${clearingAt} would stand at ${pounds(opening)} with no ${slot} import to clear it`,
        );
        continue;
      }
      // A file held until the opening balance is in: read now, so the gates see what it will clear.
      let file: ReturnType<typeof readDocuments>;
      try {
        file = readDocuments(held, slot === 'invoices' ? 'receivables' : 'payables');
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        gate(`${slot.toUpperCase()}_READABLE`, false, `the ${slot} file cannot be read: ${e.message}`);
        continue;
      }
      gate(
        `${slot.toUpperCase()}_READABLE`,
        file.errors.length === 0,
        file.errors.length === 0 ? `every ${slot} row can be read` : `${file.errors.length} ${slot} row(s) cannot be read`,
      );
      const after = slot === 'invoices' ? opening - file.stats.totalOutstanding : opening + file.stats.totalOutstanding;
      gate(
        code,
        after === 0,
        `${clearingAt} stands at ${pounds(opening)}; the ${slot} outstanding (${pounds(file.stats.totalOutstanding)}) leave ${pounds(after)}`,
      );
      continue;
    }
    if (documents.status === 'completed') {
      const left = await ledgerNet(db, clearingAt);
      gate(code, left === 0, `${clearingAt} stands at ${pounds(left)}`);
      continue;
    }
    const preview = await documentPreview(db, documents);
    const readable = preview.errors.length === 0;
    const duplicates = preview.rows.filter((r) => r.status !== 'ready').length;
    gate(
      'NO_DUPLICATE_DOCUMENTS',
      duplicates === 0,
      duplicates === 0 ? `no ${slot} already in the books` : `${duplicates} of the ${slot} are already in the books or after the cutover`,
    );
    gate(`${slot.toUpperCase()}_READABLE`, readable, readable ? `every ${slot} row can be read` : `${preview.errors.length} ${slot} row(s) cannot be read`);
    const outstanding = Math.round(Number(preview.stats.totalOutstanding) * 100);
    const after = slot === 'invoices' ? opening - outstanding : opening + outstanding;
    gate(code, after === 0, `${clearingAt} stands at ${pounds(opening)}; the ${slot} outstanding (${preview.stats.totalOutstanding}) leave ${pounds(after)}`);
  }
  return gates;
}

async function ledgerNet(db: Kysely<OrgDb>, code: string): Promise<number> {
  const sum = await db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .select((eb) => eb.fn.sum<number>('lines.amount').as('net'))
    .where('accounts.code', '=', code)
    .where('lines.posted', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(sum.net ?? 0);
}

async function statusOf(db: Kysely<OrgDb>, row: MigrationsTable, gates?: readonly Gate[]): Promise<MigrationStatus> {
  if (row.state !== 'open') return row.state;
  const present = slots.filter((s) => row[slotColumn(s)] !== null);
  if (present.length === 0) return 'setup';
  if (!providerConfigs[row.provider].requiredImports.every((s) => present.includes(s))) return 'files_attached';
  return (gates ?? (await gatesOf(db, row))).every((g) => g.passed) ? 'ready_to_execute' : 'preview_ready';
}

export async function migrationView(db: Kysely<OrgDb>, row: MigrationsTable, gates?: readonly Gate[]): Promise<MigrationView> {
  const deferred = deferredOf(row);
  return {
    id: row.id,
    provider: row.provider,
    providerLabel: providerConfigs[row.provider].label,
    status: await statusOf(db, row, gates),
    cutoverDate: row.cutover_date,
    contactsImportId: row.contacts_import_id,
    balancesImportId: row.balances_import_id,
    invoicesImportId: row.invoices_import_id,
    billsImportId: row.bills_import_id,
    deferred: (['invoices', 'bills'] as const).filter((s) => deferred?.[s] !== undefined),
    warnings: JSON.parse(row.warnings_json) as string[],
    createdAt: row.created_at,
    completedAt: row.completed_at,
    abandonedAt: row.abandoned_at,
    reconciliation: row.reconciliation_json ? (JSON.parse(row.reconciliation_json) as Reconciliation) : null,
  };
}

export async function migrationDetail(db: Kysely<OrgDb>, row: MigrationsTable): Promise<MigrationDetail> {
  const gates = row.state === 'open' ? await gatesOf(db, row) : [];
  const imports = await attached(db, row);
  const summary = (slot: DataImportKind) => {
    const r = imports[slot];
    if (!r) return null;
    const v = importRecordView(r);
    return { importId: v.id, status: v.status, totalRows: v.totalRows, createdCount: v.createdCount, skippedCount: v.skippedCount };
  };
  return {
    ...(await migrationView(db, row, gates)),
    imports: { contacts: summary('contacts'), balances: summary('balances'), invoices: summary('invoices'), bills: summary('bills') },
    providerConfig: providerConfigs[row.provider],
    gates,
  };
}

function refuseCash(organisation: Awaited<ReturnType<typeof loadOrganisation>>): void {
  if (organisation.vat_accounting_basis === 'cash' && organisation.vat_scheme !== 'not_registered') {
    throw new AppError(
      'CASH_VAT_UNSUPPORTED',
      'the organisation accounts for VAT on the cash basis, which migrations do not support: outstanding documents would carry VAT not yet accounted for',
    );
  }
}

/** Start a migration: 409 MIGRATION_SINGLETON_VIOLATION while another is open, 422 on the cash VAT basis. */
export async function createMigration(
  trx: Kysely<OrgDb>,
  posting: Posting,
  input: { readonly provider: MigrationProvider; readonly cutoverDate: string },
): Promise<MigrationsTable> {
  const problem = cutoverError(input.cutoverDate);
  if (problem) throw new AppError('validation_error', `cutoverDate: ${problem}`, 'cutoverDate');
  refuseCash(await loadOrganisation(trx));
  const open = await openMigration(trx);
  if (open) {
    throw new AppError(
      'MIGRATION_SINGLETON_VIOLATION',
      `migration ${open.id} is still open: execute or abandon it (DELETE /migrations/${open.id}) before starting another`,
    );
  }
  const now = timestamp(posting.clock);
  const row: MigrationsTable = {
    id: newId('mig', posting.clock.now()),
    provider: input.provider,
    state: 'open',
    cutover_date: input.cutoverDate,
    contacts_import_id: null,
    balances_import_id: null,
    invoices_import_id: null,
    bills_import_id: null,
    deferred_json: null,
    reconciliation_json: null,
    warnings_json: '[]',
    created_by: posting.actor.id,
    created_at: now,
    updated_at: now,
    completed_at: null,
    abandoned_at: null,
  };
  await trx.insertInto('migrations').values(row).execute();
  return row;
}

function refuseTerminal(row: MigrationsTable, what: string): void {
  if (row.state !== 'open') throw new AppError('INVALID_TRANSITION', `migration ${row.id} is ${row.state} and cannot be ${what}`);
}

export type Attachments = Partial<Record<`${DataImportKind}ImportId`, string | null>>;

/** Attach imports to the slots (null detaches); each must be of its slot's kind, not voided, and in no other migration. */
export async function attachImports(trx: Kysely<OrgDb>, posting: Posting, id: string, attachments: Attachments): Promise<MigrationsTable> {
  const row = await findMigration(trx, id);
  refuseTerminal(row, 'changed');
  const changes: Partial<MigrationsTable> = {};
  for (const slot of slots) {
    const field = `${slot}ImportId` as const;
    const value = attachments[field];
    if (value === undefined) continue;
    if (value !== null) {
      const imported = await trx.selectFrom('data_imports').select(['id', 'kind', 'status']).where('id', '=', value).executeTakeFirst();
      if (!imported) throw new AppError('validation_error', `${field}: no import ${value}`, field);
      if (imported.kind !== slot) throw new AppError('validation_error', `${field}: ${value} is a ${imported.kind} import, not ${slot}`, field);
      if (imported.status === 'voided') throw new AppError('validation_error', `${field}: ${value} is voided`, field);
      const elsewhere = await trx.selectFrom('migrations').select('id').where(slotColumn(slot), '=', value).where('id', '!=', id).executeTakeFirst();
      if (elsewhere) throw new AppError('conflict', `${field}: ${value} belongs to migration ${elsewhere.id}`, field);
    }
    changes[slotColumn(slot)] = value;
  }
  changes.updated_at = timestamp(posting.clock);
  await trx.updateTable('migrations').set(changes).where('id', '=', id).execute();
  return { ...row, ...changes };
}

/** Abandon an open migration: its imports stay as they are. */
export async function abandonMigration(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<{ abandoned: true; migrationId: string; message: string }> {
  const row = await findMigration(trx, id);
  refuseTerminal(row, 'abandoned');
  const now = timestamp(posting.clock);
  await trx.updateTable('migrations').set({ state: 'abandoned', abandoned_at: now, updated_at: now }).where('id', '=', id).execute();
  return {
    abandoned: true,
    migrationId: id,
    message: `migration ${id} is abandoned; its imports stay (delete pending ones, void confirmed ones, if they are not wanted)`,
  };
}

/** Files of a provider's export: the trial balance now, invoices and bills held until the opening balance is confirmed. */
export async function holdDeferred(trx: Kysely<OrgDb>, id: string, deferred: Deferred): Promise<void> {
  await trx
    .updateTable('migrations')
    .set({ deferred_json: JSON.stringify(deferred) })
    .where('id', '=', id)
    .execute();
}

/** Turn the held invoice and bill files into imports attached to the migration; 422 until the opening balance is confirmed. */
export async function uploadDeferred(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<MigrationsTable> {
  const row = await findMigration(trx, id);
  refuseTerminal(row, 'changed');
  const deferred = deferredOf(row);
  if (!deferred || (deferred.invoices === undefined && deferred.bills === undefined)) {
    throw new AppError('unprocessable_entity', `migration ${id} holds no invoice or bill files: upload them with POST /migrations/${id}/upload-provider`);
  }
  const changes: Attachments = {};
  if (deferred.invoices !== undefined) {
    changes.invoicesImportId = (
      await uploadDocuments(trx, posting, 'receivables', { file: deferred.invoices, filename: 'invoices.csv', source: deferred.source })
    ).id;
  }
  if (deferred.bills !== undefined) {
    changes.billsImportId = (await uploadDocuments(trx, posting, 'payables', { file: deferred.bills, filename: 'bills.csv', source: deferred.source })).id;
  }
  await holdDeferred(trx, id, { source: deferred.source });
  return attachImports(trx, posting, id, changes);
}

/**
 * Execute: confirm what is attached and pending (contacts, the opening
 * balance, then invoices and bills, turning held files into imports once
 * the opening balance is in), check the books against the source trial
 * balance, and keep the proof. On a completed migration it returns the
 * stored proof; a gate that fails is 422 with the gates named, and the
 * caller's transaction leaves nothing behind.
 */
export async function executeMigration(
  trx: Kysely<OrgDb>,
  posting: Posting,
  id: string,
  progress?: (done: number, total: number) => void,
): Promise<{ migrationId: string; status: MigrationStatus; reconciliation: Reconciliation }> {
  let row = await findMigration(trx, id);
  if (row.state === 'completed' && row.reconciliation_json) {
    return { migrationId: id, status: 'completed', reconciliation: JSON.parse(row.reconciliation_json) as Reconciliation };
  }
  refuseTerminal(row, 'executed');
  refuseGates(id, await gatesOf(trx, row));
  const imports = await attached(trx, row);
  if (imports.contacts?.status === 'pending') await confirmContacts(trx, posting, imports.contacts.id);
  if (imports.balances?.status === 'pending') await confirmBalances(trx, posting, imports.balances.id);
  if (deferredOf(row)?.invoices !== undefined || deferredOf(row)?.bills !== undefined) row = await uploadDeferred(trx, posting, id);
  const documents = await attached(trx, row);
  if (documents.invoices?.status === 'pending') await confirmDocuments(trx, posting, 'receivables', documents.invoices.id, progress);
  if (documents.bills?.status === 'pending') await confirmDocuments(trx, posting, 'payables', documents.bills.id, progress);
  refuseGates(id, await gatesOf(trx, row));
  const reconciliation = await reconcile(trx, row);
  if (!reconciliation.matchesSource) {
    const off = reconciliation.accounts.filter((a) => a.difference !== '0.00');
    throw new AppError(
      'migration_gate_failed',
      `the books at ${row.cutover_date} differ from the source trial balance: ${off.map((a) => `${a.code} ${a.name} expected ${a.expected}, found ${a.actual}`).join('; ')}`,
    );
  }
  const now = timestamp(posting.clock);
  await trx
    .updateTable('migrations')
    .set({ state: 'completed', completed_at: now, updated_at: now, reconciliation_json: JSON.stringify(reconciliation) })
    .where('id', '=', id)
    .execute();
  return { migrationId: id, status: 'completed', reconciliation };
}

function refuseGates(id: string, gates: readonly Gate[]): void {
  const failed = gates.filter((g) => !g.passed);
  if (failed.length > 0)
    throw new AppError('migration_gate_failed', `migration ${id} cannot execute: ${failed.map((g) => `${g.code}: ${g.message}`).join('; ')}`);
}

/** The source trial balance as it should stand in the books: its rows mapped without clearing, pence debit − credit by account code. */
export async function expectedBalances(
  db: Kysely<OrgDb>,
  text: string,
  manual: Readonly<Record<string, string>>,
): Promise<{ byCode: Map<string, number>; debit: number; credit: number }> {
  const file = readTrialBalance(text);
  const rows = await db.selectFrom('accounts').select(['id', 'code', 'name', 'account_type', 'is_active']).execute();
  const chart: ChartAccount[] = rows.map((a) => ({ id: a.id, code: a.code, name: a.name, accountType: a.account_type, isActive: a.is_active === 1 }));
  const mappings = mapAccounts(file.rows, chart, { mode: 'direct', manual: new Map(Object.entries(manual)) });
  const byCode = new Map<string, number>();
  let debit = 0;
  let credit = 0;
  file.rows.forEach((r, i) => {
    debit += r.debit;
    credit += r.credit;
    const code = mappings[i]?.target?.code ?? `unmapped: ${r.sourceLabel}`;
    byCode.set(code, (byCode.get(code) ?? 0) + r.debit - r.credit);
  });
  // The rounding line a confirmed opening balance carries is part of what the books should hold.
  if (debit !== credit && Math.abs(debit - credit) <= 5) byCode.set(roundingAccount.code, (byCode.get(roundingAccount.code) ?? 0) + credit - debit);
  return { byCode, debit, credit };
}

/** The books at the cutover against the source trial balance, account by account. */
export async function reconcile(db: Kysely<OrgDb>, row: MigrationsTable): Promise<Reconciliation> {
  const balances = row.balances_import_id ? await findImport(db, 'balances', row.balances_import_id) : await activeOpeningBalance(db);
  if (!balances) throw new AppError('unprocessable_entity', `migration ${row.id} has no opening balance to reconcile against`);
  const expected = await expectedBalances(db, balances.file_text, optionsOf<BalanceOptions>(balances).manual);
  const tb = await trialBalance(db, row.cutover_date);
  const actual = new Map(tb.accounts.map((a) => [a.code, { name: a.name, net: a.debit - a.credit }]));
  const names = new Map((await db.selectFrom('accounts').select(['code', 'name']).execute()).map((a) => [a.code, a.name]));
  const codes = [...new Set([...expected.byCode.keys(), ...actual.keys()])].sort();
  const accounts = codes
    .map((code) => {
      const e = expected.byCode.get(code) ?? 0;
      const a = actual.get(code)?.net ?? 0;
      return { code, name: actual.get(code)?.name ?? names.get(code) ?? code, expected: pounds(e), actual: pounds(a), difference: pounds(a - e), e, a };
    })
    .filter((x) => x.e !== 0 || x.a !== 0)
    .map(({ e: _e, a: _a, ...rest }) => rest);
  return {
    cutoverDate: row.cutover_date,
    totalDebits: pounds(tb.totals.debit),
    totalCredits: pounds(tb.totals.credit),
    net: pounds(tb.totals.debit - tb.totals.credit),
    receivablesClearing: pounds(await ledgerNet(db, '1198')),
    payablesClearing: pounds(await ledgerNet(db, '2198')),
    sourceTotalDebit: pounds(expected.debit),
    sourceTotalCredit: pounds(expected.credit),
    matchesSource: accounts.every((a) => a.difference === '0.00'),
    accounts,
  };
}

/** Past migrations (completed and abandoned), newest first. */
export async function migrationHistory(db: Kysely<OrgDb>): Promise<MigrationView[]> {
  const rows = await db.selectFrom('migrations').selectAll().where('state', '!=', 'open').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return Promise.all(rows.map((r) => migrationView(db, r)));
}

export async function activeMigration(db: Kysely<OrgDb>): Promise<{ id: string; provider: MigrationProvider; status: MigrationStatus } | null> {
  const row = await openMigration(db);
  return row ? { id: row.id, provider: row.provider, status: await statusOf(db, row) } : null;
}
