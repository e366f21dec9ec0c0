/** The operations of migrations (migrations.ts, migration-run.ts). */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf, isoDate, uploadedText } from '../schema.js';
import { idOut } from '../output.js';
import { AppError } from '../errors.js';
import { undone } from '../undone.js';
import { postingOf } from '../ledger/posting.js';
import { maxImportFileBytes } from './import-records.js';
import { uploadContacts } from './contact-imports.js';
import { uploadBalances } from './opening-balances.js';
import {
  abandonMigration,
  activeMigration,
  attachImports,
  createMigration,
  executeMigration,
  findMigration,
  gatesOf,
  holdDeferred,
  migrationDetail,
  migrationDetailSchema,
  migrationHistory,
  migrationSchema,
  migrationStatuses,
  providers,
  reconciliationSchema,
  uploadDeferred,
} from './migrations.js';
import { migrationRunSchema, runMigration, type MigrationRun } from './migration-run.js';

const params = { id: idOf('mig') };
const cli = (action: string) => ({ group: 'migrations', action });
const importId = () => idOf('dimp').nullable().optional();

export const createMigrationOp = defineOperation({
  name: 'migrations.create',
  summary: 'Start a migration from other software (status setup); one may be open at a time',
  description: '409 MIGRATION_SINGLETON_VIOLATION while another is open; 422 CASH_VAT_UNSUPPORTED on the cash VAT basis. cutoverDate is a month end.',
  access: 'transactions:write',
  method: 'POST',
  path: '/migrations',
  status: 201,
  cli: cli('create'),
  body: { provider: z.enum(providers), cutoverDate: isoDate() },
  output: migrationDetailSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const row = await books.write((trx) => createMigration(trx, postingOf(ctx), input));
    return { data: await migrationDetail(books.db, row) };
  },
});

export const activeMigrationOp = defineOperation({
  name: 'migrations.active',
  summary: 'The open migration (id, provider, status), or null',
  access: 'transactions:read',
  method: 'GET',
  path: '/migrations/active',
  cli: cli('active'),
  output: z.strictObject({ id: idOut('mig'), provider: z.enum(providers), status: z.enum(migrationStatuses) }).nullable(),
  async run(ctx) {
    return { data: await activeMigration(orgOf(ctx).db) };
  },
});

export const migrationHistoryOp = defineOperation({
  name: 'migrations.history',
  summary: 'Past migrations, completed and abandoned, newest first',
  access: 'transactions:read',
  method: 'GET',
  path: '/migrations/history',
  cli: cli('history'),
  output: z.array(migrationSchema),
  async run(ctx) {
    return { data: await migrationHistory(orgOf(ctx).db) };
  },
});

export const getMigrationOp = defineOperation({
  name: 'migrations.get',
  summary: 'Show a migration: its status (worked out from its imports), the imports in each slot, the gates and the reconciliation proof',
  access: 'transactions:read',
  method: 'GET',
  path: '/migrations/{id}',
  params,
  cli: cli('get'),
  output: migrationDetailSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    return { data: await migrationDetail(db, await findMigration(db, input.id)) };
  },
});

export const abandonMigrationOp = defineOperation({
  name: 'migrations.abandon',
  summary: 'Abandon an open migration (its imports stay); 422 INVALID_TRANSITION once completed or abandoned',
  access: 'transactions:write',
  method: 'DELETE',
  path: '/migrations/{id}',
  params,
  cli: cli('abandon'),
  output: z.strictObject({ abandoned: z.literal(true), migrationId: idOut('mig'), message: z.string() }),
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => abandonMigration(trx, postingOf(ctx), input.id)) };
  },
});

export const attachMigrationOp = defineOperation({
  name: 'migrations.upload',
  summary: 'Attach imports to the migration’s four slots by id (null detaches)',
  description: 'Each import must be of its slot’s kind (contact, opening balance, invoice, bill imports), not voided, and in no other migration.',
  access: 'transactions:write',
  method: 'POST',
  path: '/migrations/{id}/upload',
  params,
  cli: cli('attach'),
  body: { contactsImportId: importId(), balancesImportId: importId(), invoicesImportId: importId(), billsImportId: importId() },
  output: migrationDetailSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const { id, ...attachments } = input;
    const row = await books.write((trx) => attachImports(trx, postingOf(ctx), id, attachments));
    return { data: await migrationDetail(books.db, row) };
  },
});

export const uploadProviderOp = defineOperation({
  name: 'migrations.upload-provider',
  summary: 'Upload a provider’s export (the trial balance, and contacts, outstanding invoices and bills) in one request',
  description:
    'Each file is CSV text: trialBalance (required), contacts, invoices, bills. The contacts and the trial balance become imports at once (the trial balance in clearing mode when invoices or bills come with it); invoices and bills wait until the opening balance is confirmed, then POST /upload-deferred (or execute) turns them into imports. 422 INVALID_TRANSITION on a completed or abandoned migration.',
  access: 'transactions:write',
  method: 'POST',
  path: '/migrations/{id}/upload-provider',
  params,
  upload: { field: 'trialBalance', filename: 'filename', maxBytes: maxImportFileBytes },
  cli: cli('upload-provider'),
  body: {
    trialBalance: uploadedText(),
    contacts: uploadedText().optional(),
    invoices: uploadedText().optional(),
    bills: uploadedText().optional(),
    filename: z.string().max(255).optional(),
  },
  output: migrationDetailSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const posting = postingOf(ctx);
    const row = await books.write(async (trx) => {
      const migration = await findMigration(trx, input.id);
      if (migration.state !== 'open') throw new AppError('INVALID_TRANSITION', `migration ${input.id} is ${migration.state} and takes no more files`);
      const label = { freeagent: 'FreeAgent', xero: 'Xero', quickbooks: 'QuickBooks', other: 'the previous software' }[migration.provider];
      const clearing = input.invoices !== undefined || input.bills !== undefined;
      const balances = await uploadBalances(trx, posting, {
        file: input.trialBalance,
        filename: input.filename ?? 'trial-balance.csv',
        clearingMode: clearing ? 'clearing' : 'direct',
        cutoverDate: migration.cutover_date,
      });
      const contacts = input.contacts === undefined ? undefined : await uploadContacts(trx, posting, { file: input.contacts, filename: 'contacts.csv' });
      await holdDeferred(trx, input.id, {
        source: label,
        ...(input.invoices === undefined ? {} : { invoices: input.invoices }),
        ...(input.bills === undefined ? {} : { bills: input.bills }),
      });
      return attachImports(trx, posting, input.id, { balancesImportId: balances.id, ...(contacts ? { contactsImportId: contacts.id } : {}) });
    });
    return { data: await migrationDetail(books.db, row) };
  },
});

export const uploadDeferredOp = defineOperation({
  name: 'migrations.upload-deferred',
  summary: 'Turn the invoice and bill files held by a provider upload into imports, once the opening balance is confirmed',
  access: 'transactions:write',
  method: 'POST',
  path: '/migrations/{id}/upload-deferred',
  params,
  cli: cli('upload-deferred'),
  output: migrationDetailSchema,
  async run(ctx, input) {
    const books = orgOf(ctx);
    const row = await books.write((trx) => uploadDeferred(trx, postingOf(ctx), input.id));
    return { data: await migrationDetail(books.db, row) };
  },
});

export const validateMigrationOp = defineOperation({
  name: 'migrations.validate',
  summary: 'Check the gates: a balanced, fully mapped trial balance at the cutover, 1198 and 2198 cleared, no duplicate documents, no contact conflicts',
  access: 'transactions:read',
  method: 'POST',
  path: '/migrations/{id}/validate',
  params,
  cli: cli('validate'),
  output: z.strictObject({ ready: z.boolean(), gates: z.array(z.strictObject({ code: z.string(), message: z.string(), passed: z.boolean() })) }),
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const gates = await gatesOf(db, await findMigration(db, input.id));
    return { data: { ready: gates.every((g) => g.passed), gates } };
  },
});

export const executeMigrationOp = defineOperation({
  name: 'migrations.execute',
  summary: 'Execute: confirm every attached import in one transaction and keep the reconciliation proof; again on a completed migration, the stored proof',
  description:
    '422 migration_gate_failed, with the gates named, when any fails (nothing is written; the migration stays ready to execute); 422 INVALID_TRANSITION on an abandoned one.',
  access: 'transactions:write',
  method: 'POST',
  path: '/migrations/{id}/execute',
  params,
  cli: cli('execute'),
  output: z.strictObject({ migrationId: idOut('mig'), status: z.enum(migrationStatuses), reconciliation: reconciliationSchema }),
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => executeMigration(trx, postingOf(ctx), input.id, ctx.progress)) };
  },
});

/** A migration refused and rolled back: the 422 the API answers, carrying the report so that the CLI can print the proof of what failed. */
export class MigrationNotWritten extends AppError {
  constructor(readonly report: MigrationRun) {
    super('migration_gate_failed', `the migration was not written: ${report.failure ?? 'it did not pass'}`);
  }
}

export const runMigrationOp = defineOperation({
  name: 'migrations.run',
  summary: 'Run a whole migration from files in one call: contacts, trial balance, outstanding invoices and bills; dryRun reports without writing',
  description:
    'Commits only when every gate passes, the migration executes and (if expectedTrialBalance is given) the books equal it to the penny at the cutover; otherwise 422 migration_gate_failed and nothing is written. With dryRun the report comes back and nothing is written either way. mappings maps trial balance labels to account codes by hand. Money is pounds with two decimals.',
  access: 'transactions:write',
  method: 'POST',
  path: '/migrations/run',
  cli: { custom: true },
  body: {
    provider: z.enum(providers),
    cutoverDate: isoDate(),
    trialBalance: uploadedText(),
    contacts: uploadedText().optional(),
    invoices: uploadedText().optional(),
    bills: uploadedText().optional(),
    mappings: z.record(z.string().min(1).max(500), z.string().min(1).max(20)).optional().describe('trial balance label → account code'),
    expectedTrialBalance: z.string().min(1).optional(),
    conflicts: z.enum(['split', 'link']).optional().describe('settle every contact identity conflict by keeping the pair apart (split) or merging them (link)'),
    dryRun: z.boolean().default(false),
  },
  output: migrationRunSchema,
  async run(ctx, input) {
    const { dryRun, ...files } = input;
    const posting = postingOf(ctx);
    // A dry run is undone in a savepoint rather than by a throw: under an Idempotency-Key the write joins the key's transaction, which commits what a returning operation leaves.
    const report = await orgOf(ctx).write(async (trx) => {
      if (dryRun) return undone(trx, (t) => runMigration(t, posting, files, { dryRun, progress: ctx.progress }));
      const run = await runMigration(trx, posting, files, { dryRun, progress: ctx.progress });
      if (!run.passed) throw new MigrationNotWritten(run);
      return { ...run, committed: true };
    });
    return { data: report };
  },
});

export const migrationOperations = [
  createMigrationOp,
  activeMigrationOp,
  migrationHistoryOp,
  runMigrationOp,
  getMigrationOp,
  abandonMigrationOp,
  attachMigrationOp,
  uploadProviderOp,
  uploadDeferredOp,
  validateMigrationOp,
  executeMigrationOp,
];
