/**
 * A whole migration in one call, as `acct migrate` runs it: start the
 * migration, upload the files given (contacts, the trial balance in
 * clearing mode when there are documents to clear, the invoice and bill
 * files held until the opening balance is in), check the gates, execute,
 * and compare the books with an expected trial balance if one is given.
 * Everything happens in the caller's one write; the caller rolls it back
 * for a dry run or when anything failed, so the report is the same either
 * way and nothing is left behind unless all of it passed.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { day, idOut } from '../output.js';
import type { Posting } from '../ledger/posting.js';
import { trialBalance } from '../reports/statements.js';
import { contactImportView, resolveContacts, uploadContacts } from './contact-imports.js';
import { uploadBalances, workBalance } from './opening-balances.js';
import { pounds, poundsText } from './import-records.js';
import {
  attachImports,
  createMigration,
  executeMigration,
  expectedBalances,
  findMigration,
  gatesOf,
  holdDeferred,
  providers,
  reconciliationSchema,
  type Attachments,
  type Gate,
  type Reconciliation,
} from './migrations.js';
import type { MigrationProvider, OrgDb } from '../../store/tables.js';

export interface MigrationFiles {
  readonly provider: MigrationProvider;
  readonly cutoverDate: string;
  readonly contacts?: string | undefined;
  readonly trialBalance: string;
  readonly invoices?: string | undefined;
  readonly bills?: string | undefined;
  /** Trial balance labels mapped by hand to account codes. */
  readonly mappings?: Readonly<Record<string, string>> | undefined;
  /** A trial balance the books must equal at the cutover, to the penny. */
  readonly expectedTrialBalance?: string | undefined;
  /** How to settle every contact identity conflict: keep the pair apart (split) or merge them (link); left alone, conflicts block the migration. */
  readonly conflicts?: 'split' | 'link' | undefined;
}

const differenceSchema = z.strictObject({ code: z.string(), name: z.string(), expected: poundsText(), actual: poundsText() });

export const migrationRunSchema = z.strictObject({
  migrationId: idOut('mig'),
  provider: z.enum(providers),
  cutoverDate: day(),
  dryRun: z.boolean(),
  committed: z.boolean(),
  passed: z.boolean().describe('every gate passed, the migration executed and any expected trial balance matched'),
  failure: z.string().nullable(),
  gates: z.array(z.strictObject({ code: z.string(), message: z.string(), passed: z.boolean() })),
  contacts: z
    .strictObject({ totalRows: z.number().int(), created: z.number().int(), merged: z.number().int(), skipped: z.number().int(), rejected: z.number().int() })
    .nullable(),
  contactConflicts: z
    .array(z.strictObject({ names: z.array(z.string()), confidence: z.number().int(), reason: z.string(), settled: z.enum(['split', 'link']).nullable() }))
    .describe('pairs of contacts alike enough to be one, and how they were settled'),
  balances: z.strictObject({
    totalRows: z.number().int(),
    lines: z.number().int(),
    ignoredRows: z.number().int(),
    errorRows: z.number().int(),
    unmapped: z.array(z.string()),
    mappings: z.array(
      z.strictObject({ sourceLabel: z.string(), code: z.string().nullable(), name: z.string().nullable(), method: z.string(), confidence: z.number().int() }),
    ),
    totalDebit: poundsText(),
    totalCredit: poundsText(),
  }),
  documents: z.array(
    z.strictObject({
      direction: z.enum(['receivables', 'payables']),
      created: z.number().int(),
      syntheticPayments: z.number().int(),
      contactsCreated: z.number().int(),
    }),
  ),
  reconciliation: reconciliationSchema.nullable(),
  expectedTrialBalance: z.strictObject({ matches: z.boolean(), differences: z.array(differenceSchema) }).nullable(),
});
export type MigrationRun = z.output<typeof migrationRunSchema>;

/** Run the migration inside the caller's write; the report says whether everything passed (the caller commits only then). */
export async function runMigration(
  trx: Kysely<OrgDb>,
  posting: Posting,
  files: MigrationFiles,
  options: { readonly dryRun: boolean; readonly progress?: ((done: number, total: number) => void) | undefined },
): Promise<MigrationRun> {
  const migration = await createMigration(trx, posting, { provider: files.provider, cutoverDate: files.cutoverDate });
  const attachments: Attachments = {};
  let contacts = files.contacts === undefined ? undefined : await uploadContacts(trx, posting, { file: files.contacts, filename: 'contacts.csv' });
  const contactConflicts: MigrationRun['contactConflicts'] = [];
  if (contacts?.status === 'processing') {
    const view = await contactImportView(trx, contacts);
    const names = new Map(view.preview.nodes.map((n) => [n.id, n.name]));
    const similar = view.preview.evidence.filter((e) => e.type === 'SIMILAR' && e.nodeIds.length === 2);
    for (const e of similar)
      contactConflicts.push({ names: e.nodeIds.map((n) => names.get(n) ?? n), confidence: e.confidence, reason: e.reason, settled: files.conflicts ?? null });
    if (files.conflicts && similar.length > 0) {
      const how = files.conflicts;
      contacts = await resolveContacts(
        trx,
        contacts.id,
        similar.map((e) =>
          how === 'split' ? { split: [e.nodeIds[0] as string, e.nodeIds[1] as string] } : { link: [e.nodeIds[0] as string, e.nodeIds[1] as string] },
        ),
      );
    }
  }
  if (contacts) attachments.contactsImportId = contacts.id;
  const mappings = await mappingsByCode(trx, files.mappings ?? {});
  const clearing = files.invoices !== undefined || files.bills !== undefined;
  const balances = await uploadBalances(trx, posting, {
    file: files.trialBalance,
    filename: 'trial-balance.csv',
    clearingMode: clearing ? 'clearing' : 'direct',
    cutoverDate: files.cutoverDate,
    mappings,
  });
  attachments.balancesImportId = balances.id;
  await attachImports(trx, posting, migration.id, attachments);
  const source = { freeagent: 'FreeAgent', xero: 'Xero', quickbooks: 'QuickBooks', other: 'the previous software' }[files.provider];
  if (clearing) {
    await holdDeferred(trx, migration.id, {
      source,
      ...(files.invoices === undefined ? {} : { invoices: files.invoices }),
      ...(files.bills === undefined ? {} : { bills: files.bills }),
    });
  }
  const worked = await workBalance(trx, balances);
  const report: MigrationRun = {
    migrationId: migration.id,
    provider: files.provider,
    cutoverDate: files.cutoverDate,
    dryRun: options.dryRun,
    committed: false,
    passed: false,
    failure: null,
    gates: [],
    contacts: null,
    contactConflicts,
    balances: {
      totalRows: worked.file.stats.totalRows,
      lines: worked.entries.length,
      ignoredRows: worked.file.stats.ignoredRows,
      errorRows: worked.file.stats.errorRows,
      unmapped: worked.mappings.filter((m) => m.target === null).map((m) => m.sourceLabel),
      mappings: worked.mappings.map((m) => ({
        sourceLabel: m.sourceLabel,
        code: m.target?.code ?? null,
        name: m.target?.name ?? null,
        method: m.method,
        confidence: m.confidence,
      })),
      totalDebit: pounds(worked.proof.totalDebit),
      totalCredit: pounds(worked.proof.totalCredit),
    },
    documents: [],
    reconciliation: null,
    expectedTrialBalance: null,
  };
  const gates: Gate[] = await gatesOf(trx, await findMigration(trx, migration.id));
  report.gates = gates;
  if (gates.some((g) => !g.passed)) {
    report.failure = `gates failed: ${gates
      .filter((g) => !g.passed)
      .map((g) => `${g.code} (${g.message})`)
      .join('; ')}`;
    return report;
  }
  let reconciliation: Reconciliation;
  try {
    reconciliation = (await executeMigration(trx, posting, migration.id, options.progress)).reconciliation;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    report.failure = e.message;
    return report;
  }
  report.reconciliation = reconciliation;
  report.contacts = contacts ? await contactCounts(trx, contacts.id) : null;
  report.documents = await documentCounts(trx, migration.id);
  if (files.expectedTrialBalance !== undefined) {
    report.expectedTrialBalance = await compareExpected(trx, files.cutoverDate, files.expectedTrialBalance, mappings);
    if (!report.expectedTrialBalance.matches) {
      // The API answers a refused run with its error alone: the message names the accounts (the first ten).
      const off = report.expectedTrialBalance.differences;
      const named = off.slice(0, 10).map((d) => `${d.code} ${d.name} expected ${d.expected}, found ${d.actual}`);
      report.failure = `the trial balance at ${files.cutoverDate} differs from the expected one in ${off.length} account(s): ${named.join('; ')}${off.length > 10 ? '; …' : ''}`;
      return report;
    }
  }
  report.passed = true;
  return report;
}

/** Hand mappings by account code (as the CLI takes them) → by account id; 400 naming the code not in the chart. */
async function mappingsByCode(trx: Kysely<OrgDb>, byCode: Readonly<Record<string, string>>): Promise<{ sourceLabel: string; targetAccountId: string }[]> {
  const out: { sourceLabel: string; targetAccountId: string }[] = [];
  for (const [sourceLabel, code] of Object.entries(byCode)) {
    const account = await trx.selectFrom('accounts').select('id').where('code', '=', code).where('is_active', '=', 1).executeTakeFirst();
    if (!account) throw new AppError('validation_error', `mappings: no active account ${code} for ${JSON.stringify(sourceLabel)}`, 'mappings');
    out.push({ sourceLabel, targetAccountId: account.id });
  }
  return out;
}

async function contactCounts(trx: Kysely<OrgDb>, id: string): Promise<MigrationRun['contacts']> {
  const row = await trx.selectFrom('data_imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rejected = row.error_count;
  return { totalRows: row.total_rows, created: row.created_count, merged: row.merged_count, skipped: row.skipped_count, rejected };
}

async function documentCounts(trx: Kysely<OrgDb>, migrationId: string): Promise<MigrationRun['documents']> {
  const row = await findMigration(trx, migrationId);
  const out: MigrationRun['documents'] = [];
  for (const [direction, id] of [
    ['receivables', row.invoices_import_id],
    ['payables', row.bills_import_id],
  ] as const) {
    if (!id) continue;
    const done = await trx.selectFrom('data_imports').select('result_json').where('id', '=', id).executeTakeFirstOrThrow();
    const result = JSON.parse(done.result_json ?? '{}') as { documentsCreated?: number; syntheticPaymentsCreated?: number; contactsCreated?: number };
    out.push({
      direction,
      created: result.documentsCreated ?? 0,
      syntheticPayments: result.syntheticPaymentsCreated ?? 0,
      contactsCreated: result.contactsCreated ?? 0,
    });
  }
  return out;
}

/** The books' trial balance at the cutover against an expected one (any trial balance export), account by account. */
async function compareExpected(
  trx: Kysely<OrgDb>,
  cutoverDate: string,
  text: string,
  mappings: readonly { sourceLabel: string; targetAccountId: string }[],
): Promise<NonNullable<MigrationRun['expectedTrialBalance']>> {
  const expected = await expectedBalances(trx, text, Object.fromEntries(mappings.map((m) => [m.sourceLabel, m.targetAccountId])));
  const tb = await trialBalance(trx, cutoverDate);
  const actual = new Map(tb.accounts.map((a) => [a.code, { name: a.name, net: a.debit - a.credit }]));
  const codes = [...new Set([...expected.byCode.keys(), ...actual.keys()])].sort();
  const differences = codes
    .filter((code) => (expected.byCode.get(code) ?? 0) !== (actual.get(code)?.net ?? 0))
    .map((code) => ({
      code,
      name: actual.get(code)?.name ?? code,
      expected: pounds(expected.byCode.get(code) ?? 0),
      actual: pounds(actual.get(code)?.net ?? 0),
    }));
  return { matches: differences.length === 0, differences };
}
