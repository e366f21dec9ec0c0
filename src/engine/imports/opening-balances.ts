/**
 * Opening balances: a trial balance from the software a business leaves,
 * read (balances/read-trial-balance.ts), each row mapped to an account in
 * five tiers (balances/map-accounts.ts), its balance proved
 * (balances/balance-proof.ts), then confirmed as one migration journal at
 * the cutover date. One opening balance is active per set of books; voiding
 * it posts the journal's reversal (both stay in the ledger) so that another
 * can be imported. In clearing mode Trade Debtors and Trade Creditors go to
 * 1198 and 2198, for the invoice and bill imports to clear document by
 * document. The operations are in opening-balance-ops.ts.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp, today } from '../clock.js';
import { day, idOut } from '../output.js';
import { createTransaction, type Posting } from '../ledger/posting.js';
import { addAccount } from '../ledger/accounts.js';
import { readTrialBalance, type TrialBalanceFile } from './balances/read-trial-balance.js';
import { clearingRedirects, mapAccounts, type ChartAccount, type Mapping, type OpeningBalanceMode } from './balances/map-accounts.js';
import { balanceProof } from './balances/balance-proof.js';
import { cutoverError, defaultCutover } from './balances/cutover.js';
import {
  completeImport,
  findImport,
  importRecordSchema,
  importRecordView,
  insertImport,
  optionsOf,
  pounds,
  poundsText,
  refuseUnlessOpen,
  refuseVoidUnlessCompleted,
  setOptions,
} from './import-records.js';
import type { DataImportsTable, OrgDb } from '../../store/tables.js';

export const openingBalanceModes = ['clearing', 'direct'] as const;

/** The choices an opening balance import carries from upload to confirm. */
export interface BalanceOptions {
  readonly mode: OpeningBalanceMode;
  readonly cutoverDate: string;
  /** sourceLabel → account id, from PATCH …/map. */
  readonly manual: Readonly<Record<string, string>>;
  /** Whether cutoverDate was given (at upload or by PATCH …/map) rather than taken from the title or the default; absent on imports before it was kept. */
  readonly cutoverGiven?: boolean;
}

/** The sourceType of the migration journal and of its reversal. */
export const openingBalanceSource = 'opening_balance';

/** The account a rounding difference of up to £0.05 goes to, made when first needed. */
export const roundingAccount = { code: '7999', name: 'Rounding', accountType: 'expense' } as const;

const issueSchema = z.strictObject({ rowIndex: z.number().int(), line: z.number().int(), reason: z.string(), field: z.string() });

export const openingBalancePreviewSchema = z.strictObject({
  importId: idOut('dimp'),
  filename: z.string().nullable(),
  status: importRecordSchema.shape.status,
  provider: z.string().describe('the shape the file was read as: xero, freeagent, quickbooks or generic'),
  asAt: day().nullable().describe('the date the file says it is at, if it says'),
  cutoverDate: day(),
  openingBalanceMode: z.enum(openingBalanceModes),
  canConfirm: z.boolean(),
  blockers: z.array(z.string()).describe('why it cannot be confirmed yet'),
  balanceProof: z.strictObject({
    balanced: z.boolean(),
    totalDebit: poundsText(),
    totalCredit: poundsText(),
    delta: poundsText().describe('debit − credit before any rounding line'),
    roundingInjected: z.boolean(),
    roundingAmount: poundsText(),
  }),
  lines: z.array(
    z.strictObject({
      sourceLabel: z.string(),
      accountId: idOut('acc').nullable(),
      accountCode: z.string().nullable(),
      accountName: z.string().nullable(),
      accountType: z.string().nullable(),
      debit: poundsText(),
      credit: poundsText(),
      isRounding: z.boolean(),
    }),
  ),
  mappings: z.array(
    z.strictObject({
      sourceLabel: z.string(),
      sourceCode: z.string().nullable(),
      targetAccountId: idOut('acc').nullable(),
      targetCode: z.string().nullable(),
      targetName: z.string().nullable(),
      targetType: z.string().nullable(),
      method: z.enum(['exact', 'code', 'dictionary', 'fuzzy', 'clearing', 'manual', 'unmapped']),
      confidence: z.number().int(),
      reason: z.string(),
    }),
  ),
  unmapped: z.array(z.string()),
  errors: z.array(issueSchema),
  ignored: z.array(issueSchema),
  stats: z.strictObject({ totalRows: z.number().int(), validRows: z.number().int(), errorRows: z.number().int(), ignoredRows: z.number().int() }),
  transactionId: idOut('txn').nullable(),
  import: importRecordSchema,
});
export type OpeningBalancePreview = z.output<typeof openingBalancePreviewSchema>;

/** A trial balance read and mapped against the chart as it is now. */
export interface WorkedBalance {
  readonly file: TrialBalanceFile;
  readonly mappings: readonly Mapping[];
  /** The journal's lines in pence (debit − credit), the rounding line last; only rows with an account. */
  readonly entries: readonly { readonly accountId: string; readonly amount: number; readonly label: string }[];
  readonly proof: ReturnType<typeof balanceProof>;
  readonly blockers: readonly string[];
}

async function chartOf(db: Kysely<OrgDb>): Promise<ChartAccount[]> {
  const rows = await db.selectFrom('accounts').select(['id', 'code', 'name', 'account_type', 'is_active']).orderBy('code').execute();
  return rows.map((a) => ({ id: a.id, code: a.code, name: a.name, accountType: a.account_type, isActive: a.is_active === 1 }));
}

/**
 * Why a trial balance whose title states its date ("As at 31 March 2026")
 * cannot open the books at another: its balances are that day's, and
 * posted at a different cutover they would stand for the wrong day.
 */
function statedDateBlocker(asAt: string, cutoverDate: string, id: string): string {
  const fix =
    cutoverError(asAt) === null
      ? `set cutoverDate to ${asAt} (PATCH /opening-balances/${id}/map) or upload a trial balance as at ${cutoverDate}`
      : `a cutover is a month end, so export the trial balance as at ${cutoverDate} (or another month end) and upload it`;
  return `the file states its balances are as at ${asAt} but the cutover date is ${cutoverDate}: ${fix}`;
}

/**
 * Why a trial balance whose title states a date this cannot read ("As at
 * the end of March 2026") waits for a cutover date to be given: the
 * default month end would post its balances at whatever day that is.
 */
function unreadDateBlocker(phrase: string, cutoverDate: string, id: string): string {
  return `the title says ${JSON.stringify(phrase)} but its date cannot be read, so the cutover date ${cutoverDate} is only the default (the end of last month): give the date the balances are at as cutoverDate (PATCH /opening-balances/${id}/map)`;
}

/** The cutover an upload takes when none is given: the month end the file's title states, else the end of last month. */
function cutoverOf(input: BalanceUpload, asAt: string | null, clockToday: string): string {
  if (input.cutoverDate !== undefined) return input.cutoverDate;
  return asAt !== null && cutoverError(asAt) === null ? asAt : defaultCutover(clockToday);
}

/** Read an import's file again and map it with its options: what confirm would post. */
export async function workBalance(db: Kysely<OrgDb>, row: DataImportsTable): Promise<WorkedBalance> {
  const options = optionsOf<BalanceOptions>(row);
  const file = readTrialBalance(row.file_text);
  const chart = await chartOf(db);
  const mappings = mapAccounts(file.rows, chart, { mode: options.mode, manual: new Map(Object.entries(options.manual)) });
  const proof = balanceProof(file.rows);
  const entries: { accountId: string; amount: number; label: string }[] = [];
  file.rows.forEach((r, i) => {
    const target = mappings[i]?.target;
    const amount = r.debit - r.credit;
    if (target && amount !== 0) entries.push({ accountId: target.id, amount, label: r.sourceLabel });
  });
  const blockers: string[] = [];
  const unmapped = mappings.filter((m) => m.target === null);
  if (unmapped.length > 0) blockers.push(`${unmapped.length} row(s) have no account: map them with PATCH /opening-balances/${row.id}/map`);
  if (file.errors.length > 0) blockers.push(`${file.errors.length} row(s) cannot be read (see errors): correct the file and upload it again`);
  if (!proof.balanced) {
    blockers.push(
      `the trial balance does not balance: debits ${pounds(proof.totalDebit)}, credits ${pounds(proof.totalCredit)}, a difference of ${pounds(proof.delta)} (more than the £0.05 rounding allowed; include the Retained Earnings row)`,
    );
  }
  if (file.rows.length === 0) blockers.push('the file has no balances');
  const cutover = cutoverError(options.cutoverDate);
  if (cutover) blockers.push(cutover);
  else if (file.asAt !== null && file.asAt !== options.cutoverDate) blockers.push(statedDateBlocker(file.asAt, options.cutoverDate, row.id));
  else if (file.unreadAsAt !== null && options.cutoverGiven !== true) blockers.push(unreadDateBlocker(file.unreadAsAt, options.cutoverDate, row.id));
  return { file, mappings, entries, proof, blockers };
}

export async function openingBalancePreview(db: Kysely<OrgDb>, row: DataImportsTable): Promise<OpeningBalancePreview> {
  const options = optionsOf<BalanceOptions>(row);
  const worked = await workBalance(db, row);
  const blockers = [...worked.blockers];
  if (row.status === 'pending') {
    const active = await activeOpeningBalance(db);
    if (active) blockers.push(`opening balance ${active.id} is active: void it first`);
  } else blockers.push(`the import is ${row.status}`);
  const { file, mappings, proof } = worked;
  const lines: OpeningBalancePreview['lines'] = file.rows.map((r, i) => {
    const target = mappings[i]?.target ?? null;
    const net = r.debit - r.credit;
    return {
      sourceLabel: r.sourceLabel,
      accountId: target?.id ?? null,
      accountCode: target?.code ?? null,
      accountName: target?.name ?? null,
      accountType: target?.accountType ?? null,
      debit: pounds(Math.max(net, 0)),
      credit: pounds(Math.max(-net, 0)),
      isRounding: false,
    };
  });
  if (proof.roundingInjected) {
    lines.push({
      sourceLabel: 'Rounding',
      accountId: null,
      accountCode: roundingAccount.code,
      accountName: roundingAccount.name,
      accountType: roundingAccount.accountType,
      debit: pounds(Math.max(proof.roundingAmount, 0)),
      credit: pounds(Math.max(-proof.roundingAmount, 0)),
      isRounding: true,
    });
  }
  return {
    importId: row.id,
    filename: row.filename,
    status: row.status,
    provider: file.provider,
    asAt: file.asAt,
    cutoverDate: options.cutoverDate,
    openingBalanceMode: options.mode,
    canConfirm: blockers.length === 0,
    blockers,
    balanceProof: {
      balanced: proof.balanced,
      totalDebit: pounds(proof.totalDebit),
      totalCredit: pounds(proof.totalCredit),
      delta: pounds(proof.delta),
      roundingInjected: proof.roundingInjected,
      roundingAmount: pounds(proof.roundingAmount),
    },
    lines,
    mappings: mappings.map((m) => ({
      sourceLabel: m.sourceLabel,
      sourceCode: m.sourceCode,
      targetAccountId: m.target?.id ?? null,
      targetCode: m.target?.code ?? null,
      targetName: m.target?.name ?? null,
      targetType: m.target?.accountType ?? null,
      method: m.method,
      confidence: m.confidence,
      reason: m.reason,
    })),
    unmapped: mappings.filter((m) => m.target === null).map((m) => m.sourceLabel),
    errors: [...file.errors],
    ignored: [...file.ignored],
    stats: file.stats,
    transactionId: row.transaction_id,
    import: importRecordView(row),
  };
}

/** The completed opening balance, if any. */
export async function activeOpeningBalance(db: Kysely<OrgDb>): Promise<DataImportsTable | undefined> {
  return db.selectFrom('data_imports').selectAll().where('kind', '=', 'balances').where('status', '=', 'completed').executeTakeFirst();
}

function refuseSecond(active: DataImportsTable | undefined): void {
  if (active) {
    throw new AppError(
      'SINGLETON_VIOLATION',
      `opening balance ${active.id} is already active (journal ${active.transaction_id}): void it (POST /opening-balances/${active.id}/void) before importing another`,
    );
  }
}

export interface BalanceUpload {
  readonly file: string;
  readonly filename?: string | undefined;
  readonly clearingMode?: OpeningBalanceMode | undefined;
  readonly cutoverDate?: string | undefined;
  readonly mappings?: readonly { readonly sourceLabel: string; readonly targetAccountId: string | null }[] | undefined;
}

/** Read a trial balance into a pending import; 409 SINGLETON_VIOLATION while another is active. */
export async function uploadBalances(trx: Kysely<OrgDb>, posting: Posting, input: BalanceUpload): Promise<DataImportsTable> {
  refuseSecond(await activeOpeningBalance(trx));
  const file = readTrialBalance(input.file);
  const cutoverDate = cutoverOf(input, file.asAt, today(posting.clock));
  const problem = cutoverError(cutoverDate);
  if (problem) throw new AppError('validation_error', `cutoverDate: ${problem}`, 'cutoverDate');
  const options: BalanceOptions = { mode: input.clearingMode ?? 'direct', cutoverDate, manual: {}, cutoverGiven: input.cutoverDate !== undefined };
  const row = await insertImport(trx, posting, {
    kind: 'balances',
    filename: input.filename,
    status: 'pending',
    fileText: input.file,
    options,
    totalRows: file.stats.totalRows,
    errorCount: file.stats.errorRows,
  });
  if (input.mappings && input.mappings.length > 0) return mapBalances(trx, row.id, { mappings: input.mappings });
  return row;
}

export interface MapChange {
  readonly mappings?: readonly { readonly sourceLabel: string; readonly targetAccountId: string | null }[] | undefined;
  readonly cutoverDate?: string | undefined;
}

/** Fix mappings (null goes back to the automatic tiers) or the cutover date of a pending import. */
export async function mapBalances(trx: Kysely<OrgDb>, id: string, change: MapChange): Promise<DataImportsTable> {
  const row = await findImport(trx, 'balances', id);
  refuseUnlessOpen(row, 'mapped');
  const options = optionsOf<BalanceOptions>(row);
  const labels = new Set(readTrialBalance(row.file_text).rows.map((r) => r.sourceLabel));
  const manual: Record<string, string> = { ...options.manual };
  for (const [i, m] of (change.mappings ?? []).entries()) {
    if (!labels.has(m.sourceLabel)) {
      throw new AppError(
        'validation_error',
        `mappings[${i}].sourceLabel: no row of the trial balance is labelled ${JSON.stringify(m.sourceLabel)}`,
        `mappings[${i}].sourceLabel`,
      );
    }
    if (m.targetAccountId === null) {
      delete manual[m.sourceLabel];
      continue;
    }
    const account = await trx.selectFrom('accounts').select(['id', 'code', 'name', 'is_active']).where('id', '=', m.targetAccountId).executeTakeFirst();
    if (!account)
      throw new AppError(
        'validation_error',
        `mappings[${i}].targetAccountId: no account ${m.targetAccountId} in this organisation`,
        `mappings[${i}].targetAccountId`,
      );
    if (account.is_active !== 1) {
      throw new AppError(
        'validation_error',
        `mappings[${i}].targetAccountId: account ${account.code} ${account.name} is inactive`,
        `mappings[${i}].targetAccountId`,
      );
    }
    if (options.mode === 'direct' && Object.values(clearingRedirects).includes(account.code)) {
      throw new AppError(
        'validation_error',
        `mappings[${i}].targetAccountId: the row ${JSON.stringify(m.sourceLabel)} cannot go to ${account.code} ${account.name} in direct mode: only invoice and bill imports clear it, and they need clearing mode (upload the trial balance again with clearingMode clearing)`,
        `mappings[${i}].targetAccountId`,
      );
    }
    manual[m.sourceLabel] = account.id;
  }
  let cutoverDate = options.cutoverDate;
  if (change.cutoverDate !== undefined) {
    const problem = cutoverError(change.cutoverDate);
    if (problem) throw new AppError('validation_error', `cutoverDate: ${problem}`, 'cutoverDate');
    cutoverDate = change.cutoverDate;
  }
  const next: BalanceOptions = { ...options, manual, cutoverDate, cutoverGiven: options.cutoverGiven === true || change.cutoverDate !== undefined };
  await setOptions(trx, id, next);
  return { ...row, options_json: JSON.stringify(next) };
}

/** The rounding account, made the first time a rounding line needs it. */
async function roundingAccountId(trx: Kysely<OrgDb>, posting: Posting): Promise<string> {
  const existing = await trx.selectFrom('accounts').select('id').where('code', '=', roundingAccount.code).executeTakeFirst();
  if (existing) return existing.id;
  return (await addAccount(trx, posting.clock, { ...roundingAccount, description: 'Differences of up to £0.05 in an imported trial balance' })).id;
}

export interface ConfirmedBalance {
  readonly importId: string;
  readonly transactionId: string;
  readonly cutoverDate: string;
  readonly openingBalanceMode: OpeningBalanceMode;
  readonly lines: number;
  readonly totalDebit: string;
  readonly totalCredit: string;
}

/** Post the migration journal at the cutover date: 422 while anything blocks it, 409 when another is active. */
export async function confirmBalances(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<ConfirmedBalance> {
  const row = await findImport(trx, 'balances', id);
  refuseUnlessOpen(row, 'confirmed');
  refuseSecond(await activeOpeningBalance(trx));
  const options = optionsOf<BalanceOptions>(row);
  const worked = await workBalance(trx, row);
  if (worked.blockers.length > 0) throw new AppError('unprocessable_entity', `opening balance ${id} cannot be confirmed: ${worked.blockers.join('; ')}`);
  const lines = worked.entries.map((e) => ({ accountId: e.accountId, amount: e.amount, description: e.label.slice(0, 500) }));
  if (worked.proof.roundingInjected) {
    lines.push({
      accountId: await roundingAccountId(trx, posting),
      amount: worked.proof.roundingAmount,
      description: 'Rounding of the imported trial balance',
    });
  }
  const txn = await createTransaction(trx, posting, {
    date: options.cutoverDate,
    description: `Opening balances at ${options.cutoverDate}${row.filename ? ` from ${row.filename}` : ''}`.slice(0, 500),
    reference: row.id,
    status: 'posted',
    sourceType: openingBalanceSource,
    sourceId: row.id,
    lines,
  });
  const debit = lines.reduce((s, l) => s + Math.max(l.amount, 0), 0);
  const result: ConfirmedBalance = {
    importId: row.id,
    transactionId: txn.id,
    cutoverDate: options.cutoverDate,
    openingBalanceMode: options.mode,
    lines: lines.length,
    totalDebit: pounds(debit),
    totalCredit: pounds(debit),
  };
  await completeImport(trx, posting, id, {
    // The file's rows, not the journal's lines: a rounding line is none of them (rows stay conserved).
    created: worked.entries.length,
    merged: 0,
    skipped: worked.file.stats.ignoredRows,
    errors: 0,
    transactionId: txn.id,
    result,
    rows: [],
  });
  return result;
}

export interface VoidedBalance {
  readonly voided: true;
  readonly importId: string;
  readonly transactionId: string;
  readonly reversalTransactionId: string;
  readonly message: string;
}

/** Reverse a completed opening balance: the journal stays, its reversal is posted beside it; 409 when void already, 404 while pending. */
export async function voidBalances(trx: Kysely<OrgDb>, posting: Posting, id: string): Promise<VoidedBalance> {
  const row = await findImport(trx, 'balances', id);
  refuseVoidUnlessCompleted(row);
  if (!row.transaction_id) throw new AppError('not_found', `opening balance ${id} has no journal to void`);
  const dependent = await trx
    .selectFrom('data_imports')
    .select(['id', 'kind'])
    .where('kind', 'in', ['invoices', 'bills'])
    .where('status', '=', 'completed')
    .executeTakeFirst();
  if (dependent) {
    throw new AppError(
      'conflict',
      `the ${dependent.kind} import ${dependent.id} cleared against this opening balance: void it first (POST /${dependent.kind === 'invoices' ? 'invoice' : 'bill'}-imports/${dependent.id}/void)`,
    );
  }
  const lines = await trx
    .selectFrom('lines')
    .select(['account_id', 'contact_id', 'amount', 'description'])
    .where('transaction_id', '=', row.transaction_id)
    .orderBy('line_no')
    .execute();
  const options = optionsOf<BalanceOptions>(row);
  const reversal = await createTransaction(trx, posting, {
    date: options.cutoverDate,
    description: `Reversal of the opening balances at ${options.cutoverDate} (${row.id} voided)`,
    reference: row.id,
    status: 'posted',
    sourceType: openingBalanceSource,
    sourceId: row.id,
    lines: lines.map((l) => ({ accountId: l.account_id, contactId: l.contact_id, amount: -l.amount, description: l.description })),
  });
  await trx
    .updateTable('data_imports')
    .set({ status: 'voided', voided_at: timestamp(posting.clock), reversal_transaction_id: reversal.id })
    .where('id', '=', id)
    .execute();
  return {
    voided: true,
    importId: id,
    transactionId: row.transaction_id,
    reversalTransactionId: reversal.id,
    message: `opening balance ${id} is void: journal ${row.transaction_id} is reversed by ${reversal.id}; a new trial balance may now be imported`,
  };
}
