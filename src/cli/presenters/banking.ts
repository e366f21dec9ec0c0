/** The presenters of banking: bank accounts, statement imports, rules and the inbox of uncategorised lines. */
import { listBankAccountsOp } from '../../engine/banking/bank-account-ops.js';
import { listImportsOp } from '../../engine/banking/bank-import-ops.js';
import { inboxOp } from '../../engine/banking/rule-ops.js';
import type { Suggestion } from '../../engine/banking/suggest.js';
import type { Match } from '../../engine/banking/bank-matches.js';
import type { BankAccount } from '../../engine/banking/bank-accounts.js';
import type { importSummarySchema } from '../../engine/banking/bank-imports.js';
import type { z } from 'zod';

type ImportSummary = z.output<typeof importSummarySchema>;
type Range = ImportSummary['dateRange'];
import { listPresenter, type Presenter } from './index.js';

/** What the rules say of a line: the account and confidence, or why they cannot tell. */
export function suggestionText(s: Pick<Suggestion, 'decision' | 'confidence'>): string {
  const d = s.decision;
  if (d.kind === 'Known') return `${d.account.code} ${d.account.name} (${Math.round((s.confidence ?? 0) * 100)}%, ${d.evidence.rule.name})`;
  return unknownText(d);
}

/** Why the rules cannot tell, in words: "no rule fits", "rules disagree: 5100, 7400". */
export function unknownText(d: Extract<Suggestion['decision'], { kind: 'Unknown' }>): string {
  switch (d.reason) {
    case 'NoMatch':
      return 'no rule fits';
    case 'AmbiguousTopScore':
      return `rules disagree: ${[...new Set((d.contenders ?? []).map((c) => c.account.code))].join(', ')}`;
    case 'InvalidRule':
      return `rule "${d.rule?.name ?? '?'}" names an account that cannot be used`;
    case 'MissingField':
      return `the line has no ${(d.fields ?? []).join(', ')}`;
  }
}

/** What a line is (or would be) matched to: "invoice INV-1042 (Acme Ltd)", "bill RENT-03", "entry txn_… of 2024-03-28". */
export function matchText(m: Pick<Match, 'kind' | 'id' | 'number'> & Partial<Pick<Match, 'contactName' | 'date' | 'documents'>>): string {
  if (m.kind === 'transaction') return `entry ${m.id}${m.date === undefined ? '' : ` of ${m.date}`}`;
  return `${m.kind}${(m.documents?.length ?? 0) > 1 ? 's' : ''} ${m.number ?? m.id}${m.contactName ? ` (${m.contactName})` : ''}`;
}

export const bankingPresenters: readonly Presenter[] = [
  listPresenter(listBankAccountsOp, 'Bank accounts', [
    ['id', 'id'],
    ['account', 'accountCode'],
    ['name', 'accountName'],
    ['bank', 'bankName'],
    ['sort code', 'sortCode'],
    ['account number', 'accountNumber'],
    ['primary', 'isPrimary', (v: BankAccount['isPrimary']) => (v ? 'yes' : '')],
  ]),
  listPresenter(listImportsOp, 'Bank statement imports', [
    ['id', 'id'],
    ['file', 'filename'],
    ['status', 'status'],
    ['rows', 'totalRows'],
    ['created', 'createdRows'],
    ['matched', 'matchedRows'],
    ['skipped', 'skippedRows'],
    ['rejected', 'errorRows'],
    ['from', 'dateRange', (r: Range) => r?.from ?? null],
    ['to', 'dateRange', (r: Range) => r?.to ?? null],
  ]),
  listPresenter(inboxOp, 'Uncategorised bank lines (on suspense 9999)', [
    ['transaction', 'transactionId'],
    ['date', 'date'],
    ['bank', 'bankAccount', (a: Suggestion['bankAccount']) => (a === null ? null : `${a.code} ${a.name}`)],
    ['description', 'description'],
    ['amount', 'amount'],
    ['suggestion', 'decision', (_d: Suggestion['decision'], s: Suggestion) => (s.suggestedMatch ? `match ${matchText(s.suggestedMatch)}` : suggestionText(s))],
  ]),
];
